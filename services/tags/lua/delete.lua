-- Delete a tag: unlink it from every member memory (memory-data's drop_members bumps each one's version and
-- drops the member zset), then drop the tag, its name index entry and its time index entry, all in one
-- atomic step.
-- KEYS: `t:<id>` the tag hash, `t:<id>:mems` its member zset, `ti:names`, `ti:created`
-- ARGV: id
-- The member memories' keys are met only in the member zset: memory-data builds them from the tenant of
-- KEYS[4] (memory-data/keyspace.lua), in its cluster slot.
-- Returns the ids of the memories that lost the tag.
local id = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then return not_found('Tag') end
use_tenant_of(KEYS[4])
local touched = drop_members(id, KEYS[2], TK.memory_tags, TK.memory)
local lname = redis.call('HGET', KEYS[1], 'lname')
if lname and redis.call('HGET', KEYS[3], lname) == id then redis.call('HDEL', KEYS[3], lname) end
redis.call('ZREM', KEYS[4], id)
redis.call('DEL', KEYS[1])
return touched
