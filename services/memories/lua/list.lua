-- One page of memories matching every filter, with the exact total, in one read-only step.
-- KEYS: the tenant's index keys (helpers.lua), then the filter sets (sorted sets scored by the memory's
--   created_at) that every memory listed is in.
-- ARGV: sort ('created' | 'updated'), order ('asc' | 'desc'), offset, limit, after ms ('' = none),
--   before ms ('' = none), non_roots ('1' = only memories with a parent), external_id ('' = none).
-- Returns { total, {read_memory ...} }.
use_keys(KEYS)
local sort, order = ARGV[1], ARGV[2]
local offset, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local after, before = tonumber(ARGV[5]), tonumber(ARGV[6])
local non_roots, ext = ARGV[7] == '1', ARGV[8]
local sets = {}
for i = 7, #KEYS do sets[#sets + 1] = KEYS[i] end
local ranged = after ~= nil or before ~= nil
local min = after and ('(' .. ARGV[5]) or '-inf'
local max = before and ('(' .. ARGV[6]) or '+inf'
local function in_range(ms)
  return (after == nil or ms > after) and (before == nil or ms < before)
end

local total, ids
if ext ~= '' then
  -- external_id names at most one memory: check it against every other filter.
  local id = redis.call('HGET', K.ext, ext)
  local hit = {}
  if id then
    local ok = in_range(tonumber(redis.call('ZSCORE', K.created, id)) or -1)
    for i = 1, #sets do ok = ok and redis.call('ZSCORE', sets[i], id) ~= false end
    if non_roots then ok = ok and redis.call('ZSCORE', K.roots, id) == false end
    if ok then hit = { id } end
  end
  total, ids = page_of(hit, offset, limit, order)
elseif not non_roots and #sets <= 1 and (sort == 'created' or (#sets == 0 and not ranged)) then
  -- One index already in the wanted order: count and range it directly (O(log n + page)).
  local src = sets[1] or ((sort == 'updated') and K.updated or K.created)
  total = redis.call('ZCOUNT', src, min, max)
  if order == 'desc' then
    ids = redis.call('ZRANGE', src, max, min, 'BYSCORE', 'REV', 'LIMIT', offset, limit)
  else
    ids = redis.call('ZRANGE', src, min, max, 'BYSCORE', 'LIMIT', offset, limit)
  end
else
  -- Intersect the filter sets; the weights make the score the sort field (or created_at first when
  -- a created range or the non-root filter has to be applied before sorting by updated_at).
  local direct = sort == 'updated' and not ranged and not non_roots
  local keys = { direct and K.updated or K.created }
  push_all(keys, sets)
  local args = { 'ZINTER', #keys }
  push_all(args, keys)
  args[#args + 1] = 'WEIGHTS'
  for i = 1, #keys do args[#args + 1] = (i == 1) and 1 or 0 end
  if direct then
    total, ids = page_of(redis.call(unpack(args)), offset, limit, order)
  else
    args[#args + 1] = 'WITHSCORES'
    local r = redis.call(unpack(args))
    local list = {}
    for i = 1, #r, 2 do
      if in_range(tonumber(r[i + 1])) and (not non_roots or redis.call('ZSCORE', K.roots, r[i]) == false) then
        list[#list + 1] = r[i]
      end
    end
    if sort == 'updated' then sort_by_score(list, scores_of(K.updated, list)) end
    total, ids = page_of(list, offset, limit, order)
  end
end

local items = {}
for i = 1, #ids do items[#items + 1] = read_memory(ids[i]) end
return cjson.encode({ total, items })
