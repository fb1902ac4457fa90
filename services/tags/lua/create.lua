-- Create a tag and its indexes atomically; the name index makes uniqueness race-free.
-- KEYS: tag hash, names hash (lname -> id), by-created zset
-- ARGV: id, name, lname, color (opt), description (opt), now ms, max tags
-- opt values: "0" = null, "1<value>" = value
local id, name, lname, now, cap = ARGV[1], ARGV[2], ARGV[3], ARGV[6], tonumber(ARGV[7])
if redis.call('HEXISTS', KEYS[2], lname) == 1 then return {'DUP'} end
if redis.call('HLEN', KEYS[2]) >= cap then return {'CAP'} end
redis.call('HSET', KEYS[1], 'name', name, 'lname', lname, 'created_at', now, 'updated_at', now)
if string.sub(ARGV[4], 1, 1) == '1' then redis.call('HSET', KEYS[1], 'color', string.sub(ARGV[4], 2)) end
if string.sub(ARGV[5], 1, 1) == '1' then redis.call('HSET', KEYS[1], 'description', string.sub(ARGV[5], 2)) end
redis.call('HSET', KEYS[2], lname, id)
redis.call('ZADD', KEYS[3], now, id)
return {'OK'}
