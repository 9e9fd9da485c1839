
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'arx' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'arx'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'arx' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Print the metrics of the first `__RESULT__ {json}` line as JSON')
            [CompletionResult]::new('measure', 'measure', [CompletionResultType]::ParameterValue, 'Compute the verdict of an experiment''s stdout against a metric spec')
            [CompletionResult]::new('classify', 'classify', [CompletionResultType]::ParameterValue, 'Print the failure class (H2, H3, H4 or none) of a stderr stream')
            [CompletionResult]::new('gate', 'gate', [CompletionResultType]::ParameterValue, 'Approval gates: check one before acting, or show their state')
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Decide the loop''s next step from the latest verdict')
            [CompletionResult]::new('plateau', 'plateau', [CompletionResultType]::ParameterValue, 'Detect a plateau: the last WINDOW verdicts hold no `supported`')
            [CompletionResult]::new('deadend', 'deadend', [CompletionResultType]::ParameterValue, 'Dead ends: approaches that a deterministic refutation ruled out')
            [CompletionResult]::new('knowhow', 'knowhow', [CompletionResultType]::ParameterValue, 'Knowhow: positive learnings worth keeping')
            [CompletionResult]::new('finding', 'finding', [CompletionResultType]::ParameterValue, 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal')
            [CompletionResult]::new('idea', 'idea', [CompletionResultType]::ParameterValue, 'The backlog of ideas: what to try, each try''s idea, what became of it')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run an experiment: gate, live output, verdict, journal')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare a baseline and a candidate command over interleaved runs')
            [CompletionResult]::new('try', 'try', [CompletionResultType]::ParameterValue, 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it')
            [CompletionResult]::new('best', 'best', [CompletionResultType]::ParameterValue, 'The best kept run of the ratchet''s segment: value, interval, commit')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The ratchet''s state and the stop advice: exit 0 when a stop rule fires, 1 to go on')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List journaled runs, newest last (`--json`: one record per line)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'What the loop did: the segment''s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one journaled run in full (a unique prefix of its id is enough)')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'The run journal: merge journals from many machines, verify one')
            [CompletionResult]::new('lane', 'lane', [CompletionResultType]::ParameterValue, 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Pick the next experiment from candidates, by expected free energy')
            [CompletionResult]::new('precision', 'precision', [CompletionResultType]::ParameterValue, 'The precision engine''s state: show, rebuild from the journal, reset')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures')
            [CompletionResult]::new('round', 'round', [CompletionResultType]::ParameterValue, 'Life-harness rounds: validate, apply, revert and list patches to the project''s own prompts, config and code, each as one git commit')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up arx in this repository: .arx/, arx.toml and .gitattributes')
            [CompletionResult]::new('ps', 'ps', [CompletionResultType]::ParameterValue, 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow live runs'' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the night''s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;parse' {
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;measure' {
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'Metric key to judge (overrides the spec file)')
            [CompletionResult]::new('--cmp', '--cmp', [CompletionResultType]::ParameterName, 'Comparator: >=, <=, >, < or == (overrides the spec file)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Target value, a finite number (overrides the spec file)')
            [CompletionResult]::new('--spec', '--spec', [CompletionResultType]::ParameterName, 'Metric spec file, TOML or JSON: metric_key, comparator, target and an optional hypothesis')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit code of the experiment (default 0, or 124 with --timed-out)')
            [CompletionResult]::new('--stderr', '--stderr', [CompletionResultType]::ParameterName, 'The experiment''s stderr, classified into a failure class')
            [CompletionResult]::new('--failure-class', '--failure-class', [CompletionResultType]::ParameterName, 'Failure class when stderr is not at hand')
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--timed-out', '--timed-out', [CompletionResultType]::ParameterName, 'The run timed out')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;classify' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--timed-out', '--timed-out', [CompletionResultType]::ParameterName, 'The run timed out (always H4)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;gate' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show which gates are on, and where the setting came from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;gate;check' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'A person approved this step')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;gate;show' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;gate;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show which gates are on, and where the setting came from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;gate;help;check' {
            break
        }
        'arx;gate;help;show' {
            break
        }
        'arx;gate;help;help' {
            break
        }
        'arx;decide' {
            [CompletionResult]::new('--iteration', '--iteration', [CompletionResultType]::ParameterName, 'Current iteration number')
            [CompletionResult]::new('--max-iterations', '--max-iterations', [CompletionResultType]::ParameterName, 'Iteration budget')
            [CompletionResult]::new('--verdict', '--verdict', [CompletionResultType]::ParameterName, 'Verdict of the latest experiment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;plateau' {
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'How many recent verdicts to look at (at least 1)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a dead end by hand (kept once per approach)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when STATEMENT is a known dead end, 0 otherwise')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List known dead ends')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a verdict to a dead end: only a deterministic refutation is kept')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;deadend;add' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why it is a dead end')
            [CompletionResult]::new('--iteration', '--iteration', [CompletionResultType]::ParameterName, 'Loop iteration it was found in')
            [CompletionResult]::new('--evidence-level', '--evidence-level', [CompletionResultType]::ParameterName, 'Strength of the evidence')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend;check' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend;scan' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend;promote' {
            [CompletionResult]::new('--verdict', '--verdict', [CompletionResultType]::ParameterName, 'Verdict record as printed by `arx measure --json` (`-` for stdin)')
            [CompletionResult]::new('--statement', '--statement', [CompletionResultType]::ParameterName, 'The approach (default: the hypothesis in the verdict record)')
            [CompletionResult]::new('--iteration', '--iteration', [CompletionResultType]::ParameterName, 'Loop iteration')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;deadend;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a dead end by hand (kept once per approach)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when STATEMENT is a known dead end, 0 otherwise')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List known dead ends')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a verdict to a dead end: only a deterministic refutation is kept')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;deadend;help;add' {
            break
        }
        'arx;deadend;help;check' {
            break
        }
        'arx;deadend;help;scan' {
            break
        }
        'arx;deadend;help;list' {
            break
        }
        'arx;deadend;help;promote' {
            break
        }
        'arx;deadend;help;help' {
            break
        }
        'arx;knowhow' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a positive learning (an identical one is kept once)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List knowhow')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;knowhow;add' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The learning itself')
            [CompletionResult]::new('--iteration', '--iteration', [CompletionResultType]::ParameterName, 'Loop iteration it was found in')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;knowhow;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;knowhow;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a positive learning (an identical one is kept once)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List knowhow')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;knowhow;help;add' {
            break
        }
        'arx;knowhow;help;list' {
            break
        }
        'arx;knowhow;help;help' {
            break
        }
        'arx;finding' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead')
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Extract candidate findings from free text (notes, logs, a transcript) and record them')
            [CompletionResult]::new('maintain', 'maintain', [CompletionResultType]::ParameterValue, 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why')
            [CompletionResult]::new('rank', 'rank', [CompletionResultType]::ParameterValue, 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List findings (live ones unless --all or --status)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one finding in full (a unique prefix of its id is enough)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;finding;add' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'What it is')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Where it came from: a run id, a round, a file, a person')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'How sure it is, in [0, 1] (default 0.7)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A label (repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;ingest' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Record every claim as this kind (default: guessed from its wording)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Source of the claims (default: the file name, or `stdin`)')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence of the claims, in [0, 1] (default 0.5)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'List the claims found; record nothing')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;maintain' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Apply a pass past the safety limit')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what the pass would change; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;rank' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What the next proposal is about')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most findings shown')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;list' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this kind')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only this status')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Only the N most recent')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Deprecated findings too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;show' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;explain' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Rank it against this context (default: its own text)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;merge' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;finding;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead')
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Extract candidate findings from free text (notes, logs, a transcript) and record them')
            [CompletionResult]::new('maintain', 'maintain', [CompletionResultType]::ParameterValue, 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why')
            [CompletionResult]::new('rank', 'rank', [CompletionResultType]::ParameterValue, 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List findings (live ones unless --all or --status)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one finding in full (a unique prefix of its id is enough)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;finding;help;add' {
            break
        }
        'arx;finding;help;ingest' {
            break
        }
        'arx;finding;help;maintain' {
            break
        }
        'arx;finding;help;rank' {
            break
        }
        'arx;finding;help;list' {
            break
        }
        'arx;finding;help;show' {
            break
        }
        'arx;finding;help;explain' {
            break
        }
        'arx;finding;help;merge' {
            break
        }
        'arx;finding;help;help' {
            break
        }
        'arx;idea' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Drop an idea: no longer proposed (its tries stay in the journal)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;idea;add' {
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'Its family: one word (letters, digits, _, - or .), e.g. lr, batch, init')
            [CompletionResult]::new('--retry', '--retry', [CompletionResultType]::ParameterName, 'Try this idea (its id or a unique prefix) again; needs --because')
            [CompletionResult]::new('--because', '--because', [CompletionResultType]::ParameterName, 'With --retry: what changed since it was tried')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;idea;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only ideas with this status')
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'Only ideas of this family')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Only the N most recent ideas')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;idea;drop' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;idea;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Drop an idea: no longer proposed (its tries stay in the journal)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;idea;help;add' {
            break
        }
        'arx;idea;help;list' {
            break
        }
        'arx;idea;help;drop' {
            break
        }
        'arx;idea;help;help' {
            break
        }
        'arx;run' {
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'Metric key to judge (overrides the spec file)')
            [CompletionResult]::new('--cmp', '--cmp', [CompletionResultType]::ParameterName, 'Comparator: >=, <=, >, < or == (overrides the spec file)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Target value, a finite number (overrides the spec file)')
            [CompletionResult]::new('--spec', '--spec', [CompletionResultType]::ParameterName, 'Metric spec file, TOML or JSON (metric_key, comparator, target, hypothesis)')
            [CompletionResult]::new('--hypothesis', '--hypothesis', [CompletionResultType]::ParameterName, 'The hypothesis this run tests (default: the spec file''s)')
            [CompletionResult]::new('--candidate', '--candidate', [CompletionResultType]::ParameterName, 'Name of the candidate experiment (for `arx log --candidate`)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag for the journal (repeatable)')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'A feature of the loop''s state for the policy cache (repeatable); numbers, true, false and null are read as JSON, anything else as text')
            [CompletionResult]::new('--state-json', '--state-json', [CompletionResultType]::ParameterName, 'The loop''s state as a JSON object')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time limit, e.g. 90s, 15m, 2h, 1h30m (a bare number is seconds)')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL when ending the experiment')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'Write an NDJSON event stream to PATH (`-`: stdout; the experiment''s own stdout then goes to stderr)')
            [CompletionResult]::new('--heartbeat', '--heartbeat', [CompletionResultType]::ParameterName, 'Interval of heartbeat events')
            [CompletionResult]::new('--iteration', '--iteration', [CompletionResultType]::ParameterName, 'Loop iteration (recorded with a promoted dead end)')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Run N times and judge the mean with a confidence interval')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence level of the interval (with --repeat)')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)')
            [CompletionResult]::new('--progress-step', '--progress-step', [CompletionResultType]::ParameterName, 'The progress key holding the step (default: step)')
            [CompletionResult]::new('--launcher', '--launcher', [CompletionResultType]::ParameterName, 'Start every experiment through this command, split at whitespace, e.g. ''srun --gres=gpu:1 --'' ([objective] launcher). With srun each job is named arx-<run id>')
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--stop-on-result', '--stop-on-result', [CompletionResultType]::ParameterName, 'End the experiment once its result line is in (after a 1 s grace)')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve the `execute` gate for this run')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Run even when the hypothesis is a known dead end')
            [CompletionResult]::new('--promote', '--promote', [CompletionResultType]::ParameterName, 'Record a deterministic refutation in the dead-end registry')
            [CompletionResult]::new('--shell', '--shell', [CompletionResultType]::ParameterName, 'Run the command through /bin/sh -c')
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Do not write the journal')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;compare' {
            [CompletionResult]::new('--baseline-cmd', '--baseline-cmd', [CompletionResultType]::ParameterName, 'Baseline command (run through /bin/sh -c)')
            [CompletionResult]::new('--candidate-cmd', '--candidate-cmd', [CompletionResultType]::ParameterName, 'Candidate command (run through /bin/sh -c)')
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'Metric key to compare')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way is better')
            [CompletionResult]::new('--min-effect', '--min-effect', [CompletionResultType]::ParameterName, 'Smallest improvement that counts')
            [CompletionResult]::new('--runs', '--runs', [CompletionResultType]::ParameterName, 'Runs of each command')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence level of the interval')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time limit per run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve the `execute` gate')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Do not write the journal')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;try' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'What the change is: the journal''s description, the commit subject')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'What the change is: the journal''s description, the commit subject')
            [CompletionResult]::new('--idea', '--idea', [CompletionResultType]::ParameterName, 'The idea of the backlog this try tests (its id or a unique prefix): recorded with the try; its statement is the description unless -m is given')
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'The family of the change (one word). With -m and no --idea: the try adds its description to the backlog as an idea of this family. Without either, a try takes the family of the most similar idea')
            [CompletionResult]::new('--rule', '--rule', [CompletionResultType]::ParameterName, 'The decision rule: sequential (arx''s: a group-sequential test that keeps a change no better than the best 1 - confidence of the time), confirm (screen, then confirmation runs), strict (keep one sample better than the best, unconfirmed), mad (better, and the segment''s MAD confidence >= 2)')
            [CompletionResult]::new('--lane', '--lane', [CompletionResultType]::ParameterName, 'Run the try in this lane (`arx lane add`), from anywhere in the repository: the same as running it in the lane''s directory')
            [CompletionResult]::new('--because', '--because', [CompletionResultType]::ParameterName, 'With --retry: what changed since the idea was tried, or why it runs here as well as in another lane')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL when ending the experiment')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'Append NDJSON events (started, progress, result, heartbeat, finished) to PATH')
            [CompletionResult]::new('--heartbeat', '--heartbeat', [CompletionResultType]::ParameterName, 'Time between heartbeat events')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)')
            [CompletionResult]::new('--progress-step', '--progress-step', [CompletionResultType]::ParameterName, 'The progress key holding the step (default: step)')
            [CompletionResult]::new('--launcher', '--launcher', [CompletionResultType]::ParameterName, 'Start every experiment through this command, split at whitespace, e.g. ''srun --gres=gpu:1 --'' ([objective] launcher). With srun each job is named arx-<run id>')
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'The metric to improve ([objective] metric)')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way the metric improves ([objective] direction)')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The experiment as one shell command line ([objective] command); or give it after `--`')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time limit of one run, e.g. 10m ([objective] timeout)')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Runs of each candidate, at least ([objective] repeat)')
            [CompletionResult]::new('--baseline-repeat', '--baseline-repeat', [CompletionResultType]::ParameterName, 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)')
            [CompletionResult]::new('--min-effect', '--min-effect', [CompletionResultType]::ParameterName, 'Smallest improvement worth keeping, in metric units ([objective] min_effect)')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence of a keep ([objective] confidence)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)')
            [CompletionResult]::new('--protect', '--protect', [CompletionResultType]::ParameterName, 'A path or glob no candidate may change (repeatable; replaces [objective] protect)')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Stop after this many runs in the segment ([objective.stop] max_runs)')
            [CompletionResult]::new('--max-discards-in-a-row', '--max-discards-in-a-row', [CompletionResultType]::ParameterName, 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)')
            [CompletionResult]::new('--max-hours', '--max-hours', [CompletionResultType]::ParameterName, 'Stop after this many hours of the segment ([objective.stop] max_hours)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Stop once the best reaches this value ([objective.stop] target)')
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--new-segment', '--new-segment', [CompletionResultType]::ParameterName, 'Start a new segment: measure the baseline again')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be run, kept or restored; change nothing')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse (exit 1) when the description matches a deprecated or refuted finding or a known dead end; without it, warn and go on')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve the `execute` gate for this try')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Ignore the approval gates')
            [CompletionResult]::new('--no-repeat', '--no-repeat', [CompletionResultType]::ParameterName, 'Refuse (exit 1, `refused: a repeat`) an idea discarded at this parent already, unless --because says what changed; without it, warn and go on. The MCP server''s `try` always asks for this')
            [CompletionResult]::new('--retry', '--retry', [CompletionResultType]::ParameterName, 'With --idea and --because: try the idea again as a retry (a new idea of the backlog that names it), also when another lane has it in flight (refused without it, exit 2)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;best' {
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'The metric to improve ([objective] metric)')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way the metric improves ([objective] direction)')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The experiment as one shell command line ([objective] command); or give it after `--`')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time limit of one run, e.g. 10m ([objective] timeout)')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Runs of each candidate, at least ([objective] repeat)')
            [CompletionResult]::new('--baseline-repeat', '--baseline-repeat', [CompletionResultType]::ParameterName, 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)')
            [CompletionResult]::new('--min-effect', '--min-effect', [CompletionResultType]::ParameterName, 'Smallest improvement worth keeping, in metric units ([objective] min_effect)')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence of a keep ([objective] confidence)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)')
            [CompletionResult]::new('--protect', '--protect', [CompletionResultType]::ParameterName, 'A path or glob no candidate may change (repeatable; replaces [objective] protect)')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Stop after this many runs in the segment ([objective.stop] max_runs)')
            [CompletionResult]::new('--max-discards-in-a-row', '--max-discards-in-a-row', [CompletionResultType]::ParameterName, 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)')
            [CompletionResult]::new('--max-hours', '--max-hours', [CompletionResultType]::ParameterName, 'Stop after this many hours of the segment ([objective.stop] max_hours)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Stop once the best reaches this value ([objective.stop] target)')
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;status' {
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'The metric to improve ([objective] metric)')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way the metric improves ([objective] direction)')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The experiment as one shell command line ([objective] command); or give it after `--`')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time limit of one run, e.g. 10m ([objective] timeout)')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Runs of each candidate, at least ([objective] repeat)')
            [CompletionResult]::new('--baseline-repeat', '--baseline-repeat', [CompletionResultType]::ParameterName, 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)')
            [CompletionResult]::new('--min-effect', '--min-effect', [CompletionResultType]::ParameterName, 'Smallest improvement worth keeping, in metric units ([objective] min_effect)')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence of a keep ([objective] confidence)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)')
            [CompletionResult]::new('--protect', '--protect', [CompletionResultType]::ParameterName, 'A path or glob no candidate may change (repeatable; replaces [objective] protect)')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Stop after this many runs in the segment ([objective.stop] max_runs)')
            [CompletionResult]::new('--max-discards-in-a-row', '--max-discards-in-a-row', [CompletionResultType]::ParameterName, 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)')
            [CompletionResult]::new('--max-hours', '--max-hours', [CompletionResultType]::ParameterName, 'Stop after this many hours of the segment ([objective.stop] max_hours)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Stop once the best reaches this value ([objective.stop] target)')
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)')
            [CompletionResult]::new('--result-pattern', '--result-pattern', [CompletionResultType]::ParameterName, 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;restore' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'With --prune: the age (such as 30d, 12h) beyond which a set-aside candidate goes')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the candidates set aside under refs/arx/discarded/, oldest first, with their age and size; change nothing')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Remove the refs of candidates set aside longer ago than --older-than (git gc then frees their space)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;log' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most the N most recent runs')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Show at most the N most recent runs')
            [CompletionResult]::new('--candidate', '--candidate', [CompletionResultType]::ParameterName, 'Only runs of this candidate')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The ratchet''s results table instead (commit, metric, status, description, other metrics), as TSV or CSV')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;report' {
            [CompletionResult]::new('--svg', '--svg', [CompletionResultType]::ParameterName, 'Write the progress chart to FILE (SVG)')
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Write a self-contained HTML page to FILE: chart, summary, run table, rounds, dead ends')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Make the HTML page reload itself every SECONDS (a page left open follows the loop live)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Write every run as a JUnit test case to FILE')
            [CompletionResult]::new('--segment', '--segment', [CompletionResultType]::ParameterName, 'Narrow the report to ratchet segment N, or summarize `all` of them (default: every run, the latest segment summarized)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'How many last runs (and dead ends, rounds) to list')
            [CompletionResult]::new('--x', '--x', [CompletionResultType]::ParameterName, 'The chart''s x axis')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Print the summary and the last runs as Markdown (for $GITHUB_STEP_SUMMARY and pull-request comments)')
            [CompletionResult]::new('--holdout', '--holdout', [CompletionResultType]::ParameterName, 'Print the held-out check''s values and output from the operator''s held-out journal (ARX_HOLDOUT_JOURNAL), which nothing else shows')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;show' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;journal' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the journal: readable records, duplicate and conflicting run ids')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;journal;merge' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;journal;verify' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;journal;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The loop that wrote it (default: told by the file''s first line)')
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'The metric''s column (karpathy; default: the one arx.toml names, else the first numeric column that is not a commit, time, memory or counter and that varies); the name to record it under (codex''s `metric` column, pi''s metric)')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way the metric improves (default: the file''s own word, else arx.toml''s when it names that metric, else the way the night''s keeps moved; when none tells, arx asks for this flag)')
            [CompletionResult]::new('--undo', '--undo', [CompletionResultType]::ParameterName, 'Remove exactly what an import added: every import of FILE, or the import with that id (shown by the import), so it can be redone')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;journal;help' {
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the journal: readable records, duplicate and conflicting run ids')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;journal;help;merge' {
            break
        }
        'arx;journal;help;verify' {
            break
        }
        'arx;journal;help;import' {
            break
        }
        'arx;journal;help;help' {
            break
        }
        'arx;lane' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The lanes: path, base commit, keeps behind the best, last try, live run')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;lane;add' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Where lanes go (default: `<repository>.lanes/` beside the repository)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;lane;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;lane;sync' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--theirs', '--theirs', [CompletionResultType]::ParameterName, 'Where the lane''s work conflicts with the best, the best''s side wins (the rest of the work is replayed); the work as it was is stored under refs/arx/discarded/lane-NAME-<time> first')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;lane;rm' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Remove it even with unsaved work, which is first stored under refs/arx/discarded/lane-NAME-<time> (`arx restore lane-NAME-<time>` puts it back)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;lane;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The lanes: path, base commit, keeps behind the best, last try, live run')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;lane;help;add' {
            break
        }
        'arx;lane;help;list' {
            break
        }
        'arx;lane;help;sync' {
            break
        }
        'arx;lane;help;rm' {
            break
        }
        'arx;lane;help;help' {
            break
        }
        'arx;fleet' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;fleet;status' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--fetch', '--fetch', [CompletionResultType]::ParameterName, 'Fetch from the remote first (without publishing anything)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;fleet;sync' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;fleet;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;fleet;help;status' {
            break
        }
        'arx;fleet;help;sync' {
            break
        }
        'arx;fleet;help;help' {
            break
        }
        'arx;next' {
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Candidates: TOML `[[candidate]]` tables or a JSON array with name, statement, optional steps and preferences. Without it, the open ideas of the backlog (`arx idea add`) are ranked from the ratchet''s record')
            [CompletionResult]::new('--lane', '--lane', [CompletionResultType]::ParameterName, 'The lane asking (`arx lane add`): never given an idea in flight in another lane, and the idea it is given counts as in flight for the others until it is tried (ideas only)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the pick (default: derived from the journal''s length)')
            [CompletionResult]::new('--temperature', '--temperature', [CompletionResultType]::ParameterName, 'Selection temperature (beta = precision / temperature); the default is the one that did best in the selection simulation')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Model of expected free energy')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--greedy', '--greedy', [CompletionResultType]::ParameterName, 'Take the lowest expected free energy instead of sampling')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print a table of every candidate (on stdout, after the name)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;precision' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Values, alpha, beta and variance per level, and whether adaptation is due')
            [CompletionResult]::new('rebuild', 'rebuild', [CompletionResultType]::ParameterValue, 'Rebuild the state from the journal')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget learned precision (kept across rebuilds)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;precision;show' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;precision;rebuild' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;precision;reset' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;precision;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Values, alpha, beta and variance per level, and whether adaptation is due')
            [CompletionResult]::new('rebuild', 'rebuild', [CompletionResultType]::ParameterValue, 'Rebuild the state from the journal')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget learned precision (kept across rebuilds)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;precision;help;show' {
            break
        }
        'arx;precision;help;rebuild' {
            break
        }
        'arx;precision;help;reset' {
            break
        }
        'arx;precision;help;help' {
            break
        }
        'arx;policy' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Q-values per (state fingerprint, candidate), with success counts')
            [CompletionResult]::new('crystallize', 'crystallize', [CompletionResultType]::ParameterValue, 'Turn groups that keep succeeding into knowhow entries (once each)')
            [CompletionResult]::new('cycles', 'cycles', [CompletionResultType]::ParameterValue, 'Do failures cluster on a weekday? (chi-squared over failing runs)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;policy;show' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;policy;crystallize' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)')
            [CompletionResult]::new('--no-gates', '--no-gates', [CompletionResultType]::ParameterName, 'Turn every gate off')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;policy;cycles' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;policy;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Q-values per (state fingerprint, candidate), with success counts')
            [CompletionResult]::new('crystallize', 'crystallize', [CompletionResultType]::ParameterValue, 'Turn groups that keep succeeding into knowhow entries (once each)')
            [CompletionResult]::new('cycles', 'cycles', [CompletionResultType]::ParameterValue, 'Do failures cluster on a weekday? (chi-squared over failing runs)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;policy;help;show' {
            break
        }
        'arx;policy;help;crystallize' {
            break
        }
        'arx;policy;help;cycles' {
            break
        }
        'arx;policy;help;help' {
            break
        }
        'arx;round' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate a patch: kernel rules plus checks against the real tree')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Validate, evaluate, gate and land a patch as one git commit')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Revert an applied round with a revert commit')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List rounds and say when the next one is allowed')
            [CompletionResult]::new('protect-check', 'protect-check', [CompletionResultType]::ParameterValue, 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Select evidence for a round from findings (newest and strongest first)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;round;validate' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;apply' {
            [CompletionResult]::new('--round-id', '--round-id', [CompletionResultType]::ParameterName, 'Round id (default: the UTC time, YYYYMMDD-HHMMSS)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'With --evidence: the findings relevant to TEXT, best ranked first')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--auto', '--auto', [CompletionResultType]::ParameterName, 'Land the round when its checks pass and confidence suffices (never overrides the kill switch)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Stop after validation and the duplicate check')
            [CompletionResult]::new('--evidence', '--evidence', [CompletionResultType]::ParameterName, 'Base the round on the store''s active findings (as `arx round evidence`): saved as the round''s evidence.md; too few skip it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;revert' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;status' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;protect-check' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;evidence' {
            [CompletionResult]::new('--findings', '--findings', [CompletionResultType]::ParameterName, 'Findings: a JSON array of {kind, content, source, created_at} (default: the active findings of the store, .arx/findings.jsonl)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Draw from the store the findings relevant to TEXT, best ranked first (`arx finding rank`), instead of all active ones')
            [CompletionResult]::new('--min', '--min', [CompletionResultType]::ParameterName, 'Fewest findings for a round (default: config min_evidence, 3)')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Most findings kept (default: config max_evidence, 25)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;round;help' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate a patch: kernel rules plus checks against the real tree')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Validate, evaluate, gate and land a patch as one git commit')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Revert an applied round with a revert commit')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List rounds and say when the next one is allowed')
            [CompletionResult]::new('protect-check', 'protect-check', [CompletionResultType]::ParameterValue, 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Select evidence for a round from findings (newest and strongest first)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;round;help;validate' {
            break
        }
        'arx;round;help;apply' {
            break
        }
        'arx;round;help;revert' {
            break
        }
        'arx;round;help;status' {
            break
        }
        'arx;round;help;protect-check' {
            break
        }
        'arx;round;help;evidence' {
            break
        }
        'arx;round;help;help' {
            break
        }
        'arx;init' {
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'The metric `arx try` improves: the key of the experiment''s `__RESULT__` line ([objective] metric; needs --direction)')
            [CompletionResult]::new('--direction', '--direction', [CompletionResultType]::ParameterName, 'Which way the metric improves ([objective] direction)')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The experiment, one shell command line ([objective] command)')
            [CompletionResult]::new('--protect', '--protect', [CompletionResultType]::ParameterName, 'Paths or globs no candidate may change ([objective] protect)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Commands that must exit 0 before a keep ([objective] checks)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How the experiment prints its numbers ([objective] format): arx''s `__RESULT__` line, karpathy''s closing summary block, pi''s `METRIC` lines, or the named groups of `--pattern`')
            [CompletionResult]::new('--pattern', '--pattern', [CompletionResultType]::ParameterName, 'The regular expression of `--format pattern`, one named group per metric ([objective] pattern)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The time limit of one run ([objective] timeout: `10m`, `1h`)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Set arx up in the repository of another loop: its objective read from the loop''s files into arx.toml, its output files ignored by git, its night imported, and arx''s loop written where that loop''s agent reads its instructions. Other flags given with it win over what the files say')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Also write (or update) the arx section of AGENTS.md: the loop an agent follows, filled with arx.toml''s objective')
            [CompletionResult]::new('--share-journal', '--share-journal', [CompletionResultType]::ParameterName, 'Share the journal through git (committed, merged with merge=union): only the files arx derives are ignored. Without it the state directory is ignored by git as a whole')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;ps' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--reap', '--reap', [CompletionResultType]::ParameterName, 'Journal lost runs as `lost`, end their orphaned experiments and remove their live files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;watch' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;serve' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port to listen on (0: any free port, printed)')
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'The address to listen on. Anything but a loopback address lets every machine that reaches it read the report')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;mcp' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Approve the `execute` gate for every call, as the operator starting the server (also `[mcp] approve = true` in arx.toml)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;demo' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Where to create the demo''s repository (new or empty; default: a new directory under the system''s temporary directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
            [CompletionResult]::new('--holdout-config', '--holdout-config', [CompletionResultType]::ParameterName, 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'arx;help' {
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Print the metrics of the first `__RESULT__ {json}` line as JSON')
            [CompletionResult]::new('measure', 'measure', [CompletionResultType]::ParameterValue, 'Compute the verdict of an experiment''s stdout against a metric spec')
            [CompletionResult]::new('classify', 'classify', [CompletionResultType]::ParameterValue, 'Print the failure class (H2, H3, H4 or none) of a stderr stream')
            [CompletionResult]::new('gate', 'gate', [CompletionResultType]::ParameterValue, 'Approval gates: check one before acting, or show their state')
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Decide the loop''s next step from the latest verdict')
            [CompletionResult]::new('plateau', 'plateau', [CompletionResultType]::ParameterValue, 'Detect a plateau: the last WINDOW verdicts hold no `supported`')
            [CompletionResult]::new('deadend', 'deadend', [CompletionResultType]::ParameterValue, 'Dead ends: approaches that a deterministic refutation ruled out')
            [CompletionResult]::new('knowhow', 'knowhow', [CompletionResultType]::ParameterValue, 'Knowhow: positive learnings worth keeping')
            [CompletionResult]::new('finding', 'finding', [CompletionResultType]::ParameterValue, 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal')
            [CompletionResult]::new('idea', 'idea', [CompletionResultType]::ParameterValue, 'The backlog of ideas: what to try, each try''s idea, what became of it')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run an experiment: gate, live output, verdict, journal')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare a baseline and a candidate command over interleaved runs')
            [CompletionResult]::new('try', 'try', [CompletionResultType]::ParameterValue, 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it')
            [CompletionResult]::new('best', 'best', [CompletionResultType]::ParameterValue, 'The best kept run of the ratchet''s segment: value, interval, commit')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The ratchet''s state and the stop advice: exit 0 when a stop rule fires, 1 to go on')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List journaled runs, newest last (`--json`: one record per line)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'What the loop did: the segment''s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one journaled run in full (a unique prefix of its id is enough)')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'The run journal: merge journals from many machines, verify one')
            [CompletionResult]::new('lane', 'lane', [CompletionResultType]::ParameterValue, 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Pick the next experiment from candidates, by expected free energy')
            [CompletionResult]::new('precision', 'precision', [CompletionResultType]::ParameterValue, 'The precision engine''s state: show, rebuild from the journal, reset')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures')
            [CompletionResult]::new('round', 'round', [CompletionResultType]::ParameterValue, 'Life-harness rounds: validate, apply, revert and list patches to the project''s own prompts, config and code, each as one git commit')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up arx in this repository: .arx/, arx.toml and .gitattributes')
            [CompletionResult]::new('ps', 'ps', [CompletionResultType]::ParameterValue, 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow live runs'' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the night''s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;help;parse' {
            break
        }
        'arx;help;measure' {
            break
        }
        'arx;help;classify' {
            break
        }
        'arx;help;gate' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show which gates are on, and where the setting came from')
            break
        }
        'arx;help;gate;check' {
            break
        }
        'arx;help;gate;show' {
            break
        }
        'arx;help;decide' {
            break
        }
        'arx;help;plateau' {
            break
        }
        'arx;help;deadend' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a dead end by hand (kept once per approach)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when STATEMENT is a known dead end, 0 otherwise')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List known dead ends')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a verdict to a dead end: only a deterministic refutation is kept')
            break
        }
        'arx;help;deadend;add' {
            break
        }
        'arx;help;deadend;check' {
            break
        }
        'arx;help;deadend;scan' {
            break
        }
        'arx;help;deadend;list' {
            break
        }
        'arx;help;deadend;promote' {
            break
        }
        'arx;help;knowhow' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a positive learning (an identical one is kept once)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List knowhow')
            break
        }
        'arx;help;knowhow;add' {
            break
        }
        'arx;help;knowhow;list' {
            break
        }
        'arx;help;finding' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead')
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Extract candidate findings from free text (notes, logs, a transcript) and record them')
            [CompletionResult]::new('maintain', 'maintain', [CompletionResultType]::ParameterValue, 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why')
            [CompletionResult]::new('rank', 'rank', [CompletionResultType]::ParameterValue, 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List findings (live ones unless --all or --status)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one finding in full (a unique prefix of its id is enough)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning')
            break
        }
        'arx;help;finding;add' {
            break
        }
        'arx;help;finding;ingest' {
            break
        }
        'arx;help;finding;maintain' {
            break
        }
        'arx;help;finding;rank' {
            break
        }
        'arx;help;finding;list' {
            break
        }
        'arx;help;finding;show' {
            break
        }
        'arx;help;finding;explain' {
            break
        }
        'arx;help;finding;merge' {
            break
        }
        'arx;help;idea' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Drop an idea: no longer proposed (its tries stay in the journal)')
            break
        }
        'arx;help;idea;add' {
            break
        }
        'arx;help;idea;list' {
            break
        }
        'arx;help;idea;drop' {
            break
        }
        'arx;help;run' {
            break
        }
        'arx;help;compare' {
            break
        }
        'arx;help;try' {
            break
        }
        'arx;help;best' {
            break
        }
        'arx;help;status' {
            break
        }
        'arx;help;restore' {
            break
        }
        'arx;help;log' {
            break
        }
        'arx;help;report' {
            break
        }
        'arx;help;show' {
            break
        }
        'arx;help;journal' {
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the journal: readable records, duplicate and conflicting run ids')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)')
            break
        }
        'arx;help;journal;merge' {
            break
        }
        'arx;help;journal;verify' {
            break
        }
        'arx;help;journal;import' {
            break
        }
        'arx;help;lane' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The lanes: path, base commit, keeps behind the best, last try, live run')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force')
            break
        }
        'arx;help;lane;add' {
            break
        }
        'arx;help;lane;list' {
            break
        }
        'arx;help;lane;sync' {
            break
        }
        'arx;help;lane;rm' {
            break
        }
        'arx;help;fleet' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer')
            break
        }
        'arx;help;fleet;status' {
            break
        }
        'arx;help;fleet;sync' {
            break
        }
        'arx;help;next' {
            break
        }
        'arx;help;precision' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Values, alpha, beta and variance per level, and whether adaptation is due')
            [CompletionResult]::new('rebuild', 'rebuild', [CompletionResultType]::ParameterValue, 'Rebuild the state from the journal')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget learned precision (kept across rebuilds)')
            break
        }
        'arx;help;precision;show' {
            break
        }
        'arx;help;precision;rebuild' {
            break
        }
        'arx;help;precision;reset' {
            break
        }
        'arx;help;policy' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Q-values per (state fingerprint, candidate), with success counts')
            [CompletionResult]::new('crystallize', 'crystallize', [CompletionResultType]::ParameterValue, 'Turn groups that keep succeeding into knowhow entries (once each)')
            [CompletionResult]::new('cycles', 'cycles', [CompletionResultType]::ParameterValue, 'Do failures cluster on a weekday? (chi-squared over failing runs)')
            break
        }
        'arx;help;policy;show' {
            break
        }
        'arx;help;policy;crystallize' {
            break
        }
        'arx;help;policy;cycles' {
            break
        }
        'arx;help;round' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate a patch: kernel rules plus checks against the real tree')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Validate, evaluate, gate and land a patch as one git commit')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Revert an applied round with a revert commit')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List rounds and say when the next one is allowed')
            [CompletionResult]::new('protect-check', 'protect-check', [CompletionResultType]::ParameterValue, 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Select evidence for a round from findings (newest and strongest first)')
            break
        }
        'arx;help;round;validate' {
            break
        }
        'arx;help;round;apply' {
            break
        }
        'arx;help;round;revert' {
            break
        }
        'arx;help;round;status' {
            break
        }
        'arx;help;round;protect-check' {
            break
        }
        'arx;help;round;evidence' {
            break
        }
        'arx;help;init' {
            break
        }
        'arx;help;ps' {
            break
        }
        'arx;help;watch' {
            break
        }
        'arx;help;serve' {
            break
        }
        'arx;help;completions' {
            break
        }
        'arx;help;mcp' {
            break
        }
        'arx;help;demo' {
            break
        }
        'arx;help;man' {
            break
        }
        'arx;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
