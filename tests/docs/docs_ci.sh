# docs/ci.md: a repository with arx set up, an experiment
# (train.sh, taking --seed) and a metric spec.
set -e
cat > train.sh <<'SH'
#!/bin/sh
seed=${2:-0}
awk -v seed="$seed" 'BEGIN { srand(seed + 1); printf "__RESULT__ {\"acc\": %.4f}\n", 0.8 + rand() * 0.05 }'
SH
printf 'metric_key = "acc"\ncomparator = ">="\ntarget = 0.8\n' > spec.toml
git init -q
arx init > /dev/null
git add -A
git commit -qm "Set up arx"
