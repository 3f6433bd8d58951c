-- Where a buyer stands (after line.lua). ARGV: buyer, started (1/0), draw, ticket place (-1: no ticket),
-- ms since the start, served (restore's: '1' when the buyer already bought in this activity; asked by the
-- caller only for a ticket of a buyer Redis does not know).
-- Writes only to place the pre-queue at the start (once) or to give back a place a signed ticket names
-- and Redis lost.
local buyer = ARGV[1]
local started = settle(ARGV[2])
restore(buyer, tonumber(ARGV[4]), started, ARGV[3], tonumber(ARGV[5]), ARGV[6])
return describe(buyer)
