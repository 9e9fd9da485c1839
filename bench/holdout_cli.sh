#!/usr/bin/env bash
# The held-out check through the CLI, over loops of keeps (the
# "cumulative harm" target): `arx try` in real repositories, a held-out
# command whose metric the bench controls, the operator's held-out journal
# read for what the check spent.
#
# Every candidate is far better on the target (`m` 0.1 lower, run noise
# 0.001), so the keep rule keeps it and the held-out check alone decides.
# Its held-out value `test_loss` is the candidate's true value (held.txt)
# plus noise of sd 1: unpaired, fresh each run; paired (`seeds =
# "paired"`) at a seed correlation RHO, a seed effect of variance RHO
# that every commit shares at the same ARX_SEED, plus fresh noise of
# variance 1 − RHO.
# - harm: each candidate 0.5 worse held out than the best; after TRIES
#   tries, is the kept commit not more than 1 worse than the baseline?
#   (target: in ≥ 95% of loops)
# - null: each candidate as good held out as the best; how many are
#   vetoed? (target: ≤ (1 − confidence) + 5 points = 10%)
# Reports, per setting and scenario, the share with its Wilson 95%
# interval and the held-out runs per try (candidates' and the
# baseline's added runs, from the operator's journal).
#
# Usage: bench/holdout_cli.sh                (2 settings × 2 scenarios)
#   BENCH_HOLDOUT_LOOPS=N   loops per setting and scenario (default 25,
#                           8 tries each: 200 tries)
#   BENCH_HOLDOUT_TRIES=N   tries per loop (default 8)
#   BENCH_HOLDOUT_SETTINGS="unpaired rho0.5 rho0.9"  which settings
#   BENCH_HOLDOUT_KEEP=1    keep the temporary directory
set -euo pipefail
cd "$(dirname "$0")/.."

command -v git > /dev/null || { echo "bench: git is needed" >&2; exit 2; }
loops=${BENCH_HOLDOUT_LOOPS:-25}
tries=${BENCH_HOLDOUT_TRIES:-8}
settings=${BENCH_HOLDOUT_SETTINGS:-unpaired rho0.5}

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-holdout-bench.XXXXXX")
cleanup() {
  if [[ -n "${BENCH_HOLDOUT_KEEP:-}" ]]; then
    echo "bench: the repositories stay in $dir" >&2
  else
    rm -rf "$dir"
  fi
}
trap cleanup EXIT

cargo build --quiet --bin arx
arx=$(realpath target/debug/arx)

# The target: value.txt plus noise of sd 0.001.
cat > "$dir/score.sh" << 'SH'
#!/bin/sh
r=$(od -An -N4 -tu4 /dev/urandom)
awk -v v="$(cat value.txt)" -v r="$r" 'BEGIN {
  srand(r % 1000000007); u1 = rand(); if (u1 < 1e-12) u1 = 1e-12; u2 = rand()
  printf "__RESULT__ {\"m\": %.6f}\n", v + 0.001 * sqrt(-2 * log(u1)) * cos(6.283185307 * u2)
}'
SH
# The held-out evaluation: held.txt plus a seed effect (variance RHO, the
# same for every commit at that ARX_SEED) and fresh noise (1 − RHO).
cat > "$dir/holdout.sh" << 'SH'
#!/bin/sh
r=$(od -An -N4 -tu4 /dev/urandom)
awk -v t="$(cat held.txt)" -v r="$r" -v s="${ARX_SEED:-}" -v rho="$RHO" 'BEGIN {
  e = 0
  if (s != "") {
    srand(s % 1000000007); u1 = rand(); if (u1 < 1e-12) u1 = 1e-12; u2 = rand()
    e = sqrt(rho) * sqrt(-2 * log(u1)) * cos(6.283185307 * u2)
  } else { rho = 0 }
  srand(r % 1000000007); u1 = rand(); if (u1 < 1e-12) u1 = 1e-12; u2 = rand()
  f = sqrt(1 - rho) * sqrt(-2 * log(u1)) * cos(6.283185307 * u2)
  printf "__RESULT__ {\"test_loss\": %.6f}\n", t + e + f
}'
SH

