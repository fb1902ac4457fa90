-- Purge memories past their expires_at (services/memories/expiry/sweeper.ts), the earliest first, each as
-- a delete does it (life.lua remove_tree): indexes, links, external_id freed, the memory it replaced the
-- latest again; its children become roots, or go with it when the tenant's retention cascades. Stops once
-- `max` memories went (a cascading subtree goes whole).
-- KEYS: the tenant's index keys (helpers.lua). ARGV: max
-- Returns { {deletedId, version, ...}, { {read_memory(changed), {field names}} ... }, the next expires_at
--   (ms, '' = none left), 1 if more are expired already (else 0) }.
use_keys(KEYS)
local max = tonumber(ARGV[1])
local cascade = expiry_cascades(K.settings)
local acc = new_removal()
for _, id in ipairs(redis.call('ZRANGE', K.expiring, '-inf', NOW, 'BYSCORE', 'LIMIT', 0, max)) do
  if #acc.deleted / 2 >= max then break end
  -- Gone already (in a subtree purged just before): only its entry is left.
  if redis.call('EXISTS', K.memory(id)) == 1 then
    remove_tree(id, cascade, acc)
  else
    redis.call('ZREM', K.expiring, id)
  end
end
local reply = removal_reply(acc)
local first = redis.call('ZRANGE', K.expiring, 0, 0, 'WITHSCORES')
local more = first[2] ~= nil and tonumber(first[2]) <= NOW
return cjson.encode({ reply[1], reply[2], first[2] or '', more and 1 or 0 })
