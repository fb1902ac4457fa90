-- Extend the rebuild lock while its owner still holds it.
-- KEYS: 1 lock. ARGV: 1 owner, 2 TTL ms. Returns 1 when extended, 0 when another owner holds it.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
