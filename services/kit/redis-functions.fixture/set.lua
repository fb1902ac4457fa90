-- KEYS: a string key. ARGV: its new value.
return redis.call('SET', KEYS[1], ARGV[1])
