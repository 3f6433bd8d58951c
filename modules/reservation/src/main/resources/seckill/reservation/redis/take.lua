-- Takes units from a donor bucket for a buyer whose claim sits in their home bucket: stock check,
-- decrement and XADD in one step on the donor's slot (the dedupe already happened at home).
-- KEYS[1] stock counter, KEYS[2] event stream of the donor bucket.
-- ARGV: userId, quantity, reservationId, requestId, reservedAtMillis, activityId, skuId
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NOT_PREHEATED', '', '0'}
end
local quantity = tonumber(ARGV[2])
stock = tonumber(stock)
if stock <= 0 then
  return {'SOLD_OUT', '0', '0'}
end
if stock < quantity then
  return {'INSUFFICIENT', tostring(stock), tostring(stock)}
end
local left = redis.call('DECRBY', KEYS[1], quantity)
redis.call('XADD', KEYS[2], '*',
  'reservationId', ARGV[3], 'userId', ARGV[1], 'activityId', ARGV[6], 'skuId', ARGV[7],
  'quantity', ARGV[2], 'requestId', ARGV[4], 'reservedAt', ARGV[5])
return {'RESERVED', ARGV[3], tostring(left)}
