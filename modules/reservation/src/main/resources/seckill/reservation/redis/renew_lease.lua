-- Renews a node id lease only while this instance still holds it; a lease that lapsed or was taken
-- over is lost for good (the instance stopped minting ids before it could lapse, and leases anew).
-- Re-running it with the same arguments gives the same answer.
-- KEYS[1] the lease; ARGV[1] the holder's token, ARGV[2] the lease's length in milliseconds.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
