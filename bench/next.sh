#!/usr/bin/env bash
# `arx next` over a journal of 1,000,000 runs and 100 candidates.
# Reports the cold time (no precision cache: the journal is folded, as after
# a merge) and the warm time (the cache `arx run` keeps), median of 5 each.
# Target: under 1 second.
#
# Usage: bench/next.sh [--quick]      (BENCH_RUNS=1000000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-1000000}
[[ "${1:-}" == "--quick" ]] && runs=100000
if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --release --quiet
  ARX_BIN=$PWD/target/release/arx
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
echo "## arx next over $runs runs, 100 candidates (journal ${size} MiB)"
echo
echo "| case | median wall (ms) | goal | result |"
echo "|---|---:|---:|---|"
echo "| cold (journal folded, no cache) | $cold | < 1000 | $([[ $cold -lt 1000 ]] && echo PASS || echo FAIL) |"
echo "| warm (cache kept by arx run) | $warm | < 1000 | $([[ $warm -lt 1000 ]] && echo PASS || echo FAIL) |"
