-- Remove one memory from every index and leave a tombstone with its version, so a late event
-- (older version) cannot bring it back; the tombstone expires after the event stream's retention.
-- KEYS[1] doc key. ARGV: 1 prefix, 2 id, 3 version, 4 tombstone TTL ms, 5 k1, 6 b, 7 context weight.
-- Returns 'ok' (removed) | 'absent' (nothing indexed; tombstone written) | 'stale' (newer version indexed).
local p, id, version = ARGV[1], ARGV[2], tonumber(ARGV[3])
local k1, b, ctxw = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local cur = redis.call('HMGET', KEYS[1], 'v', 'del', 'model', 'fk', 'par', 'post', 'pl')
local curV = tonumber(cur[1])
if curV ~= nil and curV > version then return 'stale' end

local removed = 'absent'
local nxt = nil
if curV ~= nil and cur[2] ~= '1' then
  local _, n = siblings(p, cur[5], id)
  nxt = n
  if cur[6] then
    for _, t in ipairs(cjson.decode(cur[6])) do redis.call('ZREM', p .. 't:' .. t, id) end
  end
  if cur[4] then
    for _, s in ipairs(cjson.decode(cur[4])) do redis.call('ZREM', p .. 'f:' .. s, id) end
  end
  redis.call('ZREM', p .. 'all', id)
  if cur[3] and cur[3] ~= '' then redis.call('VREM', p .. 'v:' .. cur[3], id) end
  local total = tonumber(redis.call('HGET', p .. 'stats', 'len') or '0') - tonumber(cur[7] or '0')
  if total < 0 then total = 0 end
  redis.call('HSET', p .. 'stats', 'len', total)
  removed = 'ok'
elseif redis.call('ZREM', p .. 'all', id) == 1 then
  -- A stray entry without its document (a damaged index): clean it too.
  removed = 'ok'
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'v', version, 'del', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if nxt then relex(p, nxt, k1, b, ctxw) end
return removed
