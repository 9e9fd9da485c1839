#!/usr/bin/env bash
# `arx report` on a journal of 1,000,000 runs (one ratchet segment of
# `arx try` records and a plain `arx run` record every tenth line, written
# by examples/report_journal.rs as arx writes records), beside the existing
# whole-journal reader `arx log --format tsv` on the same journal. Each
# command is a whole process, timed from outside; sides alternate and the
# median of the repetitions is reported, with the ratio to `arx log`.
# Targets: terminal report < 1 s, `--html` < 3 s, page < 5 MB.
#
# Usage: bench/report.sh [--quick]   (BENCH_REPORT_RUNS=1000000, BENCH_REPS=5)
# The journal is generated in a temporary directory and removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  runs=${BENCH_REPORT_RUNS:-100000}
  reps=${BENCH_REPS:-3}
else
  runs=${BENCH_REPORT_RUNS:-1000000}
  reps=${BENCH_REPS:-5}
fi

cargo build --profile dist --quiet --example report_journal
cargo build --profile dist --quiet --bin arx
gen=$(realpath target/dist/examples/report_journal)
arx=$(realpath target/dist/arx)

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-report-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/.arx"
"$gen" "$runs" "$dir/.arx/journal.jsonl"
bytes=$(stat -c %s "$dir/.arx/journal.jsonl")
echo "journal: $runs runs, $((bytes / 1000000)) MB"
cd "$dir"

# Seconds a command takes (its output discarded).
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The journal was just written: let its pages reach the disk first, so
# no timing pays for that.
sync

# The first report after a clone or a merge builds both caches the summary
# reads (the report's fold and the precision engine's history, in one
# reading of the journal); after `arx precision show` (or any command that
# brings the precision cache up to date) only the report's. Each is timed
# `reps` times, the caches removed before each, beside `arx precision
# rebuild` (the engine's own reading of the whole journal).
declare -A cold
for ((i = 0; i < reps; i++)); do
  rm -f .arx/report.json .arx/precision.json
  cold[both]+="$(seconds "$arx" report) "
  rm -f .arx/report.json
  cold[report]+="$(seconds "$arx" report) "
  cold[precision]+="$(seconds "$arx" precision rebuild) "
done
for k in both report precision; do
  m=$(tr ' ' '\n' <<< "${cold[$k]}" | grep . | median)
  case $k in
    both) name="first report: both caches built" ;;
    report) name="first report: report cache built" ;;
    precision) name="arx precision rebuild" ;;
  esac
  printf '%-34s %7.2fs\n' "$name" "$m"
done

# Each repetition journals one more run (as a loop does between two
# reports; not timed), then times every side.
declare -A times
for ((i = 0; i < reps; i++)); do
  "$arx" run --approve -- true > /dev/null 2>&1
  times[terminal]+="$(seconds "$arx" report) "
  times[json]+="$(seconds "$arx" report --json) "
  times[markdown]+="$(seconds "$arx" report --markdown) "
  times[log]+="$(seconds "$arx" log --format tsv) "
  times[html]+="$(seconds "$arx" report -q --html "$dir/report.html") "
  times[svg]+="$(seconds "$arx" report -q --svg "$dir/chart.svg") "
done
log=$(tr ' ' '\n' <<< "${times[log]}" | grep . | median)
printf '%-34s %8s %14s\n' "command" "median" "vs arx log"
printf '%-34s %7.2fs %14s\n' "arx log --format tsv" "$log" "1.00"
for k in terminal json markdown svg html; do
  m=$(tr ' ' '\n' <<< "${times[$k]}" | grep . | median)
  case $k in
    terminal) name="arx report" ;;
    html) name="arx report --html" ;;
    *) name="arx report --$k" ;;
  esac
  printf '%-34s %7.2fs %14.2f\n' "$name" "$m" "$(echo "$m / $log" | bc -l)"
done
page=$(stat -c %s "$dir/report.html")
svg=$(stat -c %s "$dir/chart.svg")
printf 'page: %.2f MB, chart: %.2f MB\n' "$(echo "$page / 1000000" | bc -l)" "$(echo "$svg / 1000000" | bc -l)"
