-- Shared by the search library's functions (lua/library.ts). Key names: services/search/store/keyspace.ts;
-- field names: the tables DOC and STATS, defined before this file from services/search/store/fields.ts.
-- The writers meet most of their keys only as they run: the postings of a memory's terms and of its
-- neighbour's, the filter sets and vector set it was indexed under before, its siblings' documents.
-- They build those from the declared `all` key's prefix (`s:{tenant:env}:all` → `s:{tenant:env}:`,
-- use_index), so every key they touch has its hash tag, and so its cluster slot.
local P, ALL_KEY, STATS_KEY = '', '', ''
local function use_index(all_key, stats_key)
  P, ALL_KEY, STATS_KEY = string.sub(all_key, 1, -4), all_key, stats_key
end
local function doc_key(id) return P .. 'd:' .. id end
local function term_key(term) return P .. 't:' .. term end
local function filter_key(suffix) return P .. 'f:' .. suffix end
local function vectors_key(model) return P .. 'v:' .. model end
local function occurred_key() return P .. 'occ' end
local function valid_to_key() return P .. 'vto' end
local function expiring_key() return P .. 'exp' end
local function thread_key(parent) return P .. 'o:' .. parent end

-- A memory's vectors, one per chunk of its content: the first element is named by its id, the others
-- `<id>#<i>` (i = 1 … n - 1; ids never hold '#'). DOC.vectorCount says how many (absent: one);
-- STATS.extraVectors sums the ones past the first over the index.
local function chunk_name(id, i)
  if i == 0 then return id end
  return id .. '#' .. i
end
local function remove_vectors(key, id, from, to)
  for i = from, to - 1 do redis.call('VREM', key, chunk_name(id, i)) end
end
-- `blob`: n FP32 vectors, one after the other.
local function add_vectors(key, id, blob, n, attrs, ef)
  local size = #blob / n
  for i = 0, n - 1 do
    redis.call('VADD', key, 'FP32', string.sub(blob, i * size + 1, (i + 1) * size), chunk_name(id, i), 'EF', ef,
      'SETATTR', attrs)
  end
end
-- False when the first vector is missing.
local function set_vector_attrs(key, id, n, attrs)
  if redis.call('VSETATTR', key, id, attrs) == 0 then return false end
  for i = 1, n - 1 do redis.call('VSETATTR', key, chunk_name(id, i), attrs) end
  return true
end
local function count_extra_vectors(delta)
  if delta ~= 0 then redis.call('HINCRBY', STATS_KEY, STATS.extraVectors, delta) end
end

-- Lexical context: a memory's postings are its own term counts plus CTXW x those of its previous
-- sibling (same parent, in the thread's order: occurred_at, then created_at, then id), so a turn also
-- matches the words of the turn it answers. relex() recomputes one memory's postings; callers relex
-- every memory whose previous sibling changed.

-- A thread-order member (store/fields.ts threadOrderMember) ends with the memory's id.
local function id_of_member(member)
  if member == nil then return nil end
  return string.sub(member, THREAD_ORDER_ID_AT)
end

-- Previous and next sibling of the memory whose thread-order member is `member` under `parent` ('' = a
-- root: no siblings).
local function siblings(parent, member)
  if parent == nil or parent == '' or member == nil or member == false or member == '' then return nil, nil end
  local key = thread_key(parent)
  local r = redis.call('ZRANK', key, member)
  if not r then return nil, nil end
  local prev = nil
  if r > 0 then prev = redis.call('ZRANGE', key, r - 1, r - 1)[1] end
  local nxt = redis.call('ZRANGE', key, r + 1, r + 1)[1]
  return id_of_member(prev), id_of_member(nxt)
end

-- BM25 term weight w(t, d) = tf (k1 + 1) / (tf + k1 (1 - b + b |d| / avgdl)); the query side
-- multiplies by idf (services/search/ranking/bm25.ts).
local function relex(id, k1, b, ctxw)
  local d = redis.call('HMGET', doc_key(id), DOC.termCounts, DOC.parent, DOC.postingTerms, DOC.postingLength,
    DOC.deleted, DOC.threadOrder)
  if not d[1] or d[5] == '1' then return end
  local combined = {}
  for t, c in pairs(cjson.decode(d[1])) do combined[t] = c end
  local prev = siblings(d[2], d[6])
  if prev then
    local ptf = redis.call('HGET', doc_key(prev), DOC.termCounts)
    if ptf then
      for t, c in pairs(cjson.decode(ptf)) do combined[t] = (combined[t] or 0) + ctxw * c end
    end
  end
  local len = 0
  for _, c in pairs(combined) do len = len + c end
  local total = tonumber(redis.call('HGET', STATS_KEY, STATS.postingLengthSum) or '0') - tonumber(d[4] or '0') + len
  if total < 0 then total = 0 end
  redis.call('HSET', STATS_KEY, STATS.postingLengthSum, total)
  local n = redis.call('ZCARD', ALL_KEY)
  local avgdl = len
  if n > 0 and total > 0 then avgdl = total / n end
  local norm = 1
  if avgdl > 0 then norm = len / avgdl end
  if d[3] then
    for _, t in ipairs(cjson.decode(d[3])) do
      if combined[t] == nil then redis.call('ZREM', term_key(t), id) end
    end
  end
  local terms = {}
  for t, c in pairs(combined) do
    redis.call('ZADD', term_key(t), c * (k1 + 1) / (c + k1 * (1 - b + b * norm)), id)
    terms[#terms + 1] = t
  end
  -- DOC.postingTerms is always a JSON array; cjson encodes an empty table as the object '{}', so the
  -- empty list is written as it is (writes.test.ts checks a memory without terms).
  local post = '[]'
  if #terms > 0 then post = cjson.encode(terms) end
  redis.call('HSET', doc_key(id), DOC.postingTerms, post, DOC.postingLength, len, DOC.previousSibling, prev or '')
end
