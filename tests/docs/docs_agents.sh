# The project of docs/agents.md: a git repository whose experiment
# (sh train.sh) prints the validation loss of model.txt's settings.
set -e
. "$(dirname "$0")/lib/toy_training.sh"
git init -q
git add -A
git commit -qm "A toy training run"
