-- One page of entities, newest first, with the exact total.
-- A: offset, limit, type ('' = any), term ('' = none; lower-cased, matched anywhere in the lower-cased name)
-- Returns { total, {read_entity ...} }.
local offset, limit, etype, term = tonumber(A[1]), tonumber(A[2]), A[3], A[4]
local total, ids
if etype == '' and term == '' then
  total = redis.call('ZCARD', K.entCreated)
  ids = redis.call('ZRANGE', K.entCreated, offset, offset + limit - 1, 'REV')
else
  -- The uniqueness hash already holds every '<type>:<lower name>': filter it without reading records.
  local all, hits = redis.call('HGETALL', K.entNames), {}
  for i = 1, #all, 2 do
    local nk = all[i]
    local sep = string.find(nk, ':', 1, true)
    if (etype == '' or nk:sub(1, sep - 1) == etype) and (term == '' or string.find(nk, term, sep + 1, true)) then
      hits[#hits + 1] = all[i + 1]
    end
  end
  sort_by_score(hits, scores_of(K.entCreated, hits))
  total, ids = page_of(hits, offset, limit, 'desc')
end
local items = {}
for i = 1, #ids do items[#items + 1] = read_entity(ids[i]) end
return { total, items }
