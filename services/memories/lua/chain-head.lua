-- The latest memory of a supersession chain (life.lua chain_head): what a create naming `id` in `supersedes`
-- would replace, so that a restricted caller's check sees the memory the write actually modifies.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, supersession walk max.
-- Returns the latest memory's id, false when `id` is unknown or expired, or chain_head's refusal.
use_keys(KEYS)
local id = ARGV[1]
if not visible(id) then return cjson.encode(false) end
local head, refusal = chain_head(id, tonumber(ARGV[2]))
if not head then return refusal end
return cjson.encode(head)
