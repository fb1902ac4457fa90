-- Shared helpers, defined once at the top of the memories library (library.ts), after memory-data's Lua
-- (keyspace.lua: key names; links.lua: links and versions).
-- Every function answers with one JSON string (cjson.encode) rather than nested RESP arrays: ioredis
-- decodes a nested reply element by element in JavaScript, which was most of the service's CPU for a
-- page of 20 memories; JSON.parse of the same answer is ~20 µs. Answers hold lists only, never tables
-- with named fields: cjson writes an empty table as {}, so store.ts reads every object as an empty list.

-- The keys of a call. Every function declares the tenant's index keys, in this order:
--   KEYS[1] mi:{t:e}:created, [2] mi:{t:e}:updated, [3] mi:{t:e}:roots, [4] mi:{t:e}:ext,
--   [5] ei:{t:e}:names, [6] ei:{t:e}:created, [7] mi:{t:e}:occurred, [8] mi:{t:e}:expiring,
--   [9] tenant:{t:e}:settings (services/tenant-settings/), [10] mi:{t:e}:storage (quota.lua)
-- (list.lua adds its filter sets after them). Keys of single records (a memory, its link sets, a tag,
-- an entity) are built from the ids met while running (keyspace.lua), in the slot of KEYS[1].
local INDEX_KEYS = 10
local K = {
  memory = TK.memory,
  tags = TK.memory_tags,
  kids = TK.memory_kids,
  ents = TK.memory_entities,
  tag = TK.tag,
  tagMembers = TK.tag_members,
  entity = TK.entity,
  entMembers = TK.entity_members,
  content_type = function(v) return TK.by_field('content_type', v) end,
  tier = function(v) return TK.by_field('tier', v) end,
  memory_nature = function(v) return TK.by_field('memory_nature', v) end,
}

-- The instant a call runs at (Redis TIME, read once by use_keys): what it sees as expired.
local NOW = 0

local function use_keys(keys)
  use_tenant_of(keys[1])
  K.created, K.updated, K.roots, K.ext, K.entNames, K.entCreated = keys[1], keys[2], keys[3], keys[4], keys[5], keys[6]
  K.occurred, K.expiring, K.settings, K.storage = keys[7], keys[8], keys[9], keys[10]
  NOW = now_ms()
end

-- Whether memory `id` exists for this call: stored, and not past its expires_at.
local function visible(id)
  return memory_visible(K.memory(id), NOW)
end

-- Refusals of more than one function, with the API's messages (refuse, redis-functions.lua).
local function parent_missing()
  return invalid('parent_memory_id', 'exists', 'parent_memory_id must name an existing memory')
end

local function too_deep(max)
  local message = 'A memory hierarchy may be at most ' .. max .. ' levels deep'
  return invalid('parent_memory_id', 'max_depth', message, { max = max })
end

local function external_id_taken()
  return invalid('external_id', 'unique', 'A memory with this external_id already exists')
end

-- Whether `ext` names a memory other than `id` that still exists: an expired holder frees it at once.
local function external_id_held(ext, id)
  local owner = redis.call('HGET', K.ext, ext)
  return owner ~= false and owner ~= id and visible(owner)
end

local function entity_name_taken(existing_id)
  local message = 'An entity with this name and type already exists'
  return invalid('name', 'unique', message, { existing_id = existing_id })
end

local function push_all(dst, src)
  for i = 1, #src do dst[#dst + 1] = src[i] end
  return dst
end

-- { id, flat hash, {tagId, name, color|'' ...} of tags whose hash still exists, entity ids } or false
-- (unknown, or expired).
local function read_memory(id)
  local h = redis.call('HGETALL', K.memory(id))
  if #h == 0 then return false end
  for i = 1, #h, 2 do
    if h[i] == 'expires_at' and has_expired(h[i + 1], NOW) then return false end
  end
  local tags = {}
  local tids = redis.call('SMEMBERS', K.tags(id))
  for i = 1, #tids do
    local t = redis.call('HMGET', K.tag(tids[i]), 'name', 'color')
    if t[1] then
      tags[#tags + 1] = tids[i]
      tags[#tags + 1] = t[1]
      tags[#tags + 1] = t[2] or ''
    end
  end
  return { id, h, tags, redis.call('SMEMBERS', K.ents(id)) }
end

-- { id, flat hash, memory_count } or false.
local function read_entity(id)
  local h = redis.call('HGETALL', K.entity(id))
  if #h == 0 then return false end
  return { id, h, redis.call('ZCARD', K.entMembers(id)) }
end

local function parent_of(id)
  return redis.call('HGET', K.memory(id), 'parent')
end

-- Levels from `start` up to its root, `start` included (a root is 1); -1 when `id` is on that path
-- (re-parenting `id` under `start` would close a cycle). Stops counting past `max`.
local function depth_above(start, id, max)
  local d, cur = 1, start
  while true do
    if cur == id then return -1 end
    local p = parent_of(cur)
    if not p or d > max then return d end
    d = d + 1
    cur = p
  end
end

-- Levels of the subtree rooted at `id` (a leaf is 1); stops as soon as it exceeds `limit`.
local function subtree_height(id, limit)
  local level, frontier = 1, { id }
  while true do
    local nxt = {}
    for i = 1, #frontier do push_all(nxt, redis.call('ZRANGE', K.kids(frontier[i]), 0, -1)) end
    if #nxt == 0 or level >= limit + 1 then return level end
    level = level + 1
    frontier = nxt
  end
end

-- Every id of the subtree rooted at `id`, breadth first, `id` first.
local function subtree(id)
  local all, i = { id }, 1
  while i <= #all do
    push_all(all, redis.call('ZRANGE', K.kids(all[i]), 0, -1))
    i = i + 1
  end
  return all
end

-- ZMSCORE in chunks (Lua's unpack has a small stack limit); returns id → score, for an id that is no
-- member `default[id]` (a table given), else 0.
local function scores_of(key, ids, default)
  local out = {}
  for i = 1, #ids, 500 do
    local chunk = {}
    for j = i, math.min(i + 499, #ids) do chunk[#chunk + 1] = ids[j] end
    local s = redis.call('ZMSCORE', key, unpack(chunk))
    for j = 1, #chunk do out[chunk[j]] = tonumber(s[j]) or (default and default[chunk[j]]) or 0 end
  end
  return out
end

-- id → true for each of `ids`.
local function set_of(ids)
  local out = {}
  for i = 1, #ids do out[ids[i]] = true end
  return out
end

-- The memories of the tenant past their expires_at and not purged yet: hidden from every read.
local function expired_ids()
  return redis.call('ZRANGE', K.expiring, '-inf', NOW, 'BYSCORE')
end

-- A timestamp in ms as Redis stores it: exact (tostring would keep only 14 digits).
local function ms_string(ms)
  return string.format('%d', ms)
end

-- occurred_at ms of each id (created_at ms where none is indexed); `created` maps id → created_at ms.
local function occurred_of(ids, created)
  return scores_of(K.occurred, ids, created)
end

-- Sorts ids ascending by (score, id), like a sorted set orders its members.
local function sort_by_score(ids, score)
  table.sort(ids, function(a, b)
    if score[a] ~= score[b] then return score[a] < score[b] end
    return a < b
  end)
  return ids
end

-- One page of an ascending list: `order` 'desc' reads it from the end.
local function page_of(sorted, offset, limit, order)
  local n, out = #sorted, {}
  for k = offset + 1, math.min(offset + limit, n) do
    out[#out + 1] = (order == 'asc') and sorted[k] or sorted[n - k + 1]
  end
  return n, out
end
