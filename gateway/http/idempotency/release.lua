-- Frees a claimed key whose request did not run (refused before anything changed): a retry runs it.
-- KEYS[1] as batch.lua; ARGV[1] the value its claim set. Returns 1 if freed, 0 if the claim was not this one.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
