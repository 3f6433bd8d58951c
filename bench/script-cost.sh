#!/usr/bin/env bash
# Redis' cost of reserve_many.lua per buyer, old against new in one run (issue #35): bench/ScriptCost.java
# replays the service's coalesced calls (K buyers a call) against a redis-server of its own, once at full
# speed (INFO commandstats / INFO cpu) and once under valgrind's callgrind (instructions: the same on a
# loaded machine as on an idle one).
#   bash bench/script-cost.sh [old-git-ref (main)] ; knobs: COST_CALLS (2000), COST_GRIND_CALLS (200), COST_K ("21 32")
set -euo pipefail
cd "$(dirname "$0")/.."
OLD_REF="${1:-main}"
CALLS="${COST_CALLS:-2000}"; GRIND_CALLS="${COST_GRIND_CALLS:-200}"; KS="${COST_K:-21 32}"
WORK="$(mktemp -d)"
LUA=modules/reservation/src/main/resources/seckill/reservation/redis
mkdir -p "$WORK/old" "$WORK/new"
for f in buyer_window.lua reserve_many.lua; do git show "$OLD_REF:$LUA/$f" > "$WORK/old/$f"; cp "$LUA/$f" "$WORK/new/$f"; done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir "$WORK" --logfile "$WORK/redis.log" --pidfile "$WORK/redis.pid"
GPORT=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" redis-server --port "$GPORT" --bind 127.0.0.1 \
  --save "" --appendonly no --hz 1 --dynamic-hz no --dir "$WORK" > "$WORK/valgrind.log" 2>&1 &
GPID=$!
trap 'redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; redis-cli -p "$GPORT" shutdown nosave >/dev/null 2>&1 || true; wait "$GPID" 2>/dev/null || true; if [[ -n "${COST_KEEP:-}" ]]; then cp "$WORK"/callgrind.out.* "$COST_KEEP"/ 2>/dev/null; fi; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do redis-cli -p "$GPORT" ping >/dev/null 2>&1 && break; sleep 0.3; done
echo "# $(date -u +%FT%TZ), $(nproc) cores shared with other work (load $(cut -d' ' -f1-3 /proc/loadavg)); Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'); old = $OLD_REF, new = working tree"
echo "# columns: usec per buyer (INFO commandstats: EVALSHA, the commands it ran, the difference), INFO cpu usec per buyer, callgrind instructions per buyer"
echo "# (the server under callgrind runs its cron once a second, --hz 1: idle it costs about 0.1 M instructions a second, under 1 % of a phase)"
for k in $KS; do
  echo "## full speed: $CALLS calls"
  java bench/ScriptCost.java "$PORT" "$CALLS" "$k" old="$WORK/old" new="$WORK/new" old="$WORK/old" new="$WORK/new"
  echo "## under callgrind: $GRIND_CALLS calls"
  java bench/ScriptCost.java "$GPORT" "$GRIND_CALLS" "$k" "$(pgrep -P "$GPID" -f redis-server || echo "$GPID")" "$WORK" old="$WORK/old" new="$WORK/new"
done
