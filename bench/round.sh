#!/usr/bin/env bash
# `arx round apply --auto` on a repository with 100,000 tracked files, beside
# `git apply --index` + `git commit` of the equivalent diff on the same
# repository. The patch changes 3 files (modify two, create one; no checks).
# Every timed run starts from a fresh branch made from the base commit, so
# each lands exactly one commit on the same tree; runs of the two sides
# alternate (arx, git, arx, git, ...) so that drift hits both alike.
# Reports the median wall time of each side and their ratio.
# Target: arx no slower than the git pair (ratio <= 1.0).
#
# Usage: bench/round.sh [--quick]   (BENCH_ROUND_FILES=100000, BENCH_REPS=11)
# The repository is generated once under target/bench/round-<N>/ and reused;
# the script only ever changes that repository, never the project's own.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
  files=${BENCH_ROUND_FILES:-10000}
  reps=${BENCH_REPS:-5}
else
  files=${BENCH_ROUND_FILES:-100000}
  reps=${BENCH_REPS:-11}
fi

if [[ -z "${ARX_BIN:-}" ]]; then
  cargo build --profile dist --quiet
  ARX_BIN=target/dist/arx
fi
ARX_BIN=$(realpath "$ARX_BIN")
command -v git > /dev/null || { echo "bench: git is needed" >&2; exit 2; }

dir=$(realpath -m "target/bench/round-$files")
repo=$dir/repo
g() { git -C "$repo" "$@"; }

if [[ ! -f "$dir/ready" ]]; then
  echo "bench: generating a repository with $files tracked files in $repo" >&2
  rm -rf "$dir"
  mkdir -p "$repo"
  g init -q -b base
  g config user.name bench
  g config user.email bench@localhost
  g config gc.auto 0            # no background packing during timed commits
  g config maintenance.auto false
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
  g add -A
  g commit -q -m "base: $files files"
  g gc -q  # pack the objects, as in a repository that has lived a while
  # The round as an arx patch and as the equivalent git diff (made from a
  # throwaway commit on this repository's own branch).
  cat > "$dir/patch.json" <<'JSON'
{"summary": "Benchmark round", "confidence": 0.9, "entries": [
 {"path": "src/d0000/f000000.txt", "kind": "code", "op": "modify",
  "content": "file 0\nline two, changed by the round\nline three\n", "rationale": "bench"},
 {"path": "src/d0500/f050000.txt", "kind": "code", "op": "modify",
  "content": "file 50000\nline two, changed by the round\nline three\n", "rationale": "bench"},
 {"path": "docs/round.md", "kind": "markdown", "op": "create",
  "content": "# Added by the round\n", "rationale": "bench"}]}
JSON
  if (( files <= 50000 )); then
    sed -i 's#src/d0500/f050000.txt#src/d0050/f005000.txt#; s#file 50000#file 5000#' "$dir/patch.json"
  fi
  python3 - "$dir/patch.json" "$repo" <<'PY'
import json, os, sys
patch = json.load(open(sys.argv[1]))
for e in patch["entries"]:
    path = os.path.join(sys.argv[2], e["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(e["content"])
PY
  g switch -q -c patch-source
  g add -A
  g commit -q -m "patch source"
  g diff base patch-source > "$dir/round.diff"
  g switch -q base
  g branch -q -D patch-source
  printf '[harness]\nmin_interval_hours = 0\n' > "$dir/arx.toml"
  touch "$dir/ready"
fi

run=0
fresh_branch() {  # a new branch at the base commit, checked out
  run=$((run + 1))
  g switch -q -c "bench-$1-$run" base
}
cleanup() {
  g switch -q base 2> /dev/null || true
  g for-each-ref --format='%(refname:short)' 'refs/heads/bench-*' 'refs/heads/harness/*' |
    xargs -r git -C "$repo" branch -q -D
  rm -rf "$dir"/state-*
}
trap cleanup EXIT
cleanup
tracked=$(g ls-files | wc -l)

check_one_commit() {  # side
  if [[ $(g rev-list --count base..HEAD) != 1 || -n $(g status --porcelain) ]]; then
    echo "bench: $1 did not land exactly one commit with a clean tree" >&2
    exit 3
  fi
}

elapsed=0
time_arx() {  # sets $elapsed (seconds)
  fresh_branch arx
  local state=$dir/state-$run t0 t1
  t0=$EPOCHREALTIME
  (cd "$repo" && "$ARX_BIN" --quiet --config "$dir/arx.toml" --state-dir "$state" \
    round apply "$dir/patch.json" --auto --round-id "bench-$run")
  t1=$EPOCHREALTIME
  check_one_commit arx
  elapsed=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f", b - a}')
}

time_git() {  # sets $elapsed (seconds)
  fresh_branch git
  local t0 t1
  t0=$EPOCHREALTIME
  (cd "$repo" && git apply --index "$dir/round.diff" && git commit -q -m "Benchmark round")
  t1=$EPOCHREALTIME
  check_one_commit git
  elapsed=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f", b - a}')
}

# Warm-up, and the two sides must produce the same tree.
time_arx
arx_tree=$(g rev-parse 'HEAD^{tree}')
time_git
git_tree=$(g rev-parse 'HEAD^{tree}')
if [[ "$arx_tree" != "$git_tree" ]]; then
  echo "bench: arx and git produced different trees ($arx_tree vs $git_tree)" >&2
  exit 4
fi

arx_times=()
git_times=()
for ((i = 0; i < reps; i++)); do
  time_arx
  arx_times+=("$elapsed")
  time_git
  git_times+=("$elapsed")
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
min() { printf '%s\n' "$@" | sort -g | head -n 1; }
arx_med=$(median "${arx_times[@]}")
git_med=$(median "${git_times[@]}")
arx_min=$(min "${arx_times[@]}")
git_min=$(min "${git_times[@]}")

report=$dir/../round-report.md
awk -v files="$tracked" -v reps="$reps" -v am="$arx_med" -v gm="$git_med" \
    -v an="$arx_min" -v gn="$git_min" 'BEGIN {
  ratio = am / gm
  printf "## arx round apply on %d tracked files (3-file patch, median of %d)\n\n", files, reps
  print "| command | median wall (ms) | best (ms) |"
  print "|---|---:|---:|"
  printf "| `arx round apply PATCH --auto` | %.1f | %.1f |\n", am * 1000, an * 1000
  printf "| `git apply --index DIFF && git commit` | %.1f | %.1f |\n", gm * 1000, gn * 1000
  print ""
  print "| target | measured | goal | result |"
  print "|---|---:|---:|---|"
  printf "| arx / git pair (median) | %.2fx | <= 1.0x | %s |\n", ratio, (ratio <= 1.0 ? "PASS" : "FAIL")
}' | tee "$report"
