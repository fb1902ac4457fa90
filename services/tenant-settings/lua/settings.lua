-- What the memories library reads of a tenant's settings (services/tenant-settings/settings.ts names the
-- hash and its fields; settings.test.ts checks both read alike). `key` is the declared settings key.

-- Days a new memory of `tier` lives when created without an expiry; nil = forever.
local function retention_days(key, tier)
  return tonumber(redis.call('HGET', key, 'retention:' .. tier))
end

-- Whether a memory's expiry purges its descendants with it (else they become roots).
local function expiry_cascades(key)
  return redis.call('HGET', key, 'retention:cascade') == '1'
end

-- The root key's overrides of the tenant's quotas of memories and of bytes: nil = the plan's default, 0 = no limit.
local function quota_overrides(key)
  local o = redis.call('HMGET', key, 'quota:memories', 'quota:bytes')
  return tonumber(o[1]), tonumber(o[2])
end
