#!/usr/bin/env bash
# Lanes, side by side with the alternative in one run:
#
# 1. Wall time of 40 tries of a 2 s experiment: 4 lanes x 10 tries on
#    4 slots against 1 lane x 40 tries. Each try moves one number of its
#    lane's own file up (a win: a keep, unless another lane's keep makes
#    it replay and measure again) or down (a discard), so keeps, discards,
#    replays and re-measures happen as they would; with 15% of candidates
#    winning (a night's usual share) and with 50%. Target: ratio <= 0.3
#    (within 20% of the ideal 0.25).
# 2. `arx lane add` on a repository of 100,000 files against the
#    `git worktree add` it runs, alternately. Target: ratio <= 1.1.
#
# With BENCH_REPEAT=2 every try takes two runs, so a candidate can find
# the best moved between them (a leading one is then replayed at once);
# BENCH_BEFORE=PATH also runs the 4 lanes with another arx binary (an
# earlier build) and prints the ratio of the two.
#
# Usage: bench/lanes.sh [--quick]   (BENCH_FILES=100000, BENCH_REPS=5,
#        BENCH_SLEEP=2, BENCH_TRIES=40, BENCH_WIN_PCTS="15 50",
#        BENCH_REPEAT=1, BENCH_BEFORE unset; BENCH_FILES=0 skips part 2)
set -euo pipefail
cd "$(dirname "$0")/.."

files=${BENCH_FILES:-100000}
reps=${BENCH_REPS:-5}
sleep_s=${BENCH_SLEEP:-2}
tries=${BENCH_TRIES:-40}
repeat=${BENCH_REPEAT:-1}
before=${BENCH_BEFORE:-}
if [[ "${1:-}" == "--quick" ]]; then
  files=${BENCH_FILES:-10000}
  reps=${BENCH_REPS:-1}
  tries=${BENCH_TRIES:-8}
fi
lanes=4

cargo build --profile dist --quiet --bin arx
arx=$(realpath target/dist/arx)
dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-lanes-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

now() { date +%s.%N; }

