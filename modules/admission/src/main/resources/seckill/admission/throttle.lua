-- Per-buyer and global admission for buyers of one rate-limit partition, judged in order in one call
-- (all keys carry the partition's hash tag); one buyer per call is the same script with n = 1.
-- KEYS[1] the partition's counter for the current second, KEYS[1 + i] buyer i's window counter.
-- ARGV: buyer limit per window, buyer window millis, partition's global limit per second (0 = none),
-- millis to the next second. Returns per buyer: verdict, count, retry-after millis.
local limit, window, global, nextSecond = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for i = 2, #KEYS do
  local mine = redis.call('INCR', KEYS[i])
  if mine == 1 then
    redis.call('PEXPIRE', KEYS[i], window)
  end
  local ttl = redis.call('PTTL', KEYS[i])
  if mine > limit then
    out[#out + 1] = 'BUYER'; out[#out + 1] = mine; out[#out + 1] = ttl
  else
    local verdict, count, retry = 'OK', mine, ttl
    if global > 0 then
      local all = redis.call('INCR', KEYS[1])
      if all == 1 then
        redis.call('PEXPIRE', KEYS[1], 2000)
      end
      if all > global then
        verdict, count, retry = 'GLOBAL', all, nextSecond
      end
    end
    out[#out + 1] = verdict; out[#out + 1] = count; out[#out + 1] = retry
  end
end
return out
