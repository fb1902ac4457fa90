-- Remove one memory from every index and leave a tombstone with its version, so a late event
-- (older version) cannot bring it back; the tombstone expires after the event stream's retention.
-- KEYS: 1 doc, 2 all, 3 stats; the rest (postings, filter sets, vector set, thread order, the occurred,
--   valid_to and expiring sets, next sibling) are built from what the doc holds (use_index, common.lua).
-- ARGV: 1 id, 2 version, 3 tombstone TTL ms, 4 k1, 5 b, 6 context weight.
-- Returns 'ok' (removed) | 'absent' (nothing indexed; tombstone written) | 'stale' (newer version indexed).
use_index(KEYS[2], KEYS[3])
local id, version = ARGV[1], tonumber(ARGV[2])
local k1, b, ctxw = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local cur = redis.call('HMGET', KEYS[1], DOC.version, DOC.deleted, DOC.model, DOC.filterSuffixes, DOC.parent,
  DOC.postingTerms, DOC.postingLength, DOC.threadOrder, DOC.vectorCount)
local curV = tonumber(cur[1])
if curV ~= nil and curV > version then return 'stale' end

local removed = 'absent'
local nxt = nil
if curV ~= nil and cur[2] ~= '1' then
  local _, n = siblings(cur[5], cur[8])
  nxt = n
  if cur[5] and cur[5] ~= '' and cur[8] then redis.call('ZREM', thread_key(cur[5]), cur[8]) end
  for _, key in ipairs({ occurred_key(), valid_to_key(), expiring_key() }) do redis.call('ZREM', key, id) end
  if cur[6] then
    for _, t in ipairs(cjson.decode(cur[6])) do redis.call('ZREM', term_key(t), id) end
  end
  if cur[4] then
    for _, s in ipairs(cjson.decode(cur[4])) do redis.call('ZREM', filter_key(s), id) end
  end
  redis.call('ZREM', ALL_KEY, id)
  if cur[3] and cur[3] ~= '' then
    local n = tonumber(cur[9]) or 1
    remove_vectors(vectors_key(cur[3]), id, 0, n)
    count_extra_vectors(1 - n)
  end
  local total = tonumber(redis.call('HGET', STATS_KEY, STATS.postingLengthSum) or '0') - tonumber(cur[7] or '0')
  if total < 0 then total = 0 end
  redis.call('HSET', STATS_KEY, STATS.postingLengthSum, total)
  removed = 'ok'
elseif redis.call('ZREM', ALL_KEY, id) == 1 then
  -- A stray entry without its document (a damaged index): clean it too.
  removed = 'ok'
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], DOC.version, version, DOC.deleted, '1')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if nxt then relex(nxt, k1, b, ctxw) end
return removed
