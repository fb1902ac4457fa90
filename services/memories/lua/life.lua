-- A memory's life, for the memories functions (after helpers.lua): when it happened (occurred_at), when it
-- expires (expires_at, ttl, or its tier's retention default from the tenant's settings), what it replaced
-- (supersedes / superseded_by / valid_to), and how it goes (delete and the expiry purge alike).
-- Stored in the memory hash (ms, ids); indexed in K.occurred (every memory), K.expiring (those that
-- expire) and its parent's K.kids (scored by occurred_at: the thread's order).

local DAY_MS = 86400000

local function not_future(field)
  return invalid(field, 'future', field .. ' must be in the future')
end

-- The latest memory of `target`'s chain that still exists (followed through superseded_by, at most
-- `max` links): what a new memory naming `target` replaces. Returns it, or nil and a refusal.
local function chain_head(target, max)
  if not visible(target) then return nil, invalid('supersedes', 'exists', 'supersedes must name an existing memory') end
  local cur = target
  for _ = 1, max do
    local nxt = redis.call('HGET', K.memory(cur), 'superseded_by')
    if not nxt or not visible(nxt) then return cur end
    cur = nxt
  end
  local message = 'supersedes names a chain of more than ' .. max .. ' memories: name a later one'
  return nil, invalid('supersedes', 'max_depth', message, { max = max })
end

-- Marks memory `old` replaced by `new`, which occurred at `occurred` (ms): a change of `old`.
local function supersede(old, new, occurred)
  local key = K.memory(old)
  memory_write(key, 'superseded_by', new, 'valid_to', occurred, 'updated_at', NOW)
  bump_version(key)
  redis.call('ZADD', K.updated, NOW, old)
end

