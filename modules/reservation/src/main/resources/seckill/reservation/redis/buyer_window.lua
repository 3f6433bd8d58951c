-- Shared by reserve.lua and reserve_many.lua: ReservationScript puts this file in front of each
-- (a Redis script cannot include another), so both judge input and the buyers' windows alike.
-- defence in depth: the edge validates, and the scripts still refuse what could corrupt the stock
local function positiveInteger(text)
  return type(text) == 'string' and #text <= 19 and string.match(text, '^[1-9]%d*$') ~= nil
end
-- Gives `key` the expiry of `like` (the bucket's stock) once, when it has none: the bucket's keys go together.
-- A stock without an expiry (set by hand) leaves the key without one.
local function expireLike(key, like)
  if redis.call('PTTL', key) == -1 then
    local ttl = redis.call('PTTL', like)
    if ttl > 0 then
      redis.call('PEXPIRE', key, ttl)
    end
  end
end
-- The buyers' rate-limit windows of one bucket. A buyer's window opens with their first attempt and
-- lasts `millis`. It is a field of the hash of the period it opened in (periods are `millis` long, so a
-- window open now opened in this period or the one before: two hashes hold every live one), valued
-- "opened,attempts," followed by each attempt let through that reserved nothing ("id,"), so a re-run
-- of one is not counted again (a reservation needs none: the buyers hash answers its re-run first).
-- Over the limit a buyer stays over until the window ends. `now` is the call's reservedAt argument, so
-- a re-run of a call judges at the same moment.
-- Why hashes, not a key per buyer: that cost each buyer two redis.calls (HINCRBY, PEXPIRE), a third of
-- the script's Redis CPU per reservation; here one call reads both hashes once (HMGET) and writes each
-- once for all its buyers.
local function windows(earlierKey, currentKey, now, limit, millis, users)
  local self = {}
  if limit <= 0 or not currentKey then
    function self.judge() return nil, nil, false end
    function self.remember() end
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
  local earlier, current = read(earlierKey), read(currentKey)
  -- a window as this call leaves it: {hash key, opening's text, attempts, ids let through, user,
  -- opening}, in an array (a table's array part costs less than named fields)
  local open = {}    -- buyer -> their window
  local changed = {} -- windows to write back, in order
  local nChanged = 0
  -- (the opening's text is kept as read, so writing the window back formats no number but the attempts)
  local match = string.match
  local function parse(value, key, user)
    if not value then
      return nil
    end
    local openedText, attempts, ids = match(value, '^(%d+),(%d+),(.*)$')
    local opened = tonumber(openedText)
    if not opened or opened + millis <= now then
      return nil
    end
    return {key, openedText, tonumber(attempts), ids, user, opened}
  end
  -- Returns nil, nil within the limit, else the attempts and the millis until the window ends; then
  -- whether the caller must remember this attempt (remember) unless it reserves.
  function self.judge(i, user, id)
    local w = open[user]
    if not w then
      -- judged now, so written back
      -- (most buyers have no window yet: no call to parse for them)
      local value = current[i]
      if value then
        w = parse(value, currentKey, user)
      end
      if not w then
        value = earlier[i]
        if value then
          w = parse(value, earlierKey, user)
        end
        if not w then
          w = {currentKey, nowText, 0, '', user, now}
        end
      end
      open[user] = w
      nChanged = nChanged + 1
      changed[nChanged] = w
    end
    local ids = w[4]
    if ids ~= '' and string.find(',' .. ids, ',' .. id .. ',', 1, true) then
      -- this attempt was let through before (a re-run): count it once
      return nil, nil, false
    end
    local attempts = w[3] + 1
    w[3] = attempts
    if attempts > limit then
      -- numbers: Redis answers them as integers, with no snprintf of Lua's tostring
      return attempts, w[6] + millis - now, false
    end
    return nil, nil, true
  end
  function self.remember(user, id)
    local w = open[user]
    w[4] = w[4] .. id .. ','
  end
  -- Writes each hash once. A hash of period p holds windows that end by (p + 2) * millis; it is kept one
  -- period more, so an instance whose clock runs up to a period behind Redis' still finds its windows.
  function self.save()
    -- ',n,' per count of attempts, formatted once per call (numbers print whole: %.14g)
    local counts = {',1,', ',2,', ',3,'}
    for _, key in ipairs({earlierKey, currentKey}) do
      local fields = {}
      local f = 0
      for c = 1, nChanged do
        local w = changed[c]
        if w[1] == key then
          local attempts, ids, openedText = w[3], w[4], w[2]
          local value
          if attempts == 1 and ids == '' and openedText == nowText then
            value = freshText
          else
            local count = counts[attempts]
            if not count then
              count = ',' .. attempts .. ','
              counts[attempts] = count
            end
            value = openedText .. count .. ids
          end
          fields[f + 1] = w[5]
          fields[f + 2] = value
          f = f + 2
        end
      end
      for from = 1, f, 1000 do
        redis.call('HSET', key, unpack(fields, from, math.min(from + 999, f)))
      end
      if f > 0 then
        local p = key == currentKey and period or period - 1
        redis.call('PEXPIREAT', key, (p + 3) * millis)
      end
    end
  end
  return self
end
