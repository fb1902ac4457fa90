-- Unlink one memory from an entity; idempotent. 
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, memory id.
-- Returns { 1, read_memory(memory) } when removed, { 0 } when it was not linked.
use_keys(KEYS)
local id, mid = ARGV[1], ARGV[2]
if redis.call('EXISTS', K.entity(id)) == 0 then return not_found('Entity') end
if not visible(mid) then
  return refuse('NOT_FOUND', 'Memory not found', { missing = { mid } })
end
if not unlink(mid, K.ents(mid), id, K.entMembers(id)) then return cjson.encode({ 0 }) end
bump_version(K.memory(mid))
return cjson.encode({ 1, read_memory(mid) })
