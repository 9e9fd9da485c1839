#!/usr/bin/env bash
# Overhead of `arx run` over the one pipe hop it replaces, for an
# experiment that prints a training-style log to stdout (`__PROGRESS__`
# lines and a result at the end), written three ways:
#   cat:    cat LOG                         128 KiB writes (the log in the page cache)
#   8k:     dd if=LOG bs=8k                 8 KiB writes, as Python's default stdout buffer
#   lines:  python3 -u: one write per line  (a smaller log: BENCH_LINES_MIB)
# For each writer, compares in one run, interleaved (pipe, arx, arx --prune, pipe, ...):
#   pipe:   sh -c "$gen | cat" > /dev/null
#   arx:    arx run -- sh -c "$gen" > /dev/null
#   prune:  arx run --metric loss --cmp '<=' --target 0.1 --prune median -- sh -c "$gen" > /dev/null
# The pruned variant has five completed peer runs in its journal, so the
# median rule is computed at every progress line (their losses are worse:
# it never prunes here). Reports median wall time, throughput and the ratio
# to the pipe hop, and peak RSS (GNU time, separate runs).
# Targets: arx and arx --prune throughput >= 90% of the pipe hop for every
# writer; peak RSS the same with and without --prune (and under 32 MiB).
#
# Usage: bench/run.sh [--quick]     (BENCH_RUN_MIB=1024, BENCH_LINES_MIB=64, BENCH_REPS=11 by default)
#        BENCH_WRITERS="8k lines" bench/run.sh   (a subset of the writers)
#        ARX_BIN=path/to/arx bench/run.sh   (an arx built elsewhere)
#        ARX_BASE_BIN=path/to/older/arx bench/run.sh   (also time an older arx, plain, interleaved)
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${BENCH_RUN_MIB:-1024}
lines_mib=${BENCH_LINES_MIB:-64}
reps=${BENCH_REPS:-11}
writers=${BENCH_WRITERS:-cat 8k lines}
if [[ "${1:-}" == "--quick" ]]; then mib=128; lines_mib=16; reps=5; fi

if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --profile dist --quiet --bin arx
  ARX_BIN=target/dist/arx
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "bench: GNU time is needed for peak memory; installing the Debian package 'time'" >&2
  apt-get install -y -qq time >/dev/null 2>&1 || { echo "bench: cannot install GNU time" >&2; exit 2; }
fi

dir=target/bench
mkdir -p "$dir"
write_log() {  # write_log PATH MIB: a training-style log of MIB MiB
  local log=$1 mib=$2
  [[ -f "$log" ]] && return 0
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
}
log="$dir/run-output-${mib}MiB.log"
lines_log="$dir/run-output-${lines_mib}MiB.log"
write_log "$log" "$mib"
write_log "$lines_log" "$lines_mib"
# A line-at-a-time writer: `print` under `python -u`, one write(2) per line.
line_writer="$dir/line_writer.py"
cat > "$line_writer" <<'PY'
import sys
with open(sys.argv[1]) as f:
    for line in f:
        print(line, end="")
