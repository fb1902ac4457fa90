-- Release the rebuild lock, only by its owner.
-- KEYS: 1 lock. ARGV: 1 owner. Returns 1 when released, 0 when another owner holds it.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
