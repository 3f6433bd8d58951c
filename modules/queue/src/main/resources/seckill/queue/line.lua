-- The line's shared part, read in front of join.lua, place.lua and admit.lua (a script cannot include
-- another). Every key is one activity's, under one hash tag {q:a<activity>}, passed through KEYS:
--   KEYS[1] pre     ZSET buyer -> draw     buyers who joined before the start (order drawn, not arrival)
--   KEYS[2] line    ZSET buyer -> place    buyers waiting; the place is handed out in join order
--   KEYS[3] meta    HASH seq (last place), shuffled (1 once the pre-queue was placed), closed (1: sold out),
--                        called, expired, used (running totals)
--   KEYS[4] places  HASH buyer -> place    everyone who holds or held a place (0: in the pre-queue)
--   KEYS[5] passes  ZSET buyer -> expiry   buyers called, whose pass is not used yet (expiry in ms)
--   KEYS[6] done    HASH buyer -> u|e      passes used (u) or expired unused (e)

-- At the start (the first call that says it started), the pre-queue is placed in the order of its
-- draws, ahead of everyone who joins after the start. Once: a re-run finds 'shuffled' and does nothing.
local function settle(started)
  if started ~= '1' or redis.call('HGET', KEYS[3], 'shuffled') == '1' then
    return
  end
  local seq = tonumber(redis.call('HGET', KEYS[3], 'seq') or '0')
  local drawn = redis.call('ZRANGE', KEYS[1], 0, -1)
  for i = 1, #drawn do
    seq = seq + 1
    redis.call('ZADD', KEYS[2], seq, drawn[i])
    redis.call('HSET', KEYS[4], drawn[i], seq)
  end
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[3], 'seq', seq, 'shuffled', '1', 'pre_queue', #drawn)
end

-- Where the buyer stands: {state, place, ahead, pass expiry (ms, as text), called, waiting}
local function describe(buyer)
  local called = tonumber(redis.call('HGET', KEYS[3], 'called') or '0')
  local place = redis.call('HGET', KEYS[4], buyer)
  if not place then
    return {'NOT_IN_LINE', 0, 0, '0', called, redis.call('ZCARD', KEYS[2])}
  end
  local expiry = redis.call('ZSCORE', KEYS[5], buyer)
  if expiry then
    return {'YOUR_TURN', tonumber(place), 0, expiry, called, redis.call('ZCARD', KEYS[2])}
  end
  local done = redis.call('HGET', KEYS[6], buyer)
  if done then
    return {done == 'u' and 'USED' or 'EXPIRED', tonumber(place), 0, '0', called, redis.call('ZCARD', KEYS[2])}
  end
  if redis.call('ZSCORE', KEYS[1], buyer) then
    return {'PRE_QUEUE', 0, 0, '0', called, redis.call('ZCARD', KEYS[1])}
  end
  local rank = redis.call('ZRANK', KEYS[2], buyer)
  if rank then
    local state = redis.call('HGET', KEYS[3], 'closed') == '1' and 'SOLD_OUT' or 'WAITING'
    return {state, tonumber(place), rank, '0', called, redis.call('ZCARD', KEYS[2])}
  end
  return {'NOT_IN_LINE', 0, 0, '0', called, redis.call('ZCARD', KEYS[2])}
end

-- A buyer Redis does not know (its record lost to a failover that took unreplicated writes) who shows
-- a signed ticket gets the place the ticket names back: a place is never lost silently. A pre-queue
-- ticket (place 0) rejoins the pre-queue with a new draw before the start, the end of the line after it.
local function restore(buyer, ticket_place, started, draw)
  if redis.call('HEXISTS', KEYS[4], buyer) == 1 or ticket_place < 0 then
    return false
  end
  if ticket_place == 0 then
    if started == '1' then
      local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
      redis.call('ZADD', KEYS[2], seq, buyer)
      redis.call('HSET', KEYS[4], buyer, seq)
    else
      redis.call('ZADD', KEYS[1], draw, buyer)
      redis.call('HSET', KEYS[4], buyer, 0)
    end
    return true
  end
  redis.call('ZADD', KEYS[2], ticket_place, buyer)
  redis.call('HSET', KEYS[4], buyer, ticket_place)
  if tonumber(redis.call('HGET', KEYS[3], 'seq') or '0') < ticket_place then
    redis.call('HSET', KEYS[3], 'seq', ticket_place)
  end
  return true
end
