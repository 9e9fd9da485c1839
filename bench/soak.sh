#!/usr/bin/env bash
# Random kills of `arx try`: 3 lanes on 3 slots, paired seeds and a guard,
# in a repository with what real ones have: a submodule the experiment
# reads, a Git LFS file (the last lane's own file is one), and outputs the
# runs write (a tracked results file rewritten by every run, an untracked
# checkpoint). Each lane tries changes to its own file while most tries
# are killed (kill -9, the whole process group) at a random moment (four
# tries in five are aimed at, within 0.4 s of their start). After every
# kill the lane's next try must finish what was cut off; at the end a last
# try in each lane must leave no marker behind, and every view must agree:
# `arx journal verify`, `arx log`, `arx status`, `arx report` and git (the
# best's branch at the journal's best, every keep on it, every discard
# stored under its ref and every stored one journaled, the LFS file kept
# as its pointer, no working tree left with changes but outputs).
#
# Prints tries, kills and what went wrong (stuck: a try that failed with
# an error other than "nothing to try"; lost: a kept change missing from
# the best, or a stored discard the journal does not hold); exits 1 when
# anything did, or when fewer than SOAK_MIN_KILLS tries were killed.
#
# Usage: bench/soak.sh [--quick]   (SOAK_TRIES=1000 over all lanes,
#        SOAK_LANES=3, SOAK_MIN_KILLS=500, SOAK_KEEP=1 keeps the
#        repository, ARX=path to the binary, else target/debug/arx built
#        here; --quick: SOAK_TRIES=150 and SOAK_MIN_KILLS=50, the form the
#        test suite runs; SOAK_CHECKPOINT=0: the runs write no untracked
#        checkpoint, only the tracked results file). Needs git-lfs.
set -euo pipefail
cd "$(dirname "$0")/.."

tries=${SOAK_TRIES:-1000}
lanes=${SOAK_LANES:-3}
min_kills=${SOAK_MIN_KILLS:-500}
if [[ "${1:-}" == "--quick" ]]; then
  tries=${SOAK_TRIES:-150}
  min_kills=${SOAK_MIN_KILLS:-50}
fi
arx=${ARX:-}
if [[ -z "$arx" ]]; then
  cargo build --quiet --bin arx
  arx=$(realpath target/debug/arx)
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/arx-soak.XXXXXX")
# SOAK_KEEP=1 keeps the repository to look into.
[[ -n "${SOAK_KEEP:-}" ]] || trap 'rm -rf "$dir"' EXIT
root="$dir/repo"
names=(a b c d e f g h)
# Git's own settings only: no user's global configuration.
export HOME="$dir/home" GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.email soak@example.com
git config --global user.name soak
git config --global protocol.file.allow always
git config --global init.defaultBranch main
# Lane i's own file; the last lane's is tracked by LFS.
file_of() { if (( $1 == lanes )); then echo "n$1.bin"; else echo "n$1.txt"; fi; }

# The submodule: a repository of its own holding the experiment's constant.
mkdir -p "$dir/lib"
(cd "$dir/lib" && git init -q && echo 7 > k.txt && git add k.txt && git commit -qm lib)

