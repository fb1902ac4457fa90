-- Deletes an endpoint (its deliveries are removed from their partition afterwards).
-- KEYS: endpoint hash, endpoints sorted set
-- ARGV: id
if redis.call('EXISTS', KEYS[1]) == 0 then return not_found('Webhook') end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
