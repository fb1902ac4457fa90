-- Attach tags to a memory, all or nothing: both link ends change together and the memory's version
-- is bumped once, so memory_count (ZCARD of a tag's member zset) is exact at all times.
-- KEYS: `m:<id>` the memory hash, `m:<id>:tags` its tag set, then per tag: `t:<id>` the tag hash,
--   `t:<id>:mems` its member zset
-- ARGV: memory id, max tags per memory, then the (distinct) tag ids in KEYS order
-- Returns { tags added, the memory's version (0 when none was added), every tag id now attached }.
local mid, cap = ARGV[1], tonumber(ARGV[2])
if not memory_visible(KEYS[1], now_ms()) then return not_found('Memory') end
local n = #ARGV - 2
for i = 1, n do
  if redis.call('EXISTS', KEYS[1 + 2 * i]) == 0 then return not_found('Tag') end
end
local add = {}
for i = 1, n do
  if redis.call('SISMEMBER', KEYS[2], ARGV[2 + i]) == 0 then add[#add + 1] = i end
end
if redis.call('SCARD', KEYS[2]) + #add > cap then
  return invalid('tag_ids', 'max_count', 'A memory can carry at most ' .. cap .. ' tags', { max = cap })
end
local v = 0
if #add > 0 then
  for _, i in ipairs(add) do link(KEYS[1], mid, KEYS[2], ARGV[2 + i], KEYS[2 + 2 * i]) end
  v = bump_version(KEYS[1])
end
return { #add, v, redis.call('SMEMBERS', KEYS[2]) }
