-- Create a memory: record + every index in one step (create_memory, create-memory.lua).
-- KEYS: the tenant's index keys (helpers.lua), then the request's Idempotency-Key if it has one (its KeyClaim).
-- ARGV: max depth, supersession walk max, the plan's quota of memories and of bytes (quota.lua quota_limits),
--   then create_memory's 9 fields (its `a`): id, content, content_type, tier, memory_nature, parent ('' = root),
--   external_id ('' = none), metadata (JSON text), its life (JSON text); with a key, the value that claims it and
--   the claim's lease (ms).
-- Returns create_memory's answer, or its refusal (IDEMPOTENCY_IN_FLIGHT when the key is held already).
use_keys(KEYS)
local claim_key = KEYS[11]
local held = key_claim_refusal(claim_key)
if held then return held end
local limits = quota_limits(ARGV[3], ARGV[4])
local created, refusal = create_memory({ unpack(ARGV, 5, 13) }, NOW, tonumber(ARGV[1]), tonumber(ARGV[2]), limits)
if not created then return refusal end
set_key_claim(claim_key, ARGV[14], ARGV[15])
return cjson.encode(created)