# One loop: a repository, its baseline, TRIES candidates each DELTA
# worse held out than the best. Prints "gap vetoed candidate_runs
# baseline_runs".
one_loop() {
  local setting=$1 delta=$2 n=$3 repo=$dir/$1-$2-$3 seeds="" rho=0
  case $setting in
    unpaired) ;;
    rho*) seeds='seeds = "paired"'; rho=${setting#rho} ;;
  esac
  mkdir -p "$repo"
  cp "$dir/score.sh" "$dir/holdout.sh" "$repo/"
  echo 1.0 > "$repo/value.txt"
  echo 0 > "$repo/held.txt"
  cat > "$repo/arx.toml" << TOML
[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
baseline_repeat = 3
confidence = 0.95
$seeds
TOML
  cat > "$dir/$setting-$2-$3.toml" << 'TOML'
[objective.holdout]
command = "sh holdout.sh"
metric = "test_loss"
TOML
  (
    cd "$repo"
    git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm start
    export ARX_HOLDOUT_CONFIG="$dir/$setting-$2-$3.toml" RHO="$rho"
    export ARX_HOLDOUT_JOURNAL="$repo.held-out.jsonl"
    export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b
    "$arx" try --quiet > /dev/null 2>&1 || { echo "bench: baseline failed in $repo" >&2; exit 2; }
    local vetoed=0 k
    for ((k = 1; k <= tries; k++)); do
      awk -v v="$(cat value.txt)" 'BEGIN { printf "%.4f\n", v - 0.1 }' > value.txt
      awk -v v="$(cat held.txt)" -v d="$delta" 'BEGIN { printf "%.4f\n", v + d }' > held.txt
      local code=0
      "$arx" try --quiet -m "candidate $k" > /dev/null 2>&1 || code=$?
      case $code in
        0) ;;
        1) vetoed=$((vetoed + 1)) ;;
        *) echo "bench: try $k exited $code in $repo" >&2; exit 2 ;;
      esac
    done
    # The kept commit's true held-out value is its held.txt.
    local gap
    gap=$(git show HEAD:held.txt)
    python3 - "$ARX_HOLDOUT_JOURNAL" "$gap" "$vetoed" << 'PY'
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1])]
cand = sum(len(e["values"]) for e in entries if e["kind"] == "candidate")
base = sum(len(e["values"]) for e in entries if e["kind"] == "baseline")
print(sys.argv[2], sys.argv[3], cand, base)
PY
  )
}

wilson() {
  python3 - "$1" "$2" << 'PY'
import math, sys
k, n = int(sys.argv[1]), int(sys.argv[2])
z = 1.96
p = k / n
c = (p + z * z / (2 * n)) / (1 + z * z / n)
h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
print(f"{100 * p:.1f}% [{100 * max(0, c - h):.1f}–{100 * min(1, c + h):.1f}]")
PY
}

echo "held-out check through arx try: $loops loops × $tries tries per setting and scenario, confidence 0.95, defaults (repeat 3, baseline_repeat 5, max_repeat 25)"
printf '%-10s | %-26s %8s %8s | %-26s %8s %8s\n' setting "harm: loops ≤ 1 worse" "runs/try" "base" "null: vetoed" "runs/try" "base"
for setting in $settings; do
  within=0 hruns=0 hbase=0 vetoed=0 nruns=0 nbase=0
  for ((l = 1; l <= loops; l++)); do
    read -r gap _ c b < <(one_loop "$setting" 0.5 "$l")
    if awk -v g="$gap" 'BEGIN { exit !(g <= 1.0001) }'; then within=$((within + 1)); fi
    hruns=$((hruns + c)) hbase=$((hbase + b))
    read -r _ v c b < <(one_loop "$setting" 0 "$l")
    vetoed=$((vetoed + v)) nruns=$((nruns + c)) nbase=$((nbase + b))
    echo "bench: $setting loop $l/$loops: harm within $within, null vetoed $vetoed" >&2
  done
  n=$((loops * tries))
  printf '%-10s | %-26s %8.1f %8.1f | %-26s %8.1f %8.1f\n' "$setting" \
    "$(wilson $within "$loops") of $loops" "$(awk -v a=$hruns -v n=$n 'BEGIN{print a/n}')" \
    "$(awk -v a=$hbase -v n="$loops" 'BEGIN{print a/n}')" \
    "$(wilson $vetoed $n) of $n" "$(awk -v a=$nruns -v n=$n 'BEGIN{print a/n}')" \
    "$(awk -v a=$nbase -v n="$loops" 'BEGIN{print a/n}')"
done
echo "targets: harm ≤ 1 (1σ) worse than the baseline in ≥ 95% of loops; null vetoed ≤ 10%; base: the baseline's held-out runs at the loop's end"
