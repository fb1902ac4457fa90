-- Create a memory: record + every index in one step (create_memory, create-memory.lua).
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: max depth, supersession walk max, the plan's quota of memories and of bytes (quota.lua quota_limits),
--   then create_memory's 9 fields (its `a`): id, content, content_type, tier, memory_nature, parent ('' = root),
--   external_id ('' = none), metadata (JSON text), its life (JSON text)
-- Returns create_memory's answer, or its refusal.
use_keys(KEYS)
local limits = quota_limits(ARGV[3], ARGV[4])
local created, refusal = create_memory({ unpack(ARGV, 5, 13) }, NOW, tonumber(ARGV[1]), tonumber(ARGV[2]), limits)
if not created then return refusal end
return cjson.encode(created)
