-- Shared helpers, defined once in the function library (library.ts), after the key templates `K` (layout.ts)
-- and before the scripts, which receive their own arguments as `A`.

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Expected outcomes the caller maps to domain errors; checked before any write, so nothing is half done.
local function conflict(code, extra)
  return redis.error_reply('CONFLICT ' .. code .. (extra and (' ' .. extra) or ''))
end

local function push_all(dst, src)
  for i = 1, #src do dst[#dst + 1] = src[i] end
  return dst
end

-- { id, flat hash, {tagId, name, color|'' ...} of tags whose hash still exists, entity ids } or false.
local function read_memory(id)
  local h = redis.call('HGETALL', K.memory(id))
  if #h == 0 then return false end
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

-- ZMSCORE in chunks (Lua's unpack has a small stack limit); returns id → score.
local function scores_of(key, ids)
  local out = {}
  for i = 1, #ids, 500 do
    local chunk = {}
    for j = i, math.min(i + 499, #ids) do chunk[#chunk + 1] = ids[j] end
    local s = redis.call('ZMSCORE', key, unpack(chunk))
    for j = 1, #chunk do out[chunk[j]] = tonumber(s[j]) or 0 end
  end
  return out
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
