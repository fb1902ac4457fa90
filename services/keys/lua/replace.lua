-- Replaces a key's record only if it is still the one the caller read (compare and set), so a change
-- made meanwhile (a revocation while a patch was being decided) is never overwritten.
-- KEYS: the record
-- ARGV: the record as read (JSON), its replacement (JSON)
-- Returns 1 when replaced, 0 when the record is no longer the one read.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
