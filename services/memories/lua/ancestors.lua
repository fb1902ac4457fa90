-- The ids above a memory, parent first, up to its root; false when the memory is unknown or expired.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, max depth (a guard against walking forever)
use_keys(KEYS)
local id, max = ARGV[1], tonumber(ARGV[2])
if not visible(id) then return cjson.encode(false) end
local out, cur = {}, id
while #out < max do
  local p = parent_of(cur)
  if not p then break end
  out[#out + 1] = p
  cur = p
end
return cjson.encode(out)
