#!/usr/bin/env bash
# Paired seeds on a real small model, through the CLI: scikit-learn's MLP on
# the digits data (bench/paired_digits.py), whose split and initialisation
# follow ARX_SEED. The same backlog of changes (small changes of alpha and
# of the learning rate, which keep the initialisation; changes of width,
# which draw it again) is tried with `arx try` on two sides from the same
# start, side by side in one run: paired (`[objective] seeds = "paired"`)
# and unpaired (`seeds` unset: every run a fresh seed). Reports, per side:
# runs, tries, runs per try, keeps, the correlation each paired decision
# measured, and the kept settings' mean validation loss over seeds arx
# never handed out (lower is better); then the ratio of runs per try,
# paired over unpaired.
#
# Usage: bench/paired.sh           (about 10 minutes on 2 shared cores)
#   BENCH_PAIRED_VENV=DIR  reuse (or create) the Python environment there;
#                          otherwise one is made in the temporary directory
#   BENCH_PAIRED_CHANGES=N the first N changes of the backlog (default 8)
#   BENCH_PAIRED_SEEDS=N   seeds of the final evaluation (default 10)
#   BENCH_PAIRED_KEEP=1    keep the temporary directory
# Needs python3 (3.9+) and network access to PyPI for numpy and scikit-learn.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)

command -v git > /dev/null || { echo "bench: git is needed" >&2; exit 2; }
command -v python3 > /dev/null || { echo "bench: python3 is needed" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-paired-bench.XXXXXX")
cleanup() {
  if [[ -n "${BENCH_PAIRED_KEEP:-}" ]]; then
    echo "bench: the repositories stay in $dir" >&2
  else
    rm -rf "$dir"
  fi
}
trap cleanup EXIT

venv=${BENCH_PAIRED_VENV:-$dir/venv}
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import sklearn, numpy' 2> /dev/null; then
  echo "bench: installing numpy and scikit-learn into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet numpy scikit-learn
fi
py=$(cd "$venv/bin" && pwd)/python

cargo build --quiet --bin arx
arx=$(realpath target/debug/arx)

# Each change as KEY=VALUE of params.json, applied to the best so far.
changes=(
  alpha=0.0003 lr=0.0012 width=48 alpha=0.001 lr=0.0015 width=24
  alpha=0.003 lr=0.002 alpha=0.0002 width=64 lr=0.0025 alpha=0.01
)
changes=("${changes[@]:0:${BENCH_PAIRED_CHANGES:-8}}")
eval_seeds=${BENCH_PAIRED_SEEDS:-10}

arm() {
  local name=$1 seeds=$2 repo=$dir/$1
  mkdir -p "$repo"
  cp "$here/bench/paired_digits.py" "$repo/train.py"
  printf '{"width": 32, "alpha": 0.0001, "lr": 0.001, "max_iter": 60}\n' > "$repo/params.json"
  cat > "$repo/arx.toml" << EOF
[gates]
execute = false

[objective]
metric = "val_loss"
direction = "min"
command = ["$py", "train.py"]
baseline_repeat = 5
$seeds
EOF
  (
    cd "$repo"
    git init -q -b main
    git config user.email bench@example.com
    git config user.name bench
    printf '.arx/\n__pycache__/\n' > .gitignore
    git add -A
    git commit -qm start
    "$arx" try > /dev/null 2>&1 || true
    for change in "${changes[@]}"; do
      "$py" - "$change" << 'EOF'
import json, sys
key, value = sys.argv[1].split("=")
params = json.load(open("params.json"))
params[key] = float(value) if "." in value else int(value)
json.dump(params, open("params.json", "w"))
EOF
      "$arx" try -m "$change" 2> /dev/null | sed "s/^/  $name: /" || true
    done
  ) >&2
}

# Both sides at once, each in its own repository: the same backlog, the
# same machine, the same wall time.
echo "bench: ${#changes[@]} changes a side, paired and unpaired side by side" >&2
started=$(date +%s)
arm paired 'seeds = "paired"' &
paired_pid=$!
arm unpaired '' &
unpaired_pid=$!
wait "$paired_pid" "$unpaired_pid"
echo "bench: both sides done in $(($(date +%s) - started)) s" >&2

"$py" - "$dir" "$py" "$eval_seeds" << 'EOF'
import json, subprocess, sys, os

dir, py, seeds = sys.argv[1], sys.argv[2], sys.argv[3]

def side(name):
    repo = os.path.join(dir, name)
    lines = [json.loads(l) for l in open(os.path.join(repo, ".arx", "journal.jsonl"))]
    tries = [r for r in lines if r.get("ratchet") and r["ratchet"]["status"] not in ("baseline", "remeasure")]
    runs = sum(max(1, len(r.get("attempts") or [])) for r in tries)
    keeps = [r["ratchet"].get("description") for r in tries if r["ratchet"]["status"] == "keep"]
    rhos = [(r["ratchet"].get("description"), r["ratchet"]["paired"]["rho"])
            for r in tries if r["ratchet"].get("paired")]
    final = json.loads(subprocess.run([py, "train.py", "--seeds", seeds], cwd=repo,
                                      capture_output=True, text=True, check=True).stdout)
    return dict(tries=len(tries), runs=runs, keeps=keeps, rhos=rhos, final=final)

start_repo = os.path.join(dir, "paired")
first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=start_repo,
                       capture_output=True, text=True, check=True).stdout.strip()
subprocess.run(["git", "worktree", "add", "-q", os.path.join(dir, "start"), first], cwd=start_repo, check=True)
base = json.loads(subprocess.run([py, "train.py", "--seeds", seeds], cwd=os.path.join(dir, "start"),
                                 capture_output=True, text=True, check=True).stdout)

print("| side | tries | runs | runs per try | keeps | decided paired | ρ measured (mean) | mean validation loss of the kept settings (%s new seeds) |" % seeds)
print("|---|---:|---:|---:|---:|---:|---:|---:|")
print("| start | | | | | | | %.4f ± %.4f sd |" % (base["mean"], base["sd"]))
sides = {name: side(name) for name in ("paired", "unpaired")}
for name, s in sides.items():
    rhos = [r for _, r in s["rhos"]]
    print("| %s | %d | %d | %.2f | %d (%s) | %d | %s | %.4f ± %.4f sd |" % (
        name, s["tries"], s["runs"], s["runs"] / max(1, s["tries"]), len(s["keeps"]),
        ", ".join(k or "?" for k in s["keeps"]) or "none", len(rhos),
        "%.2f" % (sum(rhos) / len(rhos)) if rhos else "–",
        s["final"]["mean"], s["final"]["sd"]))
print()
print("Correlation measured by each paired decision (change: rho):",
      ", ".join("%s: %.2f" % (d, r) for d, r in sides["paired"]["rhos"]) or "none")
p, u = sides["paired"], sides["unpaired"]
print("Paired / unpaired: runs per try %.2f, keeps %d vs %d, loss gain over the start %.4f vs %.4f" % (
    (p["runs"] / max(1, p["tries"])) / max(1e-9, u["runs"] / max(1, u["tries"])),
    len(p["keeps"]), len(u["keeps"]), base["mean"] - p["final"]["mean"], base["mean"] - u["final"]["mean"]))
EOF
