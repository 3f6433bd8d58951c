-- wrk: each request a purchase (POST to PATH, SKU 1, one unit) by the next buyer of POOL, a file of
-- bearer tokens one a line. The script wrk runs sets POOL, PATH and START, then dofile()s this one:
--   START "random": each thread starts at a random place (runs over one pool start apart);
--   START "halves": each thread walks its own half of the pool (wrk -t2): two threads walking the same
--   buyers would turn reservations into refusals (a buyer back within their window, or already holding one)
local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
local tokens, n = {}, 0
function init(args)
  for line in io.lines(POOL) do tokens[#tokens + 1] = line end
  if START == "halves" then
    n = (id - 1) * math.floor(#tokens / 2)
  else
    math.randomseed(os.time() * 1000 + id)
    n = math.random(1, #tokens)
  end
end
request = function()
  n = n % #tokens + 1
  return wrk.format("POST", PATH, {["Content-Type"]="application/json", ["Authorization"]="Bearer " .. tokens[n]},
    '{"skuId":1,"quantity":1,"requestId":"r' .. n .. '"}')
end
