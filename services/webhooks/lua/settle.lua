-- Records the outcome of one claimed attempt: succeeded, a retry due at a time, or failed. Only the claim
-- that took the attempt settles it: a replica whose lease ran out (another took the delivery over) or
-- whose delivery was removed meanwhile changes nothing. A finished delivery expires after the retention
-- and hands its lane to the memory's next event.
-- KEYS: due sorted set, active hash
-- ARGV: delivery id, claim token, now ms, now ISO, the attempt (JSON object),
--   outcome ('succeeded' | 'retry' | 'failed'), retry due ms ('' unless retry), retention ms, attempts kept
-- Returns 0 when the claim no longer holds; else 1, or 2 when the lane's next delivery became due now.
use_partition_of(KEYS[1])
local id, outcome = ARGV[1], ARGV[6]
local record_key = PK.record(id)
if redis.call('HGET', record_key, 'claim') ~= ARGV[2] then return 0 end
local attempts = cjson.decode(redis.call('HGET', record_key, 'attempts'))
attempts[#attempts + 1] = cjson.decode(ARGV[5])
while #attempts > tonumber(ARGV[9]) do table.remove(attempts, 1) end
redis.call('HSET', record_key, 'attempts', cjson.encode(attempts), 'claim', '', 'updated_at', ARGV[4])
if outcome == 'retry' then
  redis.call('HSET', record_key, 'status', 'pending', 'next_at', ARGV[7])
  redis.call('ZADD', KEYS[1], ARGV[7], id)
  return 1
end
local lane = redis.call('HGET', record_key, 'lane')
redis.call('HSET', record_key, 'status', outcome, 'next_at', '', 'manual', '', 'lane', '')
redis.call('ZREM', KEYS[1], id)
redis.call('PEXPIRE', record_key, ARGV[8])
if finish_in_lane(id, lane, KEYS[1], KEYS[2], ARGV[3], ARGV[4]) then return 2 end
return 1
