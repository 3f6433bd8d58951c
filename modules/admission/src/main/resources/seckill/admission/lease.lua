-- Leases tokens of an activity's global attempts-per-second budget to one instance.
-- KEYS[1] the activity's lease hash for the current second (hash-tagged like its rate-limit partition).
-- ARGV: tokens wanted, the global limit per second, the lease id.
-- Returns the tokens granted (0 once the second's budget is spent). A lease id answered before is
-- answered the same again, so a client's retry after a lost reply never takes budget twice.
local prior = redis.call('HGET', KEYS[1], 'l:' .. ARGV[3])
if prior then
  return tonumber(prior)
end
local wanted, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local total = redis.call('HINCRBY', KEYS[1], 'total', wanted)
if total == wanted then
  redis.call('PEXPIRE', KEYS[1], 2000)
end
local granted = math.max(0, math.min(wanted, limit - (total - wanted)))
redis.call('HSET', KEYS[1], 'l:' .. ARGV[3], granted)
return granted
