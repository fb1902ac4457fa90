-- One page of memories matching every filter, with the exact total, in one read-only step. Memories past
-- their expires_at are neither listed nor counted.
-- KEYS: the tenant's index keys (helpers.lua), then the filter sets every memory listed is in: sorted
--   sets scored by the memory's created_at, but for a parent's children (ARGV 11 = '1': the first set,
--   scored by occurred_at).
-- ARGV: 1 sort ('created' | 'updated' | 'occurred'), 2 order ('asc' | 'desc'), 3 offset, 4 limit,
--   5 created after ms, 6 created before ms, 7 occurred after ms, 8 occurred before ms (each '' = none,
--   each exclusive), 9 non_roots ('1' = only memories with a parent), 10 external_id ('' = none),
--   11 kids ('1' | '0').
-- Returns { total, {read_memory ...} }.
use_keys(KEYS)
local sort, order = ARGV[1], ARGV[2]
local offset, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local c_after, c_before, o_after, o_before = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local non_roots, ext, kids = ARGV[9] == '1', ARGV[10], ARGV[11] == '1'
local sets = {}
for i = INDEX_KEYS + 1, #KEYS do sets[#sets + 1] = KEYS[i] end
local c_ranged, o_ranged = c_after ~= '' or c_before ~= '', o_after ~= '' or o_before ~= ''
local function lower(after) return (after ~= '') and ('(' .. after) or '-inf' end
local function upper(before) return (before ~= '') and ('(' .. before) or '+inf' end
local function in_range(ms, after, before)
  return (after == '' or ms > tonumber(after)) and (before == '' or ms < tonumber(before))
end
local hidden = expired_ids()

local total, ids
if ext ~= '' then
  -- external_id names at most one memory: check it against every other filter.
  local id = redis.call('HGET', K.ext, ext)
  local hit = {}
  if id and visible(id) then
    local created = tonumber(redis.call('ZSCORE', K.created, id)) or -1
    local occurred = tonumber(redis.call('ZSCORE', K.occurred, id)) or created
    local ok = in_range(created, c_after, c_before) and in_range(occurred, o_after, o_before)
    for i = 1, #sets do ok = ok and redis.call('ZSCORE', sets[i], id) ~= false end
    if non_roots then ok = ok and redis.call('ZSCORE', K.roots, id) == false end
    if ok then hit = { id } end
  end
  total, ids = page_of(hit, offset, limit, order)
else
  -- One index already in the wanted order, with at most its own range: page it directly (order.lua).
  local src, min, max, tie
  if not non_roots then
    if sort == 'created' and not o_ranged and #sets <= 1 and not kids then
      src, min, max = sets[1] or K.created, lower(c_after), upper(c_before)
    elseif sort == 'updated' and #sets == 0 and not c_ranged and not o_ranged then
      src, min, max = K.updated, '-inf', '+inf'
    elseif sort == 'occurred' and not c_ranged and (#sets == 0 or (#sets == 1 and kids))
      and (#sets == 1 or redis.call('ZCARD', K.occurred) == redis.call('ZCARD', K.created)) then
      -- (A memory whose hash has no occurred_at is not in K.occurred until it changes: while a tenant has
      -- any, the general path below reads theirs as their created_at.)
      src, min, max, tie = sets[1] or K.occurred, lower(o_after), upper(o_before), true
    end
  end
  if src then
    total, ids = direct_page(src, min, max, offset, limit, order, tie, hidden)
  elseif sort == 'updated' and not c_ranged and not o_ranged and not non_roots then
    -- The intersection scored by updated_at is already in order.
    local args = { 'ZINTER', #sets + 1, K.updated }
    push_all(args, sets)
    args[#args + 1] = 'WEIGHTS'
    for i = 0, #sets do args[#args + 1] = (i == 0) and 1 or 0 end
    local is_hidden, list = set_of(hidden), {}
    for _, id in ipairs(redis.call(unpack(args))) do
      if not is_hidden[id] then list[#list + 1] = id end
    end
    total, ids = page_of(list, offset, limit, order)
  else
    -- Intersect the filter sets on created_at (the weights keep its score), filter, then sort.
    local keys = { K.created }
    push_all(keys, sets)
    local args = { 'ZINTER', #keys }
    push_all(args, keys)
    args[#args + 1] = 'WEIGHTS'
    for i = 1, #keys do args[#args + 1] = (i == 1) and 1 or 0 end
    args[#args + 1] = 'WITHSCORES'
    local r = redis.call(unpack(args))
    local is_hidden, created, candidates = set_of(hidden), {}, {}
    for i = 1, #r, 2 do
      local ms = tonumber(r[i + 1])
      if in_range(ms, c_after, c_before) and not is_hidden[r[i]] then
        candidates[#candidates + 1] = r[i]
        created[r[i]] = ms
      end
    end
    local occurred = (o_ranged or sort == 'occurred') and occurred_of(candidates, created) or {}
    local list = {}
    for _, id in ipairs(candidates) do
      if (not o_ranged or in_range(occurred[id], o_after, o_before))
        and (not non_roots or redis.call('ZSCORE', K.roots, id) == false) then
        list[#list + 1] = id
      end
    end
    -- ZINTER answers by (created_at, id) already.
    if sort == 'updated' then sort_by_score(list, scores_of(K.updated, list)) end
    if sort == 'occurred' then
      table.sort(list, function(a, b)
        if occurred[a] ~= occurred[b] then return occurred[a] < occurred[b] end
        if created[a] ~= created[b] then return created[a] < created[b] end
        return a < b
      end)
    end
    total, ids = page_of(list, offset, limit, order)
  end
end

local items = {}
for i = 1, #ids do items[#items + 1] = read_memory(ids[i]) end
return cjson.encode({ total, items })
