-- Joining the line (after line.lua). ARGV: buyer, started (1/0), draw (the pre-queue's order number for
-- this buyer, used only if they are new and the sale has not started), ticket place (-1: no ticket),
-- ms since the start (numbers the place, line.lua's next_place), served ('?', '0' or '1', below).
-- Joining again answers the same place: a buyer already in the pre-queue, waiting, called or served keeps
-- what they have; only a buyer whose pass expired unused gets a new place, at the end of the line, and only
-- once the caller asked a record that outlives these keys (PastPurchases) whether they already bought in
-- this activity: with served '?' (not asked: every ordinary join) such a buyer is answered EXPIRED and nothing
-- is written (the caller asks, then calls again); with '1' they bought (their pass was used, and the mark
-- use.lua wrote was lost to a failover, so the tick withdrew the pass as unused): they are marked served, USED,
-- and get no second turn; with '0' they join at the end.
local buyer, draw, served = ARGV[1], ARGV[3], ARGV[6]
local started = settle(ARGV[2])
local elapsed = tonumber(ARGV[5])
restore(buyer, tonumber(ARGV[4]), started, draw, elapsed, served)
local now = describe(buyer)
if now[1] ~= 'NOT_IN_LINE' and now[1] ~= 'EXPIRED' then
  return now
end
if redis.call('HGET', KEYS[3], 'closed') == '1' then
  -- not in the line (new, or their pass expired): no place, as a new buyer (an expired buyer's old
  -- place would read as the head of a line they are not in)
  now[1] = 'SOLD_OUT'
  now[2] = 0
  now[3] = 0
  return now
end
if now[1] == 'EXPIRED' then
  if served ~= '0' and served ~= '1' then
    return now
  end
  if served == '1' then
    redis.call('HSET', KEYS[6], buyer, 'u')
    redis.call('HINCRBY', KEYS[3], 'used', 1)
    redis.call('HINCRBY', KEYS[3], 'expired', -1)
    return describe(buyer)
  end
end
if started ~= '1' then
  redis.call('ZADD', KEYS[1], draw, buyer)
  redis.call('HSET', KEYS[4], buyer, 0)
else
  redis.call('HDEL', KEYS[6], buyer)
  local place = string.format('%d', next_place(elapsed))
  redis.call('ZADD', KEYS[2], place, buyer)
  redis.call('HSET', KEYS[4], buyer, place)
end
return describe(buyer)
