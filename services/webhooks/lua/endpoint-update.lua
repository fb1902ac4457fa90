-- Changes fields of an endpoint, if it exists and (when `expected` names any) its fields still hold the
-- values the caller read: a secret rotated meanwhile is never overwritten.
-- KEYS: endpoint hash
-- ARGV: fields to set (JSON object of strings), fields to remove (JSON array), expected (JSON object)
-- Returns the endpoint's fields after the change, or 0 when an expected value changed meanwhile.
if redis.call('EXISTS', KEYS[1]) == 0 then return not_found('Webhook') end
for field, value in pairs(cjson.decode(ARGV[3])) do
  if redis.call('HGET', KEYS[1], field) ~= value then return 0 end
end
for field, value in pairs(cjson.decode(ARGV[1])) do redis.call('HSET', KEYS[1], field, value) end
for _, field in ipairs(cjson.decode(ARGV[2])) do redis.call('HDEL', KEYS[1], field) end
return redis.call('HGETALL', KEYS[1])
