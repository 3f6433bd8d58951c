-- One bucket's figures for reconciliation, read in one atomic step on the bucket's slot, so they
-- describe one instant: the stock left, the units refilled so far, the stream's last entry id, and
-- every event not yet acknowledged (delivered and pending, or never delivered) with its units.
-- Read-only: running it again changes nothing.
-- KEYS[1] stock, KEYS[2] refilled units, KEYS[3] event stream, KEYS[4] ids of pending entries found gone
-- from the stream (by a reclaim); ARGV[1] consumer group, ARGV[2] most events to list.
-- Returns {'NO_STOCK'} | {'TOO_MANY'} |
--   {'OK', stock, refilledUnits, lastEntryId, pendingUnits, lostEntries, reservationId...}
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {'NO_STOCK'}
end
local refilled = redis.call('GET', KEYS[2]) or '0'
if redis.call('EXISTS', KEYS[3]) == 0 then
  return {'OK', stock, refilled, '0-0', '0', tostring(redis.call('LLEN', KEYS[4]))}
end
local function field(flat, name)
  for i = 1, #flat, 2 do
    if flat[i] == name then
      return flat[i + 1]
    end
  end
  return nil
end
local last = field(redis.call('XINFO', 'STREAM', KEYS[3]), 'last-generated-id')
local delivered = '0-0'
local grouped = false
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[3])) do
  if field(group, 'name') == ARGV[1] then
    delivered = field(group, 'last-delivered-id')
    grouped = true
  end
end
local limit = tonumber(ARGV[2])
local reply = {'OK', stock, refilled, last, '0', '0'}
local units = 0
local lost = redis.call('LLEN', KEYS[4])
local function count(entry)
  units = units + tonumber(field(entry[2], 'quantity') or '0')
  reply[#reply + 1] = field(entry[2], 'reservationId') or ''
end
if grouped then
  local pending = redis.call('XPENDING', KEYS[3], ARGV[1], '-', '+', limit + 1)
  if #pending > limit then
    return {'TOO_MANY'}
  end
  for _, p in ipairs(pending) do
    local entry = redis.call('XRANGE', KEYS[3], p[1], p[1])
    if #entry == 1 then
      count(entry[1])
    else
      -- pending, yet gone from the stream: an event nobody can settle any more
      lost = lost + 1
    end
  end
end
local undelivered = redis.call('XRANGE', KEYS[3], '(' .. delivered, '+', 'COUNT', limit + 1)
if #undelivered + #reply - 6 > limit then
  return {'TOO_MANY'}
end
for _, entry in ipairs(undelivered) do
  count(entry)
end
reply[5] = tostring(units)
reply[6] = tostring(lost)
return reply
