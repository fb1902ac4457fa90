-- Releases a claimed space: its next look at `next` (ms; '' = none left: it leaves the registry). If an
-- expiry was registered since the claim (`gen` moved), `next` may not know it: the earlier of the two
-- stays. The gen count only grows, so an old claim never mistakes a later one's count for its own.
-- KEYS: `sweep:{expiry}:due` the registry's due zset, `sweep:{expiry}:gen` its gen hash.
-- ARGV: space, gen at the claim, next ('' = none)
local m, gen, nxt = ARGV[1], ARGV[2], ARGV[3]
if (redis.call('HGET', KEYS[2], m) or '0') == gen then
  if nxt == '' then redis.call('ZREM', KEYS[1], m) else redis.call('ZADD', KEYS[1], nxt, m) end
elseif nxt ~= '' then
  redis.call('ZADD', KEYS[1], 'LT', nxt, m)
end
return cjson.encode(1)
