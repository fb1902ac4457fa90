-- What an import needs to know of ids before it writes (handlers/portability.ts): for each id, the
-- created_at (ms) of the memory it names, or '' when it names none a read could see.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: ids
use_keys(KEYS)
local out = {}
for i = 1, #ARGV do
  local f = redis.call('HMGET', K.memory(ARGV[i]), 'created_at', 'expires_at')
  out[i] = (f[1] and not has_expired(f[2], NOW)) and f[1] or ''
end
return cjson.encode(out)
