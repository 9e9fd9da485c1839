
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arx;parse' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
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
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
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
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'A person approved this step')
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
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of the human view')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout; the exit code carries the answer')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a dead end by hand (kept once per approach)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when STATEMENT is a known dead end, 0 otherwise')
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
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
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
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
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
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The current time (RFC 3339), for reproducible records')
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
        'arx;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory. Default: .arx/ at the repository root')
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
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
        'arx;help;completions' {
            break
        }
        'arx;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
