-- Shared by reserve.lua and reserve_many.lua: ReservationScript puts this file in front of each
-- (a Redis script cannot include another), so both judge input and the buyer's window alike.
-- defence in depth: the edge validates, and the scripts still refuse what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
-- the buyer's rate-limit window: a hash where 'n' counts the attempts, and each attempt let through
-- that did not end in a reservation is a field, so a re-run of it is not counted again (a reservation
-- needs no field: the buyers hash answers its re-run before the window is asked). Over the limit it
-- stays over until it expires. Returns nil within the limit, else {attempts, millis until the window
-- ends}, and whether the caller must remember this attempt (remember) unless it reserves.
-- A buyer's first attempt, by far the commonest, costs HINCRBY and PEXPIRE only: a window that
-- HINCRBY just created holds no earlier attempt to look for.
local function overLimit(key, id, limit, millis)
  if limit <= 0 or not key then
    return nil, false
  end
  local attempts = redis.call('HINCRBY', key, 'n', 1)
  if attempts == 1 then
    redis.call('PEXPIRE', key, millis)
  elseif redis.call('HEXISTS', key, id) == 1 then
    -- this attempt was let through before (a re-run): count it once
    redis.call('HINCRBY', key, 'n', -1)
    return nil, false
  end
  if attempts > limit then
    return {tostring(attempts), tostring(redis.call('PTTL', key))}, false
  end
  return nil, true
end
local function remember(key, id)
  redis.call('HSET', key, id, '1')
end
