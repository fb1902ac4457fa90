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

-- Before `id` (a tag or an entity) goes: every member memory drops `id` from its link set (`links_of(mid)`
-- names it) and, still stored (`memory_of(mid)`), gets its version bumped; the member zset goes too.
-- Returns the ids of the memories whose version was bumped.
local function drop_members(id, members, links_of, memory_of)
  local touched = {}
  for _, mid in ipairs(redis.call('ZRANGE', members, 0, -1)) do
    redis.call('SREM', links_of(mid), id)
    local memory = memory_of(mid)
    if redis.call('EXISTS', memory) == 1 then
      bump_version(memory)
      touched[#touched + 1] = mid
    end
  end
  redis.call('DEL', members)
  return touched
end

-- Before memory `mid` goes: it leaves the member zset of everything it links to (`members_of(id)` names
-- it), and its link set `links` goes.
local function drop_links(mid, links, members_of)
  for _, id in ipairs(redis.call('SMEMBERS', links)) do redis.call('ZREM', members_of(id), mid) end
  redis.call('DEL', links)
end
