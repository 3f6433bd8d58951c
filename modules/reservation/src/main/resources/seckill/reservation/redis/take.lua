-- Takes units from a donor bucket for a buyer whose claim sits in their home bucket: stock check,
-- decrement and XADD in one step on the donor's slot (the dedupe already happened at home).
-- Run again with the same arguments (a client's retry after a lost reply) it answers the same and
-- takes nothing more: the donor remembers the reservation ids it gave units to (and those withdrawn).
-- KEYS[1] stock counter, KEYS[2] event stream of the donor bucket, KEYS[3] hash of ids served here
-- (the bucket's minted ids, which reserve.lua writes too: one id, one unit, whichever script gave it).
-- ARGV: userId, quantity, reservationId, requestId, reservedAtMillis, activityId, skuId
-- defence in depth: the edge validates, and the script still refuses what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
if not positiveInteger(ARGV[1]) or not positiveInteger(ARGV[2]) or not positiveInteger(ARGV[5]) then
  return redis.error_reply('ERR userId, quantity and reservedAt must be positive integers')
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NOT_PREHEATED', '', '0'}
end
local served = redis.call('HGET', KEYS[3], ARGV[3])
if served == ARGV[1] then
  return {'RESERVED', ARGV[3], stock}
end
if served == 'withdrawn' then
  -- withdrawn by the buyer's retry (withdraw_take.lua) after this call's answer was lost: never taken
  return {'WITHDRAWN', '', '0'}
end
if served then
  -- another buyer's unit has this id (minted here by reserve.lua or taken before under an id minted
  -- twice: see reserve.lua): refused, the caller retries under a new node id
  return {'ID_TAKEN', served, '0'}
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
redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
-- the ids served here live as long as the counter: one without an expiry (a repair by hand) keeps them for
-- good; its PTTL of -1 taken as 1 ms let a retried take take a second unit for one reservation. Given
-- their expiry they are made a hashtable (a value longer than a listpack holds: see buyer_window.lua)
local lifetime = redis.call('PTTL', KEYS[1])
if lifetime > 0 and redis.call('PTTL', KEYS[3]) < 0 then
  redis.call('HSETNX', KEYS[3], '_',
    'hashtable: a value over hash-max-listpack-value (64 bytes) makes the hash one from its first field')
  redis.call('PEXPIRE', KEYS[3], lifetime)
end
-- the event's fields (ReservationEventFields): activityId and skuId are the reservation id's (ARGV[6],
-- ARGV[7] are no longer written, issue #35)
redis.call('XADD', KEYS[2], '*',
  'reservationId', ARGV[3], 'userId', ARGV[1], 'quantity', ARGV[2], 'requestId', ARGV[4], 'reservedAt', ARGV[5])
return {'RESERVED', ARGV[3], tostring(left)}
