-- Replaces a buyer's record in their home bucket only if it still is the expected value:
-- a pending claim becomes the final reservation id, or a record is removed (ARGV[3] empty).
-- KEYS[1] buyers hash of the home bucket. ARGV: userId, expectedValue, newValue ('' removes).
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (ARGV[3] ~= '' and current == ARGV[3]) or (ARGV[3] == '' and not current) then
  -- already done, by an earlier run of this same call (a client's retry)
  return 1
end
if current ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
return 1
