-- Registers that a tenant+environment has a memory expiring at `at` (ms): its next look comes no later.
-- KEYS: `sweep:{expiry}:due` the registry's due zset, `sweep:{expiry}:gen` its gen hash
--   (memory-data/keyspace.ts EXPIRY_REGISTRY).
-- ARGV: the space ('{tenant:env}'), at (ms)
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return cjson.encode(1)
