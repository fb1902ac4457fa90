-- Link memories to an entity, all or nothing; already linked ones are skipped.
-- A: id, then memory ids (distinct). Returns { added, skipped, memory_count, {read_memory(added) ...} }.
local id = A[1]
if redis.call('EXISTS', K.entity(id)) == 0 then return conflict('entity_missing') end
local missing = {}
for i = 2, #A do
  if redis.call('EXISTS', K.memory(A[i])) == 0 then missing[#missing + 1] = A[i] end
end
if #missing > 0 then return conflict('memory_missing', table.concat(missing, ',')) end
local added, skipped, linked = 0, 0, {}
for i = 2, #A do
  local mid = A[i]
  if redis.call('SADD', K.ents(mid), id) == 1 then
    redis.call('ZADD', K.entMembers(id), redis.call('HGET', K.memory(mid), 'created_at'), mid)
    redis.call('HINCRBY', K.memory(mid), 'v', 1)
    added = added + 1
    linked[#linked + 1] = read_memory(mid)
  else
    skipped = skipped + 1
  end
end
return { added, skipped, redis.call('ZCARD', K.entMembers(id)), linked }
