# The projects of docs/coming-from.md: three repositories where another
# loop ran last night, each in that loop's layout.
#
# karpathy/: train.py, prepare.py, program.md, the night's results.tsv and
# the last run's run.log (both untracked, as that loop keeps them). Its
# experiment is run here by train.sh, a stand-in for train.py printing a
# training log and the summary block; model.txt holds the settings, with a
# little noise seeded by a run counter. Two of the night's keeps are
# commits of the branch.
# pi/: autoresearch.sh printing METRIC lines, autoresearch.checks.sh, and
# pi's log .auto/log.jsonl.
# codex/: eval.sh printing its metric, and codex's results.tsv with its
# comment header.
set -e
mkdir karpathy pi codex

cd karpathy
cat > train.sh <<'SH'
#!/bin/sh
# Stand-in for train.py: a training log, then the summary block.
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
echo "step 00953 (100.0%) | loss: 3.21 | dt: 312ms"
awk -v seed="$n" '
$1 == "lr" { lr = $3 }
$1 == "depth" { depth = $3 }
END {
    srand(seed + 1)
    l = log(lr) / log(10)
    bpb = 0.933 + 0.04 * (l + 1.5) ^ 2 + 0.2 / depth
    noise = (rand() + rand() + rand() - 1.5) * 0.002
    print "---"
    printf "val_bpb:          %.6f\n", bpb + noise
    printf "training_seconds: %.1f\n", 300.1
    printf "peak_vram_mb:     %.1f\n", 4000 * depth
}' model.txt
SH
printf '# The model and its training (the stand-in reads model.txt).\n' > train.py
printf '# Data preparation and the evaluation: fixed.\n' > prepare.py
cat > program.md <<'MD'
# nanochat research

The goal: the lowest val_bpb on the fixed evaluation, in the five minutes
of training train.py gets.

## What you may change

train.py only: the model, the optimizer, the schedule. prepare.py (the
data and the evaluation) stays as it is, and no new packages.

## Logging results

Add a row to results.tsv after each run: commit, val_bpb, memory, status,
description.

## The experiment loop

Commit the change, run `uv run train.py > run.log 2>&1`, read val_bpb
from run.log, keep the commit when it is lower, else `git reset --hard`.
Never stop.
MD
printf 'lr = 0.003\ndepth = 8\n' > model.txt
printf '.runs\nAGENTS.md\n' > .gitignore
git init -q
git add -A
git commit -qm "baseline"
first=$(git rev-parse --short=7 HEAD)
sed -i 's/depth = 8/depth = 10/' model.txt
git commit -qam "depth 10"
second=$(git rev-parse --short=7 HEAD)
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' > results.tsv
printf '%s\t0.999900\t31.3\tkeep\tbaseline\n' "$first" >> results.tsv
printf '9f0c2aa\t1.004100\t31.3\tdiscard\tswitch to GeLU activation\n' >> results.tsv
printf '%s\t0.995200\t39.1\tkeep\tdepth 10\n' "$second" >> results.tsv
printf '5d1e7b3\t0.000000\t0.0\tcrash\tdouble the width (OOM)\n' >> results.tsv
printf '0a8e4f1\t0.996800\t39.1\tdiscard\tweight decay 0.2\n' >> results.tsv
sh train.sh > run.log 2>&1
cd ..

cd pi
cat > autoresearch.sh <<'SH'
#!/bin/bash
# The benchmark: the time of one pass, as METRIC lines.
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
size=$(cat size.txt)
awk -v n="$n" -v size="$size" 'BEGIN {
    srand(n + 1)
    printf "METRIC total_ms=%.2f\n", size * 0.5 + rand()
    printf "METRIC alloc_kb=%d\n", size * 4
}'
SH
printf '#!/bin/bash\ntest -s size.txt\n' > autoresearch.checks.sh
printf '200\n' > size.txt
printf '.runs\n' > .gitignore
git init -q
git add -A
git commit -qm "baseline"
first=$(git rev-parse --short=7 HEAD)
mkdir .auto
printf '{"type":"config","name":"faster parse","metricName":"total_ms","metricUnit":"ms","bestDirection":"lower"}\n' > .auto/log.jsonl
printf '{"run":1,"commit":"%s","metric":100.4,"metrics":{},"status":"keep","description":"baseline","timestamp":1767225600000,"segment":0}\n' "$first" >> .auto/log.jsonl
printf '{"run":2,"commit":"3c4d5e6","metric":104.9,"metrics":{},"status":"discard","description":"a hash map for the symbols","timestamp":1767226200000,"segment":0}\n' >> .auto/log.jsonl
cd ..

cd codex
cat > eval.sh <<'SH'
#!/bin/sh
# The evaluation: the model's ROC AUC on the validation set.
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
awk -v n="$n" -v trees="$(cat trees.txt)" 'BEGIN {
    srand(n + 1)
    printf "__RESULT__ {\"roc_auc\": %.4f}\n", 0.80 + trees / 10000 + rand() / 1000
}'
SH
printf '100\n' > trees.txt
printf '.runs\n' > .gitignore
git init -q
git add -A
git commit -qm "baseline"
first=$(git rev-parse --short=7 HEAD)
printf '# metric_direction: higher\n# metric: roc_auc\n' > results.tsv
printf 'iteration\tcommit\tmetric\tdelta\tstatus\tdescription\n' >> results.tsv
printf '0\t%s\t0.810200\t0.000000\tbaseline\tstart\n' "$first" >> results.tsv
printf '1\t7a8b9c0\t0.809100\t-0.001100\tdiscard\tfewer features\n' >> results.tsv
