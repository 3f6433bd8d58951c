-- Per-buyer and global admission for one activity, in one call (both keys carry the activity's tag).
-- KEYS[1] the buyer's window counter, KEYS[2] the activity's counter for the current second.
-- ARGV: buyer limit per window, buyer window millis, global limit per second (0 = none), millis to the next second
local mine = redis.call('INCR', KEYS[1])
if mine == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
local ttl = redis.call('PTTL', KEYS[1])
if mine > tonumber(ARGV[1]) then
  return {'BUYER', mine, ttl}
end
if tonumber(ARGV[3]) > 0 then
  local all = redis.call('INCR', KEYS[2])
  if all == 1 then
    redis.call('PEXPIRE', KEYS[2], 2000)
  end
  if all > tonumber(ARGV[3]) then
    return {'GLOBAL', all, tonumber(ARGV[4])}
  end
end
return {'OK', mine, ttl}
