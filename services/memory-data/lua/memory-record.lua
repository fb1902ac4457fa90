-- The memory hash's writes, for the memories and the tags libraries alike (defined at their top, after
-- links.lua). The hash `m:{tenant:env}:<id>` (its fields: memory-hash.ts) is memory-data's: the memories
-- service's functions write it only through these, and its version only through bump_version (links.lua),
-- so test/codebase/key-ownership.test.ts finds no other script writing it.

-- Sets fields of the memory hash `memory` (field, value, ...).
local function memory_write(memory, ...)
  return redis.call('HSET', memory, ...)
end

-- Removes fields of the memory hash `memory`.
local function memory_clear(memory, ...)
  return redis.call('HDEL', memory, ...)
end

-- Memory `mid` goes: its hash, and both ends of its links to tags and entities (so every memory_count
-- drops with it). Its key names come from the tenant of the call (keyspace.lua's use_tenant_of).
local function memory_drop(mid)
  drop_links(mid, TK.memory_tags(mid), TK.tag_members)
  drop_links(mid, TK.memory_entities(mid), TK.entity_members)
  redis.call('DEL', TK.memory(mid))
end
