-- Creating one memory, shared by create.lua and create-batch.lua: every rule of a create holds for each
-- item of a batch, quotas included. After helpers.lua, quota.lua and life.lua.
-- `a`: { id, content, content_type, tier, memory_nature, parent ('' = root), external_id ('' = none),
--   metadata (JSON text), its life (JSON text of new_life's spec, life.lua) }; `at`: the time of the call (ms):
--   its creation time unless an import gives an earlier one in its life, and its update time;
--   `limits`: the tenant environment's quotas (quota.lua quota_limits).
-- Returns { creation time (ms), update time (ms), occurred_at (ms), expires_at (ms, '' = never),
--   supersedes ('' = none), read_memory(the memory it superseded) or false, read_memory(the memory an import
--   found replacing it) or false }: the caller has every other
--   field, and reading the record back (1 KiB of content through Lua and cjson) was a third of the script's
--   time. Or nil and a refusal, before anything of it is written.
local function create_memory(a, at, max_depth, walk_max, limits)
  local id, parent, ext = a[1], a[6], a[7]
  if parent ~= '' then
    if not visible(parent) then return nil, parent_missing() end
    if depth_above(parent, id, max_depth) + 1 > max_depth then return nil, too_deep(max_depth) end
  end
  if ext ~= '' and external_id_held(ext, id) then return nil, external_id_taken() end
  -- Its life: when it happened, when it expires, what it replaces (life.lua).
  local life, refusal = new_life(cjson.decode(a[9]), a[4], walk_max, at)
  if not life then return nil, refusal end
  local bytes = #a[2] + #a[8]
  local over = quota_refusal(limits, 1, bytes)
  if over then return nil, over end

  local created = life.created
  local fields = { 'content', a[2], 'content_type', a[3], 'tier', a[4], 'memory_nature', a[5],
    'metadata', a[8], 'created_at', created, 'updated_at', at, 'v', 1 }
  if parent ~= '' then push_all(fields, { 'parent', parent }) end
  if ext ~= '' then push_all(fields, { 'external_id', ext }) end
  -- An import's creation time still to come is stored as now; the time asked for stays, so that the same line
  -- imported again is found to be this memory (import-probe.lua).
  if life.asked_created then push_all(fields, { 'created_asked', life.asked_created }) end
  memory_write(K.memory(id), unpack(fields))
  if ext ~= '' then redis.call('HSET', K.ext, ext, id) end
  redis.call('ZADD', K.created, created, id)
  redis.call('ZADD', K.updated, at, id)
  redis.call('ZADD', K.content_type(a[3]), created, id)
  redis.call('ZADD', K.tier(a[4]), created, id)
  redis.call('ZADD', K.memory_nature(a[5]), created, id)
  if parent ~= '' then
    redis.call('ZADD', K.kids(parent), life.occurred, id)
  else
    redis.call('ZADD', K.roots, created, id)
  end
  local replaced, replacer = begin_life(id, life)
  storage_add(1, bytes)
  return { ms_string(created), ms_string(at), life.occurred, life.expires, life.supersedes, replaced, replacer }
end
