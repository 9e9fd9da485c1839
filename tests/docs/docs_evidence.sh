# The projects of docs/evidence.md. The guards' and held-out check's: a git repository in project/ (so that
# the operator's held-out journal, under $HOME, is outside it) whose
# experiment (sh train.sh) prints the validation loss of model.txt's
# settings, with a little noise seeded by a run counter; `sh costs.sh` is
# the same run printing what it cost too (its step time and peak memory),
# and `sh test.sh` a held-out evaluation of the same settings (the
# operator's copy in ~/heldout/, outside the repository).
set -e

# seeds/: a git repository whose experiment (sh train.sh) prints the
# validation loss of model.txt's alpha, with a noise its seed decides (the
# data order and the initialisation of a real training run): ARX_SEED when
# arx hands one, else a fresh one per run.
mkdir seeds
(
cd seeds
cat > train.sh << 'SH'
#!/bin/sh
alpha=$(sed -n 's/^alpha = //p' model.txt)
awk -v a="$alpha" 'BEGIN {
  s = ENVIRON["ARX_SEED"]
  if (s == "") { srand(); s = int(rand() * 1000000) }
  noise = ((s % 1000) / 1000 - 0.5) * 0.05
  printf "__RESULT__ {\"val_loss\": %.4f}\n", 0.25 - 20 * a + noise
}'
SH
printf 'alpha = 0.0001\n' > model.txt
printf '.arx/\n' > .gitignore
git init -q
git add -A
git commit -qm "A toy training run"
)

mkdir project
cd project
. "$(dirname "$0")/lib/toy_training.sh"
cat > eval.awk <<'AWK'
$1 == "lr" { lr = $3 }
$1 == "width" { width = $3 }
END {
    srand(seed + 1)
    l = log(lr) / log(10)
    loss = 1.0 + 0.08 * (l + 1.5) ^ 2 + 0.15 * 64 / width + 0.03
    noise = (rand() + rand() + rand() - 1.5) * 0.01
    if (!costs) {
        printf "__RESULT__ {\"val_loss\": %.4f}\n", loss + noise
        exit
    }
    step = 0.2 * width / 64 * (1 + (rand() - 0.5) * 0.02)
    printf "__RESULT__ {\"val_loss\": %.4f, \"step_time_s\": %.4f, \"peak_vram_gb\": %.1f}\n", loss + noise, step, 12 * width / 64
}
AWK
cat > costs.sh <<'SH'
#!/bin/sh
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
exec awk -v seed="$n" -v costs=1 -f eval.awk model.txt
SH
cat > test.sh <<'SH'
#!/bin/sh
# The held-out split: a large learning rate overfits the validation data.
exec awk '$1 == "lr" { lr = $3 } $1 == "width" { width = $3 }
END { l = log(lr) / log(10); t = 1.05 + 0.08 * (l + 1.5) ^ 2 + 0.15 * 64 / width
      if (lr > 0.01) t += 0.3
      printf "__RESULT__ {\"test_loss\": %.4f}\n", t }' model.txt
SH
mkdir -p "$HOME/heldout"
cp test.sh "$HOME/heldout/test.sh"
printf '.arx/\n' >> .gitignore
git init -q -b main
# suite/, the page's per-instance example, is a project of its own inside
# this one: ignored here, as a nested repository must be.
printf 'suite/\n' >> .git/info/exclude
git add -A
git commit -qm "A toy training run"
