# docs/rounds.md: a project with a system prompt, and arx.toml's [harness]
# with one check (a lint of the prompts) and one round a day.
set -e
mkdir -p prompts
printf 'You are a research assistant.\n' > prompts/system.md
cat > lint.sh <<'SH'
#!/bin/sh
# Every prompt ends with a newline and has no trailing spaces.
! grep -rn ' $' prompts
SH
cat > arx.toml <<'TOML'
[gates]
execute = false
kg_write = false

[harness]
autonomy = "review"
min_confidence = 0.7
min_interval_hours = 24

[[harness.checks]]
name = "lint"
command = "sh lint.sh"
TOML
git init -q
arx init > /dev/null
git add -A
git commit -qm "A project with a system prompt"
