-- Registers an endpoint, within the limit per tenant and environment.
-- KEYS: endpoint hash, endpoints sorted set
-- ARGV: id, created ms, most endpoints, fields (JSON object of strings)
local cap = tonumber(ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= cap then
  return invalid('webhooks', 'max_count', 'At most ' .. cap .. ' webhook endpoints per tenant and environment',
    { max = cap })
end
for field, value in pairs(cjson.decode(ARGV[4])) do redis.call('HSET', KEYS[1], field, value) end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
