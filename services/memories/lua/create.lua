-- Create a memory: record + every index in one step (create_memory, create-memory.lua).
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: max depth, supersession walk max, then create_memory's 9 fields (its `a`): id, content, content_type,
--   tier, memory_nature, parent ('' = root), external_id ('' = none), metadata (JSON text), its life (JSON text)
-- Returns create_memory's answer, or its refusal.
use_keys(KEYS)
local created, refusal = create_memory({ unpack(ARGV, 3, 11) }, NOW, tonumber(ARGV[1]), tonumber(ARGV[2]))
if not created then return refusal end
return cjson.encode(created)
