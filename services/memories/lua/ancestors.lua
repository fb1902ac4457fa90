-- The ids above a memory, parent first, up to its root; false when the memory is unknown.
-- A: id, max depth (a guard against walking forever)
local id, max = A[1], tonumber(A[2])
if redis.call('EXISTS', K.memory(id)) == 0 then return false end
local out, cur = {}, id
while #out < max do
  local p = parent_of(cur)
  if not p then break end
  out[#out + 1] = p
  cur = p
end
return out
