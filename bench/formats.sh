#!/usr/bin/env bash
# What reading an experiment's output in another result format costs, next
# to the default `__RESULT__` line, in one run: the same training-style log
# (BENCH_MIB MiB of `step ... loss=...` lines) ending in each format's
# result, read by
#   parse: arx parse --result-format F LOG           (a file, memory-mapped)
#   run:   arx run --result-format F -- cat LOG       (a pipe: the runner's reader)
# for F = arx, pi (a `METRIC` line every 1000 lines and at the end), summary
# (a `---` block at the end) and pattern (a line matched by a regular
# expression with a named group), interleaved, medians of BENCH_REPS. Also
# a log that is one 64 MiB line without a newline, read as pi and summary:
# memory stays bounded whatever the lines.
# Reports median wall time, throughput, the ratio to the arx format and
# peak RSS (GNU time, separate runs). Targets: every format's peak RSS
# under 32 MiB; `arx run` of every format at least 0.9x the arx format's
# throughput (the reader keeps up with the experiment).
#
# Usage: bench/formats.sh [--quick]   (BENCH_MIB=256, BENCH_REPS=7 by default;
#                                      --quick: 32 MiB, 3 runs)
#        ARX_BIN=path/to/arx bench/formats.sh   (an arx built elsewhere)
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${BENCH_MIB:-256}
reps=${BENCH_REPS:-7}
if [[ "${1:-}" == "--quick" ]]; then mib=32; reps=3; fi

if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --profile dist --quiet --bin arx
  ARX_BIN=target/dist/arx
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "bench: GNU time is needed for peak memory; installing the Debian package 'time'" >&2
  apt-get install -y -qq time >/dev/null 2>&1 || { echo "bench: cannot install GNU time" >&2; exit 2; }
fi

dir=target/bench/formats
mkdir -p "$dir"
pattern='bits per byte (?P<val_bpb>[0-9.]+)'
echo "bench: writing ${mib} MiB logs to $dir" >&2
python3 - "$dir" "$mib" <<'PY'
import random, sys
out, mib = sys.argv[1], int(sys.argv[2])
random.seed(1)
target = mib << 20
def write(name, every, tail):
    lines = []
    for step in range(20000):
        loss = random.uniform(0.2, 2.5)
        lines.append("step %05d (%.1f%%) | loss: %.4f | lrm: 1.00 | dt: 312ms | tok/sec: %d\n"
                     % (step, step / 200, loss, random.randint(48000, 53000)))
        if every and step % every == 0:
            lines.append(every_line(loss))
    block = "".join(lines).encode()
    with open("%s/%s.log" % (out, name), "wb") as f:
        written = 0
        while written + len(block) < target - len(tail):
            f.write(block)
            written += len(block)
        f.write(tail)
every_line = lambda loss: "METRIC val_bpb=%.4f\n" % loss
write("arx", 0, b'__RESULT__ {"val_bpb": 0.9979, "peak_vram_mb": 45060.2}\n')
write("pi", 1000, b"METRIC val_bpb=0.9979 peak_vram_mb=45060.2\n")
write("summary", 0, b"---\nval_bpb:          0.997900\npeak_vram_mb:     45060.2\n")
write("pattern", 0, b"eval | bits per byte 0.9979 | done\n")
with open("%s/long.log" % out, "wb") as f:
    f.write(b"METRIC val_bpb=1 " + b"x" * (64 << 20))
PY
for f in arx pi summary pattern long; do cat "$dir/$f.log" > /dev/null; done

args_of() {  # args_of FORMAT: the flags that pick it
  case $1 in
    pattern) printf '%s\n' --result-pattern "$pattern" ;;
    *) printf '%s\n' --result-format "$1" ;;
  esac
}
cmd_of() {  # cmd_of WAY FORMAT LOG: the command line, one word per line
  local way=$1 format=$2 log=$3
  if [[ $way == parse ]]; then
    printf '%s\n' "$ARX_BIN" parse; args_of "$format"; printf '%s\n' "$log"
  else
    printf '%s\n' "$ARX_BIN" run --approve --no-journal; args_of "$format"; printf '%s\n' -- cat "$log"
  fi
}
check() {  # the value each format finds must be the result at the end
  local way=$1 format=$2 log=$3 got
  mapfile -t cmd < <(cmd_of "$way" "$format" "$log")
  if [[ $way == parse ]]; then got=$("${cmd[@]}" 2>/dev/null || true)
  else got=$(ARX_STATE_DIR="$dir/state" "${cmd[0]}" --json "${cmd[@]:1}" 2>/dev/null || true); fi
  [[ $got == *'0.9979'* ]] || { echo "bench: $way $format found: $got" >&2; exit 3; }
}
time_one() {  # seconds of one run
  local s e
  mapfile -t cmd < <(cmd_of "$1" "$2" "$3")
  s=$(date +%s.%N)
  ARX_STATE_DIR="$dir/state" "${cmd[@]}" > /dev/null 2>&1 || true
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
rss_of() {  # peak RSS in MiB of one run
  mapfile -t cmd < <(cmd_of "$1" "$2" "$3")
  ARX_STATE_DIR="$dir/state" /usr/bin/time -f '%M' -o "$dir/rss" "${cmd[@]}" > /dev/null 2>&1 || true
  echo "scale=1; $(tail -1 "$dir/rss") / 1024" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

formats="arx pi summary pattern"
declare -A times
for way in parse run; do
  for f in $formats; do check "$way" "$f" "$dir/$f.log"; done
done
for ((i = 0; i < reps; i++)); do
  for way in parse run; do
    for f in $formats; do
      times[$way.$f]+="$(time_one "$way" "$f" "$dir/$f.log") "
    done
  done
done

echo "| way | format | MiB | median (s) | MiB/s | / arx format | peak RSS (MiB) |"
echo "|---|---|---:|---:|---:|---:|---:|"
fails=0
for way in parse run; do
  base=$(tr ' ' '\n' <<< "${times[$way.arx]}" | grep . | median)
  for f in $formats; do
    t=$(tr ' ' '\n' <<< "${times[$way.$f]}" | grep . | median)
    rss=$(rss_of "$way" "$f" "$dir/$f.log")
    ratio=$(echo "scale=2; $base / $t" | bc -l)
    printf '| %s | %s | %d | %.3f | %.0f | %.2fx | %s |\n' "$way" "$f" "$mib" "$t" \
      "$(echo "$mib / $t" | bc -l)" "$ratio" "$rss"
    if (( $(echo "$rss >= 32" | bc -l) )); then fails=$((fails + 1)); fi
    if [[ $way == run ]] && (( $(echo "$ratio < 0.9" | bc -l) )); then fails=$((fails + 1)); fi
  done
done
for f in pi summary; do
  printf '| parse, one 64 MiB line | %s | 64 | | | | %s |\n' "$f" "$(rss_of parse "$f" "$dir/long.log")"
  printf '| run, one 64 MiB line | %s | 64 | | | | %s |\n' "$f" "$(rss_of run "$f" "$dir/long.log")"
done
echo
if ((fails == 0)); then echo "targets: PASS"; else echo "targets: $fails missed"; fi
