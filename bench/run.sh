#!/usr/bin/env bash
# Overhead of `arx run` over the one pipe hop it replaces, for an
# experiment that prints 1 GiB to stdout (a training-style log with
# `__PROGRESS__` lines and a result at the end). Compares, in one run,
# interleaved (pipe, arx, arx --prune, pipe, ...):
#   pipe:   sh -c "$gen" | cat > /dev/null
#   arx:    arx run -- sh -c "$gen" > /dev/null
#   prune:  arx run --metric loss --cmp '<=' --target 0.1 --prune median -- sh -c "$gen" > /dev/null
# with gen = "cat LOG" (the log in the page cache). The pruned variant has
# five completed peer runs in its journal, so the median rule is computed
# at every progress line (their losses are worse: it never prunes here).
# Reports median wall time, throughput and the ratio to the pipe hop, and
# peak RSS (GNU time, separate runs).
# Targets: arx and arx --prune throughput >= 90% of the pipe hop; peak RSS
# the same with and without --prune (and under 32 MiB).
#
# Usage: bench/run.sh [--quick]     (BENCH_RUN_MIB=1024, BENCH_REPS=11 by default)
#        ARX_BIN=path/to/arx bench/run.sh   (an arx built elsewhere)
#        ARX_BASE_BIN=path/to/older/arx bench/run.sh   (also time an older arx, plain, interleaved)
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${BENCH_RUN_MIB:-1024}
reps=${BENCH_REPS:-11}
if [[ "${1:-}" == "--quick" ]]; then mib=128; reps=5; fi

if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --release --quiet --bin arx
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
gen="cat '$log'"

# State directories: one empty, one with five completed peers whose loss
# curves (5.0 at every step) are worse than anything the log reports.
plain_state="$dir/run-state-plain"
prune_state="$dir/run-state-prune"
rm -rf "$plain_state" "$prune_state"
peer='awk '\''BEGIN { for (s = 0; s <= 20000; s += 100) printf "__PROGRESS__ {\"step\": %d, \"loss\": 5.0}\n", s; print "__RESULT__ {\"loss\": 5.0}" }'\'''
for _ in 1 2 3 4 5; do
  ARX_STATE_DIR="$prune_state" "$ARX_BIN" run --no-gates -q --metric loss --cmp '<=' --target 0.1 \
    --shell -- "$peer" || true
done

pipe_cmd=(sh -c "sh -c \"$gen\" | cat")
arx_cmd=(env ARX_STATE_DIR="$plain_state" "$ARX_BIN" run --no-gates -- sh -c "$gen")
prune_cmd=(env ARX_STATE_DIR="$prune_state" "$ARX_BIN" run --no-gates --metric loss --cmp '<=' --target 0.1
           --prune median -- sh -c "$gen")

wall() {  # seconds of one run of "$@", stdout to /dev/null
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" > /dev/null 2>/dev/null || true
  t1=$EPOCHREALTIME
  echo "$t0 $t1" | awk '{printf "%.4f\n", $2 - $1}'
}
peak() {  # peak RSS (KiB) of one run of "$@"
  local report="$dir/time.out"
  /usr/bin/time -o "$report" -f '%M' "$@" > /dev/null 2>/dev/null || true
  tail -n 1 "$report"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

load_before=$(cut -d' ' -f1 /proc/loadavg)
# Warm-up, then interleaved timed runs.
wall "${pipe_cmd[@]}" > /dev/null; wall "${arx_cmd[@]}" > /dev/null; wall "${prune_cmd[@]}" > /dev/null
base_state="$dir/run-state-base"
rm -rf "$base_state"
base_cmd=(env ARX_STATE_DIR="$base_state" "${ARX_BASE_BIN:-true}" run --no-gates -- sh -c "$gen")
pipe_t=(); arx_t=(); prune_t=(); base_t=()
for ((i = 0; i < reps; i++)); do
  pipe_t+=("$(wall "${pipe_cmd[@]}")")
  arx_t+=("$(wall "${arx_cmd[@]}")")
  prune_t+=("$(wall "${prune_cmd[@]}")")
  if [[ -n "${ARX_BASE_BIN:-}" ]]; then base_t+=("$(wall "${base_cmd[@]}")"); fi
done
pipe_m=0; arx_m=0; prune_m=0; base_m=0
for _ in 1 2 3; do
  m=$(peak "${arx_cmd[@]}"); (( m > arx_m )) && arx_m=$m
  m=$(peak "${prune_cmd[@]}"); (( m > prune_m )) && prune_m=$m
  m=$(peak cat "$log"); (( m > pipe_m )) && pipe_m=$m
  if [[ -n "${ARX_BASE_BIN:-}" ]]; then m=$(peak "${base_cmd[@]}"); (( m > base_m )) && base_m=$m; fi
done
load_after=$(cut -d' ' -f1 /proc/loadavg)
# The pruned variant really followed its progress and was not pruned.
last=$(tail -n 1 "$prune_state/journal.jsonl")
case "$last" in
  *'"status":"pruned"'*) echo "bench: the --prune run was pruned; the figures would be wrong" >&2; exit 2;;
  *'"progress":'*) ;;
  *) echo "bench: the --prune run kept no progress curve" >&2; exit 2;;
