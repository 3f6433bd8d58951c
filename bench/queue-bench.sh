#!/usr/bin/env bash
# The waiting room's benchmark (issue #33): regenerates docs/queue-benchmark.md, every figure from this one
# run, the line beside today's 429-and-retry under the same crowd and rate. Needs the machine's Redis
# (127.0.0.1:6379) and MariaDB (3306), like .ci/run.
#   bash bench/queue-bench.sh            (about 5 minutes)
# Knobs: QB_BUYERS (3000), QB_STOCK (600), QB_RATE (100 per second), QB_STREAMS (10000), QB_PRE (1000);
# where it runs: QB_REDIS_DB (2, emptied first), QB_DB (seckill_qbench, dropped and made again), QB_PORT (18180)
# and QB_MGMT_PORT (19180), QB_OUT (docs/queue-benchmark.md) so that a smaller run does not overwrite the page;
# QB_ONLY=line runs the line's crowd alone and prints its figures (no page); QB_ONLY=compare runs the retry's and
# the line's crowds and prints their figures (no page, no pre-queue, no streams); QB_RAW_JOIN=1 sends each join on a
# socket of the buyer's own, its time taken when its bytes are written (QueueBench.join)
set -euo pipefail
cd "$(dirname "$0")/.."
BUYERS="${QB_BUYERS:-3000}"
STOCK="${QB_STOCK:-600}"
RATE="${QB_RATE:-100}"
STREAMS="${QB_STREAMS:-10000}"
PRE="${QB_PRE:-1000}"
REDIS_DB="${QB_REDIS_DB:-2}"
DB="${QB_DB:-seckill_qbench}"
PORT="${QB_PORT:-18180}"
MGMT_PORT="${QB_MGMT_PORT:-19180}"
TOKEN="queue-bench-admin-token-$(date +%s)-of-32-characters"
OUT="${QB_OUT:-docs/queue-benchmark.md}"
WORK="$(mktemp -d)"
trap 'kill $(cat "$WORK/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$WORK"' EXIT

for jdk in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
  [[ -n "$jdk" && -x "$jdk/bin/java" ]] && "$jdk/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])' && { export JAVA_HOME="$jdk"; break; }
done
export PATH="$JAVA_HOME/bin:$PATH"
redis-cli ping >/dev/null
mysql -uroot --protocol=socket -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB;
  CREATE USER IF NOT EXISTS 'seckill_bench'@'127.0.0.1' IDENTIFIED BY 'bench';
  GRANT ALL ON $DB.* TO 'seckill_bench'@'127.0.0.1';"
# a Redis logical database of its own, emptied first (a Redis db is bound to one ledger)
redis-cli -n "$REDIS_DB" FLUSHDB >/dev/null
export SECKILL_REDIS_URI=redis://127.0.0.1:6379/$REDIS_DB SECKILL_DB_URL=jdbc:mysql://127.0.0.1:3306/$DB
export SECKILL_DB_USER=seckill_bench SECKILL_DB_PASSWORD=bench SECKILL_ADMIN_TOKEN="$TOKEN"
export SECKILL_IDENTITY_HMAC_KEYS="bench=queue-bench-identity-key-$(date +%s)-of-32-characters"
export SECKILL_ADMISSION_TOKEN_KEYS="bench=queue-bench-token-key-$(date +%s)-of-32-characters"
# the bench's buyers solve no captcha; the per-buyer limit and the other admission checks stay on
export SECKILL_ADMISSION_TOKEN_REQUIRED=false
# ten thousand streams need that many connections and files (the service's cap follows its file limit)
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

[[ -f app/target/seckill.jar ]] || mvn -B -q package -DskipTests
mkdir -p "$WORK/classes"
javac -d "$WORK/classes" bench/BuyerTokens.java bench/QueueBench.java
bench() { java -cp "$WORK/classes" QueueBench "http://127.0.0.1:$PORT" "$TOKEN" "$@"; }

start_service() { # log-name [VAR=value ...]: the service on $PORT with its switches in $WORK/config, back when ready
  mkdir -p "$WORK/config"; cp config/seckill.properties config/switches.yaml "$WORK/config/"
  env SECKILL_CONFIG_DIR="$WORK/config" "${@:2}" java -Dserver.port=$PORT -Dserver.sockets.0.port=$MGMT_PORT \
    -Dserver.max-tcp-connections=$((STREAMS + 2000)) -jar app/target/seckill.jar > "$WORK/$1.log" 2>&1 &
  echo $! > "$WORK/pid"
  for _ in $(seq 1 400); do curl -sf "localhost:$MGMT_PORT/health/ready" >/dev/null && return 0; kill -0 "$(cat "$WORK/pid")" 2>/dev/null || { tail -5 "$WORK/$1.log"; exit 1; }; sleep 0.3; done; exit 1
}
stop_service() { kill "$(cat "$WORK/pid")"; wait "$(cat "$WORK/pid")" 2>/dev/null || true; }
value() { grep "^$1=" "$WORK/results.txt" | tail -1 | cut -d= -f2-; }
# the machine is shared: the load average (1 min) before and after each phase goes with its figures
load() { echo "load.$1=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$WORK/results.txt"; }

