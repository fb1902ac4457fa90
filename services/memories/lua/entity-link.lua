-- Link memories to an entity, all or nothing; already linked ones are skipped.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, then memory ids (distinct).
-- Returns { added, skipped, memory_count, {read_memory(added) ...} }.
use_keys(KEYS)
local id = ARGV[1]
if redis.call('EXISTS', K.entity(id)) == 0 then return not_found('Entity') end
local missing = {}
for i = 2, #ARGV do
  if not visible(ARGV[i]) then missing[#missing + 1] = ARGV[i] end
end
if #missing > 0 then return refuse('NOT_FOUND', 'Memory not found', { missing = missing }) end
local added, skipped, linked = 0, 0, {}
for i = 2, #ARGV do
  local mid = ARGV[i]
  if link(K.memory(mid), mid, K.ents(mid), id, K.entMembers(id)) then
    bump_version(K.memory(mid))
    added = added + 1
    linked[#linked + 1] = read_memory(mid)
  else
    skipped = skipped + 1
  end
end
return cjson.encode({ added, skipped, redis.call('ZCARD', K.entMembers(id)), linked })
