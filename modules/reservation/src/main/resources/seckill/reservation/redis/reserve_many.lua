-- reserve.lua for several buyers of one bucket in one call: each buyer is judged in order with
-- exactly the rules of reserve.lua, so the answers are those of one call per buyer in that order.
-- KEYS[1] stock counter, KEYS[2] buyers hash, KEYS[3] event stream, KEYS[4] minted ids (as reserve.lua),
-- then, when a window is judged, the bucket's window hashes of the period before reservedAt's and of
-- reservedAt's (one hash tag).
-- ARGV: count, reservedAtMillis, activityId, skuId, window attempts (0 = none), window millis, the
-- events' shape ('es', 'e' or 'named'), then per buyer: userId, reservationId, and with 'es' or 'e' the
-- event to record if the buyer reserves, 'reservationId,userId,quantity,reservedAt,requestId'
-- (ReservationEventFields.packed), with 'named' the requestId; then, for each buyer whose quantity is
-- not 1, their place in the call (1 for the first buyer) and their quantity. A buyer not listed there
-- takes 1: most buyers of a flash sale take one unit, and an argument costs the call about 0.65k
-- instructions a buyer (issue #35's sixth step). 'es' records the call's reservations in
-- ONE stream entry, field 'es', their events joined by a newline in the call's order (one reservation
-- alone: field 'e', as with 'e'); 'e' one entry per reservation, field 'e' (consumers from before issue
-- #35's third step read only those: seckill.reservation.one-entry-per-call); 'named' one entry per
-- reservation in named fields (consumers from before its second step: seckill.reservation.packed-events)
-- Returns per buyer: verdict, value, remaining.
-- Runs behind buyer_window.lua (positiveInteger, windows), which ReservationScript puts in front.
-- Redis CPU is the sale's scarcest resource, and each redis.call costs more than the command it runs:
-- the buyers hash and the minted ids are read once (HMGET) and written once, the stock once, so a buyer
-- who reserves costs a share of the call's one XADD only, and the windows are read (the earlier period's only when needed) and written once per call. Nothing else sees the keys
-- until the script ends.
if not positiveInteger(ARGV[1]) or not positiveInteger(ARGV[2]) then
  return redis.error_reply('ERR count and reservedAt must be positive integers')
end
if ARGV[5] ~= '0' and (not positiveInteger(ARGV[5]) or not windowMillis(ARGV[6])) then
  return redis.error_reply('ERR window attempts and millis must be positive integers, millis at most 10^12')
end
local n = tonumber(ARGV[1])
local argv = ARGV -- a local: a global is a table lookup each time it is named
local out = room(n) -- (room: buyer_window.lua)
local o = 0 -- answers so far (#out is a search each time)
-- quantities other than 1, by the buyer's place in the call (nil: every buyer of the call takes 1)
local quantityOf
local extra = 8 + 3 * n
-- every buyer's three arguments are there (the last buyer's event included): a count larger than the
-- buyers given would read the (place, quantity) pairs as buyers and fail at an XADD after writing others
if not argv[extra - 1] then
  return redis.error_reply('ERR count names more buyers than the arguments hold')
end
if argv[extra] then
  quantityOf = {}
  for j = extra, #argv, 2 do
    local place = argv[j]
    if not positiveInteger(place) or tonumber(place) > n or not argv[j + 1] then
      return redis.error_reply('ERR a quantity must follow a buyer\'s place in the call (1 to count)')
    end
    if quantityOf[tonumber(place)] then
      return redis.error_reply('ERR a buyer\'s place is listed once')
    end
    quantityOf[tonumber(place)] = argv[j + 1]
  end
end
local stock = redis.call('GET', KEYS[1])
local users, ids = room(n), room(n)
for i = 1, n do
  local base = 5 + i * 3
  users[i] = argv[base]
  ids[i] = argv[base + 1]
end
local window = windows(KEYS[5], KEYS[6], tonumber(ARGV[2]), stock and tonumber(ARGV[5]) or 0, tonumber(ARGV[6]), users)
-- one HMGET of `key` for the call's buyers or ids, in slices, here and for the HSET below: unpack has a
-- limit on how many values it returns at once, and max-batch is the operator's to set. One slice is
-- the reply itself, copied into no other table.
local function readAll(key, fields)
  if n <= 500 then
    return redis.call('HMGET', key, unpack(fields, 1, n))
  end
  local values = {}
  for from = 1, n, 500 do
    local got = redis.call('HMGET', key, unpack(fields, from, math.min(from + 499, n)))
    for j = 1, #got do
      values[from + j - 1] = got[j]
    end
  end
  return values
