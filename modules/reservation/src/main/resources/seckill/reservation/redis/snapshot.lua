-- One page of one bucket's figures for reconciliation, read in one atomic step on the bucket's slot.
-- The first page (ARGV[4] empty) fixes the cut: the stream's last entry id at that instant, read with
-- the stock, the units refilled and the lost entries, so those describe one instant. Entries after the
-- cut do not matter: their units were taken after it. Each page then lists the unacknowledged events
-- (pending in the group, or never delivered) among the entries after the cursor ARGV[3] and up to the
-- cut, at most ARGV[2] of them, and says where it stopped. An entry is judged once, in the page that
-- covers it, at that page's instant: listed if it was unacknowledged then; if not, it had been
-- acknowledged, which a worker does only after its outcome is in the ledger, and an acknowledged
-- entry never becomes unacknowledged again. So a backlog of any size is counted exactly, a page at a
-- time, while other instances keep selling and settling. Read-only: running it again changes nothing.
-- KEYS[1] stock, KEYS[2] refilled units, KEYS[3] event stream, KEYS[4] ids of pending entries found gone
-- from the stream (by a reclaim); ARGV[1] consumer group, ARGV[2] page size, ARGV[3] cursor (exclusive;
-- empty: from the start), ARGV[4] the cut (empty: this is the first page, read it now).
-- Returns {'NO_STOCK'} |
--   {'OK', stock, refilledUnits, cut, pendingUnits, lostEntries, next, reservationId...}
--   where next is the cursor of the following page, empty once the page reached the cut.
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NO_STOCK'}
end
local refilled = redis.call('GET', KEYS[2]) or '0'
local first = ARGV[4] == ''
local lost = 0
if first then
  lost = redis.call('LLEN', KEYS[4])
end
if redis.call('EXISTS', KEYS[3]) == 0 then
  return {'OK', stock, refilled, first and '0-0' or ARGV[4], '0', tostring(lost), ''}
end
local function field(flat, name)
  for i = 1, #flat, 2 do
    if flat[i] == name then
      return flat[i + 1]
    end
  end
  return nil
end
-- stream ids compare as two numbers: milliseconds, then sequence
local function parts(id)
  local dash = string.find(id, '-', 1, true)
  return tonumber(string.sub(id, 1, dash - 1)), tonumber(string.sub(id, dash + 1))
end
local function after(a, b)
  local am, as = parts(a)
  local bm, bs = parts(b)
  return am > bm or (am == bm and as > bs)
end
local cut = ARGV[4]
if first then
  cut = field(redis.call('XINFO', 'STREAM', KEYS[3]), 'last-generated-id')
end
local from = ARGV[3]
local delivered = '0-0'
local grouped = false
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[3])) do
  if field(group, 'name') == ARGV[1] then
    delivered = field(group, 'last-delivered-id')
    grouped = true
  end
end
local size = tonumber(ARGV[2])
local reply = {'OK', stock, refilled, cut, '0', '0', ''}
local units = 0
local listed = 0
-- an entry's reservation ids and quantities, in every shape (ReservationEventFields): one field 'es'
-- (a coalesced call's reservations, each 'reservationId,userId,quantity,reservedAt,requestId', joined by
-- newlines), one field 'e' (one such text), or named fields. Units and ids are the reservations'; the
-- page size and 'listed' count entries
local function one(id, quantity)
  units = units + (tonumber(quantity or '0') or 0)
  reply[#reply + 1] = id or ''
end
local function count(entry)
  local many = field(entry[2], 'es')
  local packed = field(entry[2], 'e')
  if many then
    for text in string.gmatch(many, '[^\n]+') do
      one(string.match(text, '^([^,]*),[^,]*,([^,]*),'))
    end
  elseif packed then
    one(string.match(packed, '^([^,]*),[^,]*,([^,]*),'))
  else
    one(field(entry[2], 'reservationId'), field(entry[2], 'quantity'))
  end
  listed = listed + 1
end
local function exclusive(id)
  if id == '' or id == '0-0' then
    return '-'
  end
  return '(' .. id
end
local nextCursor = ''
if grouped then
  -- delivered and not acknowledged: every pending entry is at or before the group's last delivered id
  local pending = redis.call('XPENDING', KEYS[3], ARGV[1], exclusive(from), cut, size)
  for _, p in ipairs(pending) do
    local entry = redis.call('XRANGE', KEYS[3], p[1], p[1])
    if #entry == 1 then
      count(entry[1])
    else
      -- pending, yet gone from the stream: an event nobody can settle any more
      lost = lost + 1
      listed = listed + 1
    end
  end
  if #pending == size then
    -- a full page: pending entries after this one, and the undelivered ones, are the next page's
    nextCursor = pending[#pending][1]
  end
end
if nextCursor == '' then
  -- never delivered: after the group's last delivered id (and the cursor), up to the cut
  local lower = delivered
  if from ~= '' and after(from, lower) then
    lower = from
  end
  if after(cut, lower) then
    local room = size - listed
    if room < 1 then
      nextCursor = lower
    else
      local undelivered = redis.call('XRANGE', KEYS[3], exclusive(lower), cut, 'COUNT', room)
      for _, entry in ipairs(undelivered) do
        count(entry)
      end
      if #undelivered == room then
        nextCursor = undelivered[#undelivered][1]
      end
    end
  end
end
reply[5] = tostring(units)
reply[6] = tostring(lost)
reply[7] = nextCursor
return reply
