-- A pass was used for a purchase: the buyer leaves the passes out (freeing room for the next buyer) and
-- is recorded as served. KEYS: passes, done, meta, line (line.lua's KEYS[5], [6], [3], [2]). ARGV[1]: buyer.
-- A pass that ran out while its purchase was reserving (a slow request: the pass was good when checked, and a
-- tick withdrew it as unused meanwhile) was used all the same: the buyer holds a reservation, so they read USED,
-- not EXPIRED (which would tell them to join again for a second turn). If they did join again meanwhile (the
-- record of past purchases could not know yet), they leave the line again, served: no second turn.
-- Answers 1 the first time, 0 on a re-run or for a buyer holding no pass.
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], 'u')
  redis.call('HINCRBY', KEYS[3], 'used', 1)
  return 1
end
if redis.call('HGET', KEYS[2], ARGV[1]) == 'e' then
  redis.call('HSET', KEYS[2], ARGV[1], 'u')
  redis.call('HINCRBY', KEYS[3], 'used', 1)
  redis.call('HINCRBY', KEYS[3], 'expired', -1)
  return 1
end
if redis.call('ZREM', KEYS[4], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], 'u')
  redis.call('HINCRBY', KEYS[3], 'used', 1)
  return 1
end
return 0
