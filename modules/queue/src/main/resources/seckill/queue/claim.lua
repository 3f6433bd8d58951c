-- One turn, one purchase: a pass is bound to the first purchase (its requestId) that shows it, before that
-- purchase reserves, so the pass buys nothing else while it lasts; the same purchase asked again (a retry
-- with its requestId) still passes and finds its reservation. KEYS[1]: claims (HASH buyer -> sha1(pass)|requestId),
-- KEYS[2]: done (line.lua's KEYS[6], buyer -> u|e). ARGV: buyer, pass, requestId, 'claim' or 'release'.
-- claim answers 1 when the pass is this purchase's (first shown, or the same requestId again, or a new pass of
-- the buyer's replacing an old one's binding), 0 when it is bound to another purchase, or when it is a new pass
-- of a buyer whose pass was used (a buyer called again while their purchase was reserving, or twice by a lost
-- tick: the used pass's purchase bought their turn, the new pass buys nothing).
-- release (the purchase got nothing: sold out, refused, throttled) unbinds it, only if still bound to this
-- purchase, so the pass may buy something else; answers 1 when it did. Re-runs give the same answers.
local bound = ARGV[2] and (redis.sha1hex(ARGV[2]) .. '|' .. ARGV[3])
local held = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[4] == 'release' then
  if held == bound then
    redis.call('HDEL', KEYS[1], ARGV[1])
    return 1
  end
  return 0
end
if not held or held == bound then
  redis.call('HSET', KEYS[1], ARGV[1], bound)
  return 1
end
if string.sub(held, 1, 41) ~= string.sub(bound, 1, 41) and redis.call('HGET', KEYS[2], ARGV[1]) ~= 'u' then
  redis.call('HSET', KEYS[1], ARGV[1], bound)
  return 1
end
return 0
