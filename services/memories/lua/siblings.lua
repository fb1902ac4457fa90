-- The siblings around a memory in its thread: up to `count` just before it and just after it in the
-- thread's order (its parent's children by occurred_at, then created_at, then id; order.lua), expired
-- ones left out. A root, or an unknown or expired memory, has none.
-- KEYS: the tenant's index keys (helpers.lua). ARGV: id, count
-- Returns { {read_memory before ...}, {read_memory after ...} }, both in thread order.
use_keys(KEYS)
local id, n = ARGV[1], tonumber(ARGV[2])
local parent = visible(id) and parent_of(id)
local s = parent and redis.call('ZSCORE', K.kids(parent), id)
if n == 0 or not s then return cjson.encode({ {}, {} }) end
local src = K.kids(parent)
local count = redis.call('ZCARD', src)
local hidden = expired_ids()
local skip = hidden_positions(src, '-inf', '+inf', 'asc', true, count, hidden)
local pos = position(src, id, s, '-inf', '+inf', 'asc', true, count)
local hidden_before, hidden_after = 0, 0
for _, p in ipairs(skip) do
  if p < pos then hidden_before = hidden_before + 1 else hidden_after = hidden_after + 1 end
end
local is_hidden = set_of(hidden)
local from = math.max(0, pos - n - hidden_before)
local before = {}
for _, x in ipairs(window(src, '-inf', '+inf', from, pos - from, 'asc', true)) do
  if not is_hidden[x] then before[#before + 1] = x end
end
local out_before, out_after = {}, {}
for i = math.max(1, #before - n + 1), #before do out_before[#out_before + 1] = read_memory(before[i]) end
for _, x in ipairs(window(src, '-inf', '+inf', pos + 1, n + hidden_after, 'asc', true)) do
  if not is_hidden[x] and #out_after < n then out_after[#out_after + 1] = read_memory(x) end
end
return cjson.encode({ out_before, out_after })
