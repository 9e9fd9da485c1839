# A toy training run, written into the working directory: `sh train.sh`
# prints the validation loss of model.txt's settings (lr, width), with a
# little noise seeded by a run counter (.runs, ignored by git). Sourced by
# the pages' setup scripts, which make the repository around it.
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
printf 'lr = 0.003\nwidth = 64\n' > model.txt
printf '.runs\n' > .gitignore
