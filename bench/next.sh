#!/usr/bin/env bash
# `arx next` over a journal of 1,000,000 runs and 100 candidates.
# Reports the cold time (no precision cache: the journal is folded, as after
# a merge) and the warm time (the cache `arx run` keeps), median of 5 each,
# and, side by side, the same fold and choice written on the reference
# packages (bench/next_reference.py, timed once), with the ratio and a
# value-for-value check of the two folds. Target: under 1 second.
#
# Usage: bench/next.sh [--quick]      (BENCH_RUNS=1000000 by default)
#
# Environment (all optional): ARX_BIN (the arx binary), BENCH_RUNS,
# BENCH_VENV (virtualenv for the reference, default target/bench-venv),
# BENCH_PYTHON (python that creates it, default python3). When the
# reference cannot be installed its column is skipped with a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${BENCH_VENV:-$root/target/bench-venv}
ref_py=""
ref_ok() {
  "$venv/bin/python" -c 'import importlib.metadata as m, sys, autoresearch_core, lrs.core.precision
sys.exit(m.version("autoresearch-core") != "0.4.4" or m.version("lrs-agents") != "0.2.1")' 2>/dev/null
}
if ! ref_ok; then
  echo "bench: installing autoresearch-core 0.4.4 and lrs-agents 0.2.1 into $venv" >&2
  [[ -x "$venv/bin/python" ]] || "${BENCH_PYTHON:-python3}" -m venv "$venv" >&2 || true
  # lrs-agents' own dependency list is large; its core needs numpy and pydantic.
  { "$venv/bin/python" -m pip install -q --disable-pip-version-check \
      "autoresearch-core==0.4.4" numpy pydantic &&
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
      "lrs-agents==0.2.1"; } >&2 || true
fi
if ref_ok; then
  ref_py="$venv/bin/python"
else
  echo "bench: WARNING: the reference packages could not be installed; its column is skipped" >&2
fi
runs=${BENCH_RUNS:-1000000}
[[ "${1:-}" == "--quick" ]] && runs=100000
if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --profile dist --quiet
  ARX_BIN=$PWD/target/dist/arx
fi
dir=target/bench/next-$runs
mkdir -p "$dir/.arx"
if [[ ! -s "$dir/.arx/journal.jsonl" ]]; then
  echo "bench: writing a journal of $runs runs to $dir/.arx/journal.jsonl" >&2
  python3 - "$dir" "$runs" <<'PY'
import json, random, sys, uuid
d, n = sys.argv[1], int(sys.argv[2])
random.seed(7)
rates = {f"c{i:03d}": random.uniform(0.1, 0.8) for i in range(100)}
names = list(rates)
with open(f"{d}/.arx/journal.jsonl", "w") as f:
    for i in range(n):
        c = random.choice(names)
        ok = random.random() < rates[c]
        acc = 0.9 if ok else 0.5
        rec = {
            "run_id": str(uuid.UUID(int=i)), "started_at": "2026-11-%02dT10:00:00.000Z" % (1 + i % 28),
            "ended_at": "2026-11-01T10:00:01.000Z", "duration_ms": 1000,
            "command": ["python", "train.py", "--candidate", c], "shell": False, "cwd": "/work",
            "host": "node1", "git": None, "hypothesis": None, "approach_hash": None,
            "candidate": c, "tags": ["bench"], "state_fingerprint": "a1d75dee9156b341",
            "spec": {"metric_key": "acc", "comparator": ">=", "target": 0.8},
            "metrics": {"acc": acc}, "exit_code": 0, "timed_out": False, "interrupted": False,
            "failure_class": "none",
            "verdict": {"verdict": "supported" if ok else "refuted", "strategy": "deterministic",
                        "evidence_level": "deterministic", "detail": "acc=%s >= 0.8" % acc,
                        "raw_evidence_ref": None},
            "stdout_tail": "epoch 9 loss=0.41\n__RESULT__ {\"acc\": %s}\n" % acc, "stderr_tail": "",
        }
        f.write(json.dumps(rec, separators=(",", ":")) + "\n")
with open(f"{d}/candidates.toml", "w") as f:
    for c in names:
        f.write(f'[[candidate]]\nname = "{c}"\nstatement = "candidate {c} reaches 0.8"\n\n')
PY
fi
cd "$dir"
export ARX_STATE_DIR="$PWD/.arx"  # the benchmark's own state, not the repository's
size=$(du -m .arx/journal.jsonl | cut -f1)
time_ms() {  # median wall time of "$@" over 5 runs, in ms; $COLD=1 drops the cache first
  python3 - "$@" <<'PY'
import os, statistics, subprocess, sys, time
ts = []
for _ in range(5):
    if os.environ.get("COLD") == "1" and os.path.exists(".arx/precision.json"):
        os.remove(".arx/precision.json")
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
    ts.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(ts):.0f}")
PY
}
cold=$(COLD=1 time_ms "$ARX_BIN" next --candidates candidates.toml)
"$ARX_BIN" precision rebuild > /dev/null
warm=$(time_ms "$ARX_BIN" next --candidates candidates.toml)
ref_ms="" parity="skipped (no reference)"
if [[ -n "$ref_py" ]]; then
  start=$(date +%s%N)
  "$ref_py" "$root/bench/next_reference.py" .arx/journal.jsonl candidates.toml > reference.json
  ref_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  "$ARX_BIN" precision show --json > arx-precision.json
  "$ARX_BIN" next --candidates candidates.toml --explain --json > arx-next.json
  "$ARX_BIN" next --candidates candidates.toml --model lrs --greedy > arx-lrs-greedy.txt
  parity=$(python3 - <<'PY'
import json
ref = json.load(open("reference.json"))
prec = {l["level"]: l for l in json.load(open("arx-precision.json"))["levels"]}
nxt = json.load(open("arx-next.json"))
bad = []
for level, ab in ref["levels"].items():
    for k in ("alpha", "beta"):
        if prec[level][k] != ab[k]:
            bad.append(f"{level}.{k} {prec[level][k]!r} != {ab[k]!r}")
for c in nxt["candidates"]:
    if c["success"][0] != ref["success"][c["name"]]:
        bad.append(f"success of {c['name']}")
if nxt["journal_runs"] != ref["runs"]:
    bad.append("runs")
pick = open("arx-lrs-greedy.txt").read().strip()
if pick != ref["lrs_greedy"]:
    bad.append(f"lrs greedy pick {pick} != {ref['lrs_greedy']}")
print("identical: precision alpha/beta of 3 levels, 100 success estimates, runs, `lrs` greedy pick" if not bad else "DIFFERENT: " + "; ".join(bad[:5]))
PY
)
fi
echo "## arx next over $runs runs, 100 candidates (journal ${size} MiB)"
echo
echo "| case | median wall (ms) | goal | result |"
echo "|---|---:|---:|---|"
echo "| cold (journal folded, no cache) | $cold | < 1000 | $([[ $cold -lt 1000 ]] && echo PASS || echo FAIL) |"
echo "| warm (cache kept by arx run) | $warm | < 1000 | $([[ $warm -lt 1000 ]] && echo PASS || echo FAIL) |"
if [[ -n "$ref_ms" ]]; then
  echo "| reference packages, the same fold (one run) | $ref_ms | | cold is $(python3 -c "print(f'{$ref_ms/$cold:.1f}')")x faster |"
fi
echo
echo "Fold parity with the reference: $parity"
