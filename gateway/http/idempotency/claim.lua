-- Claims an Idempotency-Key for one request, or answers what an earlier request with it got.
-- KEYS[1] idem:{tenant:env}:<api key id>:<SHA-256 of the Idempotency-Key>  (one hash)
-- ARGV[1] the request's fingerprint (method, route, input), ARGV[2] a token naming this claim,
-- ARGV[3] the claim's lease (ms): a gateway that dies mid-request frees the key once it ends.
-- Returns { 'claimed' } (run it, then complete or release), or { 'done', status, headers, body }.
-- Refuses IDEMPOTENCY_KEY_REUSED (another request holds the key) and IDEMPOTENCY_IN_FLIGHT (it runs).
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'status', 'headers', 'body')
if not h[1] then
  redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'running', 'token', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return { 'claimed' }
end
if h[1] ~= ARGV[1] then
  local message = 'This Idempotency-Key was used with a different request; use a new key for a new request'
  return refuse('IDEMPOTENCY_KEY_REUSED', message, { field = 'idempotency-key', constraint = 'same_request' })
end
if h[2] ~= 'done' then
  local message = 'A request with this Idempotency-Key is still running; retry once it has answered'
  return refuse('IDEMPOTENCY_IN_FLIGHT', message, { field = 'idempotency-key', constraint = 'in_flight' })
end
return { 'done', h[3], h[4], h[5] }
