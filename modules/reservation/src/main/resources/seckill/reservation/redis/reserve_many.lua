-- reserve.lua for several buyers of one bucket in one call: each buyer is judged in order with
-- exactly the rules of reserve.lua, so the answers are those of one call per buyer in that order.
-- KEYS[1] stock counter, KEYS[2] buyers hash, KEYS[3] event stream, then per buyer their rate-limit window
-- when one is judged (one hash tag).
-- ARGV: count, reservedAtMillis, activityId, skuId, window attempts (0 = none), window millis,
-- then per buyer: userId, quantity, reservationId, requestId
-- Returns per buyer: verdict, value, remaining.
-- Runs behind buyer_window.lua (positiveInteger, overLimit), which ReservationScript puts in front.
if not positiveInteger(ARGV[1]) or not positiveInteger(ARGV[2]) then
  return redis.error_reply('ERR count and reservedAt must be positive integers')
end
if ARGV[5] ~= '0' and (not positiveInteger(ARGV[5]) or not positiveInteger(ARGV[6])) then
  return redis.error_reply('ERR window attempts and millis must be positive integers')
end
local stock = redis.call('GET', KEYS[1])
local n = tonumber(ARGV[1])
local limit = tonumber(ARGV[5]) or 0
local out = {}
for i = 0, n - 1 do
  local base = 7 + i * 4
  local user, quantity, id, request = ARGV[base], tonumber(ARGV[base + 1]), ARGV[base + 2], ARGV[base + 3]
  if not positiveInteger(user) or not positiveInteger(ARGV[base + 1]) then
    -- this buyer's arguments only: the others of the call are judged as usual
    table.insert(out, 'INVALID'); table.insert(out, ''); table.insert(out, '0')
  elseif not stock then
    table.insert(out, 'NOT_PREHEATED'); table.insert(out, ''); table.insert(out, '0')
  else
    local prior = redis.call('HGET', KEYS[2], user)
    local left = tonumber(stock)
    local throttled = nil
    if prior ~= id then
      throttled = overLimit(KEYS[4 + i], id, limit, ARGV[6])
    end
    if prior == id then
      -- this claim was judged by an earlier run of the same call (a client's retry): same answer
      table.insert(out, 'RESERVED'); table.insert(out, id); table.insert(out, tostring(left))
    elseif throttled then
      table.insert(out, 'THROTTLED'); table.insert(out, throttled[1]); table.insert(out, throttled[2])
    elseif prior then
      table.insert(out, 'ALREADY_RESERVED'); table.insert(out, prior); table.insert(out, tostring(left))
    elseif left <= 0 then
      table.insert(out, 'SOLD_OUT'); table.insert(out, '0'); table.insert(out, '0')
    elseif left < quantity then
      table.insert(out, 'INSUFFICIENT'); table.insert(out, tostring(left)); table.insert(out, tostring(left))
    else
      stock = redis.call('DECRBY', KEYS[1], quantity)
      redis.call('HSET', KEYS[2], user, id)
      redis.call('XADD', KEYS[3], '*',
        'reservationId', id, 'userId', user, 'activityId', ARGV[3], 'skuId', ARGV[4],
        'quantity', tostring(quantity), 'requestId', request, 'reservedAt', ARGV[2])
      table.insert(out, 'RESERVED'); table.insert(out, id); table.insert(out, tostring(stock))
    end
  end
end
return out
