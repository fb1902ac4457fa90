-- Partial update of a tag; a rename moves its name index entry in the same step.
-- KEYS: tag hash, names hash (lname -> id), member zset
-- ARGV: id, name (opt), lname, color (opt), description (opt), now ms
-- opt values: "-" = not sent, "0" = null, "1<value>" = value
local id, lname, now = ARGV[1], ARGV[3], tonumber(ARGV[6])
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NOTFOUND'} end
local function sent(v) return string.sub(v, 1, 1) ~= '-' end
local function value(v) if string.sub(v, 1, 1) == '1' then return string.sub(v, 2) end return nil end
if sent(ARGV[2]) then
  local owner = redis.call('HGET', KEYS[2], lname)
  if owner and owner ~= id then return {'DUP'} end
  local old = redis.call('HGET', KEYS[1], 'lname')
  if old and old ~= lname then redis.call('HDEL', KEYS[2], old) end
  redis.call('HSET', KEYS[2], lname, id)
  redis.call('HSET', KEYS[1], 'name', value(ARGV[2]), 'lname', lname)
end
for i, field in ipairs({'color', 'description'}) do
  local v = ARGV[3 + i]
  if sent(v) then
    local val = value(v)
    if val then redis.call('HSET', KEYS[1], field, val) else redis.call('HDEL', KEYS[1], field) end
  end
end
-- Strictly later than the previous value, so a refresh is visible even within one millisecond.
local prev = tonumber(redis.call('HGET', KEYS[1], 'updated_at')) or 0
local updated = now
if updated <= prev then updated = prev + 1 end
redis.call('HSET', KEYS[1], 'updated_at', updated)
return {'OK', redis.call('ZCARD', KEYS[3]), redis.call('HGETALL', KEYS[1])}
