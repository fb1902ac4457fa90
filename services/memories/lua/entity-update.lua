-- Patch an entity; the (type, lower name) uniqueness key moves with it.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: id, patch (JSON object of the fields to change among name, lname (lower-cased name), type,
--   description (null = none), metadata (its JSON text)).
-- Returns read_entity(id).
use_keys(KEYS)
local id = ARGV[1]
local key = K.entity(id)
if redis.call('EXISTS', key) == 0 then return not_found('Entity') end
local set = cjson.decode(ARGV[2])
local old_nk = redis.call('HGET', key, 'nk')
local sep = string.find(old_nk, ':', 1, true)
local nk = (set.type or old_nk:sub(1, sep - 1)) .. ':' .. (set.lname or old_nk:sub(sep + 1))
if nk ~= old_nk then
  local owner = redis.call('HGET', K.entNames, nk)
  if owner and owner ~= id then return entity_name_taken(owner) end
  redis.call('HDEL', K.entNames, old_nk)
  redis.call('HSET', K.entNames, nk, id)
end
local fields = { 'nk', nk, 'updated_at', now_ms() }
for _, f in ipairs({ 'name', 'type', 'description', 'metadata' }) do
  if type(set[f]) == 'string' then push_all(fields, { f, set[f] }) end
end
redis.call('HSET', key, unpack(fields))
if set.description == cjson.null then redis.call('HDEL', key, 'description') end
return cjson.encode(read_entity(id))
