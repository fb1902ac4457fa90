-- A memory's links and version, for the memories and the tags libraries alike (defined at their top,
-- after keyspace.lua): `m:…:tags` ↔ `t:…:mems` and `m:…:ents` ↔ `e:…:mems` change only here, both ends
-- together, so a member count (ZCARD of a tag's or entity's member zset) is exact at all times.
-- `links` is a memory's set of tag or entity ids; `members` a tag's or entity's zset of memory ids,
-- scored by each memory's created_at ms.

-- One change of a memory or of its links: bumps its version `v` (events and the index order by it).
-- Returns the new version.
local function bump_version(memory)
  return redis.call('HINCRBY', memory, 'v', 1)
end

-- Links memory `mid` (hash `memory`, link set `links`) to `id` (member zset `members`); false when they
-- were linked already. The caller bumps the version, once per memory.
local function link(memory, mid, links, id, members)
  if redis.call('SADD', links, id) == 0 then return false end
  redis.call('ZADD', members, tonumber(redis.call('HGET', memory, 'created_at')) or 0, mid)
  return true
end

-- Unlinks memory `mid` from `id`; false when they were not linked. The caller bumps the version.
local function unlink(mid, links, id, members)
  if redis.call('SREM', links, id) == 0 then return false end
  redis.call('ZREM', members, mid)
  return true
end

-- Before `id` (a tag or an entity) and its member zset are deleted: every member memory drops `id` from
-- its link set (`links_of(mid)` names it). Returns the member ids; the caller bumps their versions.
local function unlink_members(id, members, links_of)
  local mids = redis.call('ZRANGE', members, 0, -1)
  for _, mid in ipairs(mids) do redis.call('SREM', links_of(mid), id) end
  return mids
end

-- Before memory `mid` and its link set are deleted: it leaves the member zset of everything it links to
-- (`members_of(id)` names it).
local function leave_members(mid, links, members_of)
  for _, id in ipairs(redis.call('SMEMBERS', links)) do redis.call('ZREM', members_of(id), mid) end
end