: > "$WORK/results.txt"
if [[ "${QB_ONLY:-}" == line ]]; then
  echo "queue-bench: the line alone, $BUYERS buyers, $STOCK units, called at $RATE/s"
  start_service line SECKILL_QUEUE_ENABLED=true SECKILL_QUEUE_RATE="$RATE"
  load line.before
  bench line "$BUYERS" "$STOCK" 2000000 | tee -a "$WORK/results.txt"
  load line.after
  stop_service
  exit 0
fi
echo "queue-bench: 429-and-retry, $BUYERS buyers, $STOCK units, global rate $RATE/s"
start_service retry SECKILL_ADMISSION_GLOBAL_RATE="$RATE"
load retry.before
bench retry "$BUYERS" "$STOCK" 1000000 | tee -a "$WORK/results.txt"
load retry.after
stop_service
echo "queue-bench: the line, same crowd, called at $RATE/s"
start_service line SECKILL_QUEUE_ENABLED=true SECKILL_QUEUE_RATE="$RATE"
load line.before
bench line "$BUYERS" "$STOCK" 2000000 | tee -a "$WORK/results.txt"
load line.after
if [[ "${QB_ONLY:-}" == compare ]]; then
  stop_service
  echo "queue-bench: requests per buyer who got a unit: retry $(value retry.requestsPerWinner), line $(value line.requestsPerWinner)"
  exit 0
fi
bench prequeue "$PRE" "$PRE" 3000000 | tee -a "$WORK/results.txt"
load prequeue.after
stop_service
echo "queue-bench: $STREAMS open event streams"
# the rate is a hot switch read from the switches file: 1 a second while the streams open, then raised
start_service streams SECKILL_QUEUE_ENABLED=true
echo "seckill.queue.rate: 1" >> "$WORK/config/switches.yaml"
sleep 2
load streams.before
SERVICE_PID=$(cat "$WORK/pid") bench streams "$STREAMS" 4000000 "$WORK/config/switches.yaml" 500 10000 30 \
  | tee -a "$WORK/results.txt"
load streams.after
stop_service

RSS_PER=$(( ( $(value streams.rssAfterKiB) - $(value streams.rssBeforeKiB) ) * 1024 / $(value streams.open) ))
cat > "$OUT" <<EOF
# The waiting room's benchmark (issue #33)

