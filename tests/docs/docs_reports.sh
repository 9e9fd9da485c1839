# docs/reports.md: a night of the loop to report on. A toy training run
# (sh train.sh over model.txt's settings) in a git repository, a few tries
# through the real `arx try` at fixed times (--now), then two plain runs of
# a retrieval evaluation with candidates.
set -e
cat > train.sh <<'SH'
#!/bin/sh
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
exec awk -v seed="$n" -f eval.awk model.txt
SH
cat > eval.awk <<'AWK'
$1 == "lr" { lr = $3 }
$1 == "width" { width = $3 }
END {
    if (lr + 0 <= 0) { print "ValueError: lr must be a positive number" > "/dev/stderr"; exit 1 }
    srand(seed + 1)
    l = log(lr) / log(10)
    loss = 1.0 + 0.08 * (l + 1.5) ^ 2 + 0.15 * 64 / width + 0.03
    noise = (rand() + rand() + rand() - 1.5) * 0.01
    printf "__RESULT__ {\"val_loss\": %.4f}\n", loss + noise
}
AWK
cat > retrieval.sh <<'SH'
#!/bin/sh
case "$1" in hybrid) echo '__RESULT__ {"acc": 0.8312}' ;; *) echo '__RESULT__ {"acc": 0.6104}' ;; esac
SH
printf 'lr = 0.003\nwidth = 64\n' > model.txt
printf '.runs\n' > .gitignore
cat > arx.toml <<'TOML'
[gates]
execute = false
kg_write = false

[objective]
metric = "val_loss"
direction = "min"
command = "sh train.sh"
protect = ["eval.awk"]
baseline_repeat = 3
TOML
git init -q
git add -A
git commit -qm "A toy training run"
arx --now 2026-11-21T09:04:00Z try > /dev/null 2>&1
sed -i 's/lr = 0.003/lr = 0.03/' model.txt
arx --now 2026-11-21T09:08:00Z try -m "raise the learning rate tenfold" > /dev/null 2>&1
sed -i 's/width = 64/width = 16/' model.txt
arx --now 2026-11-21T09:12:00Z try -m "a narrower model" > /dev/null 2>&1 || true
sed -i 's/lr = 0.03/lr = fast/' model.txt
arx --now 2026-11-21T09:16:00Z try -m "a typo in the learning rate" > /dev/null 2>&1 || true
sed -i 's/width = 64/width = 128/' model.txt
arx --now 2026-11-21T09:20:00Z try -m "twice as wide" > /dev/null 2>&1
echo "# notes" >> model.txt
arx --now 2026-11-21T09:24:00Z try -m "a comment (no effect)" > /dev/null 2>&1 || true
arx --now 2026-11-21T09:28:00Z run --candidate bm25 --metric acc --cmp '>=' --target 0.8 -- sh retrieval.sh bm25 > /dev/null 2>&1 || true
arx --now 2026-11-21T09:32:00Z run --candidate hybrid --metric acc --cmp '>=' --target 0.8 --tag seed-0 \
    --hypothesis "Hybrid BM25+dense retrieval reaches accuracy 0.8 on eval-v3" -- sh retrieval.sh hybrid > /dev/null 2>&1
