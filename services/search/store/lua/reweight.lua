-- Recompute the lexical postings of some memories with the tenant's current average length (and
-- their current previous sibling): `reindex` runs it over every memory. Unknown ids are skipped.
-- KEYS[1] the `all` set (routing). ARGV: 1 prefix, 2 k1, 3 b, 4 context weight, 5… ids.
local p, k1, b, ctxw = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 5, #ARGV do relex(p, ARGV[i], k1, b, ctxw) end
return #ARGV - 4