Regenerate with \`bash bench/queue-bench.sh\` (\`bench/QueueBench.java\` drives it). Every figure below comes
from one run on one machine; the service, Redis, MariaDB and the benchmark's buyers share its cores.

- Run: $(date -u +%FT%TZ) on $(nproc) cores; $(java -version 2>&1 | head -1); $(redis-server --version | cut -d' ' -f3).
- Load average (1 min) before / after each phase: retry $(value load.retry.before) / $(value load.retry.after),
  line $(value load.line.before) / $(value load.line.after), pre-queue $(value load.prequeue.after) after,
  streams $(value load.streams.before) / $(value load.streams.after).
- Buyers are virtual threads of one JVM arriving evenly over 2 s, each named by a signed bearer token; no
  captcha (the per-buyer limit and the other admission checks stay on). Joins sent $([[ "${QB_RAW_JOIN:-}" == 1 ]] \
  && echo "each on a socket of its own (\`QB_RAW_JOIN=1\`)" || echo "by the JDK's HTTP client").

## Requests per buyer who gets a unit, and fairness

$BUYERS buyers, $STOCK units, the same rate both ways: today's line off with \`global-rate=$RATE\` (answers 429 with
\`Retry-After\`; each buyer clicks again after it with the same requestId until reserved or sold out) against
the line on, called at \`seckill.queue.rate=$RATE\` (each buyer joins, follows the event stream, buys with the pass
on the turn, sends it again after \`Retry-After\` on \`429\`/\`503\` as the page does, and stops at the order or at
sold out; a stream counts as one request, its events apart).

| | 429 and retry | the line |
|---|---|---|
| buyers who got a unit | $(value retry.won) | $(value line.won) |
| requests the service answered | $(value retry.requests) | $(value line.requests) (of which $(value line.streams) event streams carrying $(value line.events) events) |
| **requests per buyer who got a unit** | **$(value retry.requestsPerWinner)** | **$(value line.requestsPerWinner)** |
| fairness: rank correlation of arrival and winning order, over the winners | $(value retry.rho) | $(value line.rho) |
| seconds until every buyer knew | $(value retry.seconds) | $(value line.seconds) |
| seconds until the last unit was reserved | $(value retry.lastReservedSeconds) | $(value line.lastReservedSeconds) |
| buyers told sold out: p50 / max ms after the last unit was reserved | $(value retry.soldOutAfterLastReservedP50Millis) / $(value retry.soldOutAfterLastReservedMaxMillis) | $(value line.soldOutAfterLastReservedP50Millis) / $(value line.soldOutAfterLastReservedMaxMillis) |
| buyers called who then found no unit (\`410\` at their purchase) | | $(v=$(value line.outcome.refused_410_SOLD_OUT); echo "${v:-0}") |

The pre-queue: $PRE buyers join in order during the 3 s before the start, $PRE units: rank correlation of
joining and winning order **$(value prequeue.rho)** (0 is a fair draw; arriving early gains nothing), $(value prequeue.won) won;
of the order their joins were sent and the order the line called them **$(value prequeue.rhoSentCall)**.

## Join order and admission order (the issue's measure), beside the arrival's

The fairness row above ranks each winner's arrival (the buyer thread's start) against the line's call (the
pass's time). The issue asks for the order of the joins against the order of admission. The join order is the
order the joins reached the line: the place each join was answered (places are handed out in the order the
joins reach Redis). The call order is the time written in the pass: its expiry less its lifetime, the same for
every buyer one tick called. The line's run above, over its winners:

| | the line |
|---|---|
| **rank correlation of join order (the place answered) and call order** | **$(value line.rhoJoinCall)** ($(value line.rhoJoinCallAllCalled) over all $(value line.called) buyers called) |
| pairs of buyers called, the one who joined first called later | $(value line.calledPairsOutOfJoinOrder) of $(value line.calledPairs) ($(value line.calledPairsSameTick) called in the same tick; $(value line.callTimes) call times) |
| buyers never called although one who joined after them was | $(value line.passedOver) |
| buyers whose pass names another place than their join was answered | $(value line.passPlaceDiffers) |
| rank correlation of join order and the turn heard on the stream / the purchase reserved | $(value line.rhoJoinTurnHeard) / $(value line.rhoJoinReserved) |
| rank correlation of the join's sending (this host's clock) and call order | $(value line.rhoSentCall) |
| rank correlation of arrival and join order / of arrival and the join's sending | $(value line.rhoArrivalJoin) / $(value line.rhoArrivalSent) |
| the winners arrived within the first | $(value line.winnersArrivedWithinMillis) ms of the 2 s |
| from arrival to the join sent: p50 / p99 / max | $(value line.winnerSendLagP50Millis) / $(value line.winnerSendLagP99Millis) / $(value line.winnerSendLagMaxMillis) ms |
| from the join sent to the line numbering it (read from the place): p50 / p99 / max | $(value line.winnerJoinReachedLineLagP50Millis) / $(value line.winnerJoinReachedLineLagP99Millis) / $(value line.winnerJoinReachedLineLagMaxMillis) ms |
| from the join sent to its answer: p50 / p99 / max | $(value line.winnerJoinAnsweredP50Millis) / $(value line.winnerJoinAnsweredP99Millis) / $(value line.winnerJoinAnsweredMaxMillis) ms |
| a winner's rank moved between arrival and join order: mean / max | $(value line.winnerRankShiftArrivalToJoinMean) / $(value line.winnerRankShiftArrivalToJoinMax) places |
| buyers who sent their join again (winners / all buyers), and the answers that made them | $(value line.winnersJoinedMoreThanOnce) / $(value line.joinedMoreThanOnce) \`$(value line.joinsRefused)\` |

## Open event streams on one instance

$(value streams.joins) buyers joined one line (64 at a time): **$(value streams.joinsPerSecond) joins a second**. Each then
followed its event stream (one connection and one virtual thread each; the service reads each buyer's place
every \`seckill.queue.events-poll-millis\`, 500 ms): $(value streams.open) open after $(value streams.openSeconds) s
($(value streams.allConnected)).

| | figure |
|---|---|
| service RSS before the streams opened | $(( $(value streams.rssBeforeKiB) / 1024 )) MiB |
| service RSS with them open | $(( $(value streams.rssAfterKiB) / 1024 )) MiB |
| **memory growth per open stream** | **$RSS_PER bytes** |
| turns pushed after the rate was raised to 500/s for 10 s | $(value streams.turnsPushed) |
| delay from a buyer's call to the turn arriving: p50 / p99 / max | $(value streams.pushDelayP50Millis) / $(value streams.pushDelayP99Millis) / $(value streams.pushDelayMaxMillis) ms |
| turns arriving within one second of the call | $(value streams.withinOneSecond) of $(value streams.turnsPushed) |
EOF
echo "queue-bench: wrote $OUT"
