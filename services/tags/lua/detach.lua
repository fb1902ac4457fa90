-- Detach one tag from a memory: both link ends and the memory's version change together.
-- KEYS: memory hash, memory-tags set, tag hash, tag member zset
-- ARGV: memory id, tag id
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NO_MEMORY'} end
if redis.call('EXISTS', KEYS[3]) == 0 then return {'NO_TAG'} end
if redis.call('SREM', KEYS[2], ARGV[2]) == 0 then return {'OK', 0, 0} end
redis.call('ZREM', KEYS[4], ARGV[1])
return {'OK', 1, redis.call('HINCRBY', KEYS[1], 'v', 1)}
