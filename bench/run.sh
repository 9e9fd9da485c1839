#!/usr/bin/env bash
# Overhead of `arx run` over running a command bare, for a command that
# prints 1 GiB to stdout. Compares, in one run:
#   bare:  cat LOG | cat > /dev/null        (a bare cat-to-/dev/null pipe)
#   arx:   arx run -- cat LOG > /dev/null   (pass-through, result scanning,
#                                            progress detection, tails)
# and reports median wall time, throughput, peak RSS and the ratio.
# Targets: arx throughput >= 80% of the bare pipe; arx peak RSS < 32 MiB.
#
# Usage: bench/run.sh [--quick]     (BENCH_RUN_MIB=1024 and BENCH_REPS=5 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${BENCH_RUN_MIB:-1024}
reps=${BENCH_REPS:-5}
if [[ "${1:-}" == "--quick" ]]; then mib=128; reps=3; fi

if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --release --quiet
  ARX_BIN=target/release/arx
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "bench: GNU time is needed for peak memory; installing the Debian package 'time'" >&2
  apt-get install -y -qq time >/dev/null 2>&1 || { echo "bench: cannot install GNU time" >&2; exit 2; }
fi

dir=target/bench
mkdir -p "$dir"
log="$dir/run-output-${mib}MiB.log"
if [[ ! -f "$log" ]]; then
  echo "bench: writing a ${mib} MiB training-style log to $log" >&2
  python3 - "$log" "$mib" <<'PY'
import random, sys
path, mib = sys.argv[1], int(sys.argv[2])
random.seed(1)
lines = []
for step in range(20000):
    lines.append("epoch %d step %d/50000 loss=%.4f lr=3.0e-04 grad_norm=%.2f tokens/s=%d\n"
                 % (step // 5000, step, random.uniform(0.2, 2.5), random.uniform(0.5, 2), random.randint(48000, 53000)))
    if step % 997 == 0:
        lines.append('__PROGRESS__ {"loss": %.4f, "step": %d}\n' % (random.uniform(0.2, 2.5), step))
block = "".join(lines).encode()
target = mib << 20
with open(path, "wb") as f:
    written = 0
    while written + len(block) < target - 100:
        f.write(block)
        written += len(block)
    tail = b'__RESULT__ {"acc": 0.83, "loss": 0.41}\n'
    f.write(b"x" * (target - written - len(tail) - 1) + b"\n" + tail)
PY
fi
cat "$log" > /dev/null  # warm the page cache

measure() {  # prints "seconds peak_kib" of one run of "$@" (stdout to /dev/null)
  local report="$dir/time.out"
  /usr/bin/time -o "$report" -f '%e %M' "$@" > /dev/null 2>/dev/null
  tail -n 1 "$report"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run_series() {  # name, command...
  local name=$1; shift
  local times=() mem=0
  measure "$@" > /dev/null  # warm-up
  for ((i = 0; i < reps; i++)); do
    read -r t m < <(measure "$@")
    times+=("$t")
    (( m > mem )) && mem=$m
  done
  local med
  med=$(printf '%s\n' "${times[@]}" | median)
  echo "$name $med $mem"
}

read -r _ bare_t bare_m < <(run_series bare sh -c "cat '$log' | cat")
read -r _ arx_t arx_m < <(run_series arx "$ARX_BIN" run --approve --no-journal --no-gates -- cat "$log")

python3 - "$mib" "$bare_t" "$bare_m" "$arx_t" "$arx_m" "$reps" <<'PY'
import sys
mib, bt, bm, at, am, reps = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
gib = mib / 1024
thr_b, thr_a = gib / bt, gib / at
ratio = thr_a / thr_b
print(f"## arx run overhead ({mib} MiB to stdout, median of {reps})\n")
print("| command | median wall (s) | throughput (GiB/s) | peak RSS (MiB) |")
print("|---|---:|---:|---:|")
print(f"| `cat LOG \\| cat > /dev/null` | {bt:.2f} | {thr_b:.2f} | {bm/1024:.1f} |")
print(f"| `arx run -- cat LOG > /dev/null` | {at:.2f} | {thr_a:.2f} | {am/1024:.1f} |")
print()
print("| target | measured | goal | result |")
print("|---|---:|---:|---|")
print(f"| arx throughput / bare pipe | {ratio*100:.0f}% | >= 80% | {'PASS' if ratio >= 0.8 else 'FAIL'} |")
print(f"| arx peak RSS | {am/1024:.1f} MiB | < 32 MiB | {'PASS' if am < 32*1024 else 'FAIL'} |")
PY
