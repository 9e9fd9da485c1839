# The project of docs/coming-from.md: a repository where karpathy's loop ran
# last night. Its experiment (sh train.sh, a stand-in for train.py) prints a
# log and the summary block (`---`, then `val_bpb: ...` and the rest), no
# __RESULT__ line; model.txt holds the settings, with a little noise seeded
# by a run counter. Two of the night's keeps are commits of the branch; its
# results.tsv (untracked, as that loop keeps it) lists every run.
set -e
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
printf 'lr = 0.003\ndepth = 8\n' > model.txt
printf '.runs\n' > .gitignore
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
