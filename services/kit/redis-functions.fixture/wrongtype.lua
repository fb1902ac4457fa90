-- KEYS: a key that holds no sorted set. Fails with WRONGTYPE.
return redis.call('ZCARD', KEYS[1])
