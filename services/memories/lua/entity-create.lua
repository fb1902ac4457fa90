-- Create an entity, optionally linked to memories, in one step.
-- A: id, name, type, name key ('<type>:<lower name>'), description ('' with has_desc '0' = null), has_desc,
--    metadata (JSON), then memory ids (distinct)
-- Returns { read_entity(id), {read_memory(linked) ...} }.
local id, nk = A[1], A[4]
local missing = {}
for i = 8, #A do
  if redis.call('EXISTS', K.memory(A[i])) == 0 then missing[#missing + 1] = A[i] end
end
if #missing > 0 then return conflict('memory_missing', table.concat(missing, ',')) end
if redis.call('HSETNX', K.entNames, nk, id) == 0 then return conflict('name_taken') end

local now = now_ms()
local fields = { 'name', A[2], 'type', A[3], 'nk', nk, 'metadata', A[7], 'created_at', now, 'updated_at', now }
if A[6] == '1' then push_all(fields, { 'description', A[5] }) end
redis.call('HSET', K.entity(id), unpack(fields))
redis.call('ZADD', K.entCreated, now, id)
local linked = {}
for i = 8, #A do
  local mid = A[i]
  redis.call('SADD', K.ents(mid), id)
  redis.call('ZADD', K.entMembers(id), redis.call('HGET', K.memory(mid), 'created_at'), mid)
  redis.call('HINCRBY', K.memory(mid), 'v', 1)
  linked[#linked + 1] = read_memory(mid)
end
return { read_entity(id), linked }