PY
cat "$log" "$lines_log" > /dev/null  # warm the page cache

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
rows=()
for writer in $writers; do
  case "$writer" in
    cat) gen="cat '$log'"; size=$mib;;
    8k) gen="dd if='$log' bs=8k status=none"; size=$mib;;
    lines) gen="python3 -u '$line_writer' '$lines_log'"; size=$lines_mib;;
    *) echo "bench: unknown writer $writer (cat, 8k, lines)" >&2; exit 2;;
  esac
  pipe_cmd=(sh -c "$gen | cat")
  arx_cmd=(env ARX_STATE_DIR="$plain_state" "$ARX_BIN" run --no-gates -- sh -c "$gen")
  prune_cmd=(env ARX_STATE_DIR="$prune_state" "$ARX_BIN" run --no-gates --metric loss --cmp '<=' --target 0.1
             --prune median -- sh -c "$gen")
  base_cmd=(env ARX_STATE_DIR="$dir/run-state-base" "${ARX_BASE_BIN:-true}" run --no-gates -- sh -c "$gen")
  echo "bench: $writer writer, $reps interleaved runs each" >&2
  # Warm-up, then interleaved timed runs.
  wall "${pipe_cmd[@]}" > /dev/null; wall "${arx_cmd[@]}" > /dev/null; wall "${prune_cmd[@]}" > /dev/null
  pipe_t=(); arx_t=(); prune_t=(); base_t=()
  for ((i = 0; i < reps; i++)); do
    pipe_t+=("$(wall "${pipe_cmd[@]}")")
    arx_t+=("$(wall "${arx_cmd[@]}")")
    prune_t+=("$(wall "${prune_cmd[@]}")")
    if [[ -n "${ARX_BASE_BIN:-}" ]]; then base_t+=("$(wall "${base_cmd[@]}")"); fi
  done
  arx_m=0; prune_m=0; base_m=0
  for _ in 1 2 3; do
    m=$(peak "${arx_cmd[@]}"); (( m > arx_m )) && arx_m=$m
    m=$(peak "${prune_cmd[@]}"); (( m > prune_m )) && prune_m=$m
    if [[ -n "${ARX_BASE_BIN:-}" ]]; then m=$(peak "${base_cmd[@]}"); (( m > base_m )) && base_m=$m; fi
  done
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
  rows+=("$writer $size $pm $am $rm_ $arx_m $prune_m $bm $base_m")
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

printf '%s\n' "${rows[@]}" > "$dir/run-rows.txt"
python3 - "$reps" "$load_before" "$load_after" "$dir/run-rows.txt" <<'PY'
import sys
reps, lb, la = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = [l.split() for l in open(sys.argv[4]) if l.strip()]
base = any(float(r[7]) > 0 for r in rows)
print(f"## arx run overhead (medians of {reps} interleaved runs per writer; load {lb} before, {la} after)\n")
head = "| writer | MiB | pipe hop (s) | arx (s) | arx / pipe | arx --prune (s) | --prune / pipe |"
sep = "|---|---:|---:|---:|---:|---:|---:|"
if base:
    head += " older arx (s) | older / pipe |"
    sep += "---:|---:|"
print(head + " peak RSS arx / --prune (MiB) |")
print(sep + "---:|")
checks = []
for w, size, pt, at, rt, am, rm, bt, bmem in rows:
    pt, at, rt, bt = map(float, (pt, at, rt, bt))
    am, rm, bmem = int(am), int(rm), int(bmem)
    line = f"| {w} | {size} | {pt:.3f} | {at:.3f} | {pt/at:.2f}x | {rt:.3f} | {pt/rt:.2f}x |"
    if base:
        line += f" {bt:.3f} | {pt/bt:.2f}x |" if bt > 0 else " - | - |"
    print(line + f" {am/1024:.1f} / {rm/1024:.1f} |")
    checks.append((f"{w}: arx throughput / pipe hop", f"{pt/at:.2f}x", ">= 0.90x", pt / at >= 0.9))
    checks.append((f"{w}: arx --prune throughput / pipe hop", f"{pt/rt:.2f}x", ">= 0.90x", pt / rt >= 0.9))
    checks.append((f"{w}: peak RSS, --prune vs without", f"{rm/1024:.1f} vs {am/1024:.1f} MiB", "within 1 MiB", abs(rm - am) <= 1024))
    checks.append((f"{w}: arx peak RSS", f"{max(am, rm)/1024:.1f} MiB", "< 32 MiB", max(am, rm) < 32 * 1024))
    if bt > 0:
        checks.append((f"{w}: peak RSS vs the older arx", f"{am/1024:.1f} vs {bmem/1024:.1f} MiB", "within 1 MiB", abs(am - bmem) <= 1024))
print()
print("| target | measured | goal | result |")
print("|---|---:|---:|---|")
for name, got, goal, ok in checks:
    print(f"| {name} | {got} | {goal} | {'PASS' if ok else 'FAIL'} |")
PY