end
-- the buyers' records, and who each claim's id was minted for already, if anyone (see reserve.lua):
-- read when the first claim that would take a unit is judged (issue #35's fourth step: a call that
-- reserves nothing, e.g. of a sold-out bucket, spends no HMGET on ids it gives nothing under)
local priors = stock and readAll(KEYS[2], users) or {}
local minted
local start = tonumber(stock) or 0
local left = start
local held = {} -- buyers reserved by this call: their id, as the buyers hash will hold it
local writes = room(2 * n)
local written = 0 -- entries of writes and of mints (#writes is a search each time)
-- buyers answered from what an earlier call wrote: their records are rewritten as they are (see
-- reserve.lua: a replicated write, so the call's WAIT covers that earlier reservation too)
local vouched = {}
local mintedNow = {} -- ids this call gave units under
local mints = room(2 * n)
-- Each buyer's answer: RESERVED is the units left alone, a number (the claim's own id is the one
-- reserved); any other verdict is its name followed by its values: THROTTLED attempts, millis to wait;
-- ALREADY_RESERVED the id the buyer holds; INSUFFICIENT the units left; SOLD_OUT, ID_TAKEN,
-- NOT_PREHEATED, INVALID none (ReservationScript reads them; a reply element costs Redis about as
-- much as a table field and a bulk string, issue #35's fourth step).
-- the usual quantities need no pattern match: what the table holds is a positive integer's text
local quantities = {['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5}
local match = string.match
local shape = ARGV[7]
local judge = window.judge
local packed = shape ~= 'named'
local oneEntry = shape == 'es'
local recorded = room(n) -- with 'es': the events of the buyers reserved so far, for the call's one XADD
local r = 0
for i = 1, n do
  local user, id = users[i], ids[i]
  local quantityText, quantity = '1', 1
  if quantityOf and quantityOf[i] then
    quantityText = quantityOf[i]
    quantity = quantities[quantityText]
    if not quantity and positiveInteger(quantityText) then
      quantity = tonumber(quantityText)
    end
  end
  -- (positiveInteger inlined: a function call per buyer costs more than its test)
  if not quantity or not user or #user > 19 or not match(user, '^[1-9]%d*$') then
    -- this buyer's arguments only: the others of the call are judged as usual
    out[o + 1] = 'INVALID'; o = o + 1
  elseif not stock then
    out[o + 1] = 'NOT_PREHEATED'; o = o + 1
  else
    local prior = held[user] or priors[i]
    if prior == id then
      -- this claim was judged by an earlier run of the same call (a client's retry): same answer
      if not held[user] then
        vouched[#vouched + 1] = user; vouched[#vouched + 1] = prior
      end
      out[o + 1] = left; o = o + 1
    else
      local reserves = not prior and left >= quantity
      if reserves and not minted then
        minted = readAll(KEYS[4], ids)
      end
      -- the id is another unit's already (see reserve.lua): refused before the window counts it. A claim
      -- that would take nothing is not asked: no unit goes under its id either way
      local taken = reserves and (mintedNow[id] or minted[i])
      local throttled, retryAfter
      if not taken then
        -- let through, yet no reservation: the window remembers it, so a re-run is not counted again
        throttled, retryAfter = judge(i, user, id, reserves, prior)
      end
      if taken then
        out[o + 1] = 'ID_TAKEN'; o = o + 1
      elseif throttled then
        out[o + 1] = 'THROTTLED'; out[o + 2] = throttled; out[o + 3] = retryAfter; o = o + 3
      elseif not reserves then
        if prior then
          if not held[user] then
            vouched[#vouched + 1] = user; vouched[#vouched + 1] = prior
          end
          out[o + 1] = 'ALREADY_RESERVED'; out[o + 2] = prior; o = o + 2
        elseif left <= 0 then
          out[o + 1] = 'SOLD_OUT'; o = o + 1
        else
          out[o + 1] = 'INSUFFICIENT'; out[o + 2] = left; o = o + 2
        end
      else
        left = left - quantity
        held[user] = id
        writes[written + 1] = user
        writes[written + 2] = id
        mints[written + 1] = id
        mints[written + 2] = user
        written = written + 2
        mintedNow[id] = user
        -- the event in one field (ReservationEventFields.EVENT): the caller's text of this claim, made
        -- from the same claim as the id, buyer and quantity judged here; an XADD's cost grows with its
        -- arguments, and five named fields cost a reservation about a tenth more Redis CPU (issue #35)
        if oneEntry then
          -- one XADD for the call (below): an XADD's redis.call and stream append cost about as much
          -- as the rest of a reservation's Lua, and one per call saves most of it (issue #35)
          r = r + 1
          recorded[r] = argv[7 + i * 3]
        elseif packed then
          redis.call('XADD', KEYS[3], '*', 'e', argv[7 + i * 3])
        else
          redis.call('XADD', KEYS[3], '*', 'reservationId', id, 'userId', user, 'quantity', quantityText,
            'requestId', argv[7 + i * 3], 'reservedAt', argv[2])
        end
        out[o + 1] = left; o = o + 1
      end
    end
  end
end
if r == 1 then
  redis.call('XADD', KEYS[3], '*', 'e', recorded[1])
elseif r > 1 then
  redis.call('XADD', KEYS[3], '*', 'es', table.concat(recorded, '\n', 1, r))
end
if left ~= start then
  redis.call('DECRBY', KEYS[1], start - left)
  for from = 1, written, 1000 do
    redis.call('HSET', KEYS[2], unpack(writes, from, math.min(from + 999, written)))
  end
  for from = 1, written, 1000 do
    redis.call('HSET', KEYS[4], unpack(mints, from, math.min(from + 999, written)))
  end
  expireLike(KEYS[4], KEYS[1])
end
if #vouched > 0 and left == start then
  -- (when this call reserved, its own writes come after the earlier ones and cover them already)
  redis.call('HSET', KEYS[2], unpack(vouched, 1, math.min(2, #vouched)))
end
window.save()
return out
