# The project of docs/ratchet.md: a git repository whose experiment
# (sh train.sh) prints the validation loss of model.txt's settings, with a
# little noise seeded by a run counter.
set -e
. "$(dirname "$0")/lib/toy_training.sh"
git init -q
git add -A
git commit -qm "A toy training run"
