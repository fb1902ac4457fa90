-- A page of one endpoint's deliveries, newest first, all or of one status.
-- KEYS: the endpoint's log
-- ARGV: offset, limit, status ('' = all)
-- Meets record keys as it runs: built from the partition's hash tag (KEYS[1]).
-- Returns {total, delivery (JSON object of its fields)…}.
use_partition_of(KEYS[1])
local offset, limit, status = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local out = { 0 }
if status == '' then
  out[1] = redis.call('ZCARD', KEYS[1])
  for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1)) do
    local record_key = PK.record(id)
    if redis.call('EXISTS', record_key) == 1 then out[#out + 1] = delivery_json(record_key) end
  end
  return out
end
local seen = 0
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  local record_key = PK.record(id)
  if redis.call('HGET', record_key, 'status') == status then
    seen = seen + 1
    if seen > offset and seen <= offset + limit then out[#out + 1] = delivery_json(record_key) end
  end
end
out[1] = seen
return out
