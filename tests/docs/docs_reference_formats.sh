# docs/reference/formats.md: a repository with arx set up, an experiment
# (train.sh, taking --seed), a metric spec, and a branch experiment-b whose
# journal and main's both gained a run since they parted.
set -e
cat > train.sh <<'SH'
#!/bin/sh
seed=${2:-0}
awk -v seed="$seed" 'BEGIN { srand(seed + 1); printf "__RESULT__ {\"acc\": %.4f}\n", 0.8 + rand() * 0.05 }'
SH
printf 'metric_key = "acc"\ncomparator = ">="\ntarget = 0.8\n' > spec.toml
git init -q
arx init --share-journal > /dev/null
git add -A
git commit -qm "Set up arx"
git checkout -qb experiment-b
arx run --approve --spec spec.toml -- sh train.sh --seed 1 > /dev/null 2>&1
git commit -qam "A run on experiment-b"
git checkout -q main
arx run --approve --spec spec.toml -- sh train.sh --seed 2 > /dev/null 2>&1
git commit -qam "A run on main"
