-- Puts a bucket that Redis lost back in place from the ledger's view: the units left, the buyers who
-- hold orders (so they cannot buy twice), the stream and its group continuing after the last event
-- the ledger recorded (so reconciliation tells old events from new ones), the units refilled so far
-- and the ids of the reservations refilled (exactly the ledger's: a refill the ledger has not marked
-- applied is applied again by the relay, one it has is never applied twice).
-- A bucket whose stock is present is left alone ('PRESENT'); one whose stream survived is left to an
-- operator ('STREAM_PRESENT': its unacknowledged events would have to be counted first). The stock is
-- written last: purchases see NOT_PREHEATED until the bucket is whole.
-- KEYS[1] stock, KEYS[2] buyers, KEYS[3] event stream, KEYS[4] refilled units, KEYS[5] preheat marker,
-- KEYS[6] refilled reservation ids (one hash tag). ARGV: remaining, consumerGroup, expireAtMillis,
-- lastEventId, refilledUnits, preheatId, n, then n refilled reservation ids, then userId, reservationId pairs.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 'PRESENT'
end
if redis.call('EXISTS', KEYS[3]) == 1 then
  return 'STREAM_PRESENT'
end
local refills = tonumber(ARGV[7])
redis.call('DEL', KEYS[6])
for i = 8, 7 + refills do
  redis.call('SADD', KEYS[6], ARGV[i])
end
-- preheat's placeholder first: its value, longer than a listpack holds, makes the hash a hashtable
-- before the holders go in (see preheat.lua)
redis.call('HSET', KEYS[2], '_', 'hashtable: a value over hash-max-listpack-value (64 bytes) makes the hash one from its first field')
for i = 8 + refills, #ARGV, 2 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('XGROUP', 'CREATE', KEYS[3], ARGV[2], '0', 'MKSTREAM')
if ARGV[4] ~= '0-0' then
  redis.call('XSETID', KEYS[3], ARGV[4])
end
redis.call('SET', KEYS[4], ARGV[5])
redis.call('SET', KEYS[5], ARGV[6])
redis.call('SET', KEYS[1], ARGV[1])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]}) do
  redis.call('PEXPIREAT', key, ARGV[3])
end
return 'RESTORED'
