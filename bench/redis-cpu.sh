#!/usr/bin/env bash
# Redis CPU per reservation through the service (issue #35): the build of OLD_REF (the day the issue was
# filed: 30ad5ea^) against this working tree's, side by side in one run, at the paced purchase load.
# Each build runs as its own service on its own redis-server (so INFO commandstats and INFO cpu are its
# alone) and its own database; rounds alternate old/new and new/old. Per round and build:
#   baseline   the trivial JAX-RS endpoint of that service (the ratio the issue asks for)
#   reserve    wrk, every request a new buyer who reserves, ordering paced at 2,000 orders/s (row 1b)
#   refused    wrk over buyers who all hold a reservation already: every attempt reaches Redis and is
#              refused there (ALREADY_RESERVED, or THROTTLED when the same buyer comes back within 1 s)
# and for each phase, per unit (a reservation; a refused claim): INFO cpu user+sys, EVALSHA, the commands
# the script runs (from commandstats: scripts' commands are counted there too; the service sends none of
# them on this path outside a script), the script's own Lua share (EVALSHA less those), the buyers per
# script call, and the Redis CPU of everything else (the ordering workers' stream reads and acks).
#   bash bench/redis-cpu.sh [old-ref]     knobs: CPU_SECONDS (10), CPU_CONNECTIONS (64), CPU_ROUNDS (3),
#   OLD_JAR (a built jar of old-ref: skips building it), CPU_BUYERS (200000), CPU_PIN_REDIS (a cpu, e.g.
#   1: every redis-server runs on that cpu alone and the services and wrk on the others, as Redis owns its
#   cores in production; unset: the scheduler shares all cpus among them)
# Needs MariaDB (3306, root over the socket) like .ci/run; installs wrk from Debian's packages if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD_REF="${1:-30ad5ea^}"
SECS="${CPU_SECONDS:-10}"; CONN="${CPU_CONNECTIONS:-64}"; ROUNDS="${CPU_ROUNDS:-3}"
WORK="$(mktemp -d)"
TOKEN="cpu-admin-token-$(date +%s)-of-32-characters"
cleanup() {
  for f in "$WORK"/*.pid; do [[ -f "$f" ]] && kill "$(cat "$f")" 2>/dev/null; done
  wait 2>/dev/null || true
  [[ -d "$WORK/old-src" ]] && git worktree remove --force "$WORK/old-src" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
for jdk in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
  [[ -n "$jdk" && -x "$jdk/bin/java" ]] && "$jdk/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])' && { export JAVA_HOME="$jdk"; break; }
done
export PATH="$JAVA_HOME/bin:$PATH"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

# --- the two builds ---------------------------------------------------------------------------------
# (run in place: a jar finds its libraries in the libs/ directory beside it)
[[ -f app/target/seckill.jar ]] || mvn -B -q package -DskipTests
declare -A JAR
JAR[new]="$PWD/app/target/seckill.jar"
if [[ -n "${OLD_JAR:-}" ]]; then
  JAR[old]="$OLD_JAR"
else
  git worktree add -q --detach "$WORK/old-src" "$OLD_REF"
  (cd "$WORK/old-src" && mvn -B -q package -DskipTests)
  JAR[old]="$WORK/old-src/app/target/seckill.jar"
fi
mkdir -p "$WORK/config-old" "$WORK/config-new"
cp config/seckill.properties config/switches.yaml "$WORK/config-new/"
for f in seckill.properties switches.yaml; do git show "$OLD_REF:config/$f" > "$WORK/config-old/$f"; done

# --- buyers: a pool that reserves, and a pool that holds reservations and comes back -----------------
export SECKILL_IDENTITY_HMAC_KEYS="bench=bench-identity-key-$(date +%s)-of-32-characters"
java bench/BuyerTokens.java "${CPU_BUYERS:-600000}" 1 "$WORK/buyers.txt" >/dev/null
java bench/BuyerTokens.java 20000 900000001 "$WORK/holders.txt" >/dev/null
export SECKILL_ADMIN_TOKEN="$TOKEN" SECKILL_ADMISSION_TOKEN_REQUIRED=false SECKILL_BASELINE_ENABLED=true
export SECKILL_ADMISSION_TOKEN_KEYS="bench=bench-purchase-token-key-$(date +%s)-32-characters"

# pinning: REDIS_ON / LOAD_ON prefix the commands (empty without CPU_PIN_REDIS)
REDIS_ON=(); LOAD_ON=()
if [[ -n "${CPU_PIN_REDIS:-}" ]]; then
  others=$(seq 0 $(( $(nproc) - 1 )) | grep -vx "$CPU_PIN_REDIS" | paste -sd, -)
  [[ -n "$others" ]] || { echo "redis-cpu: CPU_PIN_REDIS leaves no cpu for the services" >&2; exit 1; }
  REDIS_ON=(taskset -c "$CPU_PIN_REDIS"); LOAD_ON=(taskset -c "$others")
fi

declare -A HTTP MGMT RPORT EXTRA
HTTP[old]=18181; MGMT[old]=19181; RPORT[old]=7381
HTTP[new]=18182; MGMT[new]=19182; RPORT[new]=7382
VARIANTS="old new"
if [[ -n "${TUNED_ENV:-}" ]]; then
  # a third service: the new build with settings of its own (e.g. a coalescing wait), measured alike
  VARIANTS="old new tuned"; JAR[tuned]="${JAR[new]}"; EXTRA[tuned]="$TUNED_ENV"
  HTTP[tuned]=18183; MGMT[tuned]=19183; RPORT[tuned]=7383
  mkdir -p "$WORK/config-tuned"; cp "$WORK"/config-new/* "$WORK/config-tuned/"
fi
for v in $VARIANTS; do
  "${REDIS_ON[@]}" redis-server --port "${RPORT[$v]}" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --lazyfree-lazy-expire yes --dir "$WORK" --logfile "$WORK/redis-$v.log" --pidfile "$WORK/redis-$v.pid"
  mysql -uroot --protocol=socket -e "DROP DATABASE IF EXISTS seckill_cpu_$v; CREATE DATABASE seckill_cpu_$v;
    CREATE USER IF NOT EXISTS 'seckill_cpu'@'127.0.0.1' IDENTIFIED BY 'cpu';
    GRANT ALL ON seckill_cpu_$v.* TO 'seckill_cpu'@'127.0.0.1';"
done
for v in $VARIANTS; do
  for _ in $(seq 1 50); do redis-cli -p "${RPORT[$v]}" ping >/dev/null 2>&1 && break; sleep 0.1; done
  # shellcheck disable=SC2086 # EXTRA holds VAR=value words
  env ${EXTRA[$v]:-} SECKILL_REDIS_URI="redis://127.0.0.1:${RPORT[$v]}/0" SECKILL_CONFIG_DIR="$WORK/config-$v" \
    SECKILL_DB_URL="jdbc:mysql://127.0.0.1:3306/seckill_cpu_$v" SECKILL_DB_USER=seckill_cpu SECKILL_DB_PASSWORD=cpu \
    "${LOAD_ON[@]}" java -Dserver.port="${HTTP[$v]}" -Dserver.sockets.0.port="${MGMT[$v]}" -jar "${JAR[$v]}" > "$WORK/service-$v.log" 2>&1 &
  echo $! > "$WORK/service-$v.pid"
done
for v in $VARIANTS; do
  for _ in $(seq 1 200); do curl -sf "localhost:${MGMT[$v]}/health/ready" >/dev/null && break; sleep 0.3; done
  curl -sf "localhost:${MGMT[$v]}/health/ready" >/dev/null || { echo "redis-cpu: the $v service did not start" >&2; tail -20 "$WORK/service-$v.log" >&2; exit 1; }
done

# --- helpers ----------------------------------------------------------------------------------------
activity() { # variant stock -> activity id (a failed launch stops the run: its answer would be read as an id)
  curl -s -X POST "localhost:${HTTP[$1]}/api/v1/admin/activities" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "{\"name\":\"cpu\",\"startsAt\":\"$(date -u -d '-1 min' +%FT%TZ)\",
    \"endsAt\":\"$(date -u -d '+2 hour' +%FT%TZ)\",\"skus\":[{\"skuId\":1,\"stock\":$2}]}" > "$WORK/launch.json"
  grep -q '"activityId":[0-9]' "$WORK/launch.json" || { echo "redis-cpu: launch refused by $1: $(cat "$WORK/launch.json")" >&2; kill $$; }
  sed 's/.*"activityId":\([0-9]*\).*/\1/' "$WORK/launch.json"
}
wrk_script() { # pool path -> wrk Lua: each request the next buyer of the pool, each thread in its own half of it
  printf 'POOL, PATH, START = "%s", "%s", "halves"\ndofile("%s")\n' "$1" "$2" "$PWD/bench/purchases.lua"
}
load() { # variant pool path seconds -> "rps p50 p99" (p in ms)
  wrk_script "$2" "$3" > "$WORK/load.lua"
  "${LOAD_ON[@]}" wrk -t2 -c"$CONN" -d"${4}s" --latency -s "$WORK/load.lua" "http://127.0.0.1:${HTTP[$1]}" > "$WORK/wrk.txt"
  awk 'function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { r = $2 } ($1 == "50.000%" || $1 == "50%") { p = ms($2) } ($1 == "99.000%" || $1 == "99%") { q = ms($2) }
    END { printf "%d %.2f %.2f\n", r, p, q }' "$WORK/wrk.txt"
}
metric() { # variant name-prefix -> the sum of its series (0 when absent)
  curl -sf --max-time 10 "localhost:${MGMT[$1]}/metrics" | awk -v m="$2" 'index($1, m) == 1 && $1 !~ /^#/ { s += $NF } END { printf "%d", s }'
}
cpu() { redis-cli -p "${RPORT[$1]}" info cpu | awk -F: '/^used_cpu_(sys|user):/ {s += $2} END {printf "%.6f", s}'; }
stats() { redis-cli -p "${RPORT[$1]}" info commandstats | awk -F'[:=,]' '/^cmdstat_/ { sub("cmdstat_", "", $1); print $1, $3, $5 }'; }
set_pace() { # variant orders/s, as row 1b of run-benchmarks.sh: the switch file, then its re-read seen
  sed -i -E "s/^seckill.ordering.max-orders-per-second:.*/seckill.ordering.max-orders-per-second: $2/; \
s/^seckill.admission.blocked-users:.*/seckill.admission.blocked-users: \"pace-$2\"/" "$WORK/config-$1/switches.yaml"
  for _ in $(seq 1 40); do
    curl -s -H "Authorization: Bearer $TOKEN" "localhost:${HTTP[$1]}/api/v1/admin/switches" | grep -q "pace-$2" && break
    sleep 0.25
  done
  sleep 1
}
drained() { # variant: until its workers have ordered every reservation (or the stream is quiet 5 s)
  local quiet=0
  for _ in $(seq 1 2400); do
    (( $(metric "$1" seckill_reservations_total) <= $(metric "$1" seckill_orders_created_total) )) && return
    local lag; lag=$(curl -sf --max-time 10 "localhost:${MGMT[$1]}/metrics" | awk '/^seckill_stream_(lag|pending)/ {s += $NF} END {printf "%d", s}')
    if [[ "$lag" == 0 ]]; then quiet=$((quiet + 1)); (( quiet >= 20 )) && return; else quiet=0; fi
    sleep 0.25
  done
}
SCRIPT_COMMANDS=" get hmget hset xadd decrby pexpireat pexpire pttl exists hget "
measure() { # round variant phase pool path: one measured wrk run -> a line in $WORK/rows.txt
  local res0 claims0 calls0 cpu0 res1 claims1 calls1 cpu1 rps p50 p99
  redis-cli -p "${RPORT[$2]}" config resetstat >/dev/null
  res0=$(metric "$2" seckill_reservations_total); claims0=$(metric "$2" seckill_coalescing_claims_total)
  calls0=$(metric "$2" seckill_coalescing_calls_total); cpu0=$(cpu "$2")
  read -r rps p50 p99 <<< "$(load "$2" "$4" "$5" "$SECS")"
  cpu1=$(cpu "$2"); stats "$2" > "$WORK/stats.txt"
  res1=$(metric "$2" seckill_reservations_total); claims1=$(metric "$2" seckill_coalescing_claims_total)
  calls1=$(metric "$2" seckill_coalescing_calls_total)
  awk -v round="$1" -v v="$2" -v phase="$3" -v rps="$rps" -v p50="$p50" -v p99="$p99" -v cmds="$SCRIPT_COMMANDS" \
      -v res=$((res1 - res0)) -v claims=$((claims1 - claims0)) -v calls=$((calls1 - calls0)) -v cpu="$(awk -v a="$cpu1" -v b="$cpu0" 'BEGIN {print (a - b) * 1e6}')" '
    { usec[$1] = $3; n[$1] = $2; if ($1 != "evalsha" && index(cmds, " " $1 " ")) inner += $3;
      else if ($1 != "evalsha" && $1 != "config" && $1 != "info") other += $3 }
    END {
      units = phase == "reserve" ? res : claims - res
      if (units <= 0) units = 1
      detail = ""
      for (c in usec) if (index(cmds, " " c " ")) detail = detail sprintf(" %s=%.2f", c, usec[c] / units)
      printf "%s %s %s %d %.2f %.2f %d %d %.2f %.2f %.2f %.2f %.2f %.1f%s\n", round, v, phase, rps, p50, p99, res,
        claims - res, cpu / units, usec["evalsha"] / units, inner / units, (usec["evalsha"] - inner) / units,
        other / units, (calls > 0 ? claims / calls : 0), detail
    }' "$WORK/stats.txt" >> "$WORK/rows.txt"
}
baseline() { # round variant -> a line in $WORK/base.txt
  local rps p50 p99
  read -r rps p50 p99 <<< "$(load "$2" "$WORK/buyers.txt" /api/v1/baseline "$SECS")"
  echo "$1 $2 $rps $p50 $p99" >> "$WORK/base.txt"
}

