-- Delete a memory (ARGV[2] = '1': its whole subtree) with every index and link (life.lua remove_tree);
-- without cascade its children become roots (their version bumps, updated_at refreshed); the memory it
-- replaced is the latest of its chain again.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, cascade ('1' | '0')
-- Returns removal_reply: { {deletedId, version, ...}, { {read_memory(changed), {field names}} ... } }.
use_keys(KEYS)
local id, cascade = ARGV[1], ARGV[2] == '1'
if not visible(id) then return not_found('Memory') end
local acc = new_removal()
remove_tree(id, cascade, acc)
return cjson.encode(removal_reply(acc))
