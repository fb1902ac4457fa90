-- Patch an entity; the (type, lower name) uniqueness key moves with it.
-- A: id, then field/value pairs among name, lname (lower-cased name), type, description, metadata,
--    and 'drop' = 'description' to set it to null.
-- Returns read_entity(id).
local id = A[1]
local key = K.entity(id)
if redis.call('EXISTS', key) == 0 then return conflict('not_found') end
local set = {}
for i = 2, #A, 2 do set[A[i]] = A[i + 1] end
local old_nk = redis.call('HGET', key, 'nk')
local sep = string.find(old_nk, ':', 1, true)
local nk = (set.type or old_nk:sub(1, sep - 1)) .. ':' .. (set.lname or old_nk:sub(sep + 1))
if nk ~= old_nk then
  local owner = redis.call('HGET', K.entNames, nk)
  if owner and owner ~= id then return conflict('name_taken') end
  redis.call('HDEL', K.entNames, old_nk)
  redis.call('HSET', K.entNames, nk, id)
end
local fields = { 'nk', nk, 'updated_at', now_ms() }
for _, f in ipairs({ 'name', 'type', 'description', 'metadata' }) do
  if set[f] ~= nil then push_all(fields, { f, set[f] }) end
end
redis.call('HSET', key, unpack(fields))
if set.drop == 'description' then redis.call('HDEL', key, 'description') end
return read_entity(id)
