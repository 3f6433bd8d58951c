-- Where each of many buyers stands (after line.lua): one call for all the buyers an instance follows on its
-- event streams (FollowingTheLines), instead of one place.lua each. ARGV: started (1/0), then the buyers.
-- Answers line.lua's description of each buyer, in ARGV's order. Writes only to place the pre-queue at the
-- start (once), as place.lua; never gives a place back (a ticket's restore stays place.lua's, per buyer).
settle(ARGV[1])
local described = {}
for i = 2, #ARGV do
  described[#described + 1] = describe(ARGV[i])
end
return described
