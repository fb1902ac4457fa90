-- Unlink one memory from an entity; idempotent. A: id, memory id.
-- Returns { 1, read_memory(memory) } when removed, { 0 } when it was not linked.
local id, mid = A[1], A[2]
if redis.call('EXISTS', K.entity(id)) == 0 then return conflict('entity_missing') end
if redis.call('EXISTS', K.memory(mid)) == 0 then return conflict('memory_missing', mid) end
if redis.call('SREM', K.ents(mid), id) == 0 then return { 0 } end
redis.call('ZREM', K.entMembers(id), mid)
redis.call('HINCRBY', K.memory(mid), 'v', 1)
return { 1, read_memory(mid) }
