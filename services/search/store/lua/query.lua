-- Candidates of one query, read-only apart from scratch keys it deletes before returning.
-- KEYS[1] the `all` set (routing). ARGV: 1 prefix, 2 mode ('lex' | 'browse'), 3 k,
-- 4 filter groups JSON (AND of ORs of filter-set suffixes), 5 created_at >= (or ''), 6 created_at < (or ''),
-- 7 terms JSON [[term, idf], ...] (lex), 8 scratch key prefix (hash-tagged like the others),
-- 9 postings read per term when a term's postings are larger than that (lex).
-- Returns {count of memories passing the filters, {id, score, id, score, ...}}: the top k by
-- Σ idf · w for 'lex' (only memories with at least one term), by created_at (newest first) for 'browse'.
-- The scratch keys live and die inside this script: neither the AOF nor replicas need them.
redis.set_repl(redis.REPL_NONE)
local p, mode, k = ARGV[1], ARGV[2], tonumber(ARGV[3])
local groups, after, before = cjson.decode(ARGV[4]), ARGV[5], ARGV[6]
local scratch = {}
local function tmp()
  local key = ARGV[8] .. #scratch
  scratch[#scratch + 1] = key
  return key
end
local function call(args) return redis.call(unpack(args)) end

local F = nil
local ranged = after ~= '' or before ~= ''
if #groups == 1 and #groups[1] == 1 and not ranged then
  -- One filter set and no date range: use it as it is (copying it would cost O(n) per query).
  F = p .. 'f:' .. groups[1][1]
elseif #groups > 0 then
  local keys = {}
  for _, g in ipairs(groups) do
    if #g == 1 then
      keys[#keys + 1] = p .. 'f:' .. g[1]
    else
      local u = tmp()
      local args = { 'ZUNIONSTORE', u, #g }
      for _, s in ipairs(g) do args[#args + 1] = p .. 'f:' .. s end
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
local base = F or KEYS[1]
local count = redis.call('ZCARD', base)

local result = {}
local terms = mode == 'lex' and cjson.decode(ARGV[7]) or {}
if mode == 'browse' then
  if k > 0 then result = redis.call('ZRANGE', base, 0, k - 1, 'REV', 'WITHSCORES') end
elseif #terms > 0 and count > 0 and k > 0 then
  -- Σ idf · w over each term's postings, summed by Redis itself (ZUNIONSTORE ... WEIGHTS): a Lua
  -- loop over the same postings costs ~2× as much. A term with more than `cap` postings adds only
  -- its `cap` highest-weighted ones (the top k lies in their union in practice): bounded work per
  -- query at any index size. Not deeper with a filter: reading until `cap` postings pass a
  -- selective one would cost all/passing times more, and the vector side proposes candidates too.
  local cap = tonumber(ARGV[9])
  local L = tmp()
  local args = { 'ZUNIONSTORE', L, #terms }
  for _, t in ipairs(terms) do
    local postings = p .. 't:' .. t[1]
    if redis.call('ZCARD', postings) > cap then
      local head = tmp()
      redis.call('ZRANGESTORE', head, postings, 0, cap - 1, 'REV')
      postings = head
    end
    args[#args + 1] = postings
  end
  args[#args + 1] = 'WEIGHTS'
  for _, t in ipairs(terms) do args[#args + 1] = t[2] end
  call(args)
  if F then redis.call('ZINTERSTORE', L, 2, L, F, 'WEIGHTS', 1, 0) end
  result = redis.call('ZRANGE', L, 0, k - 1, 'REV', 'WITHSCORES')
end
if #scratch > 0 then redis.call('DEL', unpack(scratch)) end
return { count, result }
