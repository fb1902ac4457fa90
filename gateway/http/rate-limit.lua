-- Sliding-window rate limit over two windows (minute, day) for one API key, atomically.
-- Each window keeps the current and previous fixed buckets; the estimate is
--   previous * (1 - elapsed share of the current bucket) + current.
-- Both windows are checked before anything is counted, so a refused request consumes nothing.
-- KEYS[1]  rl:{<key id>}  (one hash, one cluster slot)
-- ARGV[1]  per-minute limit (0 = unlimited)
-- ARGV[2]  per-day limit    (0 = unlimited)
-- Returns { allowed (0|1), remaining, reset_ms, retry_after_ms, now_ms }
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = KEYS[1]
local windows = {
  { prefix = 'm', size = 60000, limit = tonumber(ARGV[1]) },
  { prefix = 'd', size = 86400000, limit = tonumber(ARGV[2]) },
}
local allowed = 1
local remaining = -1
local reset = 0
local retry = 0
for _, w in ipairs(windows) do
  if w.limit > 0 then
    local idx = math.floor(now / w.size)
    local v = redis.call('HMGET', key, w.prefix .. 'i', w.prefix .. 'c', w.prefix .. 'p')
    local stored, cur, prev = tonumber(v[1]), tonumber(v[2]) or 0, tonumber(v[3]) or 0
    if stored == idx - 1 then prev, cur = cur, 0
    elseif stored ~= idx then prev, cur = 0, 0 end
    local elapsed = (now - idx * w.size) / w.size
    local used = prev * (1 - elapsed) + cur
    w.idx, w.cur, w.prev = idx, cur, prev
    local left = math.floor(w.limit - used)
    if used + 1 > w.limit then
      allowed = 0
      -- When will one more request fit? Solve prev*(1-e) + cur <= limit - 1 for this or the next bucket.
      local at
      if cur <= w.limit - 1 and prev > 0 then
        at = idx * w.size + math.ceil((1 - (w.limit - 1 - cur) / prev) * w.size)
      else
        at = (idx + 1) * w.size + math.ceil(math.max(0, 1 - (w.limit - 1) / math.max(cur, 1)) * w.size)
      end
      if at - now > retry then retry = at - now; reset = at end
      left = 0
    end
    if remaining < 0 or left < remaining then
      remaining = left
      if allowed == 1 then reset = (idx + 1) * w.size end
    end
  end
end
if allowed == 1 then
  local ttl = 0
  for _, w in ipairs(windows) do
    if w.limit > 0 then
      redis.call('HSET', key, w.prefix .. 'i', w.idx, w.prefix .. 'c', w.cur + 1, w.prefix .. 'p', w.prev)
      ttl = math.max(ttl, 2 * w.size)
    end
  end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
  if remaining > 0 then remaining = remaining - 1 end
end
if remaining < 0 then remaining = 0 end
return { allowed, remaining, reset, retry, now }
