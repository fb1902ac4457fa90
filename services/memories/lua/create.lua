-- Create a memory: record + every index in one step.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: id, content, content_type, tier, memory_nature, parent ('' = root), external_id ('' = none),
--   metadata (JSON text), max depth, its life (JSON object for new_life, life.lua), supersession walk max
-- Returns { creation time (ms), update time (ms; the creation time, unless an import gave an earlier one),
--   occurred_at (ms), expires_at (ms, '' = never), supersedes ('' = none),
--   read_memory(the memory it superseded) or false }: the caller has every other field, and reading the
--   record back (1 KiB of content through Lua and cjson) was a third of the script's time.
use_keys(KEYS)
local id, parent, ext = ARGV[1], ARGV[6], ARGV[7]
local max_depth = tonumber(ARGV[9])
if parent ~= '' then
  if not visible(parent) then return parent_missing() end
  if depth_above(parent, id, max_depth) + 1 > max_depth then return too_deep(max_depth) end
end
if ext ~= '' and external_id_held(ext, id) then return external_id_taken() end
-- Its life: when it happened, when it expires, what it replaces (life.lua).
local life, refusal = new_life(cjson.decode(ARGV[10]), ARGV[4], tonumber(ARGV[11]))
if not life then return refusal end

local now = life.created
local fields = { 'content', ARGV[2], 'content_type', ARGV[3], 'tier', ARGV[4], 'memory_nature', ARGV[5],
  'metadata', ARGV[8], 'created_at', now, 'updated_at', NOW, 'v', 1 }
if parent ~= '' then push_all(fields, { 'parent', parent }) end
if ext ~= '' then push_all(fields, { 'external_id', ext }) end
redis.call('HSET', K.memory(id), unpack(fields))
if ext ~= '' then redis.call('HSET', K.ext, ext, id) end
redis.call('ZADD', K.created, now, id)
redis.call('ZADD', K.updated, NOW, id)
redis.call('ZADD', K.content_type(ARGV[3]), now, id)
redis.call('ZADD', K.tier(ARGV[4]), now, id)
redis.call('ZADD', K.memory_nature(ARGV[5]), now, id)
if parent ~= '' then
  redis.call('ZADD', K.kids(parent), life.occurred, id)
else
  redis.call('ZADD', K.roots, now, id)
end
local replaced = begin_life(id, life)
return cjson.encode({ ms_string(now), ms_string(NOW), life.occurred, life.expires, life.supersedes, replaced })
