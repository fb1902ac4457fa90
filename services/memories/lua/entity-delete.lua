-- Delete an entity and unlink it from every memory (their versions bump).
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id. Returns {read_memory(unlinked) ...}.
use_keys(KEYS)
local id = ARGV[1]
local key = K.entity(id)
if redis.call('EXISTS', key) == 0 then return not_found('Entity') end
local changed = {}
for _, mid in ipairs(drop_members(id, K.entMembers(id), K.ents, K.memory)) do
  changed[#changed + 1] = read_memory(mid)
end
redis.call('HDEL', K.entNames, redis.call('HGET', key, 'nk'))
redis.call('ZREM', K.entCreated, id)
redis.call('DEL', key)
return cjson.encode(changed)
