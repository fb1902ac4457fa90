-- Index one memory, atomically: version check, vector + attributes, filter sets, its place in its
-- thread, its occurred_at / valid_to / expires_at, lexical postings of the memory and of the siblings
-- whose context it is.
-- KEYS: 1 doc, 2 all, 3 stats, 4 the model's vector set, 5… the memory's filter sets (in the order
--   of ARGV 8); the rest (postings, the filter sets and vector set it had, thread orders, the occurred,
--   valid_to and expiring sets, siblings) are built from ids and what the doc holds (use_index, common.lua).
-- ARGV: 1 id, 2 version (-1 = unknown: a rebuild from the memories store), 3 model, 4 vector (FP32
--   blob, '' = keep the stored one), 5 attrs JSON, 6 content hash, 7 tf JSON, 8 filter suffixes JSON,
--   9 created ms, 10 parent ('' = root), 11 updated ms, 12 now ms, 13 k1, 14 b, 15 context weight,
--   16 occurred ms, 17 thread-order member, 18 valid_to ms ('' = not superseded), 19 expires_at ms ('' = never),
--   20 how many vectors ARGV 4 holds (one per chunk of the content; 0 with no vector), 21 '1' = index layout 2's
--   form (no vector count kept while there is one vector: a rebuild in layout 3 embeds it again, in chunks).
-- Returns 'ok' | 'stale' (an equal or newer version is indexed, or it was deleted) | 'need_vector'
-- | 'revectored' (unknown version, not newer than what is indexed: only the vector was replaced).
use_index(KEYS[2], KEYS[3])
local id = ARGV[1]
local version, model, vec, attrs = tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local ch, tf, fkjson, created, parent, updated = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local k1, b, ctxw = tonumber(ARGV[13]), tonumber(ARGV[14]), tonumber(ARGV[15])
local occurred, order, valid_to, expires = ARGV[16], ARGV[17], ARGV[18], ARGV[19]
local n = tonumber(ARGV[20])
-- HNSW build exploration factor: VADD's default (200) costs 2.3 ms per insert at 100,000 vectors and
-- holds Redis meanwhile; 100 costs 1.7 ms with the same recall@30 against an exact scan (99.6% on a
-- 20,000-vector sample of the benchmark's data, both settings).
local VADD_EF = 100

local cur = redis.call('HMGET', KEYS[1], DOC.version, DOC.deleted, DOC.model, DOC.contentHash, DOC.parent,
  DOC.filterSuffixes, DOC.updatedMs, DOC.threadOrder, DOC.vectorCount)
local curV = tonumber(cur[1])
local curN = tonumber(cur[9]) or 1
local tomb = cur[2] == '1'
local exists = curV ~= nil and not tomb

if tomb then
  -- A deleted memory never comes back through an older or unknown version.
  if version < 0 or curV >= version then return 'stale' end
elseif exists then
  if version < 0 then
    -- Rebuild data carries no version: it replaces the indexed fields only when strictly newer, or
    -- when the document lacks what the index's layout holds (a thread order, its vector count: INDEX_LAYOUT,
    -- store/fields.ts). Otherwise the indexed fields stay; a rebuild for a new model still needs the new vectors.
    if tonumber(updated) <= tonumber(cur[7] or '0') and cur[8] and cur[9] then
      if cur[3] == model or vec == '' or cur[4] ~= ch then return 'stale' end
      local kept = attrs
      if cur[3] and cur[3] ~= '' then
        kept = redis.call('VGETATTR', vectors_key(cur[3]), id) or attrs
        remove_vectors(vectors_key(cur[3]), id, 0, curN)
      end
      add_vectors(KEYS[4], id, vec, n, kept, VADD_EF)
      redis.call('HSET', KEYS[1], DOC.model, model, DOC.indexedMs, ARGV[12], DOC.vectorCount, n)
      if ARGV[21] == '1' and n == 1 then redis.call('HDEL', KEYS[1], DOC.vectorCount) end
      count_extra_vectors(n - curN)
      return 'revectored'
    end
    version = curV
  elseif curV > version or (curV == version and cur[3] == model) then
    return 'stale'
  end
elseif version < 0 then
  version = 0
end

local vkey = KEYS[4]
local vectorCount = curN
if vec ~= '' then
  -- Every vector it had goes: the other model's set, or the chunks past the new count.
  if exists and cur[3] and cur[3] ~= '' and cur[3] ~= model then
    remove_vectors(vectors_key(cur[3]), id, 0, curN)
  elseif exists and curN > n then
    remove_vectors(vkey, id, n, curN)
  end
  add_vectors(vkey, id, vec, n, attrs, VADD_EF)
  vectorCount = n
elseif not exists or cur[3] ~= model or not set_vector_attrs(vkey, id, curN, attrs) then
  return 'need_vector'
end
if exists then count_extra_vectors(vectorCount - curN) else count_extra_vectors(vectorCount - 1) end

-- Its place in its thread: where it moves (a new parent or occurred_at), the sibling after its old place
-- gets a new previous sibling.
local moved = not exists or cur[5] ~= parent or cur[8] ~= order
local oldNext = nil
if exists and moved then
  local _, n = siblings(cur[5], cur[8])
  oldNext = n
  if cur[5] and cur[5] ~= '' and cur[8] then redis.call('ZREM', thread_key(cur[5]), cur[8]) end
end
if parent ~= '' then redis.call('ZADD', thread_key(parent), 0, order) end
redis.call('ZADD', occurred_key(), occurred, id)
if valid_to ~= '' then redis.call('ZADD', valid_to_key(), valid_to, id) else redis.call('ZREM', valid_to_key(), id) end
if expires ~= '' then redis.call('ZADD', expiring_key(), expires, id) else redis.call('ZREM', expiring_key(), id) end
local newfk = cjson.decode(fkjson)
local keep = {}
for _, s in ipairs(newfk) do keep[s] = true end
if exists and cur[6] then
  for _, s in ipairs(cjson.decode(cur[6])) do
    if not keep[s] then redis.call('ZREM', filter_key(s), id) end
  end
end
for i = 1, #newfk do redis.call('ZADD', KEYS[4 + i], created, id) end
redis.call('ZADD', ALL_KEY, created, id)

if tomb then
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], DOC.version, version, DOC.model, model, DOC.contentHash, ch, DOC.termCounts, tf,
  DOC.filterSuffixes, fkjson, DOC.parent, parent, DOC.createdMs, created, DOC.updatedMs, updated,
  DOC.indexedMs, ARGV[12], DOC.occurredMs, occurred, DOC.threadOrder, order, DOC.vectorCount, vectorCount)
if ARGV[21] == '1' and vectorCount == 1 then redis.call('HDEL', KEYS[1], DOC.vectorCount) end

if moved or cur[4] ~= ch then
  relex(id, k1, b, ctxw)
  local _, nxt = siblings(parent, order)
  if nxt then relex(nxt, k1, b, ctxw) end
  if oldNext and oldNext ~= nxt then relex(oldNext, k1, b, ctxw) end
end
return 'ok'
