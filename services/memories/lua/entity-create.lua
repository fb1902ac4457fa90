-- Create an entity, optionally linked to memories, in one step.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: id, name, type, name key ('<type>:<lower name>'), metadata (JSON text),
--   optional fields (JSON object: description, created_at ms; missing or null = none), then memory ids (distinct)
-- Returns { read_entity(id), {read_memory(linked) ...} }.
use_keys(KEYS)
local id, nk = ARGV[1], ARGV[4]
local optional = cjson.decode(ARGV[6])
local missing = {}
for i = 7, #ARGV do
  if not visible(ARGV[i]) then missing[#missing + 1] = ARGV[i] end
end
if #missing > 0 then
  return invalid('memory_ids', 'exists', 'memory_ids must name existing memories', { missing = missing })
end
local owner = redis.call('HGET', K.entNames, nk)
if owner then return entity_name_taken(owner) end
redis.call('HSET', K.entNames, nk, id)

-- An import's created_at is kept, unless it is still to come.
local now = now_ms()
if tonumber(optional.created_at) then now = math.min(tonumber(optional.created_at), now) end
local fields = { 'name', ARGV[2], 'type', ARGV[3], 'nk', nk, 'metadata', ARGV[5], 'created_at', now, 'updated_at', now }
if type(optional.description) == 'string' then push_all(fields, { 'description', optional.description }) end
redis.call('HSET', K.entity(id), unpack(fields))
redis.call('ZADD', K.entCreated, now, id)
local linked = {}
for i = 7, #ARGV do
  local mid = ARGV[i]
  link(K.memory(mid), mid, K.ents(mid), id, K.entMembers(id))
  bump_version(K.memory(mid))
  linked[#linked + 1] = read_memory(mid)
end
return cjson.encode({ read_entity(id), linked })