# --- warm both JITs, then the rounds ----------------------------------------------------------------
echo "# redis-cpu: $(date -u +%FT%TZ), $(nproc) cores (load $(cut -d' ' -f1-3 /proc/loadavg))${CPU_PIN_REDIS:+, Redis on cpu $CPU_PIN_REDIS alone, services and wrk on ${others:-}}; old = $OLD_REF, new = working tree${TUNED_ENV:+, tuned = new with $TUNED_ENV}; wrk $CONN connections, $SECS s a run"
for v in $VARIANTS; do
  WARM=$(activity "$v" 10000000)
  for _ in 1 2 3; do load "$v" "$WORK/buyers.txt" "/api/v1/activities/$WARM/purchases" 8 >/dev/null; load "$v" "$WORK/buyers.txt" /api/v1/baseline 4 >/dev/null; done
  drained "$v"
done
for r in $(seq 1 "$ROUNDS"); do
  # each round starts one variant later, so none is always measured first
  nv=$(wc -w <<< "$VARIANTS")
  order=$(echo $VARIANTS $VARIANTS | cut -d' ' -f$(( (r - 1) % nv + 1 ))- | cut -d' ' -f1-"$nv")
  for v in $order; do
    echo "# round $r: $v" >&2
    drained "$v"
    baseline "$r" "$v"
    act=$(activity "$v" 10000000)
    # the holders reserve once (not measured): afterwards every attempt of theirs is refused in Redis
    load "$v" "$WORK/holders.txt" "/api/v1/activities/$act/purchases" 6 >/dev/null
    drained "$v"
    set_pace "$v" 2000
    measure "$r" "$v" reserve "$WORK/buyers.txt" "/api/v1/activities/$act/purchases"
    measure "$r" "$v" refused "$WORK/holders.txt" "/api/v1/activities/$act/purchases"
    set_pace "$v" 0
  done
