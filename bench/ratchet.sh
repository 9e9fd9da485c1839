#!/usr/bin/env bash
# The ratchet's git operations on a repository of 100,000 tracked files,
# beside the git commands doing the same job:
#   keep:    git add -A && git commit          vs  RatchetRepo::keep
#   discard: git stash -u && git stash drop    vs  RatchetRepo::snapshot + restore_to
# and a whole iteration's git work (the candidate read before the
# experiment, then keep, or discard in one call) beside the same git pairs.
# Each run starts from the base commit with the same candidate: two tracked
# files modified and one untracked file added. Runs of the two sides
# alternate (git, arx, git, arx, ...) so that drift hits both alike; every
# run is a whole process, timed from outside. Reports the median wall time
# of each side and their ratio. Target: arx no slower (ratio <= 1.0).
#
# Usage: bench/ratchet.sh [--quick]   (BENCH_RATCHET_FILES=100000, BENCH_REPS=11)
# The repository is generated in a temporary directory (outside the
# project) and removed at the end; set BENCH_RATCHET_KEEP=1 to keep it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  files=${BENCH_RATCHET_FILES:-10000}
  reps=${BENCH_REPS:-5}
else
  files=${BENCH_RATCHET_FILES:-100000}
  reps=${BENCH_REPS:-11}
fi
command -v git > /dev/null || { echo "bench: git is needed" >&2; exit 2; }

cargo build --profile dist --quiet --example ratchet_git_bench
cargo build --profile dist --quiet --bin arx
bench_bin=$(realpath target/dist/examples/ratchet_git_bench)
arx_bin=$(realpath target/dist/arx)

dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-ratchet-bench.XXXXXX")
repo=$dir/repo
cleanup() {
  if [[ -n "${BENCH_RATCHET_KEEP:-}" ]]; then
    echo "bench: the repository stays in $repo" >&2
  else
    rm -rf "$dir"
  fi
}
trap cleanup EXIT
g() { git -C "$repo" "$@"; }

echo "bench: generating a repository with $files tracked files in $repo" >&2
mkdir -p "$repo"
g init -q -b main
g config user.name bench
g config user.email bench@localhost
g config gc.auto 0            # no background packing during timed commands
g config maintenance.auto false
g config commit.gpgsign false
g config core.hooksPath /dev/null
# 100 files per directory, a few lines each.
(cd "$repo" && awk -v n="$files" 'BEGIN {
    for (i = 0; i < n; i++) {
      d = sprintf("src/d%04d", int(i / 100));
      if (i % 100 == 0) system("mkdir -p " d);
      f = sprintf("%s/f%06d.txt", d, i);
      printf "file %d\nline two of %d\nline three\n", i, i > f;
      close(f);
    }
  }')
