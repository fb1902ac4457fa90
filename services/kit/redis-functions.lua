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
