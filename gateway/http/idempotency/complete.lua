-- Keeps the answers of claimed requests, for replays until their keys expire.
-- KEYS as claim.lua; ARGV[1] how long an answer is kept (ms), then, per key, its claim's token, the status, the
--   headers (JSON) and the body.
-- Returns per key 1, or 0 when the claim is no longer that request's (its lease ended and another took the key).
local out = {}
for i, key in ipairs(KEYS) do
  local at = 4 * i - 2
  if redis.call('HGET', key, 'token') == ARGV[at] then
    redis.call('HSET', key, 'state', 'done', 'status', ARGV[at + 1], 'headers', ARGV[at + 2], 'body', ARGV[at + 3])
    redis.call('HDEL', key, 'token')
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
