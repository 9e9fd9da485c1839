# docs/findings.md: an evaluation (eval.sh CANDIDATE) whose accuracy
# depends on the candidate, with a little noise from a run counter, and a
# metric spec it is judged against.
set -e
cat > eval.sh <<'SH'
#!/bin/sh
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
case "$1" in
  hybrid) base=0.84 ;;
  bm25) base=0.61 ;;
  *) base=0.70 ;;
esac
awk -v base="$base" -v seed="$n" 'BEGIN { srand(seed + 1); printf "__RESULT__ {\"recall\": %.4f}\n", base + (rand() - 0.5) * 0.02 }'
SH
printf 'metric_key = "recall"\ncomparator = ">="\ntarget = 0.8\n' > spec.toml
