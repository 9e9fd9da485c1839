#!/usr/bin/env bash
# `arx status`, `arx best` and `arx try --dry-run` on a journal of
# 1,000,000 runs (written by examples/report_journal.rs as arx writes
# records, its tries in the objective's segment and naming the
# repository's commit), warm (the report's cached fold up to date; one more
# run journaled before each repetition, as a loop does) and cold (the cache
# removed). Each command is a whole process timed from outside with
# /usr/bin/time (wall seconds, peak RSS); the median of the repetitions is
# reported. Given ARX_BEFORE=/path/to/another/arx, that binary runs the same
# commands alternately with this one, and the ratios (this / before) are
# printed side by side.
# Targets: warm under 0.1 s and 32 MiB peak RSS.
#
# Usage: bench/status.sh [--quick]   (BENCH_STATUS_RUNS=1000000, BENCH_REPS=5)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  runs=${BENCH_STATUS_RUNS:-100000}
  reps=${BENCH_REPS:-3}
else
  runs=${BENCH_STATUS_RUNS:-1000000}
  reps=${BENCH_REPS:-5}
fi

cargo build --profile dist --quiet --example report_journal
cargo build --profile dist --quiet --bin arx
gen=$(realpath target/dist/examples/report_journal)
arx=$(realpath target/dist/arx)
before=${ARX_BEFORE:+$(realpath "$ARX_BEFORE")}

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-status-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q -b main .
git config user.email bench@example.com
git config user.name bench
printf '[gates]\nexecute = false\n\n[objective]\nmetric = "val_bpb"\ndirection = "min"\ncommand = "python train.py"\n' > arx.toml
printf '.arx/\n' > .gitignore
git add -A && git commit -qm start
segment=$({ "$arx" --json status || true; } | sed -n 's/.*"segment":"\([0-9a-f]*\)".*/\1/p')
mkdir -p .arx
"$gen" "$runs" .arx/journal.jsonl "$segment" "$(git rev-parse HEAD)"
bytes=$(stat -c %s .arx/journal.jsonl)
echo "journal: $runs runs, $((bytes / 1000000)) MB, segment $segment"
sync

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# "seconds KiB" of one run of a command (its output discarded).
measure() {
  /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > /dev/null 2>&1 || true
  # GNU time writes a first line when the command exits non-zero.
  tail -n 1 "$dir/time.txt"
}

sides=(after)
[[ -n "$before" ]] && sides+=(before)
bin_of() { if [[ $1 == after ]]; then echo "$arx"; else echo "$before"; fi; }
commands=("status" "best" "try --dry-run")

declare -A secs rss
for ((i = 0; i < reps; i++)); do
  # One more run journaled: the warm cache is extended by one line.
  "$arx" run --approve -- true > /dev/null 2>&1
  for side in "${sides[@]}"; do
    bin=$(bin_of "$side")
    "$bin" report > /dev/null 2>&1 # the cache up to date for both sides
    for c in "${commands[@]}"; do
      # shellcheck disable=SC2086
      read -r s k <<< "$(measure "$bin" $c)"
      secs[$side,warm,$c]+="$s "
      rss[$side,warm,$c]+="$k "
      rm -f .arx/report.json
      # shellcheck disable=SC2086
      read -r s k <<< "$(measure "$bin" $c)"
      secs[$side,cold,$c]+="$s "
      rss[$side,cold,$c]+="$k "
    done
  done
done

med() { tr ' ' '\n' <<< "$1" | grep . | median; }
printf '%-16s %-5s %9s %10s' "command" "cache" "seconds" "peak MiB"
[[ -n "$before" ]] && printf ' %9s %10s %8s %8s' "before s" "before MiB" "time" "memory"
echo
for c in "${commands[@]}"; do
  for w in warm cold; do
    s=$(med "${secs[after,$w,$c]}")
    k=$(med "${rss[after,$w,$c]}")
    printf '%-16s %-5s %9.2f %10.1f' "$c" "$w" "$s" "$(echo "$k / 1024" | bc -l)"
    if [[ -n "$before" ]]; then
      bs=$(med "${secs[before,$w,$c]}")
      bk=$(med "${rss[before,$w,$c]}")
      printf ' %9.2f %10.1f %8.3f %8.3f' "$bs" "$(echo "$bk / 1024" | bc -l)" \
        "$(echo "$s / ($bs + 0.005)" | bc -l)" "$(echo "$k / $bk" | bc -l)"
    fi
    echo
  done
done
