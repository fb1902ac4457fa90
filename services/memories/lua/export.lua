-- One page of an export (services/contract/portability.ts): tags, then entities (each by creation), then
-- memories depth first, parent before child (roots by creation, a thread's turns in its order), so an
-- import meets every record its line names before that line.
-- KEYS: the tenant's index keys (helpers.lua), then the tags' by-created zset (ti:{t:e}:created).
-- ARGV: where to go on (JSON: { phase 't'|'e'|'m', after = {score, id} in the phase's zset, stack = the
--   memory walk's frames }, or '' from the start), records at most, bytes at most (of the stored values: a page
--   is one NATS message, so a page of large memories stops early).
-- A page stops at whichever bound comes first, after at least one record.
-- A frame is { parent id ('' = the roots), 1 if that parent was exported (else its children go out as
-- roots: an expired parent is not exported), score and id of the last child visited ('' = none) }.
-- Returns { records, where to go on (JSON, '' = done) }; a record is { 't', id, flat hash } (a tag),
-- { 'e', read_entity } or { 'm', read_memory, {entity type, name, ...}, exported parent id or '' }.
use_keys(KEYS)
local tags_created = KEYS[INDEX_KEYS + 1]
local at = ARGV[1] == '' and { phase = 't', after = { '', '' } } or cjson.decode(ARGV[1])
local max, max_bytes = tonumber(ARGV[2]), tonumber(ARGV[3])
local out, bytes = {}, 0

-- Whether the page has room for another record.
local function room()
  return #out < max and bytes < max_bytes
end

-- Counts a flat hash's values against the page's bytes.
local function count(flat)
  for i = 2, #flat, 2 do bytes = bytes + #flat[i] end
end

-- The member after (score, id) in `key`'s order, with its score; nil at the end. A member gone since
-- (deleted during the export) is found again by its score, ties after it by id.
local function next_after(key, score, id)
  local r
  if id == '' then
    r = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  else
    local rank = redis.call('ZRANK', key, id)
    if rank then
      r = redis.call('ZRANGE', key, rank + 1, rank + 1, 'WITHSCORES')
    else
      local offset = 0
      while true do
        r = redis.call('ZRANGE', key, score, '+inf', 'BYSCORE', 'LIMIT', offset, 100, 'WITHSCORES')
        if #r == 0 then return nil end
        for i = 1, #r, 2 do
          if tonumber(r[i + 1]) > tonumber(score) or r[i] > id then return r[i], r[i + 1] end
        end
        offset = offset + 100
      end
    end
  end
  if #r == 0 then return nil end
  return r[1], r[2]
end

-- Tags and entities: one zset each, walked by creation.
local function walk_flat(key, emit)
  while room() do
    local id, score = next_after(key, at.after[1], at.after[2])
    if not id then return true end
    at.after = { score, id }
    emit(id)
  end
  return false
end

if at.phase == 't' then
  local done = walk_flat(tags_created, function(id)
    local h = redis.call('HGETALL', K.tag(id))
    count(h)
    out[#out + 1] = { 't', id, h }
  end)
  if done then at = { phase = 'e', after = { '', '' } } end
end

if at.phase == 'e' and room() then
  local done = walk_flat(K.entCreated, function(id)
    local e = read_entity(id)
    if e then
      count(e[2])
      out[#out + 1] = { 'e', e }
    end
  end)
  if done then at = { phase = 'm', stack = { { '', 1, '', '' } } } end
end

-- The (type, name) of each entity a memory links to, flat.
local function entity_names(ids)
  local names = {}
  for i = 1, #ids do
    local e = redis.call('HMGET', K.entity(ids[i]), 'type', 'name')
    if e[1] then push_all(names, { e[1], e[2] }) end
  end
  return names
end

if at.phase == 'm' then
  local stack = at.stack
  while room() and #stack > 0 do
    local f = stack[#stack]
    local key = f[1] == '' and K.roots or K.kids(f[1])
    local id, score = next_after(key, f[3], f[4])
    if not id then
      stack[#stack] = nil
    else
      f[3], f[4] = score, id
      local m = read_memory(id)
      if m then
        count(m[2])
        out[#out + 1] = { 'm', m, entity_names(m[4]), f[2] == 1 and f[1] or '' }
      end
      stack[#stack + 1] = { id, m and 1 or 0, '', '' }
    end
  end
  if #stack == 0 then at = nil end
end

return cjson.encode({ out, at and cjson.encode(at) or '' })
