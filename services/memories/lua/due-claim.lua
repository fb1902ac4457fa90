-- Claims up to `max` spaces whose look is due, for `lease` ms: another sweeper skips them meanwhile, and
-- a sweeper that dies leaves them due again when the lease ends.
-- KEYS: `sweep:{expiry}:due` the registry's due zset, `sweep:{expiry}:gen` its gen hash. ARGV: max, lease (ms)
-- Returns { space, gen at the claim, ... }.
local now = now_ms()
local out = {}
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[1]))) do
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), m)
  out[#out + 1] = m
  out[#out + 1] = redis.call('HGET', KEYS[2], m) or '0'
end
return cjson.encode(out)
