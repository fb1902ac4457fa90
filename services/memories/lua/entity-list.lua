-- One page of entities, newest first, with the exact total.
-- KEYS: the tenant's index keys (helpers.lua).
-- ARGV: offset, limit, type ('' = any), term ('' = none; lower-cased, matched anywhere in the lower-cased name)
-- Returns { total, {read_entity ...} }.
use_keys(KEYS)
local offset, limit, etype, term = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
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
return cjson.encode({ total, items })
