-- Closing the line when the stock is gone and opening it again when units come back. KEYS[1]: the line's
-- meta hash. ARGV[1]: units left over the activity's SKUs. Answers CLOSED or REOPENED on a change, else
-- SAME; a re-run with the same figure answers SAME. Buyers keep their places while it is closed.
local closed = redis.call('HGET', KEYS[1], 'closed') == '1'
local left = tonumber(ARGV[1])
if left <= 0 and not closed then
  redis.call('HSET', KEYS[1], 'closed', '1')
  return 'CLOSED'
end
if left > 0 and closed then
  redis.call('HDEL', KEYS[1], 'closed')
  return 'REOPENED'
end
return 'SAME'
