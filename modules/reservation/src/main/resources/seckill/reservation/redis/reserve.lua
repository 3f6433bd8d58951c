-- Judges, pre-deducts and records one reservation atomically. Run again with the same arguments
-- (a client's retry after a lost reply), it answers the same and takes nothing more.
-- KEYS[1] stock counter of the bucket, KEYS[2] buyers hash of the bucket, KEYS[3] event stream of the bucket,
-- KEYS[4] the bucket's minted ids (reservation id -> buyer, for every unit the bucket gave, here or to
-- take.lua), KEYS[5], KEYS[6] (with a window) the bucket's window hashes of the period before reservedAt's
-- and of reservedAt's (all share one hash tag, so the script runs on one cluster slot).
-- ARGV: userId, quantity, reservationId, requestId, reservedAtMillis, activityId, skuId,
-- then (optional) window attempts, window millis: the buyer's limit, judged before dedupe and stock.
-- Runs behind buyer_window.lua (positiveInteger, windows), which ReservationScript puts in front.
if not positiveInteger(ARGV[1]) or not positiveInteger(ARGV[2]) or not positiveInteger(ARGV[5]) then
  return redis.error_reply('ERR userId, quantity and reservedAt must be positive integers')
end
if ARGV[8] and ARGV[8] ~= '0' and (not positiveInteger(ARGV[8]) or not windowMillis(ARGV[9])) then
  return redis.error_reply('ERR window attempts and millis must be positive integers, millis at most 10^12')
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NOT_PREHEATED', ''}
end
local prior = redis.call('HGET', KEYS[2], ARGV[1])
-- An answer from what an earlier call wrote is vouched for by rewriting the buyer's record as it is:
-- a write changes nothing, yet it is replicated, so this connection's WAIT covers everything the
-- master wrote before it, that earlier reservation too. Without it this call writes nothing, WAIT
-- returns at once with the replicas of the connection's last write, and the answer would claim an
-- acknowledgement of a reservation no replica may hold (its own call was answered "in doubt").
local function vouch()
  redis.call('HSET', KEYS[2], ARGV[1], prior)
end
if prior == ARGV[3] then
  -- this very call ran before (a client retried it): the same answer, nothing taken twice
  vouch()
  return {'RESERVED', ARGV[3], stock}
end
local quantity = tonumber(ARGV[2])
stock = tonumber(stock)
local reserves = not prior and stock >= quantity
-- A reservation id names one unit of one buyer. The instance minting it trusts its node id lease
-- between renewals; when Redis lost the lease keys, another instance may mint the same ids meanwhile.
-- Refused here, before the window counts the attempt, so nothing changes and the instance, told its
-- ids are not its own, retries the buyer under a new node id: equal ids never reach the ledger. A claim
-- that would take nothing (the buyer holds a reservation, or too few units are left) is not asked: no
-- unit goes under its id either way (issue #35's fourth step; reserve_many.lua alike).
if reserves then
  local minted = redis.call('HGET', KEYS[4], ARGV[3])
  if minted then
    return {'ID_TAKEN', minted, tostring(stock)}
  end
end
local window = windows(KEYS[5], KEYS[6], tonumber(ARGV[5]), tonumber(ARGV[8] or '0') or 0,
  tonumber(ARGV[9] or '0'), {ARGV[1]})
-- let through, yet no reservation: the window remembers it, so a re-run is not counted again
local throttled, retryAfter = window.judge(1, ARGV[1], ARGV[3], reserves, prior)
reserves = reserves and not throttled
window.save()
if throttled then
  return {'THROTTLED', throttled, retryAfter}
end
if prior then
  vouch()
  return {'ALREADY_RESERVED', prior}
end
if not reserves then
  if stock <= 0 then
    return {'SOLD_OUT', '0'}
  end
  return {'INSUFFICIENT', tostring(stock)}
end
local left = redis.call('DECRBY', KEYS[1], quantity)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[3], ARGV[1])
expireLike(KEYS[4], KEYS[1])
-- the event's fields (ReservationEventFields): activityId and skuId are the reservation id's (ARGV[6],
-- ARGV[7] are no longer written, issue #35)
redis.call('XADD', KEYS[3], '*',
  'reservationId', ARGV[3], 'userId', ARGV[1], 'quantity', ARGV[2], 'requestId', ARGV[4], 'reservedAt', ARGV[5])
return {'RESERVED', ARGV[3], tostring(left)}
