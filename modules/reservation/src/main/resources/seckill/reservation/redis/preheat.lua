-- Puts a bucket's stock in place for a SKU that has never been sold: leftover keys with the same
-- ids (a reset database reusing ids) are dropped first, so the bucket starts exactly at ARGV[1].
-- Run again with the same arguments (a client's retry after a lost reply) it changes nothing: the
-- bucket remembers which preheat put it in place.
-- KEYS[1] stock counter, KEYS[2] buyers hash, KEYS[3] event stream, KEYS[4] refilled set,
-- KEYS[5] dead-letter stream, KEYS[6] refilled units, KEYS[7] ids served as a donor,
-- KEYS[8] preheat marker, KEYS[9] lost entries (one hash tag).
-- ARGV: stock, consumerGroup, expireAtMillis, preheatId
if redis.call('GET', KEYS[8]) == ARGV[4] then
  return 'OK'
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[9])
redis.call('SET', KEYS[1], ARGV[1])
-- a placeholder field gives the buyers hash its expiry now (later HSETs keep it). Its value is longer
-- than a listpack holds, so the hash is a hashtable from here: Redis keeps a hash of up to 512 short
-- fields as a listpack and scans it from the start for every field a call asks (a refusal in a sold-out
-- sale of 500 units cost Redis 6.8-8.1 µs instead of 3.3-3.5, issue #35's ninth step). The minted ids
-- (KEYS[7]) are made by the first reservation, with the stock's expiry then (buyer_window.lua's
-- expireLike): a stock an operator keeps by hand before it keeps them too.
redis.call('HSET', KEYS[2], '_',
  'hashtable: a value over hash-max-listpack-value (64 bytes) makes the hash one from its first field')
redis.call('XGROUP', 'CREATE', KEYS[3], ARGV[2], '0', 'MKSTREAM')
redis.call('SET', KEYS[8], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('PEXPIREAT', KEYS[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[3], ARGV[3])
redis.call('PEXPIREAT', KEYS[8], ARGV[3])
return 'OK'
