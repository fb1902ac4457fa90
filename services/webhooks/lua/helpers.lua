-- Shared by the webhooks library's functions (store/), after the partition key names (keyspace.ts).

local function hash_of(flat)
  local h = {}
  for i = 1, #flat, 2 do h[flat[i]] = flat[i + 1] end
  return h
end

-- The record of a delivery, as one JSON object of its fields (the store turns it into the API's shape).
local function delivery_json(record_key)
  return cjson.encode(hash_of(redis.call('HGETALL', record_key)))
end

-- The delivery `id` is done with (succeeded, failed or removed). If it was its lane's active one, the
-- lane's next delivery (lowest memory version) becomes active and due now. Returns true when one did.
local function finish_in_lane(id, lane, due_key, active_key, now, now_iso)
  if lane == nil or lane == '' or redis.call('HGET', active_key, lane) ~= id then return false end
  local lane_key = PK.lane(lane)
  while true do
    local next_one = redis.call('ZPOPMIN', lane_key)
    if #next_one == 0 then
      redis.call('HDEL', active_key, lane)
      return false
    end
    local record_key = PK.record(next_one[1])
    if redis.call('EXISTS', record_key) == 1 then
      redis.call('HSET', active_key, lane, next_one[1])
      redis.call('HSET', record_key, 'lane', lane, 'status', 'pending', 'next_at', now, 'updated_at', now_iso)
      redis.call('ZADD', due_key, now, next_one[1])
      return true
    end
  end
end