done

# --- the report -------------------------------------------------------------------------------------
echo
echo "Per round (µs per reservation in 'reserve', per refused claim in 'refused'; 'other' is the Redis time of"
echo "commands outside the script, e.g. the ordering workers'; buyers/call = claims ÷ script calls):"
echo
echo "| round | build | phase | req/s | p50 ms | p99 ms | reserved | refused in Redis | INFO cpu µs | EVALSHA µs | its commands µs | own Lua µs | other µs | buyers/call | per command µs |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk '{ d = ""; for (i = 15; i <= NF; i++) d = d " " $i; printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, d }' "$WORK/rows.txt"
echo
echo "Means of the rounds:"
echo
echo "| build | phase | req/s | INFO cpu µs | EVALSHA µs | own Lua µs | buyers/call | trivial endpoint req/s (same rounds) | ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for v in $VARIANTS; do
  base=$(awk -v v="$v" '$2 == v { s += $3; n++ } END { printf "%d", s / n }' "$WORK/base.txt")
  for ph in reserve refused; do
    awk -v v="$v" -v ph="$ph" -v base="$base" '$2 == v && $3 == ph { rps += $4; c += $9; e += $10; l += $12; b += $14; n++ }
      END { printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.1f | %d | %.2f |\n", v, ph, rps / n, c / n, e / n, l / n, b / n, base, (rps / n) / base }' "$WORK/rows.txt"
  done
done
echo
echo "Trivial endpoint per round: $(awk '{ printf "%s%s %s %d req/s (p99 %s ms)", (NR > 1 ? "; " : ""), $1, $2, $3, $5 }' "$WORK/base.txt")"
