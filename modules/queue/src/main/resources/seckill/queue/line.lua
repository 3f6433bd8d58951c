-- The line's shared part, read in front of join.lua, place.lua and admit.lua (a script cannot include
-- another). Every key is one activity's, under one hash tag {q:a<activity>}, passed through KEYS:
--   KEYS[1] pre     ZSET buyer -> draw     buyers who joined before the start (order drawn, not arrival)
--   KEYS[2] line    ZSET buyer -> place    buyers waiting; the place is handed out in join order
--   KEYS[3] meta    HASH seq (last place handed out), shuffled (1 once the pre-queue was placed), closed (1: sold out),
--                        called, expired, used (running totals)
--   KEYS[4] places  HASH buyer -> place    everyone who holds or held a place (0: in the pre-queue)
--   KEYS[5] passes  ZSET buyer -> expiry   buyers called, whose pass is not used yet (expiry in ms)
--   KEYS[6] done    HASH buyer -> u|e      passes used (u) or expired unused (e)

-- Places are ordering keys, not counts (the position is the count). They are numbered from the clock so
-- that a line Redis lost wholly (a restart without persistence, a failover that took unreplicated
-- writes) cannot hand a newcomer a place ahead of, or equal to, one a ticket gives back: after the start a
-- new place is at least PRE_QUEUE_ROOM + PLACES_PER_MS x (ms since the start) + 1, and the last place
-- plus one when the line moves faster than that. Before a loss at time t no place can exceed that floor
-- at t, as long as joins stay under PLACES_PER_MS a millisecond on average (one Redis thread runs well
-- under a tenth of that) and the pre-queue under PRE_QUEUE_ROOM buyers: the pre-queue is placed at the
-- start just below PRE_QUEUE_ROOM. Numbers stay below 1e14 (printed exactly as %d) for three years.
local PRE_QUEUE_ROOM = 1000000000000
local PLACES_PER_MS = 1000

local function next_place(elapsed_ms)
  local last = tonumber(redis.call('HGET', KEYS[3], 'seq') or '0')
  local place = math.max(last, PRE_QUEUE_ROOM + PLACES_PER_MS * math.max(0, elapsed_ms)) + 1
  redis.call('HSET', KEYS[3], 'seq', string.format('%d', place))
  return place
end

-- At the start (the first call that says it started), the pre-queue is placed in the order of its
-- draws, ahead of everyone who joins after the start. Once: a re-run finds 'shuffled' and does nothing.
-- Answers whether the line has started: the caller's word, or a pre-queue placed already by a call whose
-- clock said so (another instance's a few ms ahead, or a tick that reached Redis before a join judged a
-- moment before the start): a buyer joining then goes to the line, not to a pre-queue nobody places again.
local function settle(started)
  if redis.call('HGET', KEYS[3], 'shuffled') == '1' then
    return '1'
  end
  if started ~= '1' then
    return started
  end
  local drawn = redis.call('ZRANGE', KEYS[1], 0, -1)
  local first = PRE_QUEUE_ROOM - #drawn
  for i = 1, #drawn do
    local place = string.format('%d', first + i)
    redis.call('ZADD', KEYS[2], place, drawn[i])
    redis.call('HSET', KEYS[4], drawn[i], place)
  end
  redis.call('DEL', KEYS[1])
  local last = math.max(tonumber(redis.call('HGET', KEYS[3], 'seq') or '0'), PRE_QUEUE_ROOM)
  redis.call('HSET', KEYS[3], 'seq', string.format('%d', last), 'shuffled', '1', 'pre_queue', #drawn)
  return '1'
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
-- served '1': the caller asked a record that outlives these keys (PastPurchases) and the buyer already bought
-- in this activity: the place comes back served (USED), not in the line, so a served buyer's ticket is no
-- second turn ahead of those still waiting. Any other value: the buyer did not buy (or was not asked about).
local function restore(buyer, ticket_place, started, draw, elapsed_ms, served)
  if redis.call('HEXISTS', KEYS[4], buyer) == 1 or ticket_place < 0 then
    return false
  end
  if served == '1' then
    local place = string.format('%d', ticket_place)
    redis.call('HSET', KEYS[4], buyer, place)
    redis.call('HSET', KEYS[6], buyer, 'u')
    if tonumber(redis.call('HGET', KEYS[3], 'seq') or '0') < ticket_place then
      redis.call('HSET', KEYS[3], 'seq', place)
    end
    return true
  end
  if ticket_place == 0 then
    if started == '1' then
      local place = string.format('%d', next_place(elapsed_ms))
      redis.call('ZADD', KEYS[2], place, buyer)
      redis.call('HSET', KEYS[4], buyer, place)
    else
      redis.call('ZADD', KEYS[1], draw, buyer)
      redis.call('HSET', KEYS[4], buyer, 0)
    end
    return true
  end
  local place = string.format('%d', ticket_place)
  redis.call('ZADD', KEYS[2], place, buyer)
  redis.call('HSET', KEYS[4], buyer, place)
  if tonumber(redis.call('HGET', KEYS[3], 'seq') or '0') < ticket_place then
    redis.call('HSET', KEYS[3], 'seq', place)
  end
  return true
end
