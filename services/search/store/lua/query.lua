-- Candidates of one query, read-only apart from scratch keys it deletes before returning.
-- KEYS[1] the `all` set (routing). ARGV: 1 prefix, 2 mode ('lex' | 'browse'), 3 k,
-- 4 filter groups JSON (AND of ORs of filter-set suffixes), 5 created_at >= (or ''), 6 created_at < (or ''),
-- 7 terms JSON [[term, idf], ...] (lex), 8 scratch key prefix (hash-tagged like the others),
-- 9 postings read per term when a term's postings are larger than that (lex).
-- Returns {count of memories passing the filters, {id, score, id, score, ...}}: the top k by
-- Σ idf · w for 'lex' (only memories with at least one term), by created_at (newest first) for 'browse'.
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
if mode == 'browse' then
  if k > 0 then result = redis.call('ZRANGE', base, 0, k - 1, 'REV', 'WITHSCORES') end
else
  local terms = cjson.decode(ARGV[7])
  local cap = tonumber(ARGV[9])
  local largest = 0
  for _, t in ipairs(terms) do largest = math.max(largest, redis.call('ZCARD', p .. 't:' .. t[1])) end
  -- Not deeper with a filter: reading until `cap` postings pass a selective one would cost
  -- all/passing times more, and this script holds Redis (the vector side proposes candidates too).
  local depth = cap
  if #terms > 0 and count > 0 and k > 0 and largest > depth then
    -- Large postings: score only each term's `depth` highest-weighted postings (their union is where
    -- the top k lies in practice), instead of a union over every posting of every term.
    local acc, order = {}, {}
    for _, t in ipairs(terms) do
      local r = redis.call('ZRANGE', p .. 't:' .. t[1], 0, depth - 1, 'REV', 'WITHSCORES')
      local idf = tonumber(t[2])
      for i = 1, #r, 2 do
        local id = r[i]
        if acc[id] == nil then order[#order + 1] = id; acc[id] = 0 end
        acc[id] = acc[id] + idf * tonumber(r[i + 1])
      end
    end
    -- Keep the best k in a small sorted array (a full sort of every posting read costs more than
    -- the reads); the filter is checked only for ids good enough to enter it.
    local top = {}
    local function better(a, b) if acc[a] ~= acc[b] then return acc[a] > acc[b] end return a < b end
    for _, id in ipairs(order) do
      if (#top < k or better(id, top[#top])) and (not F or redis.call('ZSCORE', F, id)) then
        local lo, hi = 1, #top + 1
        while lo < hi do
          local mid = math.floor((lo + hi) / 2)
          if better(top[mid], id) then lo = mid + 1 else hi = mid end
        end
        table.insert(top, lo, id)
        if #top > k then top[#top] = nil end
      end
    end
    for _, id in ipairs(top) do
      result[#result + 1] = id
      result[#result + 1] = tostring(acc[id])
    end
  elseif #terms > 0 and count > 0 and k > 0 then
    local L = tmp()
    local args = { 'ZUNIONSTORE', L, #terms }
    for _, t in ipairs(terms) do args[#args + 1] = p .. 't:' .. t[1] end
    args[#args + 1] = 'WEIGHTS'
    for _, t in ipairs(terms) do args[#args + 1] = t[2] end
    call(args)
    if F then redis.call('ZINTERSTORE', L, 2, L, F, 'WEIGHTS', 1, 0) end
    result = redis.call('ZRANGE', L, 0, k - 1, 'REV', 'WITHSCORES')
  end
end
if #scratch > 0 then redis.call('DEL', unpack(scratch)) end
return { count, result }
