# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_arx_global_optspecs
    string join \n json q/quiet color= config= state-dir= holdout-config= now= h/help V/version
end

function __fish_arx_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_arx_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_arx_using_subcommand
    set -l cmd (__fish_arx_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c arx -n "__fish_arx_needs_command" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_needs_command" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_needs_command" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_needs_command" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_needs_command" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_needs_command" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_needs_command" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_needs_command" -s V -l version -d 'Print version'
complete -c arx -n "__fish_arx_needs_command" -f -a "parse" -d 'Print the metrics of the first `__RESULT__ {json}` line as JSON'
complete -c arx -n "__fish_arx_needs_command" -f -a "measure" -d 'Compute the verdict of an experiment\'s stdout against a metric spec'
complete -c arx -n "__fish_arx_needs_command" -f -a "classify" -d 'Print the failure class (H2, H3, H4 or none) of a stderr stream'
complete -c arx -n "__fish_arx_needs_command" -f -a "gate" -d 'Approval gates: check one before acting, or show their state'
complete -c arx -n "__fish_arx_needs_command" -f -a "decide" -d 'Decide the loop\'s next step from the latest verdict'
complete -c arx -n "__fish_arx_needs_command" -f -a "plateau" -d 'Detect a plateau: the last WINDOW verdicts hold no `supported`'
complete -c arx -n "__fish_arx_needs_command" -f -a "deadend" -d 'Dead ends: approaches that a deterministic refutation ruled out'
complete -c arx -n "__fish_arx_needs_command" -f -a "knowhow" -d 'Knowhow: positive learnings worth keeping'
complete -c arx -n "__fish_arx_needs_command" -f -a "finding" -d 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal'
complete -c arx -n "__fish_arx_needs_command" -f -a "idea" -d 'The backlog of ideas: what to try, each try\'s idea, what became of it'
complete -c arx -n "__fish_arx_needs_command" -f -a "run" -d 'Run an experiment: gate, live output, verdict, journal'
complete -c arx -n "__fish_arx_needs_command" -f -a "compare" -d 'Compare a baseline and a candidate command over interleaved runs'
complete -c arx -n "__fish_arx_needs_command" -f -a "try" -d 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it'
complete -c arx -n "__fish_arx_needs_command" -f -a "best" -d 'The best kept run of the ratchet\'s segment: value, interval, commit'
complete -c arx -n "__fish_arx_needs_command" -f -a "status" -d 'The ratchet\'s state and the stop advice: exit 0 when a stop rule fires, 1 to go on'
complete -c arx -n "__fish_arx_needs_command" -f -a "restore" -d 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside'
complete -c arx -n "__fish_arx_needs_command" -f -a "log" -d 'List journaled runs, newest last (`--json`: one record per line)'
complete -c arx -n "__fish_arx_needs_command" -f -a "report" -d 'What the loop did: the segment\'s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown'
complete -c arx -n "__fish_arx_needs_command" -f -a "show" -d 'Show one journaled run in full (a unique prefix of its id is enough)'
complete -c arx -n "__fish_arx_needs_command" -f -a "journal" -d 'The run journal: merge journals from many machines, verify one'
complete -c arx -n "__fish_arx_needs_command" -f -a "lane" -d 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)'
complete -c arx -n "__fish_arx_needs_command" -f -a "fleet" -d 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best'
complete -c arx -n "__fish_arx_needs_command" -f -a "next" -d 'Pick the next experiment from candidates, by expected free energy'
complete -c arx -n "__fish_arx_needs_command" -f -a "precision" -d 'The precision engine\'s state: show, rebuild from the journal, reset'
complete -c arx -n "__fish_arx_needs_command" -f -a "policy" -d 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures'
complete -c arx -n "__fish_arx_needs_command" -f -a "round" -d 'Life-harness rounds: validate, apply, revert and list patches to the project\'s own prompts, config and code, each as one git commit'
complete -c arx -n "__fish_arx_needs_command" -f -a "init" -d 'Set up arx in this repository: .arx/, arx.toml and .gitattributes'
complete -c arx -n "__fish_arx_needs_command" -f -a "ps" -d 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age'
complete -c arx -n "__fish_arx_needs_command" -f -a "watch" -d 'Follow live runs\' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON'
complete -c arx -n "__fish_arx_needs_command" -f -a "serve" -d 'Serve the night\'s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload'
complete -c arx -n "__fish_arx_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c arx -n "__fish_arx_needs_command" -f -a "mcp" -d 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)'
complete -c arx -n "__fish_arx_needs_command" -f -a "demo" -d 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page'
complete -c arx -n "__fish_arx_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c arx -n "__fish_arx_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand parse" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand parse" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand parse" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand parse" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand parse" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand parse" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand parse" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand parse" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand parse" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand parse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand measure" -l metric -d 'Metric key to judge (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l cmp -d 'Comparator: >=, <=, >, < or == (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l target -d 'Target value, a finite number (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l spec -d 'Metric spec file, TOML or JSON: metric_key, comparator, target and an optional hypothesis' -r -F
complete -c arx -n "__fish_arx_using_subcommand measure" -l exit-code -d 'Exit code of the experiment (default 0, or 124 with --timed-out)' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l stderr -d 'The experiment\'s stderr, classified into a failure class' -r -F
complete -c arx -n "__fish_arx_using_subcommand measure" -l failure-class -d 'Failure class when stderr is not at hand' -r -f -a "H2\t''
H3\t''
H4\t''
none\t''"
complete -c arx -n "__fish_arx_using_subcommand measure" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand measure" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand measure" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand measure" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand measure" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand measure" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand measure" -l timed-out -d 'The run timed out'
complete -c arx -n "__fish_arx_using_subcommand measure" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand measure" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand measure" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand classify" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand classify" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand classify" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand classify" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand classify" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand classify" -l timed-out -d 'The run timed out (always H4)'
complete -c arx -n "__fish_arx_using_subcommand classify" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand classify" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand classify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -f -a "check" -d 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -f -a "show" -d 'Show which gates are on, and where the setting came from'
complete -c arx -n "__fish_arx_using_subcommand gate; and not __fish_seen_subcommand_from check show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l approve -d 'A person approved this step'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from help" -f -a "check" -d 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show which gates are on, and where the setting came from'
complete -c arx -n "__fish_arx_using_subcommand gate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand decide" -l iteration -d 'Current iteration number' -r
complete -c arx -n "__fish_arx_using_subcommand decide" -l max-iterations -d 'Iteration budget' -r
complete -c arx -n "__fish_arx_using_subcommand decide" -l verdict -d 'Verdict of the latest experiment' -r -f -a "supported\t''
refuted\t''
inconclusive\t''"
complete -c arx -n "__fish_arx_using_subcommand decide" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand decide" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand decide" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand decide" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand decide" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand decide" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand decide" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand decide" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand plateau" -l window -d 'How many recent verdicts to look at (at least 1)' -r
complete -c arx -n "__fish_arx_using_subcommand plateau" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand plateau" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand plateau" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand plateau" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand plateau" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand plateau" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand plateau" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand plateau" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "add" -d 'Record a dead end by hand (kept once per approach)'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "check" -d 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "scan" -d 'Exit 1 when a file names a known dead end: a spec\'s `hypothesis`, a candidates file\'s `statement`s, or a line of any other text file'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "list" -d 'List known dead ends'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "promote" -d 'Promote a verdict to a dead end: only a deterministic refutation is kept'
complete -c arx -n "__fish_arx_using_subcommand deadend; and not __fish_seen_subcommand_from add check scan list promote help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l reason -d 'Why it is a dead end' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l iteration -d 'Loop iteration it was found in' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l evidence-level -d 'Strength of the evidence' -r -f -a "deterministic\t''
exit_code\t''
llm\t''
manual\t''"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l verdict -d 'Verdict record as printed by `arx measure --json` (`-` for stdin)' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l statement -d 'The approach (default: the hypothesis in the verdict record)' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l iteration -d 'Loop iteration' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "add" -d 'Record a dead end by hand (kept once per approach)'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "check" -d 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "scan" -d 'Exit 1 when a file names a known dead end: a spec\'s `hypothesis`, a candidates file\'s `statement`s, or a line of any other text file'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "list" -d 'List known dead ends'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "promote" -d 'Promote a verdict to a dead end: only a deterministic refutation is kept'
complete -c arx -n "__fish_arx_using_subcommand deadend; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -f -a "add" -d 'Record a positive learning (an identical one is kept once)'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -f -a "list" -d 'List knowhow'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and not __fish_seen_subcommand_from add list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l content -d 'The learning itself' -r
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l iteration -d 'Loop iteration it was found in' -r
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from help" -f -a "add" -d 'Record a positive learning (an identical one is kept once)'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from help" -f -a "list" -d 'List knowhow'
complete -c arx -n "__fish_arx_using_subcommand knowhow; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "add" -d 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "ingest" -d 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "maintain" -d 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "rank" -d 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "list" -d 'List findings (live ones unless --all or --status)'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "show" -d 'Show one finding in full (a unique prefix of its id is enough)'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "explain" -d 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "merge" -d 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
complete -c arx -n "__fish_arx_using_subcommand finding; and not __fish_seen_subcommand_from add ingest maintain rank list show explain merge help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l kind -d 'What it is' -r -f -a "takeaway\t''
decision\t''
insight\t''
hypothesis\t''
todo\t''
question\t''"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l source -d 'Where it came from: a run id, a round, a file, a person' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l confidence -d 'How sure it is, in [0, 1] (default 0.7)' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l tag -d 'A label (repeatable)' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l kind -d 'Record every claim as this kind (default: guessed from its wording)' -r -f -a "takeaway\t''
decision\t''
insight\t''
hypothesis\t''
todo\t''
question\t''"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l source -d 'Source of the claims (default: the file name, or `stdin`)' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l confidence -d 'Confidence of the claims, in [0, 1] (default 0.5)' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l dry-run -d 'List the claims found; record nothing'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from ingest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l force -d 'Apply a pass past the safety limit'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l dry-run -d 'Say what the pass would change; write nothing'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from maintain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l context -d 'What the next proposal is about' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l limit -d 'Most findings shown' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from rank" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l kind -d 'Only this kind' -r -f -a "takeaway\t''
decision\t''
insight\t''
hypothesis\t''
todo\t''
question\t''"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l status -d 'Only this status' -r -f -a "active\t''
decaying\t''
deprecated\t''"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l limit -d 'Only the N most recent' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l all -d 'Deprecated findings too'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l context -d 'Rank it against this context (default: its own text)' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "add" -d 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "ingest" -d 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "maintain" -d 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "rank" -d 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "list" -d 'List findings (live ones unless --all or --status)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one finding in full (a unique prefix of its id is enough)'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "explain" -d 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "merge" -d 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
complete -c arx -n "__fish_arx_using_subcommand finding; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -f -a "add" -d 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -f -a "list" -d 'The backlog, oldest first: each idea\'s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -f -a "drop" -d 'Drop an idea: no longer proposed (its tries stay in the journal)'
complete -c arx -n "__fish_arx_using_subcommand idea; and not __fish_seen_subcommand_from add list drop help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l family -d 'Its family: one word (letters, digits, _, - or .), e.g. lr, batch, init' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l retry -d 'Try this idea (its id or a unique prefix) again; needs --because' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l because -d 'With --retry: what changed since it was tried' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l status -d 'Only ideas with this status' -r -f -a "open\t''
in_flight\t''
tried\t''
dropped\t''"
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l family -d 'Only ideas of this family' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l limit -d 'Only the N most recent ideas' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l reason -d 'Why' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from drop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from help" -f -a "list" -d 'The backlog, oldest first: each idea\'s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from help" -f -a "drop" -d 'Drop an idea: no longer proposed (its tries stay in the journal)'
complete -c arx -n "__fish_arx_using_subcommand idea; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand run" -l metric -d 'Metric key to judge (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l cmp -d 'Comparator: >=, <=, >, < or == (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l target -d 'Target value, a finite number (overrides the spec file)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l spec -d 'Metric spec file, TOML or JSON (metric_key, comparator, target, hypothesis)' -r -F
complete -c arx -n "__fish_arx_using_subcommand run" -l hypothesis -d 'The hypothesis this run tests (default: the spec file\'s)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l candidate -d 'Name of the candidate experiment (for `arx log --candidate`)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l tag -d 'A tag for the journal (repeatable)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l state -d 'A feature of the loop\'s state for the policy cache (repeatable); numbers, true, false and null are read as JSON, anything else as text' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l state-json -d 'The loop\'s state as a JSON object' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l timeout -d 'Time limit, e.g. 90s, 15m, 2h, 1h30m (a bare number is seconds)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l grace -d 'Time between SIGTERM and SIGKILL when ending the experiment' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l events -d 'Write an NDJSON event stream to PATH (`-`: stdout; the experiment\'s own stdout then goes to stderr)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l heartbeat -d 'Interval of heartbeat events' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l iteration -d 'Loop iteration (recorded with a promoted dead end)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l repeat -d 'Run N times and judge the mean with a confidence interval' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l confidence -d 'Confidence level of the interval (with --repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l prune -d 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l progress-step -d 'The progress key holding the step (default: step)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l launcher -d 'Start every experiment through this command, split at whitespace, e.g. \'srun --gres=gpu:1 --\' ([objective] launcher). With srun each job is named arx-<run id>' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand run" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand run" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand run" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand run" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand run" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand run" -l stop-on-result -d 'End the experiment once its result line is in (after a 1 s grace)'
complete -c arx -n "__fish_arx_using_subcommand run" -l approve -d 'Approve the `execute` gate for this run'
complete -c arx -n "__fish_arx_using_subcommand run" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand run" -l force -d 'Run even when the hypothesis is a known dead end'
complete -c arx -n "__fish_arx_using_subcommand run" -l promote -d 'Record a deterministic refutation in the dead-end registry'
complete -c arx -n "__fish_arx_using_subcommand run" -l shell -d 'Run the command through /bin/sh -c'
complete -c arx -n "__fish_arx_using_subcommand run" -l no-journal -d 'Do not write the journal'
complete -c arx -n "__fish_arx_using_subcommand run" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand run" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand compare" -l baseline-cmd -d 'Baseline command (run through /bin/sh -c)' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l candidate-cmd -d 'Candidate command (run through /bin/sh -c)' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l metric -d 'Metric key to compare' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l direction -d 'Which way is better' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand compare" -l min-effect -d 'Smallest improvement that counts' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l runs -d 'Runs of each command' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l confidence -d 'Confidence level of the interval' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l timeout -d 'Time limit per run' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand compare" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand compare" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand compare" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand compare" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand compare" -l approve -d 'Approve the `execute` gate'
complete -c arx -n "__fish_arx_using_subcommand compare" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand compare" -l no-journal -d 'Do not write the journal'
complete -c arx -n "__fish_arx_using_subcommand compare" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand compare" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand try" -s m -l description -d 'What the change is: the journal\'s description, the commit subject' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l idea -d 'The idea of the backlog this try tests (its id or a unique prefix): recorded with the try; its statement is the description unless -m is given' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l family -d 'The family of the change (one word). With -m and no --idea: the try adds its description to the backlog as an idea of this family. Without either, a try takes the family of the most similar idea' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l rule -d 'The decision rule: sequential (arx\'s: a group-sequential test that keeps a change no better than the best 1 - confidence of the time), confirm (screen, then confirmation runs), strict (keep one sample better than the best, unconfirmed), mad (better, and the segment\'s MAD confidence >= 2)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l lane -d 'Run the try in this lane (`arx lane add`), from anywhere in the repository: the same as running it in the lane\'s directory' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l because -d 'With --retry: what changed since the idea was tried, or why it runs here as well as in another lane' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l grace -d 'Time between SIGTERM and SIGKILL when ending the experiment' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l events -d 'Append NDJSON events (started, progress, result, heartbeat, finished) to PATH' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l heartbeat -d 'Time between heartbeat events' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l prune -d 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l progress-step -d 'The progress key holding the step (default: step)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l launcher -d 'Start every experiment through this command, split at whitespace, e.g. \'srun --gres=gpu:1 --\' ([objective] launcher). With srun each job is named arx-<run id>' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l metric -d 'The metric to improve ([objective] metric)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l direction -d 'Which way the metric improves ([objective] direction)' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand try" -l command -d 'The experiment as one shell command line ([objective] command); or give it after `--`' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l timeout -d 'Time limit of one run, e.g. 10m ([objective] timeout)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l repeat -d 'Runs of each candidate, at least ([objective] repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l baseline-repeat -d 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l min-effect -d 'Smallest improvement worth keeping, in metric units ([objective] min_effect)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l confidence -d 'Confidence of a keep ([objective] confidence)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l check -d 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l protect -d 'A path or glob no candidate may change (repeatable; replaces [objective] protect)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l max-runs -d 'Stop after this many runs in the segment ([objective.stop] max_runs)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l max-discards-in-a-row -d 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l max-hours -d 'Stop after this many hours of the segment ([objective.stop] max_hours)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l target -d 'Stop once the best reaches this value ([objective.stop] target)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand try" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand try" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand try" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand try" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand try" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand try" -l new-segment -d 'Start a new segment: measure the baseline again'
complete -c arx -n "__fish_arx_using_subcommand try" -l dry-run -d 'Say what would be run, kept or restored; change nothing'
complete -c arx -n "__fish_arx_using_subcommand try" -l strict -d 'Refuse (exit 1) when the description matches a deprecated or refuted finding or a known dead end; without it, warn and go on'
complete -c arx -n "__fish_arx_using_subcommand try" -l approve -d 'Approve the `execute` gate for this try'
complete -c arx -n "__fish_arx_using_subcommand try" -l no-gates -d 'Ignore the approval gates'
complete -c arx -n "__fish_arx_using_subcommand try" -l no-repeat -d 'Refuse (exit 1, `refused: a repeat`) an idea discarded at this parent already, unless --because says what changed; without it, warn and go on. The MCP server\'s `try` always asks for this'
complete -c arx -n "__fish_arx_using_subcommand try" -l retry -d 'With --idea and --because: try the idea again as a retry (a new idea of the backlog that names it), also when another lane has it in flight (refused without it, exit 2)'
complete -c arx -n "__fish_arx_using_subcommand try" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand try" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand try" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand best" -l metric -d 'The metric to improve ([objective] metric)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l direction -d 'Which way the metric improves ([objective] direction)' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand best" -l command -d 'The experiment as one shell command line ([objective] command); or give it after `--`' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l timeout -d 'Time limit of one run, e.g. 10m ([objective] timeout)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l repeat -d 'Runs of each candidate, at least ([objective] repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l baseline-repeat -d 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l min-effect -d 'Smallest improvement worth keeping, in metric units ([objective] min_effect)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l confidence -d 'Confidence of a keep ([objective] confidence)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l check -d 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l protect -d 'A path or glob no candidate may change (repeatable; replaces [objective] protect)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l max-runs -d 'Stop after this many runs in the segment ([objective.stop] max_runs)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l max-discards-in-a-row -d 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l max-hours -d 'Stop after this many hours of the segment ([objective.stop] max_hours)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l target -d 'Stop once the best reaches this value ([objective.stop] target)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand best" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand best" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand best" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand best" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand best" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand best" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand best" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand best" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand status" -l metric -d 'The metric to improve ([objective] metric)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l direction -d 'Which way the metric improves ([objective] direction)' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand status" -l command -d 'The experiment as one shell command line ([objective] command); or give it after `--`' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l timeout -d 'Time limit of one run, e.g. 10m ([objective] timeout)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l repeat -d 'Runs of each candidate, at least ([objective] repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l baseline-repeat -d 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l min-effect -d 'Smallest improvement worth keeping, in metric units ([objective] min_effect)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l confidence -d 'Confidence of a keep ([objective] confidence)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l check -d 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l protect -d 'A path or glob no candidate may change (repeatable; replaces [objective] protect)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l max-runs -d 'Stop after this many runs in the segment ([objective.stop] max_runs)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l max-discards-in-a-row -d 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l max-hours -d 'Stop after this many hours of the segment ([objective.stop] max_hours)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l target -d 'Stop once the best reaches this value ([objective.stop] target)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l result-format -d 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)' -r -f -a "arx\t''
pi\t''
summary\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand status" -l result-pattern -d 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand status" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand status" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand status" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand status" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand status" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand status" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand restore" -l older-than -d 'With --prune: the age (such as 30d, 12h) beyond which a set-aside candidate goes' -r
complete -c arx -n "__fish_arx_using_subcommand restore" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand restore" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand restore" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand restore" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand restore" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand restore" -l list -d 'List the candidates set aside under refs/arx/discarded/, oldest first, with their age and size; change nothing'
complete -c arx -n "__fish_arx_using_subcommand restore" -l prune -d 'Remove the refs of candidates set aside longer ago than --older-than (git gc then frees their space)'
complete -c arx -n "__fish_arx_using_subcommand restore" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand restore" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand log" -l limit -l last -d 'Show at most the N most recent runs' -r
complete -c arx -n "__fish_arx_using_subcommand log" -l candidate -d 'Only runs of this candidate' -r
complete -c arx -n "__fish_arx_using_subcommand log" -l format -d 'The ratchet\'s results table instead (commit, metric, status, description, other metrics), as TSV or CSV' -r -f -a "tsv\t'Tab-separated, with a header line (results.tsv)'
csv\t'Comma-separated (RFC 4180), with a header line'"
complete -c arx -n "__fish_arx_using_subcommand log" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand log" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand log" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand log" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand log" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand log" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand log" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand report" -l svg -d 'Write the progress chart to FILE (SVG)' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l html -d 'Write a self-contained HTML page to FILE: chart, summary, run table, rounds, dead ends' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l refresh -d 'Make the HTML page reload itself every SECONDS (a page left open follows the loop live)' -r
complete -c arx -n "__fish_arx_using_subcommand report" -l junit -d 'Write every run as a JUnit test case to FILE' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l segment -d 'Narrow the report to ratchet segment N, or summarize `all` of them (default: every run, the latest segment summarized)' -r
complete -c arx -n "__fish_arx_using_subcommand report" -l last -d 'How many last runs (and dead ends, rounds) to list' -r
complete -c arx -n "__fish_arx_using_subcommand report" -l x -d 'The chart\'s x axis' -r -f -a "run\t'Run number'
time\t'Hours since the first run'"
complete -c arx -n "__fish_arx_using_subcommand report" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand report" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand report" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand report" -l markdown -d 'Print the summary and the last runs as Markdown (for $GITHUB_STEP_SUMMARY and pull-request comments)'
complete -c arx -n "__fish_arx_using_subcommand report" -l holdout -d 'Print the held-out check\'s values and output from the operator\'s held-out journal (ARX_HOLDOUT_JOURNAL), which nothing else shows'
complete -c arx -n "__fish_arx_using_subcommand report" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand report" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand show" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand show" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand show" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand show" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand show" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand show" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -f -a "merge" -d 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -f -a "verify" -d 'Check the journal: readable records, duplicate and conflicting run ids'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -f -a "import" -d 'Import another loop\'s night as ratchet records marked imported: karpathy\'s or codex\'s results.tsv, pi\'s autoresearch.jsonl (or .auto/log.jsonl)'
complete -c arx -n "__fish_arx_using_subcommand journal; and not __fish_seen_subcommand_from merge verify import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l from -d 'The loop that wrote it (default: told by the file\'s first line)' -r -f -a "karpathy\t'karpathy/autoresearch\'s results.tsv'
pi\t'pi-autoresearch\'s autoresearch.jsonl'
codex\t'codex-autoresearch\'s results.tsv'"
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l metric -d 'The metric\'s column (karpathy; default: the one arx.toml names, else the first numeric column that is not a commit, time, memory or counter and that varies); the name to record it under (codex\'s `metric` column, pi\'s metric)' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l direction -d 'Which way the metric improves (default: the file\'s own word, else arx.toml\'s when it names that metric, else the way the night\'s keeps moved; when none tells, arx asks for this flag)' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l undo -d 'Remove exactly what an import added: every import of FILE, or the import with that id (shown by the import), so it can be redone' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "merge" -d 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check the journal: readable records, duplicate and conflicting run ids'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "import" -d 'Import another loop\'s night as ratchet records marked imported: karpathy\'s or codex\'s results.tsv, pi\'s autoresearch.jsonl (or .auto/log.jsonl)'
complete -c arx -n "__fish_arx_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -f -a "add" -d 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -f -a "list" -d 'The lanes: path, base commit, keeps behind the best, last try, live run'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -f -a "sync" -d 'Replay a lane\'s work onto the best (exit 1 when it conflicts; nothing changes then)'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -f -a "rm" -d 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
complete -c arx -n "__fish_arx_using_subcommand lane; and not __fish_seen_subcommand_from add list sync rm help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l dir -d 'Where lanes go (default: `<repository>.lanes/` beside the repository)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l theirs -d 'Where the lane\'s work conflicts with the best, the best\'s side wins (the rest of the work is replayed); the work as it was is stored under refs/arx/discarded/lane-NAME-<time> first'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l force -d 'Remove it even with unsaved work, which is first stored under refs/arx/discarded/lane-NAME-<time> (`arx restore lane-NAME-<time>` puts it back)'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from help" -f -a "list" -d 'The lanes: path, base commit, keeps behind the best, last try, live run'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from help" -f -a "sync" -d 'Replay a lane\'s work onto the best (exit 1 when it conflicts; nothing changes then)'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from help" -f -a "rm" -d 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
complete -c arx -n "__fish_arx_using_subcommand lane; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -f -a "status" -d 'The machines: class, last seen, what each tries, the fleet\'s best and each class\'s best (as last fetched; `--fetch` asks the remote)'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -f -a "sync" -d 'Fetch the fleet\'s records and publish this machine\'s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
complete -c arx -n "__fish_arx_using_subcommand fleet; and not __fish_seen_subcommand_from status sync help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l fetch -d 'Fetch from the remote first (without publishing anything)'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "status" -d 'The machines: class, last seen, what each tries, the fleet\'s best and each class\'s best (as last fetched; `--fetch` asks the remote)'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "sync" -d 'Fetch the fleet\'s records and publish this machine\'s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
complete -c arx -n "__fish_arx_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand next" -l candidates -d 'Candidates: TOML `[[candidate]]` tables or a JSON array with name, statement, optional steps and preferences. Without it, the open ideas of the backlog (`arx idea add`) are ranked from the ratchet\'s record' -r -F
complete -c arx -n "__fish_arx_using_subcommand next" -l lane -d 'The lane asking (`arx lane add`): never given an idea in flight in another lane, and the idea it is given counts as in flight for the others until it is tried (ideas only)' -r
complete -c arx -n "__fish_arx_using_subcommand next" -l seed -d 'Seed of the pick (default: derived from the journal\'s length)' -r
complete -c arx -n "__fish_arx_using_subcommand next" -l temperature -d 'Selection temperature (beta = precision / temperature); the default is the one that did best in the selection simulation' -r
complete -c arx -n "__fish_arx_using_subcommand next" -l model -d 'Model of expected free energy' -r -f -a "lrs\t''
aif\t''"
complete -c arx -n "__fish_arx_using_subcommand next" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand next" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand next" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand next" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand next" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand next" -l greedy -d 'Take the lowest expected free energy instead of sampling'
complete -c arx -n "__fish_arx_using_subcommand next" -l explain -d 'Print a table of every candidate (on stdout, after the name)'
complete -c arx -n "__fish_arx_using_subcommand next" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand next" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand next" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -f -a "show" -d 'Values, alpha, beta and variance per level, and whether adaptation is due'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -f -a "rebuild" -d 'Rebuild the state from the journal'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -f -a "reset" -d 'Forget learned precision (kept across rebuilds)'
complete -c arx -n "__fish_arx_using_subcommand precision; and not __fish_seen_subcommand_from show rebuild reset help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from rebuild" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from help" -f -a "show" -d 'Values, alpha, beta and variance per level, and whether adaptation is due'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from help" -f -a "rebuild" -d 'Rebuild the state from the journal'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from help" -f -a "reset" -d 'Forget learned precision (kept across rebuilds)'
complete -c arx -n "__fish_arx_using_subcommand precision; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -f -a "show" -d 'Q-values per (state fingerprint, candidate), with success counts'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -f -a "crystallize" -d 'Turn groups that keep succeeding into knowhow entries (once each)'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -f -a "cycles" -d 'Do failures cluster on a weekday? (chi-squared over failing runs)'
complete -c arx -n "__fish_arx_using_subcommand policy; and not __fish_seen_subcommand_from show crystallize cycles help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l approve -d 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l no-gates -d 'Turn every gate off'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from crystallize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from cycles" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "show" -d 'Q-values per (state fingerprint, candidate), with success counts'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "crystallize" -d 'Turn groups that keep succeeding into knowhow entries (once each)'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "cycles" -d 'Do failures cluster on a weekday? (chi-squared over failing runs)'
complete -c arx -n "__fish_arx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "validate" -d 'Validate a patch: kernel rules plus checks against the real tree'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "apply" -d 'Validate, evaluate, gate and land a patch as one git commit'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "revert" -d 'Revert an applied round with a revert commit'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "status" -d 'List rounds and say when the next one is allowed'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "protect-check" -d 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "evidence" -d 'Select evidence for a round from findings (newest and strongest first)'
complete -c arx -n "__fish_arx_using_subcommand round; and not __fish_seen_subcommand_from validate apply revert status protect-check evidence help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l round-id -d 'Round id (default: the UTC time, YYYYMMDD-HHMMSS)' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l context -d 'With --evidence: the findings relevant to TEXT, best ranked first' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l auto -d 'Land the round when its checks pass and confidence suffices (never overrides the kill switch)'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l dry-run -d 'Stop after validation and the duplicate check'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l evidence -d 'Base the round on the store\'s active findings (as `arx round evidence`): saved as the round\'s evidence.md; too few skip it'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from revert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from protect-check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l findings -d 'Findings: a JSON array of {kind, content, source, created_at} (default: the active findings of the store, .arx/findings.jsonl)' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l context -d 'Draw from the store the findings relevant to TEXT, best ranked first (`arx finding rank`), instead of all active ones' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l min -d 'Fewest findings for a round (default: config min_evidence, 3)' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l max -d 'Most findings kept (default: config max_evidence, 25)' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from evidence" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Validate a patch: kernel rules plus checks against the real tree'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "apply" -d 'Validate, evaluate, gate and land a patch as one git commit'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "revert" -d 'Revert an applied round with a revert commit'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "status" -d 'List rounds and say when the next one is allowed'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "protect-check" -d 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "evidence" -d 'Select evidence for a round from findings (newest and strongest first)'
complete -c arx -n "__fish_arx_using_subcommand round; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand init" -l metric -d 'The metric `arx try` improves: the key of the experiment\'s `__RESULT__` line ([objective] metric; needs --direction)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l direction -d 'Which way the metric improves ([objective] direction)' -r -f -a "max\t''
min\t''"
complete -c arx -n "__fish_arx_using_subcommand init" -l command -d 'The experiment, one shell command line ([objective] command)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l protect -d 'Paths or globs no candidate may change ([objective] protect)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l check -d 'Commands that must exit 0 before a keep ([objective] checks)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l format -d 'How the experiment prints its numbers ([objective] format): arx\'s `__RESULT__` line, karpathy\'s closing summary block, pi\'s `METRIC` lines, or the named groups of `--pattern`' -r -f -a "arx\t''
summary\t''
pi\t''
pattern\t''"
complete -c arx -n "__fish_arx_using_subcommand init" -l pattern -d 'The regular expression of `--format pattern`, one named group per metric ([objective] pattern)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l timeout -d 'The time limit of one run ([objective] timeout: `10m`, `1h`)' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l from -d 'Set arx up in the repository of another loop: its objective read from the loop\'s files into arx.toml, its output files ignored by git, its night imported, and arx\'s loop written where that loop\'s agent reads its instructions. Other flags given with it win over what the files say' -r -f -a "karpathy\t'karpathy/autoresearch\'s results.tsv'
pi\t'pi-autoresearch\'s autoresearch.jsonl'
codex\t'codex-autoresearch\'s results.tsv'"
complete -c arx -n "__fish_arx_using_subcommand init" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand init" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand init" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand init" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand init" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand init" -l agent -d 'Also write (or update) the arx section of AGENTS.md: the loop an agent follows, filled with arx.toml\'s objective'
complete -c arx -n "__fish_arx_using_subcommand init" -l share-journal -d 'Share the journal through git (committed, merged with merge=union): only the files arx derives are ignored. Without it the state directory is ignored by git as a whole'
complete -c arx -n "__fish_arx_using_subcommand init" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand init" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand ps" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand ps" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand ps" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand ps" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand ps" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand ps" -l reap -d 'Journal lost runs as `lost`, end their orphaned experiments and remove their live files'
complete -c arx -n "__fish_arx_using_subcommand ps" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand ps" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand ps" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand watch" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand watch" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand watch" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand watch" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand watch" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand watch" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand watch" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand serve" -l port -d 'The port to listen on (0: any free port, printed)' -r
complete -c arx -n "__fish_arx_using_subcommand serve" -l bind -d 'The address to listen on. Anything but a loopback address lets every machine that reaches it read the report' -r
complete -c arx -n "__fish_arx_using_subcommand serve" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand serve" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand serve" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand serve" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand serve" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand serve" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand serve" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand completions" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand completions" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand completions" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand completions" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand completions" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand completions" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand completions" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand mcp" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand mcp" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand mcp" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand mcp" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand mcp" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand mcp" -l approve -d 'Approve the `execute` gate for every call, as the operator starting the server (also `[mcp] approve = true` in arx.toml)'
complete -c arx -n "__fish_arx_using_subcommand mcp" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand mcp" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand demo" -l dir -d 'Where to create the demo\'s repository (new or empty; default: a new directory under the system\'s temporary directory)' -r -F
complete -c arx -n "__fish_arx_using_subcommand demo" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand demo" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand demo" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand demo" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand demo" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand demo" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand demo" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand demo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand man" -l color -d 'When to colour human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c arx -n "__fish_arx_using_subcommand man" -l config -d 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward' -r -F
complete -c arx -n "__fish_arx_using_subcommand man" -l state-dir -d 'State directory. Default: .arx/ at the repository root' -r -F
complete -c arx -n "__fish_arx_using_subcommand man" -l holdout-config -d 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)' -r -F
complete -c arx -n "__fish_arx_using_subcommand man" -l now -d 'The current time (RFC 3339), for reproducible records' -r
complete -c arx -n "__fish_arx_using_subcommand man" -l json -d 'Print machine-readable JSON on stdout instead of the human view'
complete -c arx -n "__fish_arx_using_subcommand man" -s q -l quiet -d 'Print nothing on stdout; the exit code carries the answer'
complete -c arx -n "__fish_arx_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "parse" -d 'Print the metrics of the first `__RESULT__ {json}` line as JSON'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "measure" -d 'Compute the verdict of an experiment\'s stdout against a metric spec'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "classify" -d 'Print the failure class (H2, H3, H4 or none) of a stderr stream'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "gate" -d 'Approval gates: check one before acting, or show their state'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "decide" -d 'Decide the loop\'s next step from the latest verdict'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "plateau" -d 'Detect a plateau: the last WINDOW verdicts hold no `supported`'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "deadend" -d 'Dead ends: approaches that a deterministic refutation ruled out'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "knowhow" -d 'Knowhow: positive learnings worth keeping'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "finding" -d 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "idea" -d 'The backlog of ideas: what to try, each try\'s idea, what became of it'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "run" -d 'Run an experiment: gate, live output, verdict, journal'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "compare" -d 'Compare a baseline and a candidate command over interleaved runs'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "try" -d 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "best" -d 'The best kept run of the ratchet\'s segment: value, interval, commit'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "status" -d 'The ratchet\'s state and the stop advice: exit 0 when a stop rule fires, 1 to go on'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "restore" -d 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "log" -d 'List journaled runs, newest last (`--json`: one record per line)'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "report" -d 'What the loop did: the segment\'s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "show" -d 'Show one journaled run in full (a unique prefix of its id is enough)'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "journal" -d 'The run journal: merge journals from many machines, verify one'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "lane" -d 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "fleet" -d 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "next" -d 'Pick the next experiment from candidates, by expected free energy'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "precision" -d 'The precision engine\'s state: show, rebuild from the journal, reset'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "policy" -d 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "round" -d 'Life-harness rounds: validate, apply, revert and list patches to the project\'s own prompts, config and code, each as one git commit'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "init" -d 'Set up arx in this repository: .arx/, arx.toml and .gitattributes'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "ps" -d 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "watch" -d 'Follow live runs\' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "serve" -d 'Serve the night\'s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "completions" -d 'Print a shell completion script'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "mcp" -d 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "demo" -d 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "man" -d 'Print the man page (roff)'
complete -c arx -n "__fish_arx_using_subcommand help; and not __fish_seen_subcommand_from parse measure classify gate decide plateau deadend knowhow finding idea run compare try best status restore log report show journal lane fleet next precision policy round init ps watch serve completions mcp demo man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from gate" -f -a "check" -d 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from gate" -f -a "show" -d 'Show which gates are on, and where the setting came from'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from deadend" -f -a "add" -d 'Record a dead end by hand (kept once per approach)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from deadend" -f -a "check" -d 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from deadend" -f -a "scan" -d 'Exit 1 when a file names a known dead end: a spec\'s `hypothesis`, a candidates file\'s `statement`s, or a line of any other text file'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from deadend" -f -a "list" -d 'List known dead ends'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from deadend" -f -a "promote" -d 'Promote a verdict to a dead end: only a deterministic refutation is kept'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from knowhow" -f -a "add" -d 'Record a positive learning (an identical one is kept once)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from knowhow" -f -a "list" -d 'List knowhow'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "add" -d 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "ingest" -d 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "maintain" -d 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "rank" -d 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "list" -d 'List findings (live ones unless --all or --status)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "show" -d 'Show one finding in full (a unique prefix of its id is enough)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "explain" -d 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from finding" -f -a "merge" -d 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from idea" -f -a "add" -d 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from idea" -f -a "list" -d 'The backlog, oldest first: each idea\'s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from idea" -f -a "drop" -d 'Drop an idea: no longer proposed (its tries stay in the journal)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "merge" -d 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "verify" -d 'Check the journal: readable records, duplicate and conflicting run ids'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "import" -d 'Import another loop\'s night as ratchet records marked imported: karpathy\'s or codex\'s results.tsv, pi\'s autoresearch.jsonl (or .auto/log.jsonl)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from lane" -f -a "add" -d 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from lane" -f -a "list" -d 'The lanes: path, base commit, keeps behind the best, last try, live run'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from lane" -f -a "sync" -d 'Replay a lane\'s work onto the best (exit 1 when it conflicts; nothing changes then)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from lane" -f -a "rm" -d 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "status" -d 'The machines: class, last seen, what each tries, the fleet\'s best and each class\'s best (as last fetched; `--fetch` asks the remote)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "sync" -d 'Fetch the fleet\'s records and publish this machine\'s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from precision" -f -a "show" -d 'Values, alpha, beta and variance per level, and whether adaptation is due'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from precision" -f -a "rebuild" -d 'Rebuild the state from the journal'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from precision" -f -a "reset" -d 'Forget learned precision (kept across rebuilds)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from policy" -f -a "show" -d 'Q-values per (state fingerprint, candidate), with success counts'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from policy" -f -a "crystallize" -d 'Turn groups that keep succeeding into knowhow entries (once each)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from policy" -f -a "cycles" -d 'Do failures cluster on a weekday? (chi-squared over failing runs)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "validate" -d 'Validate a patch: kernel rules plus checks against the real tree'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "apply" -d 'Validate, evaluate, gate and land a patch as one git commit'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "revert" -d 'Revert an applied round with a revert commit'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "status" -d 'List rounds and say when the next one is allowed'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "protect-check" -d 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
complete -c arx -n "__fish_arx_using_subcommand help; and __fish_seen_subcommand_from round" -f -a "evidence" -d 'Select evidence for a round from findings (newest and strongest first)'
