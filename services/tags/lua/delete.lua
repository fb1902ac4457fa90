-- Delete a tag: unlink it from every member memory (bumping each memory's version), then drop the
-- tag, its name index entry, its time index entry and its member zset, all in one atomic step.
-- Member memory keys are built from the key templates in ARGV (same slot: `{tenant:env}`).
-- KEYS: tag hash, member zset, names hash, by-created zset
-- ARGV: id, memory key prefix, memory key suffix, memory-tags key prefix, memory-tags key suffix
local id = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NOTFOUND'} end
local members = redis.call('ZRANGE', KEYS[2], 0, -1)
local touched = {}
for _, m in ipairs(members) do
  redis.call('SREM', ARGV[4] .. m .. ARGV[5], id)
  local mkey = ARGV[2] .. m .. ARGV[3]
  if redis.call('EXISTS', mkey) == 1 then
    redis.call('HINCRBY', mkey, 'v', 1)
    touched[#touched + 1] = m
  end
end
local lname = redis.call('HGET', KEYS[1], 'lname')
if lname and redis.call('HGET', KEYS[3], lname) == id then redis.call('HDEL', KEYS[3], lname) end
redis.call('ZREM', KEYS[4], id)
redis.call('DEL', KEYS[1], KEYS[2])
return {'OK', touched}
