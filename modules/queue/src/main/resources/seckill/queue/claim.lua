-- One turn, one purchase: a pass is bound to the first purchase (its requestId) that shows it, before that
-- purchase reserves, so the pass buys nothing else while it lasts; the same purchase asked again (a retry
-- with its requestId) still passes and finds its reservation. KEYS[1]: claims (HASH buyer ->
-- sha1(pass)|pass expiry ms|requestId), KEYS[2]: done (line.lua's KEYS[6], buyer -> u|e), KEYS[3] (optional):
-- passes (line.lua's KEYS[5], buyer -> expiry).
-- ARGV: buyer, pass, requestId, 'claim' or 'release', the pass's expiry (ms), now (ms).
-- claim answers 1 when the pass is this purchase's (first shown, or the same requestId again, or a new pass of
-- the buyer's replacing the binding of an old one that has run out: a purchase that got nothing and whose release
-- was lost leaves it behind), 0 when it is bound to another purchase, or when another pass of the buyer's is
-- bound and still good (a buyer called twice, by a lost tick or a ticket giving back the place of a buyer whose
-- turn it was, holds two passes: one turn, one purchase), or when the buyer's pass was used (called again while
-- their purchase was reserving: the used pass bought their turn, the new pass buys nothing).
-- claim answers 2 when a pass not yet bound was withdrawn by a tick (admit.lua: its time ran out by the line's
-- clock, done 'e' and the pass no longer among those out): the purchase checked it in memory a moment before, but
-- its room went to the next buyer, so binding it would let it take a unit that buyer was called for (until
-- 2026-12-04 it bound; LineTest.aPassWithdrawnBetweenThePurchasesCheckAndItsClaimBuysNothing). A pass a failover
-- lost (never withdrawn: no 'e') still binds: nobody holding a pass loses it.
-- release (the purchase got nothing: sold out, refused, throttled) unbinds it, only if still bound to this
-- purchase, so the pass may buy something else; answers 1 when it did. Re-runs give the same answers.
local sha = ARGV[2] and redis.sha1hex(ARGV[2])
local bound = sha and (sha .. '|' .. ARGV[5] .. '|' .. ARGV[3])
local held = redis.call('HGET', KEYS[1], ARGV[1])
-- A binding of the form written before it kept the pass's expiry (sha1(pass)|requestId, 2026-12-03 before 5c1ad66)
-- names no SKU: a purchase of another SKU under the same requestId cannot be told from the bound purchase's retry,
-- so it is never taken for this purchase (one turn, one purchase): a retry across such an upgrade is told the pass
-- is taken and finds its reservation, if it got one, at the address the answer names. Until 2026-12-04 it was
-- matched by the requestId and one pass bought two SKUs (LineTest.aBindingWrittenBeforeTheUpgradeBuysNoOtherSkuUnderItsRequestId).
if ARGV[4] == 'release' then
  if held == bound then
    redis.call('HDEL', KEYS[1], ARGV[1])
    return 1
  end
  return 0
end
local function withdrawn()
  return KEYS[3] and redis.call('HGET', KEYS[2], ARGV[1]) == 'e'
      and tonumber(redis.call('ZSCORE', KEYS[3], ARGV[1]) or '-1') ~= tonumber(ARGV[5])
end
if held == bound then
  redis.call('HSET', KEYS[1], ARGV[1], bound)
  return 1
end
if not held then
  if withdrawn() then
    return 2
  end
  redis.call('HSET', KEYS[1], ARGV[1], bound)
  return 1
end
if string.sub(held, 1, 41) == string.sub(bound, 1, 41) then
  return 0
end
-- another pass's binding: it gives way once that pass has run out, unless it bought the buyer's turn
local held_expiry = tonumber(string.match(held, '^%x+|(%d+)|') or '0') or 0
if held_expiry < tonumber(ARGV[6]) and redis.call('HGET', KEYS[2], ARGV[1]) ~= 'u' then
  if withdrawn() then
    return 2
  end
  redis.call('HSET', KEYS[1], ARGV[1], bound)
  return 1
end
return 0