mkdir -p "$root"
(
  cd "$root"
  git init -q .
  git lfs install --local > /dev/null
  git lfs track "*.bin" > /dev/null
  for i in $(seq 1 "$lanes"); do echo 0 > "$(file_of "$i")"; done
  head -c 4096 /dev/urandom > weights.bin
  git submodule add -q "$dir/lib" lib
  mkdir -p results && echo none > results/last.txt
  cat > score.sh <<'SH'
#!/bin/sh
# The sum of the lanes' numbers and the submodule's constant, a jitter of
# the run's seed, and a short random wait so that kills land in the middle
# of runs too. Writes outputs as training scripts do: a tracked results
# file and an untracked checkpoint.
sleep "0.0$(( $(od -An -N1 -tu1 /dev/urandom) % 10 ))"
s=$(cat lib/k.txt)
for f in n*.txt n*.bin; do s=$((s + $(cat "$f"))); done
[ "$(wc -c < weights.bin)" -eq 4096 ] || s=0
j=$(( ${ARX_SEED:-0} % 3 ))
echo "seed ${ARX_SEED:-0}: $s.$j" > results/last.txt
mkdir -p out && head -c 2048 /dev/urandom > out/ckpt.pt
echo "__RESULT__ {\"m\": $s.$j, \"mem\": 1}"
SH
  [[ "${SOAK_CHECKPOINT:-1}" == 1 ]] || sed -i '/ckpt.pt/d' score.sh
  cat > arx.toml <<TOML
[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = 1
baseline_repeat = 2
rule = "strict"
slots = $lanes
seeds = "paired"
guards = ["mem <= 2"]
TOML
  printf '.arx/\n' > .gitignore
  git add -A && git commit -qm start
  "$arx" lane add "${names[@]:0:$lanes}" > /dev/null 2>&1
  for i in $(seq 1 "$lanes"); do
    (cd "$root.lanes/${names[$((i - 1))]}" && git submodule update -q --init)
  done
)

# One lane's tries: each changes its own file by +1 (kept) or -1
# (discarded), and about half are killed at a random moment. Writes
# "tries kills stuck" to $dir/$lane.count.
lane_loop() {
  local lane=$1 file=$2 n=$3 i v code pid killed=0 stuck=0 err
  cd "$root.lanes/$lane"
  RANDOM=$file
  for i in $(seq 1 "$n"); do
    # A try that was killed before it set its candidate aside leaves the
    # change in place: the next one takes it as it is.
    v=$(cat "$(file_of "$file")")
    if (( RANDOM % 100 < 60 )); then v=$((v + 1)); else v=$((v - 1)); fi
    echo "$v" > "$(file_of "$file")"
    err="$dir/$lane.err"
    setsid "$arx" try --quiet -m "$lane $i" > /dev/null 2> "$err" &
    pid=$!
    if (( RANDOM % 100 < ${SOAK_AIM:-80} )); then
      sleep "0.$(( RANDOM % 4 ))$(( RANDOM % 10 ))"
      if kill -0 "$pid" 2> /dev/null; then
        kill -9 -- "-$pid" 2> /dev/null || kill -9 "$pid" 2> /dev/null || true
        killed=$((killed + 1))
      fi
    fi
    code=0
    wait "$pid" || code=$?
    if (( code == 2 )) && ! grep -q "nothing to try" "$err"; then
      stuck=$((stuck + 1))
      echo "stuck in lane $lane, try $i: $(head -c 400 "$err")" >> "$dir/stuck.log"
    fi
  done
  echo "$n $killed $stuck" > "$dir/$lane.count"
}

start=$SECONDS
per=$(( (tries + lanes - 1) / lanes ))
pids=()
for i in $(seq 1 "$lanes"); do
  # (The shell's "Killed" notices are the kills themselves.)
  lane_loop "${names[$((i - 1))]}" "$i" "$per" 2> /dev/null &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done

total=0 kills=0 stuck=0
for i in $(seq 1 "$lanes"); do
  read -r t k s < "$dir/${names[$((i - 1))]}.count"
  total=$((total + t)) kills=$((kills + k)) stuck=$((stuck + s))
done

# The last try in each lane finishes whatever the last kill cut off.
for i in $(seq 1 "$lanes"); do
  lane=${names[$((i - 1))]}
  code=0
  (cd "$root.lanes/$lane" && "$arx" try --quiet -m "$lane last" > /dev/null 2> "$dir/last.err") || code=$?
  if (( code == 2 )) && ! grep -q "nothing to try" "$dir/last.err"; then
    stuck=$((stuck + 1))
    echo "stuck at the end in lane $lane: $(head -c 400 "$dir/last.err")" >> "$dir/stuck.log"
  fi
done

problems=()
cd "$root"
# No marker left (what runs wrote, `ratchet-outputs*`, is a record, not a
# marker), no set-aside ref, no lock git left.
left=$(find .arx -maxdepth 1 -name 'ratchet-*.json' ! -name 'ratchet-outputs*' | wc -l)
(( left == 0 )) || problems+=("$left markers left: $(ls .arx | grep '^ratchet-' | tr '\n' ' ')")
asides=$(git for-each-ref --format='%(refname)' 'refs/arx/aside*' | wc -l)
(( asides == 0 )) || problems+=("$asides set-aside refs left")
locks=$(find .git -name '*.lock' | wc -l)
(( locks == 0 )) || problems+=("$locks git locks left: $(find .git -name '*.lock' | head -3 | tr '\n' ' ')")
"$arx" journal verify > /dev/null 2>&1 || problems+=("the journal does not verify")

# The journal's own counts, then every view's.
read -r journaled keeps best < <(python3 - .arx/journal.jsonl <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
best, keeps = "", 0
for r in recs:
    rt = r.get("ratchet") or {}
    if rt.get("status") == "keep":
        keeps += 1
    if rt.get("status") in ("baseline", "keep") and rt.get("commit"):
        if rt.get("status") == "keep" or not best:
            best = rt["commit"]
print(len(recs), keeps, best or "-")
PY
)
logged=$("$arx" log --format tsv | awk 'NR > 1' | wc -l)
(( logged == journaled )) || problems+=("arx log lists $logged records, the journal holds $journaled")
read -r s_tries s_keeps s_discards s_best < <("$arx" --json status | python3 -c '
import json, sys; s = json.load(sys.stdin)
print(s["tries"], s["keeps"], s["discards"], s.get("best_commit") or "-")')
read -r r_tries r_keeps r_discards < <("$arx" --json report | python3 -c '
import json, sys; s = json.load(sys.stdin)["segments"][-1]
print(s["tries"], s["keeps"], s["discards"])')
[[ "$s_tries $s_keeps $s_discards" == "$r_tries $r_keeps $r_discards" ]] ||
  problems+=("arx status counts $s_tries tries, $s_keeps keeps, $s_discards discards; arx report $r_tries, $r_keeps, $r_discards")
(( s_keeps == keeps )) || problems+=("arx status counts $s_keeps keeps, the journal holds $keeps")

# git: the best's branch is the journal's best, and holds every keep.
main=$(git rev-parse main)
[[ "$main" == "$best" && "$s_best" == "$best" ]] ||
  problems+=("main is at ${main:0:8}, arx status's best ${s_best:0:8}, the journal's ${best:0:8}")
lost=0
while read -r commit; do
  [[ -z "$commit" ]] && continue
  git merge-base --is-ancestor "$commit" main 2> /dev/null || lost=$((lost + 1))
done < <(python3 - .arx/journal.jsonl <<'PY'
# Full ids: a short one can name two objects (a keep and a snapshot).
import json, sys
for l in open(sys.argv[1]):
    rt = json.loads(l).get("ratchet") or {}
    if rt.get("status") == "keep" and rt.get("commit"):
        print(rt["commit"])
PY
)
# Every candidate the journal says is stored is under its ref, and every
# one stored under a run's id is journaled.
python3 - .arx/journal.jsonl > "$dir/stored" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); ref = (r.get("ratchet") or {}).get("discarded_ref")
    if ref: print(ref)
PY
python3 - .arx/journal.jsonl > "$dir/runs" <<'PY'
import json, sys
for l in open(sys.argv[1]): print(json.loads(l)["run_id"])
PY
unstored=0
while read -r ref; do
  git rev-parse -q --verify "$ref" > /dev/null || unstored=$((unstored + 1))
done < "$dir/stored"
unjournaled=$(git for-each-ref --format='%(refname:lstrip=3)' refs/arx/discarded/ |
  grep -E '^[0-9a-f]{8}-[0-9a-f]{4}-' | sort | comm -23 - <(sort "$dir/runs") | grep -c . || true)
lost=$((lost + unjournaled))
(( unstored == 0 )) || problems+=("$unstored journaled candidates not under their ref")
(( lost == 0 )) || problems+=("$lost lost (kept commits not on main, or stored candidates not journaled)")
# The LFS file is kept as its pointer; the main working tree follows the
# keeps exactly, and each lane holds nothing but its runs' outputs.
lfs=$(file_of "$lanes")
git cat-file -p "main:$lfs" | grep -q '^version https://git-lfs' || problems+=("main:$lfs is not an LFS pointer")
dirty=$(git status --porcelain | wc -l)
(( dirty == 0 )) || problems+=("the main working tree has changes: $(git status --porcelain | head -3 | tr '\n' ' ')")
for i in $(seq 1 "$lanes"); do
  lane=${names[$((i - 1))]}
  extra=$(cd "$root.lanes/$lane" && git status --porcelain | grep -v -e ' results/last.txt$' -e ' out/$' || true)
  [[ -z "$extra" ]] || problems+=("lane $lane has changes besides its outputs: $(echo "$extra" | head -3 | tr '\n' ' ')")
done
(( stuck == 0 )) || problems+=("$stuck stuck")
(( kills >= min_kills )) || problems+=("only $kills kills (at least $min_kills wanted)")

printf 'soak: %d tries in %d lanes, %d killed, %d journaled (%d keeps, %d discards), %d s\n' \
  "$total" "$lanes" "$kills" "$journaled" "$keeps" "$s_discards" $((SECONDS - start))
if (( ${#problems[@]} > 0 )); then
  printf 'soak: %s\n' "${problems[@]}" >&2
  [[ -f "$dir/stuck.log" ]] && head -20 "$dir/stuck.log" >&2
  exit 1
fi
echo "soak: 0 stuck, 0 lost, every view agreeing"
