-- Candidates of one query, read-only apart from scratch keys it deletes before returning.
-- KEYS: 1 the `all` set, 2 the occurred set, 3 the valid_to set, then ARGV 7 scratch keys, then the
--   filter sets group by group (ARGV 3), then the postings of each query term (ARGV 6).
-- ARGV: 1 mode ('lex' | 'browse'), 2 k, 3 filter group sizes JSON (the filter is an AND of groups,
--   each an OR of filter sets), 4 created_at >= (or ''), 5 created_at < (or ''), 6 idf of each term
--   JSON (lex), 7 how many scratch keys, 8 postings read per term when a term's postings are larger
--   than that (lex), 9 occurred_at >= (or ''), 10 occurred_at < (or ''), 11 valid_to > (or ''; as_of).
-- Returns {count of memories passing the filters, {id, score, id, score, ...}}: the top k by
-- Σ idf · w for 'lex' (only memories with at least one term), by created_at (newest first) for 'browse'.
-- The scratch keys live and die inside this script: neither the AOF nor replicas need them.
redis.set_repl(redis.REPL_NONE)
local mode, k = ARGV[1], tonumber(ARGV[2])
local after, before = ARGV[4], ARGV[5]
local idfs = mode == 'lex' and cjson.decode(ARGV[6]) or {}
local scratches = tonumber(ARGV[7])
local scratch = {}
local o_after, o_before, valid_after = ARGV[9], ARGV[10], ARGV[11]
local o_ranged = o_after ~= '' or o_before ~= ''
local function tmp()
  -- Past its scratch keys, KEYS holds the filter sets and postings: never a place to write.
  if #scratch >= scratches then error('query: too few scratch keys') end
  local key = KEYS[4 + #scratch]
  scratch[#scratch + 1] = key
  return key
end
-- groups: the filter sets' keys, group by group.
local groups, next_key = {}, 4 + scratches
for i, size in ipairs(cjson.decode(ARGV[3])) do
  groups[i] = {}
  for j = 1, size do groups[i][j] = KEYS[next_key + j - 1] end
  next_key = next_key + size
end
local function call(args) return redis.call(unpack(args)) end

local F = nil
local ranged = after ~= '' or before ~= ''
if #groups == 1 and #groups[1] == 1 and not ranged and not o_ranged and valid_after == '' then
  -- One filter set and no date range: use it as it is (copying it would cost O(n) per query).
  F = groups[1][1]
elseif #groups > 0 then
  local keys = {}
  for _, g in ipairs(groups) do
    if #g == 1 then
      keys[#keys + 1] = g[1]
    else
      local u = tmp()
      local args = { 'ZUNIONSTORE', u, #g }
      for _, key in ipairs(g) do args[#args + 1] = key end
      args[#args + 1] = 'AGGREGATE'
      args[#args + 1] = 'MAX'
      call(args)
      keys[#keys + 1] = u
    end
  end
  F = tmp()
  local args = { 'ZINTERSTORE', F, #keys }
  for _, key in ipairs(keys) do args[#args + 1] = key end
  args[#args + 1] = 'AGGREGATE'
  args[#args + 1] = 'MAX'
  call(args)
end
if ranged then
  if F then
    if after ~= '' then redis.call('ZREMRANGEBYSCORE', F, '-inf', '(' .. after) end
    if before ~= '' then redis.call('ZREMRANGEBYSCORE', F, before, '+inf') end
  else
    F = tmp()
    local lo, hi = '-inf', '+inf'
    if after ~= '' then lo = after end
    if before ~= '' then hi = '(' .. before end
    redis.call('ZRANGESTORE', F, KEYS[1], lo, hi, 'BYSCORE')
  end
end
-- From here on F, when set, is a scratch set (a lone filter set is used as it is only without these).
if o_ranged then
  -- occurred_at in range (as_of's occurred_at <= as_of included); the scores stay created_at.
  local R = tmp()
  local lo, hi = '-inf', '+inf'
  if o_after ~= '' then lo = o_after end
  if o_before ~= '' then hi = '(' .. o_before end
  redis.call('ZRANGESTORE', R, KEYS[2], lo, hi, 'BYSCORE')
  local from = F or KEYS[1]
  if not F then F = tmp() end
  redis.call('ZINTERSTORE', F, 2, from, R, 'WEIGHTS', 1, 0)
end
if valid_after ~= '' then
  -- as_of: memories superseded by then (valid_to <= as_of) are out.
  local V = tmp()
  redis.call('ZRANGESTORE', V, KEYS[3], '-inf', valid_after, 'BYSCORE')
  local from = F or KEYS[1]
  if not F then F = tmp() end
  redis.call('ZDIFFSTORE', F, 2, from, V)
end
local base = F or KEYS[1]
local count = redis.call('ZCARD', base)

local result = {}
if mode == 'browse' then
  if k > 0 then result = redis.call('ZRANGE', base, 0, k - 1, 'REV', 'WITHSCORES') end
elseif #idfs > 0 and count > 0 and k > 0 then
  -- Σ idf · w over each term's postings, summed by Redis itself (ZUNIONSTORE ... WEIGHTS): a Lua
  -- loop over the same postings costs ~2× as much. A term with more than `cap` postings adds only
  -- its `cap` highest-weighted ones (the top k lies in their union in practice): bounded work per
  -- query at any index size. Not deeper with a filter: reading until `cap` postings pass a
  -- selective one would cost all/passing times more, and the vector side proposes candidates too.
  local cap = tonumber(ARGV[8])
  local L = tmp()
  local args = { 'ZUNIONSTORE', L, #idfs }
  for i = 1, #idfs do
    local postings = KEYS[next_key + i - 1]
    if redis.call('ZCARD', postings) > cap then
      local head = tmp()
      redis.call('ZRANGESTORE', head, postings, 0, cap - 1, 'REV')
      postings = head
    end
    args[#args + 1] = postings
  end
  args[#args + 1] = 'WEIGHTS'
  for _, idf in ipairs(idfs) do args[#args + 1] = idf end
  call(args)
  if F then redis.call('ZINTERSTORE', L, 2, L, F, 'WEIGHTS', 1, 0) end
  result = redis.call('ZRANGE', L, 0, k - 1, 'REV', 'WITHSCORES')
end
-- UNLINK: Redis's background thread frees the large sets (the heads, the sum), off its main thread, where the
-- commands queued behind this query wait (DEL held it ~0.55 ms a search at 100,000 memories).
if #scratch > 0 then redis.call('UNLINK', unpack(scratch)) end
return { count, result }
