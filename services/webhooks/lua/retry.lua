-- Makes one delivery of an endpoint due now, whatever its status. A finished one gets one more attempt
-- (no further retries if it fails) and is kept until it finishes again; a queued one leaves its lane and
-- goes ahead of the memory's earlier events; one being attempted right now is left as it is.
-- KEYS: due sorted set
-- ARGV: delivery id, endpoint id, now ms, now ISO
-- Meets lane and record keys as it runs: built from the partition's hash tag (KEYS[1]).
-- Returns the delivery (JSON object of its fields).
use_partition_of(KEYS[1])
local id, now, now_iso = ARGV[1], ARGV[3], ARGV[4]
local record_key = PK.record(id)
local f = redis.call('HMGET', record_key, 'webhook_id', 'status', 'claim', 'memory_id')
if f[1] ~= ARGV[2] then return not_found('Delivery') end
local status = f[2]
if f[3] == '' then
  if status == 'queued' then
    redis.call('ZREM', PK.lane(ARGV[2] .. ':' .. f[4]), id)
  elseif status == 'succeeded' or status == 'failed' then
    redis.call('HSET', record_key, 'manual', '1')
    redis.call('PERSIST', record_key)
  end
  redis.call('HSET', record_key, 'status', 'pending', 'next_at', now, 'updated_at', now_iso)
  redis.call('ZADD', KEYS[1], now, id)
end
return delivery_json(record_key)
