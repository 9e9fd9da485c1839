# The project of docs/lanes.md: a git repository in project/ (its lanes go
# beside it, in project.lanes/) whose experiment (sh train.sh) prints the
# validation loss of model.txt's settings, with a little noise seeded by a
# run counter.
set -e
mkdir project
cd project
. "$(dirname "$0")/lib/toy_training.sh"
# A comment between the two settings, so two lanes that change one each
# merge cleanly.
printf 'lr = 0.003\n# the width of the hidden layer\nwidth = 64\n' > model.txt
printf '.arx/\n' >> .gitignore
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
