#!/usr/bin/env bash
# Random kills of `arx try`: 3 lanes on 3 slots, paired seeds and a guard,
# each lane trying changes to its own file while many of the tries are
# killed (kill -9, the whole process group) at a random moment
# (three tries in four are aimed at, within 0.4 s of their start). After
# every kill the lane's next try must finish what was cut off; at the end
# a last try in each lane must leave no marker behind, the journal must
# verify, every kept change must be on the best's branch, and the views
# must agree (`arx log` and `arx report --json` count the same tries).
#
# Prints tries, kills and what went wrong (stuck: a try that failed with
# an error other than "nothing to try"; lost: a kept change missing from
# the best); exits 1 when anything did.
#
# Usage: bench/soak.sh [--quick]   (SOAK_TRIES=1000 over all lanes,
#        SOAK_LANES=3, SOAK_KEEP=1 keeps the repository, ARX=path to the binary, else target/debug/arx built
#        here; --quick: SOAK_TRIES=60, the form CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."

tries=${SOAK_TRIES:-1000}
lanes=${SOAK_LANES:-3}
if [[ "${1:-}" == "--quick" ]]; then
  tries=${SOAK_TRIES:-60}
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

mkdir -p "$root"
(
  cd "$root"
  git init -q -b main .
  git config user.email soak@example.com
  git config user.name soak
  for i in $(seq 1 "$lanes"); do echo 0 > "n$i.txt"; done
  cat > score.sh <<'SH'
#!/bin/sh
# The sum of the lanes' numbers, a jitter of the run's seed, and a short
# random wait so that kills land in the middle of runs too.
sleep "0.0$(( $(od -An -N1 -tu1 /dev/urandom) % 10 ))"
s=0; for f in n*.txt; do s=$((s + $(cat "$f"))); done
j=$(( ${ARX_SEED:-0} % 3 ))
echo "__RESULT__ {\"m\": $s.$j, \"mem\": 1}"
SH
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
    v=$(cat "n$file.txt")
    if (( RANDOM % 100 < 60 )); then v=$((v + 1)); else v=$((v - 1)); fi
    echo "$v" > "n$file.txt"
    err="$dir/$lane.err"
    setsid "$arx" try --quiet -m "$lane $i" > /dev/null 2> "$err" &
    pid=$!
    if (( RANDOM % 4 != 0 )); then
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
left=$(find "$root/.arx" -maxdepth 1 -name 'ratchet-*.json' | wc -l)
(( left == 0 )) || problems+=("$left markers left")
(cd "$root" && "$arx" journal verify > /dev/null 2>&1) || problems+=("the journal does not verify")
# Every keep's commit is on the best's branch.
lost=0
while read -r commit; do
  [[ -z "$commit" ]] && continue
  (cd "$root" && git merge-base --is-ancestor "$commit" main 2> /dev/null) || lost=$((lost + 1))
done < <(cd "$root" && "$arx" log --format tsv | awk -F'\t' 'NR > 1 && $3 == "keep" { print $1 }')
(( lost == 0 )) || problems+=("$lost kept commits not on main")
logged=$(cd "$root" && "$arx" log --format tsv | awk 'NR > 1' | wc -l)
reported=$(cd "$root" && "$arx" --json report --segment 1 | sed -n 's/^  "runs": \([0-9]*\),$/\1/p' | head -1)
journaled=$(wc -l < "$root/.arx/journal.jsonl")
(( logged == journaled )) || problems+=("arx log lists $logged tries, the journal holds $journaled")
[[ -z "$reported" || "$reported" -le "$journaled" ]] || problems+=("arx report counts $reported, the journal holds $journaled")
(( stuck == 0 )) || problems+=("$stuck stuck")

printf 'soak: %d tries in %d lanes, %d killed, %d journaled, %d s\n' \
  "$total" "$lanes" "$kills" "$journaled" $((SECONDS - start))
if (( ${#problems[@]} > 0 )); then
  printf 'soak: %s\n' "${problems[@]}" >&2
  [[ -f "$dir/stuck.log" ]] && head -20 "$dir/stuck.log" >&2
  exit 1
fi
echo "soak: 0 stuck, 0 lost, every view agreeing"
