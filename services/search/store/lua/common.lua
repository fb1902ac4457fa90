-- Shared by upsert.lua and delete.lua (prepended at load). Key suffixes: see services/search/keys.ts.
-- Lexical context: a memory's postings are its own term counts plus CTXW x those of its previous
-- sibling (same parent, ordered by created_at then id), so a turn also matches the words of the turn
-- it answers. relex() recomputes one memory's postings; callers relex every memory whose previous
-- sibling changed.

local function dkey(p, id) return p .. 'd:' .. id end

-- Previous and next sibling of `id` under `parent` ('' = a root: no siblings).
local function siblings(p, parent, id)
  if parent == nil or parent == '' then return nil, nil end
  local key = p .. 'f:parent:' .. parent
  local r = redis.call('ZRANK', key, id)
  if not r then return nil, nil end
  local prev = nil
  if r > 0 then prev = redis.call('ZRANGE', key, r - 1, r - 1)[1] end
  local nxt = redis.call('ZRANGE', key, r + 1, r + 1)[1]
  return prev, nxt
end

-- BM25 term weight w(t, d) = tf (k1 + 1) / (tf + k1 (1 - b + b |d| / avgdl)); the query side
-- multiplies by idf (services/search/text/bm25.ts).
local function relex(p, id, k1, b, ctxw)
  local d = redis.call('HMGET', dkey(p, id), 'tf', 'par', 'post', 'pl', 'del')
  if not d[1] or d[5] == '1' then return end
  local combined = {}
  for t, c in pairs(cjson.decode(d[1])) do combined[t] = c end
  local prev = siblings(p, d[2], id)
  if prev then
    local ptf = redis.call('HGET', dkey(p, prev), 'tf')
    if ptf then
      for t, c in pairs(cjson.decode(ptf)) do combined[t] = (combined[t] or 0) + ctxw * c end
    end
  end
  local len = 0
  for _, c in pairs(combined) do len = len + c end
  local total = tonumber(redis.call('HGET', p .. 'stats', 'len') or '0') - tonumber(d[4] or '0') + len
  if total < 0 then total = 0 end
  redis.call('HSET', p .. 'stats', 'len', total)
  local n = redis.call('ZCARD', p .. 'all')
  local avgdl = len
  if n > 0 and total > 0 then avgdl = total / n end
  local norm = 1
  if avgdl > 0 then norm = len / avgdl end
  if d[3] then
    for _, t in ipairs(cjson.decode(d[3])) do
      if combined[t] == nil then redis.call('ZREM', p .. 't:' .. t, id) end
    end
  end
  local terms = {}
  for t, c in pairs(combined) do
    redis.call('ZADD', p .. 't:' .. t, c * (k1 + 1) / (c + k1 * (1 - b + b * norm)), id)
    terms[#terms + 1] = t
  end
  local post = '[]'
  if #terms > 0 then post = cjson.encode(terms) end
  redis.call('HSET', dkey(p, id), 'post', post, 'pl', len, 'prev', prev or '')
end
