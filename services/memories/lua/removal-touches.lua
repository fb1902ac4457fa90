-- The memories a delete of `id` would change without deleting them (life.lua remove_tree): its children,
-- which become roots (not with cascade), and the memory each deleted one replaced, which is the latest
-- again. A restricted caller's delete is checked against them before it runs.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, cascade ('1' or '0').
-- Returns their ids (expired ones included: the restriction's reads skip them), or false when `id` is unknown.
use_keys(KEYS)
local id, cascade = ARGV[1], ARGV[2] == '1'
if not visible(id) then return cjson.encode(false) end
local gone = cascade and subtree(id) or { id }
local going = set_of(gone)
local out = {}
if not cascade then push_all(out, redis.call('ZRANGE', K.kids(id), 0, -1)) end
for _, v in ipairs(gone) do
  local old = redis.call('HGET', K.memory(v), 'supersedes')
  if old and not going[old] and redis.call('HGET', K.memory(old), 'superseded_by') == v then out[#out + 1] = old end
end
return cjson.encode(out)