-- The life of a memory created at `at` (ms) in `tier`, from create's `spec` (each field optional): created_at
-- (ms, an import's: kept when not after `at`), occurred_at (ms), expires_at (ms, or null: never), ttl_ms,
-- supersedes (an id), supersedes_head (the latest of its chain a restricted caller checked: refused when it is
-- no longer), superseded_by (an import's: a memory imported before it that replaces it). Returns
-- { created (ms), occurred, expires ('' = never), supersedes (the latest of the named memory's chain, '' = none),
-- asked_created (an import's created_at still to come, else nil), replaced_by (the memory that replaces it,
-- else nil) }, or nil and a refusal.
local function new_life(spec, tier, walk_max, at)
  local created = spec.created_at and math.min(tonumber(spec.created_at), at) or at
  local life = { created = created, occurred = spec.occurred_at or ms_string(created), expires = '', supersedes = '' }
  if spec.created_at and tonumber(spec.created_at) > at then life.asked_created = spec.created_at end
  if spec.expires_at == cjson.null then
    life.expires = ''
  elseif spec.expires_at ~= nil then
    if tonumber(spec.expires_at) <= NOW then return nil, not_future('expires_at') end
    life.expires = spec.expires_at
  elseif spec.ttl_ms ~= nil then
    life.expires = ms_string(at + tonumber(spec.ttl_ms))
  else
    local days = retention_days(K.settings, tier)
    if days then life.expires = ms_string(at + days * DAY_MS) end
  end
  if spec.supersedes ~= nil then
    local head, refusal = chain_head(spec.supersedes, walk_max)
    if not head then return nil, refusal end
    -- A restricted caller checked the chain's latest memory before this call: one superseded since is not it.
    if spec.supersedes_head ~= nil and head ~= spec.supersedes_head then
      local message = 'The memory to supersede was superseded meanwhile: send the request again'
      return nil, invalid('supersedes', 'latest', message)
    end
    life.supersedes = head
  end
  -- The memory that replaces this one came first (an export writes it first when it sits in an earlier
  -- subtree), so its `supersedes` was passed over: it is restored from this side, unless it replaces another.
  local by = spec.superseded_by
  if by ~= nil and visible(by) and not redis.call('HGET', K.memory(by), 'supersedes') then life.replaced_by = by end
  return life
end

-- Writes what new_life decided for memory `id`, once its record exists: its life fields and indexes, the
-- memory it replaces marked, and the memory that replaces it linked to it. Returns the read_memory of each
-- of those two (false when there is none).
local function begin_life(id, life)
  local key = K.memory(id)
  memory_write(key, 'occurred_at', life.occurred)
  redis.call('ZADD', K.occurred, life.occurred, id)
  if life.expires ~= '' then
    memory_write(key, 'expires_at', life.expires)
    redis.call('ZADD', K.expiring, life.expires, id)
  end
  local replaced, replacer = false, false
  if life.supersedes ~= '' then
    memory_write(key, 'supersedes', life.supersedes)
    supersede(life.supersedes, id, life.occurred)
    replaced = read_memory(life.supersedes)
  end
  if life.replaced_by then
    local by = K.memory(life.replaced_by)
    memory_write(by, 'supersedes', id, 'updated_at', NOW)
    bump_version(by)
    redis.call('ZADD', K.updated, NOW, life.replaced_by)
    -- This memory is new (version 1): it is written as replaced, not changed.
    local ended = redis.call('HGET', by, 'occurred_at') or redis.call('HGET', by, 'created_at')
    memory_write(key, 'superseded_by', life.replaced_by, 'valid_to', ended)
    replacer = read_memory(life.replaced_by)
  end
  return replaced, replacer
end

-- After memory `id`'s occurred_at changed to `occurred`: the memory it replaced ends there too. Returns
-- that memory's read_memory, or false.
local function follow_occurred(id, occurred)
  local old = redis.call('HGET', K.memory(id), 'supersedes')
  if not old or redis.call('HGET', K.memory(old), 'superseded_by') ~= id then return false end
  supersede(old, id, occurred)
  return read_memory(old)
end

-- When memory `id` goes, the memory it replaced (if it still names `id`) is the latest of its chain again:
-- superseded_by and valid_to cleared. Returns that memory's id, or nil.
local function unsupersede(id)
  local old = redis.call('HGET', K.memory(id), 'supersedes')
  if not old then return nil end
  local key = K.memory(old)
  if redis.call('HGET', key, 'superseded_by') ~= id then return nil end
  memory_clear(key, 'superseded_by', 'valid_to')
  memory_write(key, 'updated_at', NOW)
  bump_version(key)
  redis.call('ZADD', K.updated, NOW, old)
  return old
end

-- What a removal changed: deleted {id, version, ...}; changed id → names of its changed fields, in `order`.
local function new_removal()
  return { deleted = {}, changed = {}, order = {} }
end

local function note(acc, id, fields)
  if not acc.changed[id] then
    acc.changed[id] = {}
    acc.order[#acc.order + 1] = id
  end
  push_all(acc.changed[id], fields)
end

-- Children of `id` become roots (their version bumps, updated_at refreshed).
local function orphan_children(id, acc)
  for _, kid in ipairs(redis.call('ZRANGE', K.kids(id), 0, -1)) do
    local kkey = K.memory(kid)
    memory_clear(kkey, 'parent')
    memory_write(kkey, 'updated_at', NOW)
    bump_version(kkey)
    redis.call('ZADD', K.updated, NOW, kid)
    redis.call('ZADD', K.roots, redis.call('ZSCORE', K.created, kid) or NOW, kid)
    note(acc, kid, { 'parent_memory_id' })
  end
end

-- Memory `vid` goes with every index and both ends of its links; its external_id is free again.
local function remove_memory(vid, acc)
  local key = K.memory(vid)
  local f = redis.call('HMGET', key, 'content_type', 'tier', 'memory_nature', 'parent', 'external_id', 'v')
  if f[1] then storage_add(-1, -stored_bytes(vid)) end
  local restored = unsupersede(vid)
  if restored then note(acc, restored, { 'superseded_by', 'valid_to' }) end
  for _, index in ipairs({ K.created, K.updated, K.roots, K.occurred, K.expiring }) do
    redis.call('ZREM', index, vid)
  end
  if f[1] then redis.call('ZREM', K.content_type(f[1]), vid) end
  if f[2] then redis.call('ZREM', K.tier(f[2]), vid) end
  if f[3] then redis.call('ZREM', K.memory_nature(f[3]), vid) end
  if f[4] then redis.call('ZREM', K.kids(f[4]), vid) end
  if f[5] and redis.call('HGET', K.ext, f[5]) == vid then redis.call('HDEL', K.ext, f[5]) end
  -- The hash and both ends of its links go (memory-data), so tag and entity memory_count drop with it.
  memory_drop(vid)
  redis.call('DEL', K.kids(vid))
  push_all(acc.deleted, { vid, (tonumber(f[6]) or 0) + 1 })
end

-- Removes `id`, with its whole subtree when `cascade`, else its children become roots.
local function remove_tree(id, cascade, acc)
  if cascade then
    for _, vid in ipairs(subtree(id)) do remove_memory(vid, acc) end
  else
    orphan_children(id, acc)
    remove_memory(id, acc)
  end
end

-- { {deletedId, version, ...}, { {read_memory(changed), {field names}} ... } }: memories that went and
-- the memories they changed (orphans, restored), read once everything is done.
local function removal_reply(acc)
  local updates = {}
  for _, id in ipairs(acc.order) do
    local m = read_memory(id)
    if m then updates[#updates + 1] = { m, acc.changed[id] } end
  end
  return { acc.deleted, updates }
end
