-- Judges, pre-deducts and records one reservation atomically. Run again with the same arguments
-- (a client's retry after a lost reply), it answers the same and takes nothing more.
-- KEYS[1] stock counter of the bucket, KEYS[2] buyers hash of the bucket, KEYS[3] event stream of the bucket,
-- KEYS[4] (optional) the buyer's rate-limit window (all share one hash tag, so the script runs on one cluster slot).
-- ARGV: userId, quantity, reservationId, requestId, reservedAtMillis, activityId, skuId,
-- then (optional) window attempts, window millis: the buyer's limit, judged before dedupe and stock.
-- defence in depth: the edge validates, and the script still refuses what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
if not positiveInteger(ARGV[1]) or not positiveInteger(ARGV[2]) or not positiveInteger(ARGV[5]) then
  return redis.error_reply('ERR userId, quantity and reservedAt must be positive integers')
end
if ARGV[8] and ARGV[8] ~= '0' and (not positiveInteger(ARGV[8]) or not positiveInteger(ARGV[9])) then
  return redis.error_reply('ERR window attempts and millis must be positive integers')
end
-- the buyer's rate-limit window, the same function in reserve.lua and reserve_many.lua (a script
-- cannot include another): a hash where 'n' counts the attempts and each attempt it let through is a
-- field, so a re-run of an admitted call is not counted again; over the limit it stays over until it
-- expires. Nil within the limit, else {attempts, millis until the window ends}.
local function overLimit(key, id, limit, millis)
  if limit <= 0 or not key or redis.call('HGET', key, id) then
    return nil
  end
  local attempts = redis.call('HINCRBY', key, 'n', 1)
  if attempts == 1 then
    redis.call('PEXPIRE', key, millis)
  end
  if attempts > limit then
    return {tostring(attempts), tostring(redis.call('PTTL', key))}
  end
  redis.call('HSET', key, id, attempts)
  return nil
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NOT_PREHEATED', ''}
end
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if prior == ARGV[3] then
  -- this very call ran before (a client retried it): the same answer, nothing taken twice
  return {'RESERVED', ARGV[3], stock}
end
local throttled = overLimit(KEYS[4], ARGV[3], tonumber(ARGV[8] or '0') or 0, ARGV[9])
if throttled then
  return {'THROTTLED', throttled[1], throttled[2]}
end
if prior then
  return {'ALREADY_RESERVED', prior}
end
local quantity = tonumber(ARGV[2])
stock = tonumber(stock)
if stock <= 0 then
  return {'SOLD_OUT', '0'}
end
if stock < quantity then
  return {'INSUFFICIENT', tostring(stock)}
end
local left = redis.call('DECRBY', KEYS[1], quantity)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('XADD', KEYS[3], '*',
  'reservationId', ARGV[3], 'userId', ARGV[1], 'activityId', ARGV[6], 'skuId', ARGV[7],
  'quantity', ARGV[2], 'requestId', ARGV[4], 'reservedAt', ARGV[5])
return {'RESERVED', ARGV[3], tostring(left)}
