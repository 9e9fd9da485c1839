# The project of docs/ideas.md: a git repository whose experiment (sh
# train.sh) prints the validation loss of model.txt's settings, with a
# little noise seeded by a run counter; and in choose/ (ignored by the
# first), a second such repository, for "Choosing the next idea", whose
# objective decides on one run of each.
set -e
lib="$(dirname "$0")/lib/toy_training.sh"
. "$lib"
printf '.arx/\n*.id\nchoose/\n' >> .gitignore
cat > arx.toml <<'TOML'
[gates]
execute = false

[objective]
metric = "val_loss"
direction = "min"
command = "sh train.sh"
protect = ["eval.awk"]
TOML
git init -q -b main
git add -A
git commit -qm "A toy training run"
mkdir choose
cd choose
. "$lib"
printf '.arx/\n*.id\n' >> .gitignore
cat > arx.toml <<'TOML'
[gates]
execute = false

[objective]
metric = "val_loss"
direction = "min"
command = "sh train.sh"
repeat = 1
baseline_repeat = 1
rule = "strict"
TOML
git init -q -b main
git add -A
git commit -qm "A toy training run"
