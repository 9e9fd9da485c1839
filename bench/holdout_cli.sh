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
# baseline's added runs, from the operator's journal). A veto is a try
# the held-out check set aside (status `holdout` in the loop's journal),
# out of the tries that reached the check; a try the keep rule
# discarded before it is counted apart ("keep-rule discards"). The null
# rate is also given with an interval over loops (the tries of a loop
# share its baseline's held-out runs, so its vetoes come in clusters
# and the Wilson interval over tries is too narrow).
#
# Usage: bench/holdout_cli.sh                (2 settings × 2 scenarios)
#   (settings: unpaired, or rhoR: paired seeds at a seed correlation R)
#   BENCH_HOLDOUT_LOOPS=N   loops per setting and scenario (default 25,
#                           8 tries each: 200 tries)
#   BENCH_HOLDOUT_TRIES=N   tries per loop (default 8)
#   BENCH_HOLDOUT_SETTINGS="unpaired rho0.5 rho0.9"  which settings
#   BENCH_HOLDOUT_KEEP=1    keep the temporary directory
#   BENCH_HOLDOUT_JSONL=F   append each loop to F as a JSON line
#                           (setting, scenario harm|null, gap, vetoed,
#                           checked, discarded, candidate_runs,
#                           baseline_runs)
#   BENCH_DEADLINE=T        start no loop after epoch second T
#   ARX=path/to/arx         the binary (default: a debug build of this tree)
#   PYTHON=P                the interpreter of the bench's own steps
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

py=${PYTHON:-python3}
if [[ -n "${ARX:-}" ]]; then
  arx=$(realpath "$ARX")
else
  cargo build --quiet --bin arx
  arx=$(realpath target/debug/arx)
fi

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
# worse held out than the best. Prints "gap vetoed checked discarded
# candidate_runs baseline_runs" (checked: the tries that reached the
# held-out check; discarded: by the keep rule before it).
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
    local k
    for ((k = 1; k <= tries; k++)); do
      awk -v v="$(cat value.txt)" 'BEGIN { printf "%.4f\n", v - 0.1 }' > value.txt
      awk -v v="$(cat held.txt)" -v d="$delta" 'BEGIN { printf "%.4f\n", v + d }' > held.txt
      local code=0
      "$arx" try --quiet -m "candidate $k" > /dev/null 2>&1 || code=$?
      case $code in
        0 | 1) ;;
        *) echo "bench: try $k exited $code in $repo" >&2; exit 2 ;;
      esac
    done
    # The kept commit's true held-out value is its held.txt.
    local gap
    gap=$(git show HEAD:held.txt)
    "$py" - "$ARX_HOLDOUT_JOURNAL" "$gap" .arx/journal.jsonl << 'PY'
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1])]
cand = sum(len(e["values"]) for e in entries if e["kind"] == "candidate")
base = sum(len(e["values"]) for e in entries if e["kind"] == "baseline")
status = [(json.loads(l).get("ratchet") or {}).get("status") for l in open(sys.argv[3])]
vetoed, kept = status.count("holdout"), status.count("keep")
print(sys.argv[2], vetoed, vetoed + kept, status.count("discard"), cand, base)
PY
  )
}

wilson() {
  "$py" - "$1" "$2" << 'PY'
import math, sys
k, n = int(sys.argv[1]), int(sys.argv[2])
z = 1.96
p = k / n
c = (p + z * z / (2 * n)) / (1 + z * z / n)
h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
print(f"{100 * p:.1f}% [{100 * max(0, c - h):.1f}–{100 * min(1, c + h):.1f}]")
PY
}

# The share of k in n over loops (the loops' counts "k/n ..."): the
# ratio with a cluster-robust 95% interval.
clustered() {
  "$py" - "$@" << 'PY'
import math, sys
pairs = [tuple(map(int, a.split("/"))) for a in sys.argv[1:]]
K, N, L = sum(k for k, _ in pairs), sum(n for _, n in pairs), len(pairs)
p = K / N
se = math.sqrt(sum((k - p * n) ** 2 for k, n in pairs) / (L * (L - 1))) / (N / L) if L > 1 else 0
print(f"[{100 * max(0, p - 1.96 * se):.1f}–{100 * min(1, p + 1.96 * se):.1f}] over loops")
PY
}

# With BENCH_HOLDOUT_JSONL, one loop as a JSON line there.
record() { # setting scenario gap vetoed checked discarded candidate_runs baseline_runs
  [[ -n "${BENCH_HOLDOUT_JSONL:-}" && -n "${8:-}" ]] || return 0
  printf '{"setting": "%s", "scenario": "%s", "gap": %s, "vetoed": %s, "checked": %s, "discarded": %s, "candidate_runs": %s, "baseline_runs": %s}\n' \
    "$@" >> "$BENCH_HOLDOUT_JSONL"
}

echo "held-out check through arx try: $loops loops × $tries tries per setting and scenario, confidence 0.95, defaults (repeat 3, baseline_repeat 5, max_repeat 25)"
printf '%-10s | %-26s %8s %8s | %-30s %-22s %8s %8s %9s\n' setting "harm: loops ≤ 1 worse" "runs/try" "base" "null: vetoed of checked" "" "runs/try" "base" "discarded"
for setting in $settings; do
  within=0 hruns=0 hchecked=0 hbase=0 vetoed=0 checked=0 nruns=0 nbase=0 discarded=0 per=()
  ran=0
  for ((l = 1; l <= loops; l++)); do
    if [[ -n "${BENCH_DEADLINE:-}" ]] && (($(date +%s) >= BENCH_DEADLINE)); then
      break
    fi
    ran=$l
    read -r gap hv hc hd c b < <(one_loop "$setting" 0.5 "$l")
    record "$setting" harm "$gap" "$hv" "$hc" "$hd" "$c" "$b"
    if awk -v g="$gap" 'BEGIN { exit !(g <= 1.0001) }'; then within=$((within + 1)); fi
    hruns=$((hruns + c)) hchecked=$((hchecked + hc)) hbase=$((hbase + b)) discarded=$((discarded + hd))
    read -r ngap v nc nd c b < <(one_loop "$setting" 0 "$l")
    record "$setting" null "$ngap" "$v" "$nc" "$nd" "$c" "$b"
    vetoed=$((vetoed + v)) checked=$((checked + nc)) nruns=$((nruns + c)) nbase=$((nbase + b))
    discarded=$((discarded + nd)) per+=("$v/$nc")
    echo "bench: $setting loop $l/$loops: harm within $within, null vetoed $vetoed of $checked" >&2
  done
  ((ran > 0 && checked > 0 && hchecked > 0)) || continue
  printf '%-10s | %-26s %8.1f %8.1f | %-30s %-22s %8.1f %8.1f %9s\n' "$setting" \
    "$(wilson $within "$ran") of $ran" "$(awk -v a=$hruns -v n=$hchecked 'BEGIN{print a/n}')" \
    "$(awk -v a=$hbase -v n="$ran" 'BEGIN{print a/n}')" \
    "$(wilson $vetoed $checked) of $checked" "$(clustered "${per[@]}")" \
    "$(awk -v a=$nruns -v n=$checked 'BEGIN{print a/n}')" \
    "$(awk -v a=$nbase -v n="$ran" 'BEGIN{print a/n}')" "$discarded"
done
echo "targets: harm ≤ 1 (1σ) worse than the baseline in ≥ 95% of loops; null vetoed ≤ 10%; runs/try: held-out runs per try that reached the check; base: the baseline's held-out runs at the loop's end; discarded: tries the keep rule discarded before the check (harm and null)"
