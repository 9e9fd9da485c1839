# The fleet of docs/fleet.md: a shared repository (shared.git, a bare
# repository standing for the one on GitHub) holding a toy training run,
# and two machines' clones of it, box1/ and box2/, each named and classed
# in its own git configuration.
set -e
mkdir seed
cd seed
. "$(dirname "$0")/lib/toy_training.sh"
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

[fleet]
remote = "origin"
TOML
git init -q -b main
git add -A
git commit -qm "A toy training run"
cd ..
git init -q --bare -b main shared.git
git -C seed push -q ../shared.git main
for m in box1 box2; do
  git clone -q shared.git "$m"
done
rm -rf seed
