-- Delete an entity and unlink it from every memory (their versions bump).
-- A: id. Returns {read_memory(unlinked) ...}.
local id = A[1]
local key = K.entity(id)
if redis.call('EXISTS', key) == 0 then return conflict('not_found') end
local changed = {}
for _, mid in ipairs(redis.call('ZRANGE', K.entMembers(id), 0, -1)) do
  redis.call('SREM', K.ents(mid), id)
  redis.call('HINCRBY', K.memory(mid), 'v', 1)
  changed[#changed + 1] = read_memory(mid)
end
redis.call('HDEL', K.entNames, redis.call('HGET', key, 'nk'))
redis.call('ZREM', K.entCreated, id)
redis.call('DEL', key, K.entMembers(id))
return changed
