-- What an import needs to know of ids before it writes (handlers/portability.ts): for each id, the creation
-- times (ms) an imported line may give for the memory it names: its created_at, then, when an import asked for
-- one still to come (stored as the time of that import), the one asked for, comma-separated; '' when it names
-- none a read could see.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: ids
use_keys(KEYS)
local out = {}
for i = 1, #ARGV do
  local f = redis.call('HMGET', K.memory(ARGV[i]), 'created_at', 'expires_at', 'created_asked')
  if f[1] and not has_expired(f[2], NOW) then
    out[i] = f[3] and (f[1] .. ',' .. f[3]) or f[1]
  else
    out[i] = ''
  end
end
return cjson.encode(out)
