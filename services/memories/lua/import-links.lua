-- Links an imported memory to its tags and entities, named as an export names them (by name, not id).
-- KEYS: the tenant's index keys (helpers.lua), then the tags' name hash (ti:{t:e}:names).
-- ARGV: memory id, how many tag names follow, the tag name keys (folded), then entity name keys
--   ('<type>:<folded name>').
-- Returns { read_memory(id) or false, {names that name nothing ...} }.
use_keys(KEYS)
local tag_names = KEYS[INDEX_KEYS + 1]
local mid, n = ARGV[1], tonumber(ARGV[2])
if not visible(mid) then return not_found('Memory') end
local memory, missing, changed = K.memory(mid), {}, false
for i = 3, #ARGV do
  local tag = i < 3 + n
  local id = redis.call('HGET', tag and tag_names or K.entNames, ARGV[i])
  if not id then
    missing[#missing + 1] = ARGV[i]
  elseif tag then
    changed = link(memory, mid, K.tags(mid), id, K.tagMembers(id)) or changed
  else
    changed = link(memory, mid, K.ents(mid), id, K.entMembers(id)) or changed
  end
end
if changed then bump_version(memory) end
return cjson.encode({ read_memory(mid), missing })
