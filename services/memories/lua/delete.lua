-- Delete a memory (ARGV[2] = '1': its whole subtree) with every index and link; without cascade its
-- children become roots (their version bumps, updated_at refreshed).
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, cascade ('1' | '0')
-- Returns { {deletedId, version, ...}, {read_memory(orphan) ...} }.
use_keys(KEYS)
local id, cascade = ARGV[1], ARGV[2] == '1'
if redis.call('EXISTS', K.memory(id)) == 0 then return not_found('Memory') end
local victims = cascade and subtree(id) or { id }
local now = now_ms()

local orphans = {}
if not cascade then
  local kids = redis.call('ZRANGE', K.kids(id), 0, -1, 'WITHSCORES')
  for i = 1, #kids, 2 do
    local kid = kids[i]
    local kkey = K.memory(kid)
    redis.call('HDEL', kkey, 'parent')
    redis.call('HSET', kkey, 'updated_at', now)
    bump_version(kkey)
    redis.call('ZADD', K.updated, now, kid)
    redis.call('ZADD', K.roots, kids[i + 1], kid)
    orphans[#orphans + 1] = kid
  end
end

local deleted = {}
for _, vid in ipairs(victims) do
  local key = K.memory(vid)
  local f = redis.call('HMGET', key, 'content_type', 'tier', 'memory_nature', 'parent', 'external_id', 'v')
  redis.call('ZREM', K.created, vid)
  redis.call('ZREM', K.updated, vid)
  redis.call('ZREM', K.roots, vid)
  if f[1] then redis.call('ZREM', K.content_type(f[1]), vid) end
  if f[2] then redis.call('ZREM', K.tier(f[2]), vid) end
  if f[3] then redis.call('ZREM', K.memory_nature(f[3]), vid) end
  if f[4] then redis.call('ZREM', K.kids(f[4]), vid) end
  if f[5] and redis.call('HGET', K.ext, f[5]) == vid then redis.call('HDEL', K.ext, f[5]) end
  -- Links: both ends go, so tag memory_count and entity memory_count drop with the memory.
  leave_members(vid, K.tags(vid), K.tagMembers)
  leave_members(vid, K.ents(vid), K.entMembers)
  redis.call('DEL', key, K.tags(vid), K.ents(vid), K.kids(vid))
  push_all(deleted, { vid, (tonumber(f[6]) or 0) + 1 })
end

local reads = {}
for i = 1, #orphans do reads[#reads + 1] = read_memory(orphans[i]) end
return cjson.encode({ deleted, reads })
