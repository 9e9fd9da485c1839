#!/usr/bin/env bash
# `arx next` over the backlog: a journal of 1,000,000 runs (written by
# examples/report_journal.rs as arx writes records, its tries naming 12
# families and 5,000 ideas) and a backlog of 1,000 open ideas. Three cases,
# each a whole process timed from outside with /usr/bin/time (wall
# seconds, peak RSS), the median of the repetitions reported, side by side
# in one run:
#   warm      the steering cache (.arx/steer.json) covers the journal;
#   extended  one more try journaled since: the cache is extended by it;
#   cold      the cache removed: the whole journal folded (after a merge).
# Then an imported night of BENCH_IMPORTED tries (default 1,000, each with
# its own description, as `arx journal import` writes them) is appended:
#   imported  warm again, the families of the imported descriptions cached
#             (.arx/steer-families.json) with the fold;
#   resorted  an idea added since: each imported description given the
#             family of the most similar of the ideas again.
# Targets: warm (and imported) under 0.1 s and 32 MiB peak RSS.
#
# The journal is written into a temporary directory, removed at the end.
#
# Usage: bench/next_ideas.sh [--quick]   (BENCH_NEXT_RUNS=1000000, BENCH_REPS=5)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  runs=${BENCH_NEXT_RUNS:-100000}
  reps=${BENCH_REPS:-3}
else
  runs=${BENCH_NEXT_RUNS:-1000000}
  reps=${BENCH_REPS:-5}
fi
ideas=${BENCH_IDEAS:-1000}
imported=${BENCH_IMPORTED:-1000}

if [[ -z "${ARX_BIN:-}" || -z "${ARX_GEN:-}" ]]; then
  cargo build --profile dist --quiet --example report_journal
  cargo build --profile dist --quiet --bin arx
fi
gen=$(realpath "${ARX_GEN:-target/dist/examples/report_journal}")
arx=$(realpath "${ARX_BIN:-target/dist/arx}")

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-next-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export ARX_STATE_DIR="$dir/.arx" # the benchmark's own state
mkdir -p .arx
"$gen" "$runs" .arx/journal.jsonl 5eb1c0d2a1b2c3d4 "" 12
python3 - "$ideas" <<'PY'
import json, sys
n = int(sys.argv[1])
with open(".arx/ideas.jsonl", "w") as f:
    for k in range(n):
        f.write(json.dumps({
            "type": "add", "id": "i-%010x" % (0xff00000000 + k),
            "at": "2026-11-21T09:00:00Z", "family": "f%02d" % (k % 14),
            "statement": "idea %d: set the warmup to %d steps and the decay to %.2f" % (k, 100 + k, 0.5 + k / 10000),
        }) + "\n")
PY
bytes=$(stat -c %s .arx/journal.jsonl)
echo "journal: $runs runs, $((bytes / 1000000)) MB; backlog: $ideas open ideas in 14 families (2 never tried)"
sync

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# "seconds KiB" of one run of a command (its output discarded).
measure() {
  /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > /dev/null 2>&1 || true
  tail -n 1 "$dir/time.txt"
}
# The last try record, appended once more as a new try.
one_more() {
  tail -n 2 .arx/journal.jsonl | grep '"ratchet"' | tail -n 1 \
    | sed 's/"run_id":"[^"]*"/"run_id":"bench-'"$1"'"/' >> .arx/journal.jsonl
}

"$arx" --json next > "$dir/first.json" # builds the cache
declare -A secs rss
for ((i = 0; i < reps; i++)); do
  read -r s k <<< "$(measure "$arx" next)"
  secs[warm]+="$s " rss[warm]+="$k "
  one_more "$i"
  read -r s k <<< "$(measure "$arx" next)"
  secs[extended]+="$s " rss[extended]+="$k "
  rm -f .arx/steer.json
  read -r s k <<< "$(measure "$arx" next)"
  secs[cold]+="$s " rss[cold]+="$k "
done
# An imported night: karpathy-style rows, a keep every fifth.
python3 - "$imported" <<'PY' >> .arx/journal.jsonl
import json, sys
n = int(sys.argv[1])
for k in range(n):
    status = "keep" if k % 5 == 0 else "discard"
    print(json.dumps({
        "run_id": "imp-%d" % k, "started_at": "2026-11-20T09:00:00Z",
        "ended_at": "2026-11-20T09:00:00Z", "metrics": {"val_bpb": 1.0 - k / 1e6},
        "ratchet": {"segment": "import:karpathy:val_bpb", "status": status,
                    "description": "night %d: warmup %d steps, decay %.3f" % (k, 50 + k, 0.4 + k / 5000),
                    "metric": "val_bpb", "direction": "minimize", "rule": "imported",
                    "kept": "%040x" % (k // 5), "commit": "%040x" % (k // 5 + 1) if status == "keep" else None,
                    "imported": {"from": "karpathy", "line": k + 2}},
    }, separators=(",", ":")))
PY
"$arx" next > /dev/null # extends the cache by the night
for ((i = 0; i < reps; i++)); do
  read -r s k <<< "$(measure "$arx" next)"
  secs[imported]+="$s " rss[imported]+="$k "
  printf '{"type":"add","id":"i-%010x","at":"2026-11-21T10:00:00Z","family":"f%02d","statement":"added %d: clip the gradient at %d"}\n' \
    $((0xfe00000000 + i)) $((i % 14)) "$i" $((i + 1)) >> .arx/ideas.jsonl
  read -r s k <<< "$(measure "$arx" next)"
  secs[resorted]+="$s " rss[resorted]+="$k "
done
"$arx" --json next > "$dir/last.json"
python3 - "$dir/last.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"chosen {j['idea']} ({j['family']}), {len(j['ideas'])} ideas ranked over "
      f"{j['segment_tries']} tries of the segment and {j['imported_tries']} imported, "
      f"fold {j['fold']}")
PY

med() { tr ' ' '\n' <<< "$1" | grep . | median; }
ws=$(med "${secs[warm]}")
wk=$(med "${rss[warm]}")
printf '%-9s %9s %10s %12s %12s\n' case seconds "peak MiB" "time / cold" "memory / cold"
cs=$(med "${secs[cold]}")
ck=$(med "${rss[cold]}")
for c in warm extended cold imported resorted; do
  s=$(med "${secs[$c]}")
  k=$(med "${rss[$c]}")
  printf '%-9s %9.2f %10.1f %12.3f %12.3f\n' "$c" "$s" "$(echo "$k / 1024" | bc -l)" \
    "$(echo "$s / ($cs + 0.005)" | bc -l)" "$(echo "$k / $ck" | bc -l)"
done
is=$(med "${secs[imported]}")
ik=$(med "${rss[imported]}")
pass=FAIL
if (($(echo "$ws < 0.1 && $wk / 1024 < 32 && $is < 0.1 && $ik / 1024 < 32" | bc -l))); then
  pass=PASS
fi
echo "target: warm and imported under 0.1 s and 32 MiB: $pass"