esac

pm=$(printf '%s\n' "${pipe_t[@]}" | median)
am=$(printf '%s\n' "${arx_t[@]}" | median)
rm_=$(printf '%s\n' "${prune_t[@]}" | median)
bm=0
if [[ -n "${ARX_BASE_BIN:-}" ]]; then bm=$(printf '%s\n' "${base_t[@]}" | median); fi
python3 - "$mib" "$reps" "$pm" "$am" "$rm_" "$pipe_m" "$arx_m" "$prune_m" "$load_before" "$load_after" "$bm" "$base_m" <<'PY'
import sys
mib, reps = int(sys.argv[1]), int(sys.argv[2])
pt, at, rt = map(float, sys.argv[3:6])
pm, am, rm = map(int, sys.argv[6:9])
lb, la = sys.argv[9], sys.argv[10]
bt, bmem = float(sys.argv[11]), int(sys.argv[12])
gib = mib / 1024
print(f"## arx run overhead ({mib} MiB to stdout, medians of {reps} interleaved runs; load {lb} before, {la} after)\n")
print("| command | median wall (s) | throughput (GiB/s) | vs the pipe hop | peak RSS (MiB) |")
print("|---|---:|---:|---:|---:|")
print(f"| `sh -c \"$gen\" \\| cat > /dev/null` | {pt:.3f} | {gib/pt:.2f} | 1.00x | {pm/1024:.1f} (cat) |")
print(f"| `arx run -- sh -c \"$gen\" > /dev/null` | {at:.3f} | {gib/at:.2f} | {pt/at:.2f}x | {am/1024:.1f} |")
print(f"| `arx run --prune median ... -- sh -c \"$gen\"` | {rt:.3f} | {gib/rt:.2f} | {pt/rt:.2f}x | {rm/1024:.1f} |")
if bt > 0:
    print(f"| `$ARX_BASE_BIN run -- sh -c \"$gen\"` (older arx) | {bt:.3f} | {gib/bt:.2f} | {pt/bt:.2f}x | {bmem/1024:.1f} |")
print()
print("| target | measured | goal | result |")
print("|---|---:|---:|---|")
for name, t in (("arx", at), ("arx --prune median", rt)):
    r = pt / t
    print(f"| {name} throughput / pipe hop | {r:.2f}x | >= 0.90x | {'PASS' if r >= 0.9 else 'FAIL'} |")
print(f"| peak RSS, --prune vs without | {rm/1024:.1f} vs {am/1024:.1f} MiB | same (within 1 MiB) | {'PASS' if abs(rm - am) <= 1024 else 'FAIL'} |")
if bt > 0:
    print(f"| peak RSS vs the older arx | {am/1024:.1f} vs {bmem/1024:.1f} MiB | same (within 1 MiB) | {'PASS' if abs(am - bmem) <= 1024 else 'FAIL'} |")
print(f"| arx peak RSS | {max(am, rm)/1024:.1f} MiB | < 32 MiB | {'PASS' if max(am, rm) < 32*1024 else 'FAIL'} |")
PY
