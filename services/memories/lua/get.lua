-- Read memories by id, aligned with the ids asked (false where unknown). 
-- KEYS: the tenant's index keys (helpers.lua). ARGV: ids
use_keys(KEYS)
local out = {}
for i = 1, #ARGV do out[i] = read_memory(ARGV[i]) end
return cjson.encode(out)