# A repository in $1 whose experiment sleeps, then prints the sum of the
# numbers in n*.txt.
project() {
  mkdir -p "$1"
  (
    cd "$1"
    git init -q -b main .
    git config user.email bench@example.com
    git config user.name bench
    for i in $(seq 1 $lanes); do echo 0 > "n$i.txt"; done
    cat > score.sh <<SH
#!/bin/sh
sleep $sleep_s
s=0; for f in n*.txt; do s=\$((s + \$(cat \$f))); done
echo "__RESULT__ {\"m\": \$s}"
SH
    cat > arx.toml <<TOML
[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = $repeat
baseline_repeat = 1
rule = "strict"
slots = $lanes
TOML
    printf '.arx/\n' > .gitignore
    git add -A && git commit -qm start
    "$arx" try --quiet > /dev/null 2>&1 || true
  )
}

# N tries in lane $2 of repository $1, each editing n$3.txt: +1 (a win)
# with probability $5 percent, else -1.
tries_in() {
  local root=$1 lane=$2 file=$3 n=$4 pct=$5 i v
  cd "$root.lanes/$lane"
  RANDOM=$file
  for i in $(seq 1 "$n"); do
    v=$(cat "n$file.txt")
    if (( RANDOM % 100 < pct )); then v=$((v + 1)); else v=$((v - 1)); fi
    echo "$v" > "n$file.txt"
    "$arx" try --quiet -m "$lane $i" > /dev/null 2>> "$root.stderr" || true
  done
}

# 4 lanes x tries/4 in a new repository $1 with $2 percent wins: prints
# the wall time, then a summary of what happened.
four_lanes() {
  local root=$1 pct=$2 t0 t1 i lane pids=()
  project "$root"
  (cd "$root" && "$arx" lane add a b c d > /dev/null 2>&1)
  t0=$(now)
  i=0
  for lane in a b c d; do
    i=$((i + 1))
    tries_in "$root" "$lane" "$i" $((tries / lanes)) "$pct" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  t1=$(now)
  echo "$t1 - $t0" | bc -l
  kinds=$(cd "$root" && "$arx" log --format tsv | awk -F'\t' 'NR > 2 { n[$3]++ } END { for (k in n) printf "%s %d, ", k, n[k] }')
  replayed=$(grep -c '"replayed_from"' "$root/.arx/journal.jsonl" || true)
  early=$(grep -c 'the candidate leads after' "$root.stderr" 2> /dev/null || true)
  linear=$(cd "$root" && git rev-list --merges main | wc -l)
  echo "$kinds$replayed replayed onto a newer best, $early of them before their decision; $linear merge commits on main"
}

echo "1. $tries tries of a ${sleep_s} s experiment ($repeat run(s) each), 2 cores"
for pct in ${BENCH_WIN_PCTS:-15 50}; do
  echo "   candidates that win: $pct%"
  project "$dir/one$pct"
  (cd "$dir/one$pct" && "$arx" lane add a > /dev/null 2>&1)
  t0=$(now)
  tries_in "$dir/one$pct" a 1 "$tries" "$pct"
  t1=$(now)
  serial=$(echo "$t1 - $t0" | bc -l)

  out=$(four_lanes "$dir/four$pct" "$pct")
  wide=$(echo "$out" | head -1)
  what=$(echo "$out" | tail -1)
  printf '   1 lane  x %2d tries: %6.1f s\n' "$tries" "$serial"
  printf '   %d lanes x %2d tries: %6.1f s   (%s)\n' $lanes $((tries / lanes)) "$wide" "$what"
  printf '   ratio: %.3f (target <= 0.3; ideal %.2f)\n' "$(echo "$wide / $serial" | bc -l)" "$(echo "1 / $lanes" | bc -l)"
  if [[ -n "$before" ]]; then
    now_arx=$arx
    arx=$before
    out=$(four_lanes "$dir/before$pct" "$pct")
    arx=$now_arx
    was=$(echo "$out" | head -1)
    printf '   %d lanes x %2d tries, %s: %6.1f s   (%s)\n' $lanes $((tries / lanes)) "$before" "$was" "$(echo "$out" | tail -1)"
    printf '   this build against it: %.3f; ratio to 1 lane: %.3f\n' "$(echo "$wide / $was" | bc -l)" "$(echo "$was / $serial" | bc -l)"
  fi
done

if (( files == 0 )); then exit 0; fi
echo "2. lane add on a repository of $files files, $reps repetitions each, alternating"
big="$dir/big"
mkdir -p "$big"
(
  cd "$big"
  git init -q -b main .
  git config user.email bench@example.com
  git config user.name bench
  per=100
  for d in $(seq 1 $((files / per))); do
    mkdir "d$d"
    for f in $(seq 1 $per); do echo "$d $f" > "d$d/f$f"; done
  done
  printf '.arx/\n' > .gitignore
  git add -A && git commit -qm files
)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
arx_times=()
git_times=()
arx_add() {
  sync
  t0=$(now)
  (cd "$big" && "$arx" lane add "x$1" > /dev/null 2>&1)
  t1=$(now)
  arx_times+=("$(echo "$t1 - $t0" | bc -l)")
}
git_add() {
  sync
  t0=$(now)
  (cd "$big" && git worktree add -q -b "plain/y$1" "$dir/big.plain/y$1" HEAD)
  t1=$(now)
  git_times+=("$(echo "$t1 - $t0" | bc -l)")
}
# One of each first, untimed: the first checkout reads the files cold.
(cd "$big" && git worktree add -q -b warm "$dir/big.plain/warm" HEAD)
for r in $(seq 1 "$reps"); do
  # Alternate which goes first.
  if (( r % 2 )); then arx_add "$r"; git_add "$r"; else git_add "$r"; arx_add "$r"; fi
done
a=$(printf '%s\n' "${arx_times[@]}" | median)
g=$(printf '%s\n' "${git_times[@]}" | median)
printf '   arx lane add:     %6.2f s (median)\n' "$a"
printf '   git worktree add: %6.2f s (median)\n' "$g"
printf '   ratio: %.3f (target <= 1.1)\n' "$(echo "$a / $g" | bc -l)"
