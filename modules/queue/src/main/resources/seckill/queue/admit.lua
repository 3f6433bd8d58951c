-- Calling buyers from the line (after line.lua). KEYS[7]: this second's count of buyers called, by every
-- instance; KEYS[8] (optional): claim.lua's bindings of passes to purchases. ARGV: now (ms), started (1/0), allowed so far in this second (RateBudget), pass lifetime (ms),
-- room (passes that may be out at once: the units left, or -1 for no cap), rate (per second), tick (ms), and
-- the passes marked used (meta used) as read before the units left ('' when not read).
-- First passes whose time ran out unused are withdrawn (the buyer's place goes to the next buyer), then the
-- next buyers are called while this second's budget and the room last, and no more than this tick's share:
-- the rate times the time since the line's last tick (by any instance, meta tick_ms), at most two ticks'
-- time. So a line that stood still (Redis paused, ticks timing out) does not call the second's whole budget in
-- one tick, and one tick a failover loses is at most ceil(rate x 2 x tick / 1 s) calls. A re-run at the same
-- moment calls nobody more: no time passed, and the second's count already holds what the first run called.
-- Answers {called now, expired now, waiting, passes out, called in total, {buyer, place, ...} of the passes
-- expired now} (the last for the record of turns run out that outlives these keys: RecordingTurnsRunOut).
local now, started = tonumber(ARGV[1]), ARGV[2]
-- (calls only once its own clock says the sale started: only then was it given the room, the units left)
settle(started)
-- A pass bound to a purchase (claim.lua: KEYS[8], sha1(pass)|expiry|purchase, the same expiry) is a purchase in
-- flight, checked while the pass was good: it may still take a unit, so its room is held past the expiry until the
-- purchase is marked used (use.lua) or released (it got nothing), at most one pass lifetime more (an instance lost
-- mid-purchase). Until 2026-12-03 it was withdrawn at its expiry and the next buyer called for the unit the purchase
-- was taking (LineTest.aPassBoundToAPurchaseInFlightHoldsItsRoomPastItsExpiry).
local due = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'WITHSCORES')
local expired = {}
for i = 1, #due, 2 do
  local expiry = tonumber(due[i + 1])
  local held = KEYS[8] and redis.call('HGET', KEYS[8], due[i])
  local bound = held and tonumber(string.match(held, '^%x+|(%d+)|') or '')
  if not (bound == expiry and expiry + tonumber(ARGV[4]) > now) then
    expired[#expired + 1] = due[i]
  end
end
local ran_out = {}
for i = 1, #expired do
  redis.call('ZREM', KEYS[5], expired[i])
  redis.call('HSET', KEYS[6], expired[i], 'e')
  ran_out[#ran_out + 1] = expired[i]
  ran_out[#ran_out + 1] = redis.call('HGET', KEYS[4], expired[i]) or '0'
end
if #expired > 0 then
  redis.call('HINCRBY', KEYS[3], 'expired', #expired)
end
local called = 0
local tick = tonumber(ARGV[7])
local last = tonumber(redis.call('HGET', KEYS[3], 'tick_ms') or tostring(now - 2 * tick))
if now > last then
  redis.call('HSET', KEYS[3], 'tick_ms', string.format('%d', now))
end
if started == '1' and redis.call('HGET', KEYS[3], 'closed') ~= '1' then
  local elapsed = math.min(math.max(now - last, 0), 2 * tick)
  local share = math.ceil(tonumber(ARGV[6]) * elapsed / 1000)
  local budget = math.min(share, tonumber(ARGV[3]) - tonumber(redis.call('GET', KEYS[7]) or '0'))
  local room = tonumber(ARGV[5])
  if room >= 0 then
    -- a pass marked used since the units were read left the passes out, and its purchase may have taken its unit
    -- after that read: counted as free in neither, it is taken off the room (a unit gone is called for nobody)
    local used_before = tonumber(ARGV[8] or '')
    if used_before then
      room = room - math.max(0, tonumber(redis.call('HGET', KEYS[3], 'used') or '0') - used_before)
    end
    budget = math.min(budget, room - redis.call('ZCARD', KEYS[5]))
  end
  -- (no more than are waiting: a huge rate's budget is no number ZRANGE reads)
  budget = math.min(budget, redis.call('ZCARD', KEYS[2]))
  if budget > 0 then
    local next = redis.call('ZRANGE', KEYS[2], 0, budget - 1)
    local expiry = now + tonumber(ARGV[4])
    for i = 1, #next do
      redis.call('ZREM', KEYS[2], next[i])
      redis.call('ZADD', KEYS[5], expiry, next[i])
    end
    called = #next
    if called > 0 then
      redis.call('INCRBY', KEYS[7], called)
      redis.call('PEXPIRE', KEYS[7], 5000)
      redis.call('HINCRBY', KEYS[3], 'called', called)
    end
  end
end
return {called, #expired, redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[5]),
        tonumber(redis.call('HGET', KEYS[3], 'called') or '0'), ran_out}
