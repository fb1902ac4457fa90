-- Read memories by id, aligned with the ids asked (false where unknown). A: ids
local out = {}
for i = 1, #A do out[i] = read_memory(A[i]) end
return out
