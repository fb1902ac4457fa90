-- Keeps the answer of a claimed request, for replays until the key expires.
-- KEYS[1] as claim.lua; ARGV[1] the claim's token, ARGV[2] status, ARGV[3] headers (JSON), ARGV[4] body,
-- ARGV[5] how long the answer is kept (ms).
-- Returns 1, or 0 when the claim is no longer this request's (its lease ended and another took the key).
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'headers', ARGV[3], 'body', ARGV[4])
redis.call('HDEL', KEYS[1], 'token')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
