-- Patch a memory: only the sent fields; record + moved indexes in one step, version bumped.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: id, max depth, patch (JSON object of the fields to change among content, content_type, tier,
--   memory_nature, parent, external_id (null = none for both), metadata (its JSON text), occurred_at (ms),
--   expires_at (ms, null = never)), the plan's quota of memories and of bytes (quota.lua quota_limits).
-- Returns { read_memory(id), names of the fields whose value changed, read_memory(the memory it replaced,
--   whose valid_to followed a new occurred_at) or false }.
use_keys(KEYS)
local id, max_depth = ARGV[1], tonumber(ARGV[2])
local key = K.memory(id)
if not visible(id) then return not_found('Memory') end
local FIELDS = { 'content', 'content_type', 'tier', 'memory_nature', 'parent', 'external_id', 'metadata',
  'occurred_at', 'expires_at' }
-- '' stands for none below: no value of these fields is ever empty.
local set = {}
for f, v in pairs(cjson.decode(ARGV[3])) do set[f] = (v == cjson.null) and '' or v end
local old = {}
local vals = redis.call('HMGET', key, 'content', 'content_type', 'tier', 'memory_nature', 'parent', 'external_id',
  'metadata', 'occurred_at', 'expires_at', 'created_at')
for i = 1, #FIELDS do old[FIELDS[i]] = vals[i] or '' end
if old.occurred_at == '' then old.occurred_at = vals[10] end

local np = set.parent
if np ~= nil and np ~= old.parent and np ~= '' then
  if np == id then return invalid('parent_memory_id', 'acyclic', 'A memory cannot be its own parent') end
  if not visible(np) then return parent_missing() end
  local d = depth_above(np, id, max_depth)
  if d < 0 then
    local message = 'parent_memory_id would create a cycle (it is a descendant of this memory)'
    return invalid('parent_memory_id', 'acyclic', message)
  end
  if d + subtree_height(id, max_depth - d) > max_depth then return too_deep(max_depth) end
end
local ne = set.external_id
if ne ~= nil and ne ~= '' and ne ~= old.external_id and external_id_held(ne, id) then return external_id_taken() end
local nx = set.expires_at
if nx ~= nil and nx ~= '' and tonumber(nx) <= NOW then return not_future('expires_at') end
-- Content and metadata are never empty ('' stands for none only for the fields that may be absent).
local grown = 0
for _, f in ipairs({ 'content', 'metadata' }) do
  if set[f] ~= nil then grown = grown + #set[f] - #old[f] end
end
local over = quota_refusal(quota_limits(ARGV[4], ARGV[5]), 0, grown)
if over then return over end

local now = NOW
local changed, hset, hdel = {}, { 'updated_at', now }, {}
for _, f in ipairs(FIELDS) do
  local nv = set[f]
  if nv ~= nil and nv ~= old[f] then
    changed[#changed + 1] = f
    if nv == '' then hdel[#hdel + 1] = f else push_all(hset, { f, nv }) end
  end
end
memory_write(key, unpack(hset))
if #hdel > 0 then memory_clear(key, unpack(hdel)) end
bump_version(key)
storage_add(0, grown)
redis.call('ZADD', K.updated, now, id)
local created = vals[10]
for _, f in ipairs({ 'content_type', 'tier', 'memory_nature' }) do
  if set[f] ~= nil and set[f] ~= old[f] then
    redis.call('ZREM', K[f](old[f]), id)
    redis.call('ZADD', K[f](set[f]), created, id)
  end
end
-- A parent's children are scored by occurred_at: a move or a new occurred_at places it in its thread.
local occurred = set.occurred_at or old.occurred_at
local parent = (np ~= nil) and np or old.parent
if np ~= nil and np ~= old.parent then
  if old.parent ~= '' then redis.call('ZREM', K.kids(old.parent), id) else redis.call('ZREM', K.roots, id) end
  if np == '' then redis.call('ZADD', K.roots, created, id) end
end
if parent ~= '' then redis.call('ZADD', K.kids(parent), occurred, id) end
redis.call('ZADD', K.occurred, occurred, id)
if ne ~= nil and ne ~= old.external_id then
  if old.external_id ~= '' and redis.call('HGET', K.ext, old.external_id) == id then
    redis.call('HDEL', K.ext, old.external_id)
  end
  if ne ~= '' then redis.call('HSET', K.ext, ne, id) end
end
if nx ~= nil and nx ~= old.expires_at then
  if nx == '' then redis.call('ZREM', K.expiring, id) else redis.call('ZADD', K.expiring, nx, id) end
end
local followed = false
if set.occurred_at ~= nil and set.occurred_at ~= old.occurred_at then followed = follow_occurred(id, occurred) end
return cjson.encode({ read_memory(id), changed, followed })
