-- Shared by reserve.lua and reserve_many.lua: ReservationScript puts this file in front of each
-- (a Redis script cannot include another), so both judge input and the buyer's window alike.
-- defence in depth: the edge validates, and the scripts still refuse what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
-- the buyer's rate-limit window: a hash where 'n' counts the attempts and each attempt it let through
-- is a field, so a re-run of an admitted call is not counted again; over the limit it stays over
-- until it expires. Nil within the limit, else {attempts, millis until the window ends}.
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
