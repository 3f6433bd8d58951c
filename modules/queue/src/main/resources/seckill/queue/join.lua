-- Joining the line (after line.lua). ARGV: buyer, started (1/0), draw (the pre-queue's order number for
-- this buyer, used only if they are new and the sale has not started), ticket place (-1: no ticket).
-- Joining again answers the same place: a buyer already in the pre-queue, waiting, called or served keeps
-- what they have; only a buyer whose pass expired unused gets a new place, at the end of the line.
local buyer, started, draw = ARGV[1], ARGV[2], ARGV[3]
settle(started)
restore(buyer, tonumber(ARGV[4]), started, draw)
local now = describe(buyer)
if now[1] ~= 'NOT_IN_LINE' and now[1] ~= 'EXPIRED' then
  return now
end
if redis.call('HGET', KEYS[3], 'closed') == '1' then
  now[1] = 'SOLD_OUT'
  return now
end
if started ~= '1' then
  redis.call('ZADD', KEYS[1], draw, buyer)
  redis.call('HSET', KEYS[4], buyer, 0)
else
  redis.call('HDEL', KEYS[6], buyer)
  local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
  redis.call('ZADD', KEYS[2], seq, buyer)
  redis.call('HSET', KEYS[4], buyer, seq)
end
return describe(buyer)
