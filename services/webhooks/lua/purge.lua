-- Removes deliveries of a deleted endpoint, oldest first, at most ARGV[2] per call: records, schedule,
-- lanes and log.
-- KEYS: due sorted set, active hash
-- ARGV: endpoint id, most to remove
-- Meets record, lane and log keys as it runs: built from the partition's hash tag (KEYS[1]).
-- Returns how many deliveries of the endpoint are left.
use_partition_of(KEYS[1])
local log = PK.log(ARGV[1])
for _, id in ipairs(redis.call('ZRANGE', log, 0, tonumber(ARGV[2]) - 1)) do
  local record_key = PK.record(id)
  local memory = redis.call('HGET', record_key, 'memory_id')
  if memory and memory ~= '' then
    local lane = ARGV[1] .. ':' .. memory
    redis.call('DEL', PK.lane(lane))
    redis.call('HDEL', KEYS[2], lane)
  end
  redis.call('ZREM', KEYS[1], id)
  redis.call('DEL', record_key)
  redis.call('ZREM', log, id)
end
return redis.call('ZCARD', log)
