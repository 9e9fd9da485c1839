#!/usr/bin/env bash
# `arx journal import` of a 1,000,000-row karpathy results.tsv (no flags:
# the metric, direction and loop read from the night), then `arx log
# --last 3` and `arx try --dry-run` on the journal it leaves. Each command
# is a whole process timed from outside with /usr/bin/time (wall seconds,
# peak RSS); the median of the repetitions is reported (the import runs
# once per repetition into a fresh journal).
# Targets: the import under 64 MiB peak RSS; log --last 3 and
# try --dry-run under 0.2 s.
#
# Usage: bench/import.sh [--quick]   (BENCH_IMPORT_ROWS=1000000, BENCH_REPS=3)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  rows=${BENCH_IMPORT_ROWS:-100000}
  reps=${BENCH_REPS:-1}
else
  rows=${BENCH_IMPORT_ROWS:-1000000}
  reps=${BENCH_REPS:-3}
fi

cargo build --profile dist --quiet --bin arx
arx=$(realpath target/dist/arx)

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-import-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q -b main .
git config user.email bench@example.com
git config user.name bench
printf '[gates]\nexecute = false\n\n[objective]\nmetric = "val_bpb"\ndirection = "min"\ncommand = "python train.py"\n' > arx.toml
printf '.arx/\nresults.tsv\n' > .gitignore
git add -A && git commit -qm start

# karpathy's shape: every fifth row a keep that improves, crashes logged as
# zeros, seven-digit commits the repository does not hold.
awk -v n="$rows" 'BEGIN {
  print "commit\tval_bpb\tmemory_gb\tstatus\tdescription"
  best = 1.0
  for (i = 0; i < n; i++) {
    if (i % 5 == 0) { best -= 1e-7; printf "%07x\t%.7f\t44.0\tkeep\ttry %d: tweak the schedule\n", i, best, i }
    else if (i % 17 == 3) printf "%07x\t0.000000\t0.0\tcrash\ttry %d: double the width (OOM)\n", i, i
    else printf "%07x\t%.7f\t44.1\tdiscard\ttry %d: another activation\n", i, best + 0.001, i
  }
}' > results.tsv
echo "results.tsv: $rows rows, $(( $(stat -c %s results.tsv) / 1000000 )) MB"
sync

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > /dev/null 2> "$dir/stderr.txt" || true
  tail -n 1 "$dir/time.txt"
}

declare -A secs rss
for ((i = 0; i < reps; i++)); do
  rm -rf .arx
  read -r s k <<< "$(measure "$arx" journal import results.tsv)"
  secs[import]+="$s "; rss[import]+="$k "
  for c in "log --last 3" "try --dry-run"; do
    # Cold: the first command after the import (the report's cached fold
    # is rebuilt once); warm: the next one.
    for w in cold warm; do
      # shellcheck disable=SC2086
      read -r s k <<< "$(measure "$arx" $c)"
      secs[$c $w]+="$s "; rss[$c $w]+="$k "
    done
  done
done
echo "journal: $(( $(stat -c %s .arx/journal.jsonl) / 1000000 )) MB, $(wc -l < .arx/journal.jsonl) records"

med() { tr ' ' '\n' <<< "$1" | grep . | median; }
printf '%-22s %9s %10s\n' "command" "seconds" "peak MiB"
for c in import "log --last 3 cold" "log --last 3 warm" "try --dry-run cold" "try --dry-run warm"; do
  printf '%-22s %9.2f %10.1f\n' "$c" "$(med "${secs[$c]}")" "$(echo "$(med "${rss[$c]}") / 1024" | bc -l)"
done
