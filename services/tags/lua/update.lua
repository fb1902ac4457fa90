-- Partial update of a tag; a rename moves its name index entry in the same step.
-- KEYS: `t:<id>` the tag hash, `ti:names` (lname -> id), `t:<id>:mems` its member zset
-- ARGV: id, now ms, patch (JSON object of the fields to change among name (with lname, its name key),
--   color, description; null color / description = none)
-- Returns { memory_count, the tag's hash as a flat list }.
local id, now = ARGV[1], tonumber(ARGV[2])
local patch = cjson.decode(ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 then return not_found('Tag') end
if patch.name ~= nil then
  local owner = redis.call('HGET', KEYS[2], patch.lname)
  if owner and owner ~= id then return tag_name_taken(owner) end
  local old = redis.call('HGET', KEYS[1], 'lname')
  if old and old ~= patch.lname then redis.call('HDEL', KEYS[2], old) end
  redis.call('HSET', KEYS[2], patch.lname, id)
  redis.call('HSET', KEYS[1], 'name', patch.name, 'lname', patch.lname)
end
for _, field in ipairs({ 'color', 'description' }) do
  local v = patch[field]
  if v == cjson.null then
    redis.call('HDEL', KEYS[1], field)
  elseif v ~= nil then
    redis.call('HSET', KEYS[1], field, v)
  end
end
-- Strictly later than the previous value, so a refresh is visible even within one millisecond.
local prev = tonumber(redis.call('HGET', KEYS[1], 'updated_at')) or 0
local updated = now
if updated <= prev then updated = prev + 1 end
redis.call('HSET', KEYS[1], 'updated_at', updated)
return { redis.call('ZCARD', KEYS[3]), redis.call('HGETALL', KEYS[1]) }
