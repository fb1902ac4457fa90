-- Claims Idempotency-Keys and keeps the answers of claimed requests: those of one tenant environment that arrive
-- together go as one call.
-- KEYS: idem:{tenant:env}:<principal>:<SHA-256 of the Idempotency-Key> (key.ts), one string per request (one tenant's
--   slot), as held.ts writes and reads them: the claim's value while its request runs, then the answer's.
-- ARGV[1] the claims' lease (ms): a gateway that dies mid-request frees its key once it ends; ARGV[2] how long an
--   answer is kept (ms); then three per key: 'claim', the value that claims it, '' | 'keep', the value its claim
--   set, the answer's value.
-- Returns per key, in order: for a claim nil (claimed: run it, then keep its answer or release it) or the value
--   the key holds; for a keep 1, or 0 when the claim is no longer that request's (its lease ended and another
--   request took the key). A key that holds nothing keeps the answer too: the request ran, and a write handed
--   its key may not have claimed it (a service replica older than the claim, during an upgrade).
local out = {}
for i, key in ipairs(KEYS) do
  local at = 3 * i
  if ARGV[at] == 'claim' then
    out[i] = redis.call('SET', key, ARGV[at + 1], 'NX', 'GET', 'PX', ARGV[1])
  else
    local held = redis.call('GET', key)
    if held == ARGV[at + 1] or not held then
      redis.call('SET', key, ARGV[at + 2], 'PX', ARGV[2])
      out[i] = 1
    else
      out[i] = 0
    end
  end
end
return out
