-- Delete a tag: unlink it from every member memory (bumping each memory's version), then drop the
-- tag, its name index entry, its time index entry and its member zset, all in one atomic step.
-- KEYS: tag hash, member zset, names hash, by-created zset
-- ARGV: id
-- The member memories' keys are met only here, in the member zset: they are built from the tenant
-- of KEYS[4] (memory-data/keyspace.lua), in its cluster slot.
-- Returns the ids of the memories that lost the tag.
local id = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then return not_found('Tag') end
use_tenant_of(KEYS[4])
local touched = {}
for _, m in ipairs(unlink_members(id, KEYS[2], TK.memory_tags)) do
  local mkey = TK.memory(m)
  if redis.call('EXISTS', mkey) == 1 then
    bump_version(mkey)
    touched[#touched + 1] = m
  end
end
local lname = redis.call('HGET', KEYS[1], 'lname')
if lname and redis.call('HGET', KEYS[3], lname) == id then redis.call('HDEL', KEYS[3], lname) end
redis.call('ZREM', KEYS[4], id)
redis.call('DEL', KEYS[1], KEYS[2])
return touched
