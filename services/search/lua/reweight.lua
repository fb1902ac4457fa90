-- Recompute the lexical postings of some memories with the tenant's current average length (and
-- their current previous sibling): `reindex` runs it over every memory. Unknown ids are skipped.
-- KEYS: 1 all, 2 stats; the memories' documents and postings are built from their ids (use_index,
--   common.lua).
-- ARGV: 1 k1, 2 b, 3 context weight, 4… ids.
use_index(KEYS[1], KEYS[2])
local k1, b, ctxw = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 4, #ARGV do relex(ARGV[i], k1, b, ctxw) end
return #ARGV - 3
