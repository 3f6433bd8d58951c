#!/usr/bin/env bash
# The chaos soak (issue #30): the chaos drill run for many seeds in turn, each judged by the checker,
# and one summary table of what was sent, what faults were injected and which seeds failed.
#
#   bench/chaos-soak.sh [--seeds 1-20] [--out DIR] [--jar app/target/seckill.jar] [-- drill options…]
#   e.g. bench/chaos-soak.sh --seeds 1-20 -- --minutes 1.5 --instances 2 --topology single
#
# Stores: SECKILL_DB_URL/USER/PASSWORD as for `drill chaos` (else an embedded MariaDB per seed).
# Each seed keeps its history (DIR/chaos-<seed>.jsonl), instance logs and the checker's output
# (DIR/chaos-<seed>.out), so a failing seed can be judged again and turned into a regression test.
# Exit 0 when every seed held every promise; 1 otherwise. Needs jq for the summary.
set -uo pipefail

seeds="1-20"
out="target/chaos-soak"
jar="app/target/seckill.jar"
while (( $# )); do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --jar) jar="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "chaos-soak: unknown option $1 (drill options go after --)" >&2; exit 2 ;;
  esac
done
drill_options=("$@")
command -v jq >/dev/null || { echo "chaos-soak: needs jq" >&2; exit 2; }
[[ -f "$jar" ]] || { echo "chaos-soak: no $jar (build it first: mvn -o -q -DskipTests package)" >&2; exit 2; }
mkdir -p "$out"

# "1-20" or "1,5,9" or "3"
expand() {
  local part
  IFS=',' read -ra parts <<< "$1"
  for part in "${parts[@]}"; do
    if [[ "$part" == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done
}

summary="$out/summary.tsv"
printf 'seed\texit\tseconds\toperations\tpurchases\tfaults\tfaults_by_kind\tviolated\n' > "$summary"
failed=0
for seed in $(expand "$seeds"); do
  history="$out/chaos-$seed.jsonl"
  started=$(date +%s)
  java -jar "$jar" drill chaos --seed "$seed" --history "$history" "${drill_options[@]}" > "$out/chaos-$seed.out" 2>&1
  code=$?
  took=$(( $(date +%s) - started ))
  ops=$(jq -s '[.[] | select(.type=="op")] | length' "$history" 2>/dev/null || echo "?")
  purchases=$(jq -s '[.[] | select(.type=="op" and .kind=="PURCHASE")] | length' "$history" 2>/dev/null || echo "?")
  faults=$(jq -s '[.[] | select(.type=="fault")] | length' "$history" 2>/dev/null || echo "?")
  by_kind=$(jq -rs '[.[] | select(.type=="fault") | .kind] | group_by(.) | map("\(.[0])=\(length)") | join(",")' "$history" 2>/dev/null || echo "?")
  violated=$(grep -E '^\s*[A-Z_]+\s+VIOLATED' "$out/chaos-$seed.out" | awk '{print $1}' | paste -sd, - || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$code" "$took" "$ops" "$purchases" "$faults" "$by_kind" "${violated:--}" >> "$summary"
  echo "chaos-soak: seed $seed exit $code in ${took}s: $ops operations, $faults faults ($by_kind) ${violated:+VIOLATED: $violated}"
  (( code == 0 )) || failed=$(( failed + 1 ))
done

echo
column -t -s $'\t' "$summary"
total_ops=$(awk -F'\t' 'NR>1 && $4 ~ /^[0-9]+$/ {s+=$4} END {print s+0}' "$summary")
total_faults=$(awk -F'\t' 'NR>1 && $6 ~ /^[0-9]+$/ {s+=$6} END {print s+0}' "$summary")
echo "chaos-soak: $(( $(wc -l < "$summary") - 1 )) seeds, $total_ops operations, $total_faults faults, $failed failed"
(( failed == 0 ))
