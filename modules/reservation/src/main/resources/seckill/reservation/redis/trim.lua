-- Trims a bucket's event stream of the entries its consumer group is done with, in one atomic step
-- on the stream's slot: never at or past the oldest pending entry (a worker may be settling it), and
-- never past the group's last delivered entry (later ones were never handed out). Re-running it
-- with the same arguments trims nothing more than the first run would have.
-- KEYS[1] the stream; ARGV[1] the consumer group. Returns the number of entries removed.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local last
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local name, delivered
  for i = 1, #group, 2 do
    if group[i] == 'name' then
      name = group[i + 1]
    elseif group[i] == 'last-delivered-id' then
      delivered = group[i + 1]
    end
  end
  if name == ARGV[1] then
    last = delivered
  end
end
if not last then
  return 0
end
local pending = redis.call('XPENDING', KEYS[1], ARGV[1])
-- the oldest pending id is never after the last delivered one
local keepFrom = last
if pending[1] > 0 then
  keepFrom = pending[2]
end
return redis.call('XTRIM', KEYS[1], 'MINID', keepFrom)
