-- Where a buyer stands (after line.lua). ARGV: buyer, started (1/0), draw, ticket place (-1: no ticket).
-- Writes only to place the pre-queue at the start (once) or to give back a place a signed ticket names
-- and Redis lost.
local buyer, started = ARGV[1], ARGV[2]
settle(started)
restore(buyer, tonumber(ARGV[4]), started, ARGV[3])
return describe(buyer)
