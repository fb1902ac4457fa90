-- Claims Idempotency-Keys, one per request, or answers what an earlier request with one got.
-- KEYS: idem:{tenant:env}:<api key id>:<SHA-256 of the Idempotency-Key>, a hash per request (one tenant's slot).
-- ARGV[1] the claims' lease (ms): a gateway that dies mid-request frees its key once it ends; then, per key, the
--   request's fingerprint (method, route, input) and a token naming its claim.
-- Returns per key, in order: { 'claimed' } (run it, then complete or release), { 'done', status, headers, body },
--   { 'reused' } (a different request holds the key) or { 'running' } (the request with the key still runs).
local out = {}
for i, key in ipairs(KEYS) do
  local fp, token = ARGV[2 * i], ARGV[2 * i + 1]
  local h = redis.call('HMGET', key, 'fp', 'state', 'status', 'headers', 'body')
  if not h[1] then
    redis.call('HSET', key, 'fp', fp, 'state', 'running', 'token', token)
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = { 'claimed' }
  elseif h[1] ~= fp then
    out[i] = { 'reused' }
  elseif h[2] ~= 'done' then
    out[i] = { 'running' }
  else
    out[i] = { 'done', h[3], h[4], h[5] }
  end
end
return out
