-- Settles a donor take whose answer was lost (a timeout, a missing replica acknowledgement): the
-- buyer's retry asks each donor whether it gave units under the in-doubt reservation id. If it did,
-- the answer is TAKEN; if not, the id is withdrawn here for good, so that the lost call, should it
-- still arrive, takes nothing (take.lua refuses a withdrawn id). Run again, it answers the same.
-- Every answer rewrites the id's entry (unchanged when it is already there): a write is replicated,
-- so the caller's WAIT covers everything this master wrote before it, the lost take too. Without it
-- a TAKEN read from this master alone could report a take that its replicas never got and that a
-- failover loses; the donor may be on another master than the buyer's home bucket, whose own
-- acknowledgement then covers nothing here.
-- KEYS[1] hash of ids served here (as take.lua writes it), KEYS[2] stock counter of the donor bucket
-- (for the hash's expiry). ARGV: reservationId, userId.
local served = redis.call('HGET', KEYS[1], ARGV[1])
if served == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], served)
  return 'TAKEN'
end
if not served then
  redis.call('HSET', KEYS[1], ARGV[1], 'withdrawn')
  -- as long as the donor's counter lives (for good without an expiry: a withdrawal gone after 1 ms, as a PTTL
  -- of -1 once gave it, would let the lost take still take); given it, the hash is made a hashtable (a
  -- value longer than a listpack holds, as take.lua does: see buyer_window.lua)
  local lifetime = redis.call('PTTL', KEYS[2])
  if lifetime > 0 and redis.call('PTTL', KEYS[1]) < 0 then
    redis.call('HSETNX', KEYS[1], '_',
      'hashtable: a value over hash-max-listpack-value (64 bytes) makes the hash one from its first field')
    redis.call('PEXPIRE', KEYS[1], lifetime)
  end
else
  redis.call('HSET', KEYS[1], ARGV[1], served)
end
-- withdrawn, now or before (or, never by design, served to someone else): this buyer holds nothing here
return 'WITHDRAWN'
