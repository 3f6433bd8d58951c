-- Counts one challenge against a fixed window and says whether it is within the limit.
-- KEYS[1] the window's counter (its own hash tag); ARGV: limit, window millis.
-- Returns {1 when allowed or 0, millis until the window ends}.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
local ttl = redis.call('PTTL', KEYS[1])
if count > tonumber(ARGV[1]) then
  return {0, ttl}
end
return {1, ttl}
