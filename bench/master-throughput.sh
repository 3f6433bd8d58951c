#!/usr/bin/env bash
# How many buyers a second one Redis master judges through the service's coalesced calls (issue #35):
# redis-benchmark sends reserve_many.lua by EVALSHA exactly as ReservationScript lays a coalesced call
# out (K buyers of one bucket, three arguments each, the buyer window on at 1 attempt a second, the
# events in one 'es' entry), from CLIENTS connections with one call in flight each (an instance sends
# one call per lane at a time: calls-per-lane 1), against a redis-server of its own, until the master's
# one thread is the bottleneck. Every buyer is a new one (random 12-digit ids), so every verdict is
# RESERVED; the "refused" phase sends the same calls to a sold-out bucket (stock 0: SOLD_OUT). Per K it
# prints buyers judged a second (calls a second x K), the units the stock lost (reserved = judged, less the
# rare buyer drawn twice), the master's CPU per buyer (INFO cpu) and how busy its thread was.
# The "small" phase is a sale of TP_SMALL_HOLDERS units (500) that sold out: preheat.lua puts the bucket in
# place, one call reserves every unit, then new buyers are refused (SOLD_OUT) against a buyers hash of that
# size, which Redis keeps as a listpack (scanned per field) unless the scripts make it a hashtable.
# With TP_OLD_REF=<git ref> every line runs twice, the scripts of that ref ("old") then the working tree's.
#   bash bench/master-throughput.sh      knobs: TP_K ("21 41 64"), TP_BUYERS (2000000), TP_CLIENTS (4),
#   TP_PHASES ("reserve refused small"), TP_SMALL_HOLDERS (500), TP_OLD_REF (none), TP_PIN_REDIS (a cpu:
#   redis-server runs on it alone, redis-benchmark on the others)
set -euo pipefail
cd "$(dirname "$0")/.."
KS="${TP_K:-21 41 64}"; BUYERS="${TP_BUYERS:-2000000}"; CLIENTS="${TP_CLIENTS:-4}"
REDIS_ON=(); LOAD_ON=()
if [[ -n "${TP_PIN_REDIS:-}" ]]; then
  others=$(seq 0 $(( $(nproc) - 1 )) | grep -vx "$TP_PIN_REDIS" | paste -sd, -)
  REDIS_ON=(taskset -c "$TP_PIN_REDIS"); LOAD_ON=(taskset -c "$others")
fi
WORK="$(mktemp -d)"
LUA=modules/reservation/src/main/resources/seckill/reservation/redis
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${REDIS_ON[@]}" redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir "$WORK" \
  --logfile "$WORK/redis.log" --pidfile "$WORK/redis.pid"
trap 'redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
r() { redis-cli -p "$PORT" "$@"; }
# the scripts of each build: "new" is the working tree, "old" TP_OLD_REF's
mkdir -p "$WORK/new" "$WORK/old"
for f in buyer_window.lua reserve_many.lua preheat.lua; do
  cp "$LUA/$f" "$WORK/new/$f"
  [[ -n "${TP_OLD_REF:-}" ]] && git show "$TP_OLD_REF:$LUA/$f" > "$WORK/old/$f"
