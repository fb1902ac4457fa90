-- The top of every function library (redis-functions.ts): what all of them share.

-- An expected refusal, answered before the function writes anything, so nothing is half done.
-- `code` is an error code of services/contract/errors.ts (NOT_FOUND, VALIDATION_ERROR, ...); `details`
-- a table or nil. The caller's call rejects with that ServiceError (refusalOf in redis-functions.ts).
local function refuse(code, message, details)
  return redis.error_reply('REFUSED ' .. code .. ' ' .. cjson.encode({ message = message, details = details }))
end

-- The refusals of services/contract/errors.ts' notFound and validationError, with the same messages.
local function not_found(what)
  return refuse('NOT_FOUND', what .. ' not found')
end

local function invalid(field, constraint, message, extra)
  local details = { field = field, constraint = constraint }
  for k, v in pairs(extra or {}) do details[k] = v end
  return refuse('VALIDATION_ERROR', message, details)
end

-- An Idempotency-Key handed to the write it guards (services/kit/wire.ts KeyClaim; nil without one). A key
-- already held refuses the write before it changes anything: the gateway then answers from what the key holds.
local function key_claim_refusal(key)
  if key and redis.call('EXISTS', key) == 1 then
    return refuse('IDEMPOTENCY_IN_FLIGHT', 'A request with this Idempotency-Key has run or still runs')
  end
end

-- Claims the key in the write's own step, once the write is certain to happen.
local function set_key_claim(key, value, lease_ms)
  if key then redis.call('SET', key, value, 'PX', lease_ms) end
end
