-- Keeps an endpoint's failure record: a success clears it; a failure starts it, and disables the endpoint
-- once every attempt has failed for the threshold.
-- KEYS: endpoint hash
-- ARGV: '1' for a success or '' for a failure, now ms, now ISO, disable threshold ms
-- Returns 1 when this failure disabled the endpoint, else 0.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '1' then
  redis.call('HDEL', KEYS[1], 'failing_since')
  return 0
end
local now = tonumber(ARGV[2])
local since = tonumber(redis.call('HGET', KEYS[1], 'failing_since') or '')
if since == nil then
  redis.call('HSET', KEYS[1], 'failing_since', ARGV[2])
  since = now
end
if redis.call('HGET', KEYS[1], 'enabled') == '1' and now - since >= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'enabled', '0', 'disabled_reason', 'failing', 'disabled_at', ARGV[3],
    'updated_at', ARGV[3])
  return 1
end
return 0
