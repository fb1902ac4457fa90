-- Detach one tag from a memory: both link ends and the memory's version change together.
-- KEYS: `m:<id>` the memory hash, `m:<id>:tags` its tag set, `t:<id>` the tag hash, `t:<id>:mems` its member zset
-- ARGV: memory id, tag id
-- Returns { 1 = removed | 0 = was not attached, the memory's version (0 when unchanged) }.
if not memory_visible(KEYS[1], now_ms()) then return not_found('Memory') end
if redis.call('EXISTS', KEYS[3]) == 0 then return not_found('Tag') end
if not unlink(ARGV[1], KEYS[2], ARGV[2], KEYS[4]) then return { 0, 0 } end
return { 1, bump_version(KEYS[1]) }
