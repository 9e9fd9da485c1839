#!/usr/bin/env bash
# The findings store at 10,000 findings, through the real commands:
#   arx finding rank --context ...     target < 200 ms
#   arx finding maintain               target < 2 s (a fresh copy of the store each run)
# and the engine beside the scans the index replaces
# (examples/finding_bench.rs: all-pairs audit, scan of every finding).
# Every command run is a whole process timed from outside; medians of
# BENCH_REPS runs (5) after one warm-up.
#
# Usage: bench/finding.sh   (BENCH_FINDINGS=10000, BENCH_REPS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${BENCH_FINDINGS:-10000}
reps=${BENCH_REPS:-5}

cargo build --profile dist --quiet --example finding_bench
cargo build --profile dist --quiet --bin arx
bench_bin=$(realpath target/dist/examples/finding_bench)
arx_bin=$(realpath target/dist/arx)

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-finding-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/seed" "$dir/state"
"$bench_bin" --n "$n" --write "$dir/seed/findings.jsonl"

# median of the wall times (seconds) of "$@", run $reps times after a warm-up;
# BEFORE (a command) runs before each timed run, untimed.
median() {
  local times=()
  ${BEFORE:-true}; "$@" > /dev/null
  for _ in $(seq "$reps"); do
    ${BEFORE:-true}
    local t0 t1
    t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
fresh() { cp "$dir/seed/findings.jsonl" "$dir/state/findings.jsonl"; }

export ARX_STATE_DIR="$dir/state" NO_COLOR=1
fresh
rank=$(median "$arx_bin" --now 2026-01-15T00:00:00Z finding rank --context "raise the learning rate for the small model" --json)
BEFORE=fresh maintain=$(BEFORE=fresh median "$arx_bin" --now 2026-01-15T00:00:00Z finding maintain --force --json)
fresh
dry=$(median "$arx_bin" --now 2026-01-15T00:00:00Z finding maintain --dry-run --force --json)
# A store that went through three passes carries their history.
fresh
for day in 15 16 17; do
  "$arx_bin" --now "2026-01-${day}T00:00:00Z" finding maintain --force --json > /dev/null 2>&1
done
size=$(du -k "$dir/state/findings.jsonl" | cut -f1)
rank3=$(median "$arx_bin" --now 2026-01-17T00:00:00Z finding rank --context "raise the learning rate for the small model" --json)

echo
echo "## arx finding on $n findings (medians of $reps runs, whole processes)"
echo
printf '| command | median | target |\n|---|---|---|\n'
printf '| `arx finding rank --context ...` | %.0f ms | < 200 ms |\n' "$(echo "$rank * 1000" | bc -l)"
printf '| `arx finding maintain` (writes the store) | %.0f ms | < 2000 ms |\n' "$(echo "$maintain * 1000" | bc -l)"
printf '| `arx finding maintain --dry-run` | %.0f ms | |\n' "$(echo "$dry * 1000" | bc -l)"
printf '| `arx finding rank` after 3 passes (%s KiB store) | %.0f ms | < 200 ms |\n' "$size" "$(echo "$rank3 * 1000" | bc -l)"
echo
echo "## The engine beside the scans the index replaces"
echo
"$bench_bin" --n "$n"
