-- Shared by reserve.lua and reserve_many.lua: ReservationScript puts this file in front of each
-- (a Redis script cannot include another), so both judge input and the buyers' windows alike.
-- defence in depth: the edge validates, and the scripts still refuse what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
-- A window's millis as the scripts take it: a positive integer up to 10^12 (BuyerWindow.MAX_MILLIS); a
-- longer window's hash expiry would print as 1e+17 and more, which PEXPIREAT refuses after the window
-- was written
local function windowMillis(text)
  return positiveInteger(text) and (#text < 13 or text == '1000000000000')
end
-- A value longer than a listpack holds (hash-max-listpack-value, 64 bytes): a hash given it in a field
-- is a hashtable from then on. Redis keeps a hash of up to 512 short fields as a listpack and scans it
-- from the start for every field a call asks (issue #35's ninth step: 30 % of Redis' instructions
-- behind the service), so the buyers (preheat.lua), the minted ids and the windows get it as `_`.
local hashtable = 'hashtable: a value over hash-max-listpack-value (64 bytes) makes the hash one from its first field'
-- Gives `key` (the minted ids) the expiry of `like` (the bucket's stock) once, when it has none: the
-- bucket's keys go together, and a stock without an expiry (set by hand) leaves the key without one.
-- A hash without an expiry is one this call made (or one kept by hand): it is made a hashtable then.
local function expireLike(key, like)
  if redis.call('PTTL', key) == -1 then
    redis.call('HSETNX', key, '_', hashtable)
    local ttl = redis.call('PTTL', like)
    if ttl > 0 then
      redis.call('PEXPIRE', key, ttl)
    end
  end
end
-- A table for `size` array entries (a call's answers, buyers, fields to write), made with room for
-- them (issue #35's fifth step): a table grown one entry at a time is resized at 1, 2, 4, 8, 16 and 32
-- entries, about 4.6k instructions a call for 21 entries, 0.2k a buyer per table. The constructor's
-- nils make the array part and hold no entry (`#` and unpack see only what is stored); past 64 it grows.
local function room(size)
  if size < 8 then
    return {}
  elseif size <= 32 then
    return {nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
  end
  return {nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
end
-- The buyers' rate-limit windows of one bucket. A buyer's window opens with their first attempt and
-- lasts `millis`. It is a field of the hash of the period it opened in (periods are `millis` long, so a
-- window open now opened in this period or the one before: two hashes hold every live one), valued
-- "opened,attempts," followed by each attempt let through that reserved nothing ("id,"), so a re-run
-- of one is not counted again (a reservation needs none: the buyers hash answers its re-run first).
-- A window opened by an attempt that reserves is not written at all: the buyer's record, the
-- reservation id, says when it was minted, and the window is read back from it when they come back.
-- Over the limit a buyer stays over until the window ends. `now` is the call's reservedAt argument, so
-- a re-run of a call judges at the same moment.
-- Why hashes, not a key per buyer: that cost each buyer two redis.calls (HINCRBY, PEXPIRE), a third of
-- the script's Redis CPU per reservation; here one call reads both hashes once (HMGET) and writes each
-- once for all its buyers.
-- Issue #35's fourth step: judge remembers an attempt itself (one Lua call per buyer, not two), and a
-- window's text is joined once, when it is written (one string made per buyer, not two); the text is
-- the same as before, so instances running the earlier script share the windows.
local function windows(earlierKey, currentKey, now, limit, millis, users)
  local self = {}
  if limit <= 0 or not currentKey then
    function self.judge() return nil, nil end
    function self.save() end
    return self
  end
  local period = math.floor(now / millis)
  -- a number prints through snprintf each time it is joined into a string; most windows written are
  -- new ones, opened now with one attempt, so their text is made once a call
  local nowText = string.format('%d', now)
  local freshText = nowText .. ',1,'
  local n = #users
  -- one slice is the reply itself, copied into no other table (issue #35: each element copied cost)
  local function read(key)
    if n <= 500 then
      return redis.call('HMGET', key, unpack(users, 1, n))
    end
    local values = {}
    for from = 1, n, 500 do
      local got = redis.call('HMGET', key, unpack(users, from, math.min(from + 499, n)))
      for j = 1, #got do
        values[from + j - 1] = got[j]
      end
    end
    return values
  end
  -- the earlier period's hash is read only when a buyer has no window in this period's (issue #35's
  -- fifth step): a window in this period's hash opened this period, so it is live and the earlier
  -- hash's window of that buyer, older, is not the one judged
  local current, earlier = read(currentKey), nil
  -- a window as this call leaves it: {hash key, opening's text (false: opened by this call), attempts,
  -- ids let through before this call, user, opening, ids this call let through (false: none; joined
  -- by commas, without the last one)}, in an array (a table's array part costs less than named fields)
  local open = {}    -- buyer -> their window
  local changed = room(n) -- windows to write back, in order
  local nChanged = 0
  local nEarlier = 0 -- of them in the earlier period's hash
  -- windows this call opens (issue #35's sixth step): most buyers have none yet, and theirs is the
  -- same text for all but the id an attempt let through adds, so no table is made for one: open[user]
  -- holds true, or the id let through, and the buyer is listed in `fresh` (made at the first one)
  local fresh
  local nFresh = 0
  -- (the opening's text is kept as read, so writing the window back formats no number but the attempts)
  local match, find, byte, sub = string.match, string.find, string.byte, string.sub
  -- the usual counts of attempts need no tonumber (a strtod each): what the table holds is their text
  local small = {['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5}
  local function parse(value, key, user)
    local openedText, attempts, ids = match(value, '^(%d+),(%d+),(.*)$')
    local opened = tonumber(openedText)
    if not opened or opened + millis <= now then
      return nil
    end
    return {key, openedText, small[attempts] or tonumber(attempts), ids, user, opened, false}
  end
  -- The window a reservation opened, from the buyer's record (the reservation id): a buyer's attempt
  -- that reserves writes no window (issue #35's tenth step: one hash field less a reserving buyer), since
  -- the id holds when it was minted (ReservationSequence: milliseconds since 2025-01-01 above 22 bits),
  -- when the instance took the claim, a moment before the call judged it: that is the attempt's moment.
  -- Their window is the one that attempt opened, one attempt in it, in the hash of the period it opened
  -- in; nil when it has ended, when the id was minted after this call's moment (another instance's clock
  -- ahead: a window opened "now" on every return would count an attempt nobody made, so the return
  -- opens its own), or when the record is no minted id (a pending claim, "pending:<seq>:<requestId>",
  -- whose requestId is the client's text and may end like an id).
  -- (an id starts with its activity's digits; one minted from 2025-12-30 to 2060 ends in 12 base-36
  -- digits after its last '-', one minted earlier in fewer and is not read: its window is over unless
  -- windows last more than about a year. Read by position, no pattern)
  local function reservation(prior, user)
    local first = byte(prior, 1)
    if not first or first < 49 or first > 57 or byte(prior, -13) ~= 45 then
      return nil
    end
    local minted = tonumber(sub(prior, -12), 36)
    if not minted then
      return nil
    end
    local opened = math.floor(minted / 4194304) + 1735689600000
    if opened > now or opened + millis <= now then
      return nil
    end
    local key = currentKey
    if opened < period * millis then
      -- (a live window opened at most one period before this one)
      key = earlierKey
      nEarlier = nEarlier + 1
    end
    return {key, string.format('%d', opened), 1, '', user, opened, false}
  end
  -- Returns nil, nil within the limit, else the attempts and the millis until the window ends. An
  -- attempt let through that reserves nothing (`reserves` false) is remembered, so a re-run of it is
  -- not counted again; one that reserves opens a window nobody writes (`reservation` reads it back from
  -- `prior`, the buyer's record, when they come back).
  function self.judge(i, user, id, reserves, prior)
    local w = open[user]
    if w and (w == true or type(w) == 'string') then
      -- a window this call opened, judged again (the buyer twice in the call): a table from now on
      w = {currentKey, false, 1, '', user, now, w ~= true and w}
      open[user] = w
      nChanged = nChanged + 1
      changed[nChanged] = w
    elseif not w then
      -- judged now, so written back
      -- (most buyers have no window yet: no call to parse for them)
      local value = current[i]
      if value then
        w = parse(value, currentKey, user)
      end
      if not w then
        if not earlier then
          earlier = read(earlierKey)
        end
        value = earlier[i]
        if value then
          w = parse(value, earlierKey, user)
          if w then
            nEarlier = nEarlier + 1
          end
        end
        if not w and prior then
          w = reservation(prior, user)
        end
        if not w then
          -- opened by this attempt, its first, within any limit (limit >= 1); one that reserves is not
          -- written (its record says when it opened), one that does not is listed to be
          if reserves then
            open[user] = true
            return nil, nil
          end
          if not fresh then
            fresh = room(n)
          end
          nFresh = nFresh + 1
          fresh[nFresh] = user
          open[user] = id
          return nil, nil
        end
      end
      open[user] = w
      nChanged = nChanged + 1
      changed[nChanged] = w
    end
    local ids, added = w[4], w[7]
    if (ids ~= '' and find(',' .. ids, ',' .. id .. ',', 1, true))
        or (added and find(',' .. added .. ',', ',' .. id .. ',', 1, true)) then
      -- this attempt was let through before (a re-run): count it once
      return nil, nil
    end
    local attempts = w[3] + 1
    w[3] = attempts
    if attempts > limit then
      -- numbers: Redis answers them as integers, with no snprintf of Lua's tostring
      return attempts, w[6] + millis - now
    end
    if not reserves then
      w[7] = added and added .. ',' .. id or id
    end
    return nil, nil
  end
  -- Writes each hash once. A hash of period p holds windows that end by (p + 2) * millis; it is kept one
  -- period more, so an instance whose clock runs up to a period behind Redis' still finds its windows.
  function self.save()
    -- ',n,' per count of attempts, formatted once per call (numbers print whole: %.14g)
    local counts = {',1,', ',2,', ',3,'}
    for _, key in ipairs(nEarlier > 0 and {earlierKey, currentKey} or {currentKey}) do
      local fields = room(2 * (nChanged + nFresh))
      local f = 0
      if key == currentKey then
        for k = 1, nFresh do
          local user = fresh[k]
          local w = open[user]
          if type(w) == 'string' then
            fields[f + 1] = user
            fields[f + 2] = freshText .. w .. ','
            f = f + 2
          end
        end
      end
      for c = 1, nChanged do
        local w = changed[c]
        if w[1] == key then
          local attempts, openedText, added = w[3], w[2], w[7]
          local value
          if attempts == 1 and not openedText then
            -- opened by this call: one string joined at most
            value = added and freshText .. added .. ',' or freshText
          else
            local count = counts[attempts]
            if not count then
              count = ',' .. attempts .. ','
              counts[attempts] = count
            end
            if added then
              value = (openedText or nowText) .. count .. w[4] .. added .. ','
            else
              value = (openedText or nowText) .. count .. w[4]
            end
          end
          fields[f + 1] = w[5]
          fields[f + 2] = value
          f = f + 2
        end
      end
      -- the call that makes a period's hash makes it a hashtable (`hashtable`: a period's first 512
      -- buyers each scanned a listpack) and gives it its expiry, once: the placeholder written tells that
      -- call from the later ones. The expiry comes after the windows: a call whose period has ended on
      -- Redis' clock (an instance's clock behind, a stalled Redis) then leaves no hash, where setting it
      -- first deleted the hash and the windows made it again without an expiry, kept for good
      local made = f > 0 and redis.call('HSETNX', key, '_', hashtable) == 1
      for from = 1, f, 1000 do
        redis.call('HSET', key, unpack(fields, from, math.min(from + 999, f)))
      end
      if made then
        local p = key == currentKey and period or period - 1
        redis.call('PEXPIREAT', key, (p + 3) * millis)
      end
    end
  end
  return self
end
