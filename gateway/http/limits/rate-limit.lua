-- Sliding-window rate limit over two windows (minute, day) for one API key, atomically, for `n`
-- requests at once: they are decided one after another, in order, exactly as n separate calls at
-- the same instant would be (the gateway coalesces the requests of a key that arrive while a call
-- for it is in flight; see rate-limit.ts). A Redis function (services/kit/redis-functions.ts).
-- Each window keeps the current and previous fixed buckets; the estimate is
--   previous * (1 - elapsed share of the current bucket) + current.
-- Both windows are checked before anything is counted, so a refused request consumes nothing.
-- KEYS[1]  rl:{<key id>}  (one hash, one cluster slot)
-- ARGV[1]  per-minute limit (0 = unlimited)
-- ARGV[2]  per-day limit    (0 = unlimited)
-- ARGV[3]  n, the number of requests (>= 1)
-- Returns { now_ms, then per request: allowed (0|1), remaining, reset_ms, retry_after_ms }
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = KEYS[1]
local n = tonumber(ARGV[3])
local windows = {}
for _, w in ipairs({
  { prefix = 'm', size = 60000, limit = tonumber(ARGV[1]) },
  { prefix = 'd', size = 86400000, limit = tonumber(ARGV[2]) },
}) do
  if w.limit > 0 then
    w.idx = math.floor(now / w.size)
    local v = redis.call('HMGET', key, w.prefix .. 'i', w.prefix .. 'c', w.prefix .. 'p')
    local stored, cur, prev = tonumber(v[1]), tonumber(v[2]) or 0, tonumber(v[3]) or 0
    if stored == w.idx - 1 then prev, cur = cur, 0
    elseif stored ~= w.idx then prev, cur = 0, 0 end
    w.cur, w.prev = cur, prev
    w.elapsed = (now - w.idx * w.size) / w.size
    windows[#windows + 1] = w
  end
end

local out = { now }
local counted = 0
for _ = 1, n do
  local allowed, remaining, reset, retry = 1, -1, 0, 0
  for _, w in ipairs(windows) do
    local used = w.prev * (1 - w.elapsed) + w.cur
    local left = math.floor(w.limit - used)
    if used + 1 > w.limit then
      allowed = 0
      -- When will one more request fit? Solve prev*(1-e) + cur <= limit - 1 for this or the next bucket.
      local at
      if w.cur <= w.limit - 1 and w.prev > 0 then
        at = w.idx * w.size + math.ceil((1 - (w.limit - 1 - w.cur) / w.prev) * w.size)
      else
        at = (w.idx + 1) * w.size + math.ceil(math.max(0, 1 - (w.limit - 1) / math.max(w.cur, 1)) * w.size)
      end
      if at - now > retry then retry = at - now; reset = at end
      left = 0
    end
    if remaining < 0 or left < remaining then
      remaining = left
      if allowed == 1 then reset = (w.idx + 1) * w.size end
    end
  end
  if allowed == 1 then
    for _, w in ipairs(windows) do w.cur = w.cur + 1 end
    counted = counted + 1
    if remaining > 0 then remaining = remaining - 1 end
  end
  if remaining < 0 then remaining = 0 end
  out[#out + 1] = allowed
  out[#out + 1] = remaining
  out[#out + 1] = reset
  out[#out + 1] = retry
end

if counted > 0 then
  local ttl = 0
  for _, w in ipairs(windows) do
    redis.call('HSET', key, w.prefix .. 'i', w.idx, w.prefix .. 'c', w.cur, w.prefix .. 'p', w.prev)
    ttl = math.max(ttl, 2 * w.size)
  end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
return out
