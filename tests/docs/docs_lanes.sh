# The project of docs/lanes.md: a git repository in project/ (its lanes go
# beside it, in project.lanes/) whose experiment (sh train.sh) prints the
# validation loss of model.txt's settings, with a little noise seeded by a
# run counter.
set -e
mkdir project
cd project
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
    srand(seed + 1)
    l = log(lr) / log(10)
    loss = 1.0 + 0.08 * (l + 1.5) ^ 2 + 0.15 * 64 / width + 0.03
    noise = (rand() + rand() + rand() - 1.5) * 0.01
    printf "__RESULT__ {\"val_loss\": %.4f}\n", loss + noise
}
AWK
printf 'lr = 0.003\n# the width of the hidden layer\nwidth = 64\n' > model.txt
printf '.runs\n.arx/\n' > .gitignore
cat > arx.toml <<'TOML'
[gates]
execute = false

[objective]
metric = "val_loss"
direction = "min"
command = "sh train.sh"
protect = ["eval.awk"]
slots = 2
slot_env = "CUDA_VISIBLE_DEVICES"
TOML
git init -q -b main
git add -A
git commit -qm "A toy training run"
