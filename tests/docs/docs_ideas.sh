# The project of docs/ideas.md: a git repository whose experiment (sh
# train.sh) prints the validation loss of model.txt's settings, with a
# little noise seeded by a run counter.
set -e
. "$(dirname "$0")/lib/toy_training.sh"
printf '.arx/\n*.id\n' >> .gitignore
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
