#!/usr/bin/env bash
# The `sequential` rule through the CLI against known truth: an experiment
# whose metric is the number in value.txt plus fresh N(0, 1) noise (a loss),
# at confidence 0.95.
#   null:  N tries of a change that leaves the metric as it is (note.txt):
#          the share kept is the false-keep rate.
#   gain:  N tries each 1σ better than the kept commit's truth (value.txt
#          lowered by 1): the share kept is the power at 1σ.
#   later: N segments, each a fresh baseline, then a change 1.5σ better
#          tried until one is kept (at most 10 tries), then one try 1σ
#          better than that kept commit: the power at 1σ later in a
#          segment, against a best recorded by its runs after the keep.
#          Only with LATER=1 (about three times the runs of an arm);
#          LATER=only runs this arm alone.
# Every try starts a new segment (its baseline measured again, 5 runs), so
# that the tries do not all share one draw of the best's noise; the runs
# counted are the candidates' only.
# PAIRED_RHO=R: under `seeds = "paired"`, the noise a seed effect N(0, R)
# (drawn afresh for every try: a committed round.txt joins the seed) plus
# fresh N(0, 1 − R), so runs at one seed correlate by R.
# ARMS="null gain": the arms to run (default both).
# GAIN=G: the gain arm's and the later arm's gain in σ (default 1).
# BENCH_JSONL=F: append each counted try to F as a JSON line ({"arm",
# "status", "runs"}); BENCH_DEADLINE=T: start no try after epoch second T;
# PYTHON=P: the interpreter of the experiment (default python3).
# Usage: bench/sequential_cli.sh [TRIES] (default 300); ARX=path/to/arx.
set -euo pipefail
tries="${1:-300}"
arms="${ARMS:-null gain}"
gain="${GAIN:-1}"
done_n=0
py="${PYTHON:-python3}"
export BENCH_RHO="${PAIRED_RHO:-0}"
# A new draw of the seed effects for the next try: round.txt committed.
next_round() {
  printf '%s\n' "$1" > round.txt
  git add round.txt && git commit -qm "round $1"
}
arx="${ARX:-$(cd "$(dirname "$0")/.." && pwd)/target/debug/arx}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

setup() {
  local dir="$work/$1"
  mkdir -p "$dir" && cd "$dir"
  git init -q -b main && git config user.email b@e && git config user.name b
  printf '0\n' > value.txt
  printf '0\n' > note.txt
  printf '0\n' > round.txt
  cat > score.py <<'PY'
import os, random
v = float(open("value.txt").read())
rho = float(os.environ.get("BENCH_RHO", "0"))
seed = os.environ.get("ARX_SEED")
shared = 0.0
if rho > 0 and seed is not None:
    shared = random.Random(seed + "-" + open("round.txt").read().strip()).gauss(0.0, 1.0)
noise = rho ** 0.5 * shared + (1.0 - rho) ** 0.5 * random.gauss(0.0, 1.0)
print('__RESULT__ {"m": %.6f}' % (v + noise))
PY
  cat > arx.toml <<'TOML'
[gates]
execute = false

[objective]
metric = "m"
direction = "min"
baseline_repeat = 5
TOML
  printf 'command = "%s score.py"\n' "$py" >> arx.toml
  [ -z "${PAIRED_RHO:-}" ] || printf 'seeds = "paired"\n' >> arx.toml
  cat >> arx.toml <<'TOML'

rule = "sequential"
confidence = 0.95
TOML
  printf '.arx/\n' > .gitignore
  git add -A && git commit -qm start
  "$arx" try -q >/dev/null 2>&1 || true
}

# The candidate's runs of a try's JSON; with BENCH_JSONL, the try is
# appended there under ARM.
runs_of() { # arm json
  printf '%s' "$2" | "$py" -c 'import json, os, sys
arm, path = sys.argv[1], os.environ.get("BENCH_JSONL")
try:
    r = json.load(sys.stdin)
    status, n = (r.get("ratchet") or {}).get("status") or r.get("outcome"), len(r.get("samples") or [1])
except Exception:
    status, n = None, 0
if path:
    with open(path, "a") as fh:
        fh.write(json.dumps({"arm": arm, "status": status, "runs": n}) + "\n")
print(n)' "$1"
}
# Past BENCH_DEADLINE: start no more tries.
late() {
  [ -n "${BENCH_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$BENCH_DEADLINE" ]
}

if [ "${LATER:-0}" != only ]; then
case " $arms " in *" null "*)
setup null
kept=0 runs=0
for i in $(seq 1 "$tries"); do
  late && break
  done_n=$i
  next_round "$i"
  printf '%s\n' "$i" > note.txt
  out="$("$arx" --json try --new-segment -m "null $i" 2>/dev/null || true)"
  case "$out" in *'"status":"keep"'*) kept=$((kept + 1)) ;; esac
  n=$(runs_of null "$out")
  runs=$((runs + n))
done
echo "null: kept $kept of $done_n tries ($runs runs)"
;; esac

case " $arms " in *" gain "*)
setup gain
kept=0 runs=0
for i in $(seq 1 "$tries"); do
  late && break
  done_n=$i
  next_round "$i"
  v=$(cat value.txt)
  "$py" -c "print($v - $gain)" > value.txt
  out="$("$arx" --json try --new-segment -m "gain $i" 2>/dev/null || true)"
  case "$out" in *'"status":"keep"'*) kept=$((kept + 1)) ;; esac
  n=$(runs_of gain "$out")
  runs=$((runs + n))
done
echo "gain ${gain}σ: kept $kept of $done_n tries ($runs runs)"
;; esac
fi

case "${LATER:-0}" in 1 | only) ;; *) exit 0 ;; esac
lower() { # by
  v=$(cat value.txt)
  "$py" -c "print($v - $1)" > value.txt
}
setup later
kept=0 runs=0 n_tries=0
for i in $(seq 1 "$tries"); do
  late && break
  next_round "$i"
  flag=--new-segment
  earlier=no
  for j in $(seq 1 10); do
    lower 1.5
    out="$("$arx" --json try $flag -m "earlier gain $i.$j" 2>/dev/null || true)"
    flag=
    case "$out" in *'"status":"keep"'*) earlier=yes; break ;; esac
  done
  [ "$earlier" = yes ] || continue
  lower "$gain"
  out="$("$arx" --json try -m "gain $i" 2>/dev/null || true)"
  n_tries=$((n_tries + 1))
  case "$out" in *'"status":"keep"'*) kept=$((kept + 1)) ;; esac
  n=$(runs_of later "$out")
  runs=$((runs + n))
done
echo "gain ${gain}σ later: kept $kept of $n_tries tries ($runs runs)"
