-- Gives a node id lease back, only if this instance still holds it.
-- KEYS[1] the lease; ARGV[1] the holder's token.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
