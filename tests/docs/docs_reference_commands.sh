# docs/reference/commands.md runs in a new git repository.
set -e
git init -q