printf '# bench repository\n' > "$repo/README.md"
printf '.arx/\n' > "$repo/.gitignore"   # arx's state, as arx init leaves it
# The whole command: an experiment that costs nothing (it prints the metric
# kept in score.txt), single-run decisions (--rule strict).
cat > "$repo/arx.toml" <<'TOML'
[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "cat score.txt"
baseline_repeat = 1
rule = "strict"
TOML
printf '__RESULT__ {"m": 1.0}\n' > "$repo/score.txt"
g add -A
g commit -q -m "base: $files files"
g gc -q  # packed, as in a repository that has lived a while
base=$(g rev-parse HEAD)
mkdir -p "$repo/.arx"
printf '{"run": 0}\n' > "$repo/.arx/journal.jsonl"
tracked=$(g ls-files | wc -l)
last=$(printf 'src/d%04d/f%06d.txt' $(((files - 1) / 100)) $((files - 1)))

run=0
candidate() {  # the same three changes each time (contents vary by run)
  run=$((run + 1))
  printf 'file 0\nline two, changed in run %d\nline three\n' "$run" > "$repo/src/d0000/f000000.txt"
  printf 'changed in run %d\n' "$run" >> "$repo/$last"
  mkdir -p "$repo/notes"
  printf 'new in run %d\n' "$run" > "$repo/notes/new.md"
}
back_to_base() {  # untimed: the branch and tree at the base commit, clean
  g reset -q --hard "$base"
  g clean -fdq
  g stash clear
  g for-each-ref --format='%(refname)' refs/arx | xargs -r -n1 git -C "$repo" update-ref -d
}
check() {  # side, expected commits on top of base
  if [[ $(g rev-list --count "$base"..HEAD) != "$2" || -n $(g status --porcelain) ]]; then
    echo "bench: $1 did not leave $2 commit(s) on the base with a clean tree" >&2
    g status --short >&2
    exit 3
  fi
}

elapsed=0
timed() {  # command...; sets $elapsed (seconds)
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" > /dev/null
  t1=$EPOCHREALTIME
  elapsed=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f", b - a}')
}
git_keep() { (cd "$repo" && git add -A && git commit -q -m "Benchmark keep"); }
git_discard() { (cd "$repo" && git stash push -u -q && git stash drop -q); }
arx_keep() { "$bench_bin" "$repo" keep; }
arx_discard() { "$bench_bin" "$repo" discard --kept "$base" --ref "refs/arx/discarded/bench-$run"; }
arx_try_keep() { "$bench_bin" "$repo" try-keep --kept "$base"; }
arx_try_discard() { "$bench_bin" "$repo" try-discard --kept "$base" --ref "refs/arx/discarded/bench-$run"; }

# Warm-up (page cache, index), and the two keeps must make the same tree;
# the arx discard must leave the candidate under its ref.
back_to_base; candidate; git_keep; check "git keep" 1
git_tree=$(g rev-parse 'HEAD^{tree}')
back_to_base; run=$((run - 1)); candidate; arx_keep > /dev/null; check "arx keep" 1
arx_tree=$(g rev-parse 'HEAD^{tree}')
if [[ "$arx_tree" != "$git_tree" ]]; then
  echo "bench: arx and git kept different trees ($arx_tree vs $git_tree)" >&2
  exit 4
fi
back_to_base; candidate; git_discard; check "git discard" 0
back_to_base; candidate; arx_discard > /dev/null; check "arx discard" 0
if [[ $(g show "refs/arx/discarded/bench-$run:notes/new.md") != "new in run $run" ]]; then
  echo "bench: the discarded candidate is not under its ref" >&2
  exit 4
fi

# arx try needs the segment's baseline: measured once, its state saved and
# put back before each timed try (untimed).
(cd "$repo" && rm -rf .arx && "$arx_bin" --quiet try > /dev/null) || {
  echo "bench: arx try could not measure the baseline" >&2
  exit 4
}
state_saved=$dir/state
cp -a "$repo/.arx" "$state_saved"
with_state() { rm -rf "$repo/.arx"; cp -a "$state_saved" "$repo/.arx"; }
better() { candidate; printf '__RESULT__ {"m": 0.5}\n' > "$repo/score.txt"; }
worse() { candidate; printf '__RESULT__ {"m": 2.0}\n' > "$repo/score.txt"; }
experiment() { (cd "$repo" && cat score.txt > /dev/null); }
git_cmd_keep() { experiment && git_keep; }
git_cmd_discard() { experiment && git_discard; }
arx_cmd() { (cd "$repo" && "$arx_bin" --quiet try -m bench); }
arx_cmd_discard() { arx_cmd || [[ $? == 1 ]]; }

keep_git=() keep_arx=() keep_try=() discard_git=() discard_arx=() discard_try=()
cmd_keep_git=() cmd_keep_arx=() cmd_discard_git=() cmd_discard_arx=()
for ((i = 0; i < reps; i++)); do
  back_to_base; candidate; timed git_keep; check "git keep" 1; keep_git+=("$elapsed")
  back_to_base; candidate; timed arx_keep; check "arx keep" 1; keep_arx+=("$elapsed")
  back_to_base; candidate; timed arx_try_keep; check "arx try-keep" 1; keep_try+=("$elapsed")
  back_to_base; candidate; timed git_discard; check "git discard" 0; discard_git+=("$elapsed")
  back_to_base; candidate; timed arx_discard; check "arx discard" 0; discard_arx+=("$elapsed")
  back_to_base; candidate; timed arx_try_discard; check "arx try-discard" 0; discard_try+=("$elapsed")
  back_to_base; better; timed git_cmd_keep; check "git keep + experiment" 1; cmd_keep_git+=("$elapsed")
  back_to_base; with_state; better; timed arx_cmd; check "arx try (keep)" 1; cmd_keep_arx+=("$elapsed")
  back_to_base; worse; timed git_cmd_discard; check "git discard + experiment" 0; cmd_discard_git+=("$elapsed")
  back_to_base; with_state; worse; timed arx_cmd_discard; check "arx try (discard)" 0; cmd_discard_arx+=("$elapsed")
done
back_to_base

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
min() { printf '%s\n' "$@" | sort -g | head -n 1; }

report=$(mktemp "${TMPDIR:-/tmp}/arx-ratchet-report.XXXXXX")
awk -v files="$tracked" -v reps="$reps" \
    -v kg="$(median "${keep_git[@]}")" -v ka="$(median "${keep_arx[@]}")" \
    -v kgn="$(min "${keep_git[@]}")" -v kan="$(min "${keep_arx[@]}")" \
    -v dg="$(median "${discard_git[@]}")" -v da="$(median "${discard_arx[@]}")" \
    -v dgn="$(min "${discard_git[@]}")" -v dan="$(min "${discard_arx[@]}")" \
    -v kt="$(median "${keep_try[@]}")" -v ktn="$(min "${keep_try[@]}")" \
    -v dt="$(median "${discard_try[@]}")" -v dtn="$(min "${discard_try[@]}")" \
    -v ckg="$(median "${cmd_keep_git[@]}")" -v cka="$(median "${cmd_keep_arx[@]}")" \
    -v cdg="$(median "${cmd_discard_git[@]}")" -v cda="$(median "${cmd_discard_arx[@]}")" 'BEGIN {
  printf "## The ratchet on %d tracked files (2 files modified, 1 added; median of %d)\n\n", files, reps
  print "| operation | command | median wall (ms) | best (ms) |"
  print "|---|---|---:|---:|"
  printf "| keep | `git add -A && git commit` | %.1f | %.1f |\n", kg * 1000, kgn * 1000
  printf "| keep | arx `keep` | %.1f | %.1f |\n", ka * 1000, kan * 1000
  printf "| keep | arx `candidate` + `keep_candidate` (an iteration) | %.1f | %.1f |\n", kt * 1000, ktn * 1000
  printf "| discard | `git stash -u && git stash drop` | %.1f | %.1f |\n", dg * 1000, dgn * 1000
  printf "| discard | arx `snapshot` + `restore_to` | %.1f | %.1f |\n", da * 1000, dan * 1000
  printf "| discard | arx `candidate` + `discard` (an iteration) | %.1f | %.1f |\n", dt * 1000, dtn * 1000
  printf "| keep, whole command | experiment + `git add -A && git commit` | %.1f | |\n", ckg * 1000
  printf "| keep, whole command | `arx try` (the same experiment) | %.1f | |\n", cka * 1000
  printf "| discard, whole command | experiment + `git stash -u && git stash drop` | %.1f | |\n", cdg * 1000
  printf "| discard, whole command | `arx try` (the same experiment) | %.1f | |\n", cda * 1000
  print ""
  print "| target | measured | goal | result |"
  print "|---|---:|---:|---|"
  printf "| keep: arx / git (median) | %.2fx | <= 1.0x | %s |\n", ka / kg, (ka <= kg ? "PASS" : "FAIL")
  printf "| discard: arx / git (median) | %.2fx | <= 1.0x | %s |\n", da / dg, (da <= dg ? "PASS" : "FAIL")
  printf "| keep iteration: arx / git (median) | %.2fx | <= 1.0x | %s |\n", kt / kg, (kt <= kg ? "PASS" : "FAIL")
  printf "| discard iteration: arx / git (median) | %.2fx | <= 1.0x | %s |\n", dt / dg, (dt <= dg ? "PASS" : "FAIL")
  printf "| arx try keep / git (median, whole command) | %.2fx | <= 1.0x | %s |\n", cka / ckg, (cka <= ckg ? "PASS" : "FAIL")
  printf "| arx try discard / git (median, whole command) | %.2fx | <= 1.0x | %s |\n", cda / cdg, (cda <= cdg ? "PASS" : "FAIL")
}' | tee "$report"
if grep -q FAIL "$report"; then
  rm -f "$report"
  exit 1
fi
rm -f "$report"
