-- Returns a reservation's units to its bucket exactly once, whatever the number of calls.
-- KEYS[1] stock counter, KEYS[2] buyers hash, KEYS[3] set of reservation ids already refilled,
-- KEYS[4] units refilled so far (read by reconciliation atomically with the stock; one hash tag).
-- ARGV: reservationId, userId, quantity, releaseBuyer (1 lets the buyer reserve again)
-- defence in depth: the edge validates, and the script still refuses what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
if not positiveInteger(ARGV[2]) or not positiveInteger(ARGV[3]) then
  return redis.error_reply('ERR userId and quantity must be positive integers')
end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then
  -- written again unchanged, so the caller's WAIT has a write of this call to wait for: a repeat after
  -- an unacknowledged first call must wait until the replicas hold that first call, also on a server
  -- whose WAIT counts only the connection's writes (Redis 7.0 counts its last command of any kind)
  local units = redis.call('GET', KEYS[4])
  if units then
    redis.call('SET', KEYS[4], units, 'KEEPTTL')
  end
  return 'ALREADY_APPLIED'
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  -- the SKU's keys expired after the sale: there is no shelf to put units back on
  return 'KEYS_GONE'
end
redis.call('INCRBY', KEYS[1], ARGV[3])
if ARGV[4] == '1' and redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then
  redis.call('HDEL', KEYS[2], ARGV[2])
end
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('INCRBY', KEYS[4], ARGV[3])
-- the record of refills lives as long as the stock it guards: a counter without an expiry (a repair by hand)
-- keeps its record without one too; a lifetime of -1 taken as 1 ms let the same refill apply again and again
local lifetime = redis.call('PTTL', KEYS[1])
if lifetime > 0 then
  for i = 3, 4 do
    if redis.call('PTTL', KEYS[i]) < 0 then
      redis.call('PEXPIRE', KEYS[i], lifetime)
    end
  end
end
return 'APPLIED'
