-- Spends a purchase token on the first purchase it is shown with, or says which purchase it went to.
-- KEYS[1] the token's spend record (its own hash tag: one key, any slot of a cluster).
-- ARGV: the purchase ("<skuId>|<requestId>"), when the record may go (epoch millis: the token's expiry
-- plus a margin for clock skew; absolute, so no instance's clock shortens it for the others).
-- Returns the purchase the token is spent on: ARGV[1] when this call spent it.
local spentOn = redis.call('GET', KEYS[1])
if spentOn then
  return spentOn
end
-- SET NX in effect (GET and NX together need Redis 7; the embedded dev server is 6.2): a script runs alone
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return ARGV[1]
