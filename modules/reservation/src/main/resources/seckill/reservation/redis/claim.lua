-- The buyer's home bucket records a pending claim before units are taken from another bucket.
-- KEYS[1] buyers hash of the home bucket. ARGV: userId, pendingValue.
-- Returns the value already held for the buyer, or '' when the claim was recorded.
local prior = redis.call('HGET', KEYS[1], ARGV[1])
if prior == ARGV[2] then
  -- our own claim, recorded by an earlier run of this same call (a client's retry)
  return ''
end
if prior then
  return prior
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ''
