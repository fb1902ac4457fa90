-- Adds deliveries to one partition. Idempotent per delivery id: an event handed over again (JetStream
-- redelivers what was not acknowledged) creates nothing new. A delivery of a memory's event waits in its
-- lane while an earlier one of that memory to that endpoint is being attempted; any other is due now.
-- KEYS: due sorted set, active hash
-- ARGV: now ms, now ISO, deliveries kept per endpoint (log), deliveries (JSON array of
--   {id, webhook_id, tenant, env, event_id, event_type, memory_id|null, version|null, body, manual, trace?})
--   (trace: the traceparent of the span that enqueued it, absent while tracing is off)
-- Meets record, lane and log keys as it runs: built from the partition's hash tag (KEYS[1]).
-- Returns how many deliveries were created.
use_partition_of(KEYS[1])
local now, now_iso, keep = ARGV[1], ARGV[2], tonumber(ARGV[3])
local created = 0
for _, d in ipairs(cjson.decode(ARGV[4])) do
  local record_key = PK.record(d.id)
  if redis.call('EXISTS', record_key) == 0 then
    created = created + 1
    local memory = d.memory_id ~= cjson.null and d.memory_id or ''
    local version = d.version ~= cjson.null and tostring(d.version) or ''
    redis.call('HSET', record_key, 'id', d.id, 'webhook_id', d.webhook_id, 'tenant', d.tenant, 'env', d.env,
      'event_id', d.event_id, 'event_type', d.event_type, 'memory_id', memory, 'version', version, 'body', d.body,
      'attempt_count', 0, 'attempts', '[]', 'created_at', now_iso, 'updated_at', now_iso,
      'manual', d.manual and '1' or '', 'claim', '', 'lane', '', 'trace', d.trace or '')
    local lane = memory ~= '' and (d.webhook_id .. ':' .. memory) or ''
    if lane ~= '' and redis.call('HEXISTS', KEYS[2], lane) == 1 then
      redis.call('ZADD', PK.lane(lane), version ~= '' and version or 0, d.id)
      redis.call('HSET', record_key, 'status', 'queued', 'next_at', '')
    else
      if lane ~= '' then
        redis.call('HSET', KEYS[2], lane, d.id)
        redis.call('HSET', record_key, 'lane', lane)
      end
      redis.call('HSET', record_key, 'status', 'pending', 'next_at', now)
      redis.call('ZADD', KEYS[1], now, d.id)
    end
    -- The log keeps the newest deliveries; older finished ones go (pending ones stay until they finish).
    local log = PK.log(d.webhook_id)
    redis.call('ZADD', log, now, d.id)
    local excess = redis.call('ZCARD', log) - keep
    if excess > 0 then
      for _, old in ipairs(redis.call('ZRANGE', log, 0, excess - 1)) do
        local status = redis.call('HGET', PK.record(old), 'status')
        if status == false or status == 'succeeded' or status == 'failed' then
          redis.call('ZREM', log, old)
          redis.call('DEL', PK.record(old))
        end
      end
    end
  end
end
return created