done
BUILDS="new"; [[ -n "${TP_OLD_REF:-}" ]] && BUILDS="old new"
cpu() { r info cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { printf "%.6f", s }'; }
# a day ahead: the window hashes expire at absolute times (PEXPIREAT)
AT=$(( $(date +%s%3N) + 86400000 )); PERIOD=$(( AT / 1000 ))
echo "# $(date -u +%FT%TZ), $(nproc) cores shared with redis-benchmark (load $(cut -d' ' -f1-3 /proc/loadavg)); Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'); $CLIENTS connections, one call in flight each${TP_PIN_REDIS:+; Redis on cpu $TP_PIN_REDIS alone, redis-benchmark on $others}"
printf '%-4s %-9s %-5s %10s %12s %12s %10s %14s %10s\n' K phase build calls "buyers/s" reserved "cpu us/buyer" "buyers/cpu-s" "busy"
buyer_args() { # count prefix -> a coalesced call's per-buyer arguments (userId, reservationId, event)
  for _ in $(seq 1 "$1"); do
    printf '%s\n' "$2__rand_int__" "7-1-0-__rand_int__" "7-1-0-__rand_int__,$2__rand_int__,1,$AT,r__rand_int__"
  done
}
for k in $KS; do
  for phase in ${TP_PHASES:-reserve refused small}; do
    for build in $BUILDS; do
    r flushall >/dev/null
    SHA=$(cat "$WORK/$build/buyer_window.lua" "$WORK/$build/reserve_many.lua" | redis-cli -p "$PORT" -x script load)
    TAG="sk:{a7:s1:b0}"
    KEYS6=("$TAG:stock" "$TAG:buyers" "$TAG:events" "$TAG:served" "$TAG:w1000:$((PERIOD - 1))" "$TAG:w1000:$PERIOD")
    if [[ $phase == small ]]; then
      # as the service does it: preheat, then the sale's units reserved (one call), then sold out
      holders=${TP_SMALL_HOLDERS:-500}
      r eval "$(cat "$WORK/$build/preheat.lua")" 9 "$TAG:stock" "$TAG:buyers" "$TAG:events" "$TAG:refilled" \
        "$TAG:dead" "$TAG:refilled-units" "$TAG:served" "$TAG:preheat" "$TAG:lost" "$holders" ordering "$AT" 1 >/dev/null
      mapfile -t sale < <(seq 1 "$holders" | awk -v at="$AT" '{ printf "9%d\n7-1-0-9%d\n7-1-0-9%d,9%d,1,%s,s%d\n", $1, $1, $1, $1, at, $1 }')
      r evalsha "$SHA" 6 "${KEYS6[@]}" "$holders" "$AT" 7 1 1 1000 es "${sale[@]}" >/dev/null
      [[ $(r get "$TAG:stock") == 0 ]] || { echo "master-throughput: the small sale did not sell out" >&2; exit 1; }
    else
      [[ $phase == reserve ]] && r set "$TAG:stock" 1000000000000 >/dev/null || r set "$TAG:stock" 0 >/dev/null
      # the buyers hash and window hash of a sale under way (hashtables, not small listpacks)
      for key in buyers served "w1000:$PERIOD"; do
        python3 -c "print('HSET $TAG:$key ' + ' '.join(f'f{i} 1,1,' for i in range(2000)))" | r >/dev/null
      done
    fi
    mapfile -t buyers < <(buyer_args "$k" 1)
    args=("$k" "$AT" 7 1 1 1000 es "${buyers[@]}")
    calls=$(( BUYERS / k ))
    stock0=$(r get "$TAG:stock"); cpu0=$(cpu); t0=$(date +%s.%N)
    "${LOAD_ON[@]}" redis-benchmark -p "$PORT" -c "$CLIENTS" -n "$calls" -r 1000000000 -q \
      evalsha "$SHA" 6 "${KEYS6[@]}" "${args[@]}" > "$WORK/bench.out" 2>&1
    t1=$(date +%s.%N); cpu1=$(cpu); stock1=$(r get "$TAG:stock")
    errors=$(r info errorstats | tr -d '\r' | grep -c '^errorstat' || true)
    reserved=$(( stock0 - stock1 ))
    awk -v k="$k" -v phase="$phase" -v build="$build" -v calls="$calls" -v t0="$t0" -v t1="$t1" -v c0="$cpu0" -v c1="$cpu1" -v res="$reserved" -v err="$errors" 'BEGIN {
      secs = t1 - t0; buyers = calls * k; cpu = c1 - c0
      printf "%-4d %-9s %-5s %10d %12.0f %12d %10.2f %14.0f %9.0f%%%s\n", k, phase, build, calls, buyers / secs, res, cpu * 1e6 / buyers, buyers / cpu, 100 * cpu / secs, (err > 0 ? "  SCRIPT ERRORS" : "") }'
    done
  done
done
