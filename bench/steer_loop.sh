#!/usr/bin/env bash
# A real loop through the CLI: a scripted agent works a small model
# (logistic regression by SGD, Python's standard library only) from a fixed
# backlog of 20 ideas in 5 families with `arx idea add`, `arx next` and
# `arx try --idea`, and the same agent picking an open idea uniformly at
# random; prints keeps per 100 runs of each, side by side
# (bench/steer_loop.py does the work; its docstring has the details).
#
# Usage: bench/steer_loop.sh [RUNS [LOOPS]]   (100 runs per loop, 5 loops)
#
# Environment: ARX_BIN (the arx binary; default: a release build),
# BENCH_PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --release >&2
  ARX_BIN=$PWD/target/release/arx
fi
if ! "$ARX_BIN" idea --help >/dev/null 2>&1; then
  echo "bench: $ARX_BIN has no \`arx idea\`; build arx with the idea backlog" >&2
  exit 2
fi
mkdir -p target/bench
"${BENCH_PYTHON:-python3}" bench/steer_loop.py --arx "$ARX_BIN" --runs "${1:-100}" --loops "${2:-5}" |
  tee target/bench/steer-loop.md
