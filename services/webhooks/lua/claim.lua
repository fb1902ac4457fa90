-- Claims due deliveries of one partition, one attempt each: each one's due time moves to the end of its
-- lease, so no other replica claims it meanwhile, and the claim token is written on it (only that claim
-- may settle the attempt). A replica that dies mid-attempt loses the delivery to whichever replica claims
-- it when the lease ends: at least once.
-- KEYS: due sorted set
-- ARGV: now ms, lease ms, most to claim, claim token
-- Meets record keys as it runs: built from the partition's hash tag (KEYS[1]).
-- Returns {claimed (JSON array), when the earliest delivery left is due (ms, '' if none)}.
use_partition_of(KEYS[1])
local now, lease, most, token = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local claimed = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, most)) do
  local record_key = PK.record(id)
  if redis.call('EXISTS', record_key) == 0 then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('ZADD', KEYS[1], now + lease, id)
    local attempt = redis.call('HINCRBY', record_key, 'attempt_count', 1)
    redis.call('HSET', record_key, 'claim', token, 'next_at', '')
    local f = redis.call('HMGET', record_key, 'webhook_id', 'tenant', 'env', 'event_id', 'body', 'manual', 'trace')
    claimed[#claimed + 1] = cjson.encode({ id = id, webhook_id = f[1], tenant = f[2], env = f[3], event_id = f[4],
      body = f[5], manual = f[6] == '1', attempt = attempt, trace = f[7] or '' })
  end
end
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { '[' .. table.concat(claimed, ',') .. ']', head[2] or '' }
