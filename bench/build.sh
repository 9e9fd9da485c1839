#!/usr/bin/env bash
# Cold build time of two revisions, side by side: each revision is checked
# out in a scratch worktree and built from an empty target directory,
# alternating A B A B ..., so that the machine's drift hits both.
#
#   bench/build.sh [REV_A [REV_B]]        default: HEAD~1 and HEAD
#   BENCH_ROUNDS=3 bench/build.sh v1 HEAD
#   BENCH_CARGO_ARGS="--release" bench/build.sh      (the default)
#   BENCH_CARGO_ARGS="" bench/build.sh               (a debug build)
#
# Crates must already be downloaded (`cargo fetch`): the build runs
# --offline, so the network does not count. Prints wall, user and system
# seconds per build, the medians, and B's ratio to A.
set -euo pipefail
cd "$(dirname "$0")/.."

a=${1:-HEAD~1}
b=${2:-HEAD}
rounds=${BENCH_ROUNDS:-2}
args=${BENCH_CARGO_ARGS---release}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/arx-build-bench.XXXXXX")
cleanup() {
  git worktree remove --force "$scratch/a" >/dev/null 2>&1 || true
  git worktree remove --force "$scratch/b" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT

git worktree add -q --detach "$scratch/a" "$a"
git worktree add -q --detach "$scratch/b" "$b"
(cd "$scratch/a" && cargo fetch --locked -q)
(cd "$scratch/b" && cargo fetch --locked -q)

results="$scratch/results"
: >"$results"
for round in $(seq 1 "$rounds"); do
  for side in a b; do
    rm -rf "$scratch/target-$side"
    echo "bench: round $round, $side ($([ $side = a ] && echo "$a" || echo "$b")): cargo build $args" >&2
    # shellcheck disable=SC2086
    (cd "$scratch/$side" &&
      /usr/bin/time -f "$side %e %U %S" -a -o "$results" \
        cargo build $args --locked --offline -q --target-dir "$scratch/target-$side" >/dev/null)
  done
done

python3 - "$results" "$a" "$b" "$args" <<'EOF'
import statistics, sys
path, a, b, args = sys.argv[1:]
rows = {"a": [], "b": []}
for line in open(path):
    side, wall, user, sys_ = line.split()
    rows[side].append((float(wall), float(user), float(sys_)))
print(f"cold `cargo build {args}`, {len(rows['a'])} builds each, alternating")
print(f"{'revision':<24} {'wall s':>8} {'user s':>8} {'sys s':>8}")
med = {}
for side, rev in (("a", a), ("b", b)):
    for w, u, s in rows[side]:
        print(f"{rev:<24} {w:8.1f} {u:8.1f} {s:8.1f}")
    med[side] = [statistics.median(x) for x in zip(*rows[side])]
for side, rev in (("a", a), ("b", b)):
    w, u, s = med[side]
    print(f"{'median ' + rev:<24} {w:8.1f} {u:8.1f} {s:8.1f}")
print(f"ratio {b} / {a}: wall {med['b'][0] / med['a'][0]:.2f}, "
      f"user+sys {(med['b'][1] + med['b'][2]) / (med['a'][1] + med['a'][2]):.2f}")
EOF
