-- Create memories in order, each as create.lua creates one (create_memory, create-memory.lua): a refused
-- item leaves the others, and an item may have an earlier one of the call as its parent.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: max depth, supersession walk max, the plan's quota of memories and of bytes (quota.lua quota_limits),
--   then per item create_memory's 9 fields (its `a`). Each item is checked against the quotas as the
--   earlier ones left them.
-- The items are created 1 ms apart, the last at the call's time: the call's order is their created_at order,
-- and their thread order when they give no occurred_at.
-- Returns per item { 1, create_memory's answer } or { 0, the refusal's message (REFUSED <code> {json}) }.
use_keys(KEYS)
local max_depth, walk_max = tonumber(ARGV[1]), tonumber(ARGV[2])
local limits = quota_limits(ARGV[3], ARGV[4])
local n = (#ARGV - 4) / 9
local out = {}
for i = 1, n do
  local a, base = {}, 4 + (i - 1) * 9
  for j = 1, 9 do a[j] = ARGV[base + j] end
  local created, refusal = create_memory(a, NOW - (n - i), max_depth, walk_max, limits)
  if created then out[i] = { 1, created } else out[i] = { 0, refusal.err } end
end
return cjson.encode(out)
