-- Links imported memories to their tags and entities, named as an export names them (by name, not id).
-- KEYS: the tenant's index keys (helpers.lua), then the tags' name hash (ti:{t:e}:names).
-- ARGV: how many memories, then for each: its id, how many tag names and how many entity names follow, the tag
--   name keys (folded), the entity name keys ('<type>:<folded name>').
-- Returns, for each memory, { { its version, its tag ids, its entity ids } or false when it is not here,
--   {names that name nothing here ...} }: what its `created` event needs, without reading the memory again.
use_keys(KEYS)
local tag_names = KEYS[INDEX_KEYS + 1]
local out, at = {}, 2
for m = 1, tonumber(ARGV[1]) do
  local mid, nt, ne = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
  at = at + 3
  local memory, missing, changed = K.memory(mid), {}, false
  local here = visible(mid)
  for i = at, at + nt + ne - 1 do
    local tag = i < at + nt
    local id = redis.call('HGET', tag and tag_names or K.entNames, ARGV[i])
    if not id then
      missing[#missing + 1] = ARGV[i]
    elseif here and tag then
      changed = link(memory, mid, K.tags(mid), id, K.tagMembers(id)) or changed
    elseif here then
      changed = link(memory, mid, K.ents(mid), id, K.entMembers(id)) or changed
    end
  end
  at = at + nt + ne
  if changed then bump_version(memory) end
  local links = here and { redis.call('HGET', memory, 'v'), redis.call('SMEMBERS', K.tags(mid)),
    redis.call('SMEMBERS', K.ents(mid)) }
  out[m] = { links or false, missing }
end
return cjson.encode(out)
