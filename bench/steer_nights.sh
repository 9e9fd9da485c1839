#!/usr/bin/env bash
# Steering by family replayed on real nights: every results.tsv under
# bench/nights/ (or the directory given) in its own order, through
# examples/steer_nights.rs. Prints the per-night and pooled AUCs beside the
# running keep rate and a random order, the repeat guard's count, and the
# PASS/FAIL lines; the report is also saved to target/bench/steer-nights.md.
#
# Usage: bench/steer_nights.sh [DIR] [--seed N]
#
# Exit status: 0 when every target is met, 1 when one is missed (with
# BENCH_STRICT=1; otherwise 0), 2 on bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/bench
cargo build --release --example steer_nights >&2
status=0
target/release/examples/steer_nights "$@" | tee target/bench/steer-nights.md || status=$?
if [[ $status -eq 1 && "${BENCH_STRICT:-0}" != "1" ]]; then
  echo "bench: a target was missed (FAIL above); BENCH_STRICT=1 makes that exit 1" >&2
  status=0
fi
exit $status
