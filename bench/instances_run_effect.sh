#!/usr/bin/env bash
# Per-instance decisions through the CLI when runs share an effect: a suite
# of 400 pass/fail instances in mirror pairs (instance 2j passes with
# probability a_j, 2j+1 with 1 - a_j, a_j ~ U(0.1, 0.9)); run r passes
# instance i when V_ri < q_i + t_r, t_r ~ N(0, tau^2) shared by the run's
# instances, V_ri the instance's fixed draw (no sampling noise) or a fresh
# one (sampling noise). The same model as examples/instance_runs_sim.rs.
#   null: a change moving 80 pairs by +0.1 / -0.1 (its expected pass rate
#         is the best's exactly): the share kept is the false-keep rate.
# Every try is a fresh repository: a baseline of 3 runs, then the candidate
# decided by `arx try` with `instances = "per"` at the default confidence.
# Then the two fixed cases at temperature 0: 20 up / 5 down of 400 (kept on
# one run) and 3 up / 1 down of 40 (not kept).
# Usage: bench/instances_run_effect.sh [TRIES] (default 100); ARX=path/to/arx;
# TAUS (default "0 0.05 0.1") and SAMPLING (default "0 1") choose the cells.
# BENCH_RESULTS=F: append each cell's "tau sampling kept tries runs" to F;
# FIXED=0: skip the two fixed cases; BENCH_DEADLINE=T: start no try after
# epoch second T; PYTHON=P: the experiment's interpreter (default python3);
# BENCH_SEED=B: try i's world and change are drawn from seed B + i (default
# 0), so runs side by side must each have their own B.
set -euo pipefail
tries="${1:-100}"
py="${PYTHON:-python3}"
arx="${ARX:-$(cd "$(dirname "$0")/.." && pwd)/target/debug/arx}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat > "$work/exp.py" <<'PY'
import json, random
N = 400
cfg = dict(kv.split("=", 1) for kv in open("world.txt").read().split())
w = random.Random(int(cfg["seed"]))
tau, sampling = float(cfg["tau"]), cfg["sampling"] == "1"
p = []
for _ in range(N // 2):
    a = 0.1 + 0.8 * w.random()
    p += [a, 1 - a]
u = [w.random() for _ in range(N)]
q = list(p)
change = open("change.txt").read().split()
if change[0] == "null":
    for j in random.Random(int(change[1])).sample(range(N // 2), 80):
        q[2 * j] += 0.1
        q[2 * j + 1] -= 0.1
rng = random.Random()
t = tau * rng.gauss(0.0, 1.0)
s = [1 if (rng.random() if sampling else u[i]) < q[i] + t else 0 for i in range(N)]
print("__RESULT__ " + json.dumps({"acc": sum(s) / N, "per": s}))
PY

# A fixed suite: `n` instances, the first `pass` passing, then `up` more
# and the first `down` failing (change.txt: "up down").
cat > "$work/fixed.py" <<'PY'
import json
n, base = [int(x) for x in open("suite.txt").read().split()]
up, down = [int(x) for x in open("change.txt").read().split()]
s = [1 if (i < base and i >= down) or base <= i < base + up else 0 for i in range(n)]
print("__RESULT__ " + json.dumps({"acc": sum(s) / n, "per": s}))
PY

repo() { # dir script
  mkdir -p "$1" && cd "$1"
  git init -q -b main && git config user.email b@e && git config user.name b
  cp "$work/$2" exp.py
  cat > arx.toml <<'TOML'
[gates]
execute = false

[objective]
metric = "acc"
direction = "max"
baseline_repeat = 3
instances = "per"
TOML
  printf 'command = "%s exp.py"\n' "$py" >> arx.toml
  printf '.arx/\n' > .gitignore
}

decide() { # label; prints "status runs"
  local out
  out="$("$arx" --json try -m "$1" 2>/dev/null || true)"
  printf '%s' "$out" | "$py" -c 'import json,sys
try:
    r = json.load(sys.stdin)
    print(r["ratchet"]["status"], len(r.get("attempts") or [1]))
except Exception:
    print("error 0")'
}

results="$work/results.txt"
: > "$results"
for sampling in ${SAMPLING:-0 1}; do
  for tau in ${TAUS:-0 0.05 0.1}; do
    kept=0 runs=0 done_n=0
    for i in $(seq 1 "$tries"); do
      if [ -n "${BENCH_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$BENCH_DEADLINE" ]; then
        break
      fi
      done_n=$i
      repo "$work/t-$sampling-$tau-$i" exp.py
      seed=$((${BENCH_SEED:-0} + i))
      printf 'seed=%s tau=%s sampling=%s\n' "$seed" "$tau" "$sampling" > world.txt
      printf 'none\n' > change.txt
      git add -A && git commit -qm start
      "$arx" try -q >/dev/null 2>&1 || true
      printf 'null %s\n' "$seed" > change.txt
      read -r status n < <(decide "null $i")
      [ "$status" = keep ] && kept=$((kept + 1))
      runs=$((runs + n))
      cd "$work" && rm -rf "$work/t-$sampling-$tau-$i"
    done
    [ "$done_n" -gt 0 ] || continue
    printf '%s %s %s %s %s\n' "$tau" "$sampling" "$kept" "$done_n" "$runs" >> "$results"
    [ -z "${BENCH_RESULTS:-}" ] ||
      printf '%s %s %s %s %s\n' "$tau" "$sampling" "$kept" "$done_n" "$runs" >> "$BENCH_RESULTS"
  done
done

fixed() { # n base up down
  repo "$work/fixed-$1-$3-$4" fixed.py
  printf '%s %s\n' "$1" "$2" > suite.txt
  printf '0 0\n' > change.txt
  git add -A && git commit -qm start
  "$arx" try -q >/dev/null 2>&1 || true
  printf '%s %s\n' "$3" "$4" > change.txt
  decide "$3 up, $4 down of $1"
  cd "$work"
}
[ "${FIXED:-1}" != 0 ] || exit 0
f1="$(fixed 400 200 20 5)"
f2="$(fixed 40 20 3 1)"
[ -z "${BENCH_RESULTS:-}" ] || printf 'fixed 20/5/400 %s\nfixed 3/1/40 %s\n' "$f1" "$f2" >> "$BENCH_RESULTS"

"$py" - "$results" "$f1" "$f2" <<'PY'
import math, sys
z = 1.959963984540054
def wilson(k, n):
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)
print("| τ | sampling noise | null kept | 95% interval (Wilson) | runs per try |")
print("|---:|---|---:|---|---:|")
for line in open(sys.argv[1]):
    tau, s, k, n, runs = line.split()
    k, n, runs = int(k), int(n), int(runs)
    lo, hi = wilson(k, n)
    print(f"| {tau} | {'yes' if s == '1' else 'no'} | {k}/{n} = {100*k/n:.1f}% | {100*lo:.1f}–{100*hi:.1f}% | {runs/n:.2f} |")
print()
print(f"- 20 up / 5 down of 400 at temperature 0: {sys.argv[2]} (status, candidate runs)")
print(f"- 3 up / 1 down of 40 at temperature 0: {sys.argv[3]} (status, candidate runs)")
PY
