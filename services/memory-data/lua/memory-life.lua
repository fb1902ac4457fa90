-- A memory's life, for the memories and the tags libraries alike (defined at their top, after links.lua):
-- the one clock (Redis TIME) and the one rule of what a read sees. A memory past its `expires_at` is
-- gone for every read and write from that instant, though its keys stay until the expiry sweeper
-- purges it (services/memories/lua/purge.lua).

-- Redis TIME in epoch milliseconds: one clock for every replica.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Whether `expires_at` (ms as stored, or nil) has come at `now`.
local function has_expired(expires_at, now)
  return expires_at ~= nil and expires_at ~= false and tonumber(expires_at) <= now
end

-- Whether the memory hash `key` holds a memory that any read may see at `now`.
local function memory_visible(key, now)
  local f = redis.call('HMGET', key, 'created_at', 'expires_at')
  return f[1] ~= false and not has_expired(f[2], now)
end
