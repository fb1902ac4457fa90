-- Pages of a sorted set in a memory order, for list.lua and siblings.lua (after helpers.lua).
-- A sorted set orders members of equal score by member (the id). A thread's order (`occurred_at`) breaks
-- ties by created_at first, then id: where a page meets such a tie (`tie` = true), the tie is read whole
-- and sorted here, so the work stays the page plus the ties at its two ends. Memories past their
-- expires_at are left out (`hidden`) with positions and totals exact: each hidden member of the range
-- is located (O(log n)), never the range walked.
-- Bounds are ZRANGE's: '-inf', '+inf', '(<ms>' (exclusive) or '<ms>'; scores stay strings, as Redis gives
-- them, so no timestamp goes through Lua's 14-digit number formatting.

-- Whether score `s` (string) lies within the bounds `min`, `max`.
local function within(s, min, max)
  local x = tonumber(s)
  local function ok(bound, lower)
    if bound == '-inf' or bound == '+inf' then return true end
    local open = string.sub(bound, 1, 1) == '('
    local b = tonumber(open and string.sub(bound, 2) or bound)
    if lower then return open and x > b or (not open and x >= b) end
    return open and x < b or (not open and x <= b)
  end
  return ok(min, true) and ok(max, false)
end

-- Members of `src` with a score in [lo, hi] (strings), ascending; with `tie`, ties by created_at, then id.
local function span(src, lo, hi, tie)
  local r = redis.call('ZRANGE', src, lo, hi, 'BYSCORE', 'WITHSCORES')
  local ids, score = {}, {}
  for i = 1, #r, 2 do
    ids[#ids + 1] = r[i]
    score[r[i]] = tonumber(r[i + 1])
  end
  if not tie or #ids < 2 then return ids end
  local created = scores_of(K.created, ids)
  table.sort(ids, function(a, b)
    if score[a] ~= score[b] then return score[a] < score[b] end
    if created[a] ~= created[b] then return created[a] < created[b] end
    return a < b
  end)
  return ids
end

-- The members at positions [from, from + n) (0-based) of `src` within [min, max], in `order`.
local function window(src, min, max, from, n, order, tie)
  if n <= 0 then return {} end
  local r
  if order == 'asc' then
    r = redis.call('ZRANGE', src, min, max, 'BYSCORE', 'LIMIT', from, n, 'WITHSCORES')
  else
    r = redis.call('ZRANGE', src, max, min, 'BYSCORE', 'REV', 'LIMIT', from, n, 'WITHSCORES')
  end
  local ids = {}
  for i = 1, #r, 2 do ids[#ids + 1] = r[i] end
  if not tie or #ids == 0 then return ids end
  -- The page's scores run from r[2] to r[#r]; every member scored in between, ties included, is read.
  local lo, hi = r[2], r[#r]
  if order ~= 'asc' then lo, hi = hi, lo end
  local all = span(src, lo, hi, true)
  local ahead
  if order == 'asc' then
    ahead = redis.call('ZCOUNT', src, min, '(' .. lo)
  else
    ahead = redis.call('ZCOUNT', src, '(' .. hi, max)
  end
  local out = {}
  for k = from - ahead + 1, from - ahead + n do
    if k >= 1 and k <= #all then out[#out + 1] = (order == 'asc') and all[k] or all[#all - k + 1] end
  end
  return out
end

-- The 0-based position of member `id` (score `s`) of `src` within [min, max] (`count` members), in `order`.
local function position(src, id, s, min, max, order, tie, count)
  local ahead = redis.call('ZCOUNT', src, min, '(' .. s)
  local rank = 0
  if tie then
    local ties = span(src, s, s, true)
    for i = 1, #ties do
      if ties[i] == id then rank = i - 1 end
    end
  else
    rank = redis.call('ZRANK', src, id) - redis.call('ZCOUNT', src, '-inf', '(' .. s)
  end
  local asc = ahead + rank
  return (order == 'asc') and asc or (count - 1 - asc)
end

-- Positions (ascending) of the `hidden` ids that are members of `src` within [min, max].
local function hidden_positions(src, min, max, order, tie, count, hidden)
  local out = {}
  for i = 1, #hidden do
    local s = redis.call('ZSCORE', src, hidden[i])
    if s and within(s, min, max) then out[#out + 1] = position(src, hidden[i], s, min, max, order, tie, count) end
  end
  table.sort(out)
  return out
end

-- One page of `src` within [min, max] in `order`, `hidden` ids left out: the total, the page's ids.
local function direct_page(src, min, max, offset, limit, order, tie, hidden)
  local count = redis.call('ZCOUNT', src, min, max)
  local skip = hidden_positions(src, min, max, order, tie, count, hidden)
  -- The raw position of visible position `offset`: every hidden member at or before it moves it on.
  local start = offset
  for _, p in ipairs(skip) do
    if p <= start then start = start + 1 end
  end
  local is_hidden, ids = set_of(hidden), {}
  for _, id in ipairs(window(src, min, max, start, limit + #skip, order, tie)) do
    if not is_hidden[id] and #ids < limit then ids[#ids + 1] = id end
  end
  return count - #skip, ids
end
