-- Joining the line (after line.lua). ARGV: buyer, started (1/0), draw (the pre-queue's order number for
-- this buyer, used only if they are new and the sale has not started), ticket place (-1: no ticket),
-- ms since the start (numbers the place, line.lua's next_place).
-- Joining again answers the same place: a buyer already in the pre-queue, waiting, called or served keeps
-- what they have; only a buyer whose pass expired unused gets a new place, at the end of the line.
local buyer, draw = ARGV[1], ARGV[3]
local started = settle(ARGV[2])
local elapsed = tonumber(ARGV[5])
restore(buyer, tonumber(ARGV[4]), started, draw, elapsed)
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
