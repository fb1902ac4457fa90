-- Change a tenant's settings: the fields to set and to remove, and the time of the change (Redis TIME).
-- KEYS: the settings hash (settings.ts). ARGV: fields to set (JSON object field → value), fields to remove
--   (JSON array). Returns the settings hash after the change, as a flat field/value list.
local key = KEYS[1]
local set, remove = cjson.decode(ARGV[1]), cjson.decode(ARGV[2])
local t = redis.call('TIME')
local args = { 'updated_at', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) }
for field, value in pairs(set) do
  args[#args + 1] = field
  args[#args + 1] = value
end
redis.call('HSET', key, unpack(args))
if #remove > 0 then redis.call('HDEL', key, unpack(remove)) end
return redis.call('HGETALL', key)
