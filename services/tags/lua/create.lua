-- Create a tag and its indexes atomically; the name index makes uniqueness race-free.
-- KEYS: `t:<id>` the tag hash, `ti:names` (lname -> id), `ti:created` (by creation)
-- ARGV: id, name, lname, now ms, max tags,
--   optional fields (JSON object: color, description; missing or null = none)
local id, name, lname, now, cap = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local optional = cjson.decode(ARGV[6])
local owner = redis.call('HGET', KEYS[2], lname)
if owner then return tag_name_taken(owner) end
if redis.call('HLEN', KEYS[2]) >= cap then
  return invalid('tags', 'max_count', 'At most ' .. cap .. ' tags per tenant and environment', { max = cap })
end
redis.call('HSET', KEYS[1], 'name', name, 'lname', lname, 'created_at', now, 'updated_at', now)
for _, field in ipairs({ 'color', 'description' }) do
  if type(optional[field]) == 'string' then redis.call('HSET', KEYS[1], field, optional[field]) end
end
redis.call('HSET', KEYS[2], lname, id)
redis.call('ZADD', KEYS[3], now, id)
