-- What a tenant's environment stores, and its quotas, for every function that adds, grows, shrinks or
-- removes memories (after helpers.lua, before life.lua): the check and the count change in the same
-- atomic step as the write. The hash K.storage counts `memories` (records stored, expired ones too until
-- the purge takes them) and `bytes` (their content plus their metadata JSON text, byte lengths as stored).
-- A limit of 0 is none.

-- The bytes of memory `id` as stored: content + metadata.
local function stored_bytes(id)
  local key = K.memory(id)
  return redis.call('HSTRLEN', key, 'content') + redis.call('HSTRLEN', key, 'metadata')
end

-- This call's limits: the root key's override in the tenant's settings (settings.lua), else the plan's
-- (`memories`, `bytes`: ARGV strings from the caller's plan, '' = none).
local function quota_limits(memories, bytes)
  local own_memories, own_bytes = quota_overrides(K.settings)
  return { memories = own_memories or tonumber(memories) or 0, bytes = own_bytes or tonumber(bytes) or 0 }
end

-- The counters as they stand: memories, bytes.
local function storage_used()
  local u = redis.call('HMGET', K.storage, 'memories', 'bytes')
  return tonumber(u[1]) or 0, tonumber(u[2]) or 0
end

local function quota_exceeded(quota, limit, used)
  local message = 'The ' .. quota .. ' quota of this tenant environment (' .. limit .. ') does not allow this write'
  return refuse('QUOTA_EXCEEDED', message, { quota = quota, limit = limit, used = used })
end

-- nil when `memories` more memories and `bytes` more bytes fit within `limits`, else the refusal. Only growth
-- is refused: a write that shrinks what is stored always passes, even over a limit lowered meanwhile.
local function quota_refusal(limits, memories, bytes)
  if (memories <= 0 or limits.memories == 0) and (bytes <= 0 or limits.bytes == 0) then return nil end
  local used_memories, used_bytes = storage_used()
  if memories > 0 and limits.memories > 0 and used_memories + memories > limits.memories then
    return quota_exceeded('memories', limits.memories, used_memories)
  end
  if bytes > 0 and limits.bytes > 0 and used_bytes + bytes > limits.bytes then
    return quota_exceeded('bytes', limits.bytes, used_bytes)
  end
  return nil
end

-- Counts `memories` more memories and `bytes` more bytes (negative: fewer). The last memory gone, the hash
-- goes too, so an emptied space leaves no key behind.
local function storage_add(memories, bytes)
  if bytes ~= 0 then redis.call('HINCRBY', K.storage, 'bytes', bytes) end
  if memories == 0 then return end
  if redis.call('HINCRBY', K.storage, 'memories', memories) == 0 and memories < 0 then redis.call('DEL', K.storage) end
end
