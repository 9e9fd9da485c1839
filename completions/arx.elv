
use builtin;
use str;

set edit:completion:arg-completer[arx] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'arx'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'arx'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand parse 'Print the metrics of the first `__RESULT__ {json}` line as JSON'
            cand measure 'Compute the verdict of an experiment''s stdout against a metric spec'
            cand classify 'Print the failure class (H2, H3, H4 or none) of a stderr stream'
            cand gate 'Approval gates: check one before acting, or show their state'
            cand decide 'Decide the loop''s next step from the latest verdict'
            cand plateau 'Detect a plateau: the last WINDOW verdicts hold no `supported`'
            cand deadend 'Dead ends: approaches that a deterministic refutation ruled out'
            cand knowhow 'Knowhow: positive learnings worth keeping'
            cand finding 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal'
            cand idea 'The backlog of ideas: what to try, each try''s idea, what became of it'
            cand run 'Run an experiment: gate, live output, verdict, journal'
            cand compare 'Compare a baseline and a candidate command over interleaved runs'
            cand try 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it'
            cand best 'The best kept run of the ratchet''s segment: value, interval, commit'
            cand status 'The ratchet''s state and the stop advice: exit 0 when a stop rule fires, 1 to go on'
            cand restore 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside'
            cand log 'List journaled runs, newest last (`--json`: one record per line)'
            cand report 'What the loop did: the segment''s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown'
            cand show 'Show one journaled run in full (a unique prefix of its id is enough)'
            cand journal 'The run journal: merge journals from many machines, verify one'
            cand lane 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)'
            cand fleet 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best'
            cand next 'Pick the next experiment from candidates, by expected free energy'
            cand precision 'The precision engine''s state: show, rebuild from the journal, reset'
            cand policy 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures'
            cand round 'Life-harness rounds: validate, apply, revert and list patches to the project''s own prompts, config and code, each as one git commit'
            cand init 'Set up arx in this repository: .arx/, arx.toml and .gitattributes'
            cand ps 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age'
            cand watch 'Follow live runs'' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON'
            cand serve 'Serve the night''s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload'
            cand completions 'Print a shell completion script'
            cand mcp 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)'
            cand demo 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;parse'= {
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;measure'= {
            cand --metric 'Metric key to judge (overrides the spec file)'
            cand --cmp 'Comparator: >=, <=, >, < or == (overrides the spec file)'
            cand --target 'Target value, a finite number (overrides the spec file)'
            cand --spec 'Metric spec file, TOML or JSON: metric_key, comparator, target and an optional hypothesis'
            cand --exit-code 'Exit code of the experiment (default 0, or 124 with --timed-out)'
            cand --stderr 'The experiment''s stderr, classified into a failure class'
            cand --failure-class 'Failure class when stderr is not at hand'
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --timed-out 'The run timed out'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;classify'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --timed-out 'The run timed out (always H4)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;gate'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand check 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
            cand show 'Show which gates are on, and where the setting came from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;gate;check'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'A person approved this step'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;gate;show'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;gate;help'= {
            cand check 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
            cand show 'Show which gates are on, and where the setting came from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;gate;help;check'= {
        }
        &'arx;gate;help;show'= {
        }
        &'arx;gate;help;help'= {
        }
        &'arx;decide'= {
            cand --iteration 'Current iteration number'
            cand --max-iterations 'Iteration budget'
            cand --verdict 'Verdict of the latest experiment'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;plateau'= {
            cand --window 'How many recent verdicts to look at (at least 1)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Record a dead end by hand (kept once per approach)'
            cand check 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
            cand scan 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file'
            cand list 'List known dead ends'
            cand promote 'Promote a verdict to a dead end: only a deterministic refutation is kept'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;deadend;add'= {
            cand --reason 'Why it is a dead end'
            cand --iteration 'Loop iteration it was found in'
            cand --evidence-level 'Strength of the evidence'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend;check'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend;scan'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend;list'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend;promote'= {
            cand --verdict 'Verdict record as printed by `arx measure --json` (`-` for stdin)'
            cand --statement 'The approach (default: the hypothesis in the verdict record)'
            cand --iteration 'Loop iteration'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;deadend;help'= {
            cand add 'Record a dead end by hand (kept once per approach)'
            cand check 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
            cand scan 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file'
            cand list 'List known dead ends'
            cand promote 'Promote a verdict to a dead end: only a deterministic refutation is kept'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;deadend;help;add'= {
        }
        &'arx;deadend;help;check'= {
        }
        &'arx;deadend;help;scan'= {
        }
        &'arx;deadend;help;list'= {
        }
        &'arx;deadend;help;promote'= {
        }
        &'arx;deadend;help;help'= {
        }
        &'arx;knowhow'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Record a positive learning (an identical one is kept once)'
            cand list 'List knowhow'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;knowhow;add'= {
            cand --content 'The learning itself'
            cand --iteration 'Loop iteration it was found in'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;knowhow;list'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;knowhow;help'= {
            cand add 'Record a positive learning (an identical one is kept once)'
            cand list 'List knowhow'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;knowhow;help;add'= {
        }
        &'arx;knowhow;help;list'= {
        }
        &'arx;knowhow;help;help'= {
        }
        &'arx;finding'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
            cand ingest 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
            cand maintain 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
            cand rank 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
            cand list 'List findings (live ones unless --all or --status)'
            cand show 'Show one finding in full (a unique prefix of its id is enough)'
            cand explain 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
            cand merge 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;finding;add'= {
            cand --kind 'What it is'
            cand --source 'Where it came from: a run id, a round, a file, a person'
            cand --confidence 'How sure it is, in [0, 1] (default 0.7)'
            cand --tag 'A label (repeatable)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;ingest'= {
            cand --kind 'Record every claim as this kind (default: guessed from its wording)'
            cand --source 'Source of the claims (default: the file name, or `stdin`)'
            cand --confidence 'Confidence of the claims, in [0, 1] (default 0.5)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --dry-run 'List the claims found; record nothing'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;maintain'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --force 'Apply a pass past the safety limit'
            cand --dry-run 'Say what the pass would change; write nothing'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;rank'= {
            cand --context 'What the next proposal is about'
            cand --limit 'Most findings shown'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;list'= {
            cand --kind 'Only this kind'
            cand --status 'Only this status'
            cand --limit 'Only the N most recent'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --all 'Deprecated findings too'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;show'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;explain'= {
            cand --context 'Rank it against this context (default: its own text)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;merge'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;finding;help'= {
            cand add 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
            cand ingest 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
            cand maintain 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
            cand rank 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
            cand list 'List findings (live ones unless --all or --status)'
            cand show 'Show one finding in full (a unique prefix of its id is enough)'
            cand explain 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
            cand merge 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;finding;help;add'= {
        }
        &'arx;finding;help;ingest'= {
        }
        &'arx;finding;help;maintain'= {
        }
        &'arx;finding;help;rank'= {
        }
        &'arx;finding;help;list'= {
        }
        &'arx;finding;help;show'= {
        }
        &'arx;finding;help;explain'= {
        }
        &'arx;finding;help;merge'= {
        }
        &'arx;finding;help;help'= {
        }
        &'arx;idea'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
            cand list 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
            cand drop 'Drop an idea: no longer proposed (its tries stay in the journal)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;idea;add'= {
            cand --family 'Its family: one word (letters, digits, _, - or .), e.g. lr, batch, init'
            cand --retry 'Try this idea (its id or a unique prefix) again; needs --because'
            cand --because 'With --retry: what changed since it was tried'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;idea;list'= {
            cand --status 'Only ideas with this status'
            cand --family 'Only ideas of this family'
            cand --limit 'Only the N most recent ideas'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;idea;drop'= {
            cand --reason 'Why'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;idea;help'= {
            cand add 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
            cand list 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
            cand drop 'Drop an idea: no longer proposed (its tries stay in the journal)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;idea;help;add'= {
        }
        &'arx;idea;help;list'= {
        }
        &'arx;idea;help;drop'= {
        }
        &'arx;idea;help;help'= {
        }
        &'arx;run'= {
            cand --metric 'Metric key to judge (overrides the spec file)'
            cand --cmp 'Comparator: >=, <=, >, < or == (overrides the spec file)'
            cand --target 'Target value, a finite number (overrides the spec file)'
            cand --spec 'Metric spec file, TOML or JSON (metric_key, comparator, target, hypothesis)'
            cand --hypothesis 'The hypothesis this run tests (default: the spec file''s)'
            cand --candidate 'Name of the candidate experiment (for `arx log --candidate`)'
            cand --tag 'A tag for the journal (repeatable)'
            cand --state 'A feature of the loop''s state for the policy cache (repeatable); numbers, true, false and null are read as JSON, anything else as text'
            cand --state-json 'The loop''s state as a JSON object'
            cand --timeout 'Time limit, e.g. 90s, 15m, 2h, 1h30m (a bare number is seconds)'
            cand --grace 'Time between SIGTERM and SIGKILL when ending the experiment'
            cand --events 'Write an NDJSON event stream to PATH (`-`: stdout; the experiment''s own stdout then goes to stderr)'
            cand --heartbeat 'Interval of heartbeat events'
            cand --iteration 'Loop iteration (recorded with a promoted dead end)'
            cand --repeat 'Run N times and judge the mean with a confidence interval'
            cand --confidence 'Confidence level of the interval (with --repeat)'
            cand --prune 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)'
            cand --progress-step 'The progress key holding the step (default: step)'
            cand --launcher 'Start every experiment through this command, split at whitespace, e.g. ''srun --gres=gpu:1 --'' ([objective] launcher). With srun each job is named arx-<run id>'
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --stop-on-result 'End the experiment once its result line is in (after a 1 s grace)'
            cand --approve 'Approve the `execute` gate for this run'
            cand --no-gates 'Turn every gate off'
            cand --force 'Run even when the hypothesis is a known dead end'
            cand --promote 'Record a deterministic refutation in the dead-end registry'
            cand --shell 'Run the command through /bin/sh -c'
            cand --no-journal 'Do not write the journal'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;compare'= {
            cand --baseline-cmd 'Baseline command (run through /bin/sh -c)'
            cand --candidate-cmd 'Candidate command (run through /bin/sh -c)'
            cand --metric 'Metric key to compare'
            cand --direction 'Which way is better'
            cand --min-effect 'Smallest improvement that counts'
            cand --runs 'Runs of each command'
            cand --confidence 'Confidence level of the interval'
            cand --timeout 'Time limit per run'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve the `execute` gate'
            cand --no-gates 'Turn every gate off'
            cand --no-journal 'Do not write the journal'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;try'= {
            cand -m 'What the change is: the journal''s description, the commit subject'
            cand --description 'What the change is: the journal''s description, the commit subject'
            cand --idea 'The idea of the backlog this try tests (its id or a unique prefix): recorded with the try; its statement is the description unless -m is given'
            cand --family 'The family of the change (one word). With -m and no --idea: the try adds its description to the backlog as an idea of this family. Without either, a try takes the family of the most similar idea'
            cand --rule 'The decision rule: sequential (arx''s: a group-sequential test that keeps a change no better than the best 1 - confidence of the time), confirm (screen, then confirmation runs), strict (keep one sample better than the best, unconfirmed), mad (better, and the segment''s MAD confidence >= 2)'
            cand --lane 'Run the try in this lane (`arx lane add`), from anywhere in the repository: the same as running it in the lane''s directory'
            cand --because 'With --retry: what changed since the idea was tried, or why it runs here as well as in another lane'
            cand --grace 'Time between SIGTERM and SIGKILL when ending the experiment'
            cand --events 'Append NDJSON events (started, progress, result, heartbeat, finished) to PATH'
            cand --heartbeat 'Time between heartbeat events'
            cand --prune 'Stop a hopeless run early from its `__PROGRESS__` values: median (worse than the median of earlier completed runs at the same step), patient:N[:RULE] (only after N checks in a row say so), threshold:X (the value crosses X, or is NaN or infinite)'
            cand --progress-step 'The progress key holding the step (default: step)'
            cand --launcher 'Start every experiment through this command, split at whitespace, e.g. ''srun --gres=gpu:1 --'' ([objective] launcher). With srun each job is named arx-<run id>'
            cand --metric 'The metric to improve ([objective] metric)'
            cand --direction 'Which way the metric improves ([objective] direction)'
            cand --command 'The experiment as one shell command line ([objective] command); or give it after `--`'
            cand --timeout 'Time limit of one run, e.g. 10m ([objective] timeout)'
            cand --repeat 'Runs of each candidate, at least ([objective] repeat)'
            cand --baseline-repeat 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)'
            cand --min-effect 'Smallest improvement worth keeping, in metric units ([objective] min_effect)'
            cand --confidence 'Confidence of a keep ([objective] confidence)'
            cand --check 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)'
            cand --protect 'A path or glob no candidate may change (repeatable; replaces [objective] protect)'
            cand --max-runs 'Stop after this many runs in the segment ([objective.stop] max_runs)'
            cand --max-discards-in-a-row 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)'
            cand --max-hours 'Stop after this many hours of the segment ([objective.stop] max_hours)'
            cand --target 'Stop once the best reaches this value ([objective.stop] target)'
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --new-segment 'Start a new segment: measure the baseline again'
            cand --dry-run 'Say what would be run, kept or restored; change nothing'
            cand --strict 'Refuse (exit 1) when the description matches a deprecated or refuted finding or a known dead end; without it, warn and go on'
            cand --approve 'Approve the `execute` gate for this try'
            cand --no-gates 'Ignore the approval gates'
            cand --no-repeat 'Refuse (exit 1, `refused: a repeat`) an idea discarded at this parent already, unless --because says what changed; without it, warn and go on. The MCP server''s `try` always asks for this'
            cand --retry 'With --idea and --because: try the idea again as a retry (a new idea of the backlog that names it), also when another lane has it in flight (refused without it, exit 2)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;best'= {
            cand --metric 'The metric to improve ([objective] metric)'
            cand --direction 'Which way the metric improves ([objective] direction)'
            cand --command 'The experiment as one shell command line ([objective] command); or give it after `--`'
            cand --timeout 'Time limit of one run, e.g. 10m ([objective] timeout)'
            cand --repeat 'Runs of each candidate, at least ([objective] repeat)'
            cand --baseline-repeat 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)'
            cand --min-effect 'Smallest improvement worth keeping, in metric units ([objective] min_effect)'
            cand --confidence 'Confidence of a keep ([objective] confidence)'
            cand --check 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)'
            cand --protect 'A path or glob no candidate may change (repeatable; replaces [objective] protect)'
            cand --max-runs 'Stop after this many runs in the segment ([objective.stop] max_runs)'
            cand --max-discards-in-a-row 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)'
            cand --max-hours 'Stop after this many hours of the segment ([objective.stop] max_hours)'
            cand --target 'Stop once the best reaches this value ([objective.stop] target)'
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;status'= {
            cand --metric 'The metric to improve ([objective] metric)'
            cand --direction 'Which way the metric improves ([objective] direction)'
            cand --command 'The experiment as one shell command line ([objective] command); or give it after `--`'
            cand --timeout 'Time limit of one run, e.g. 10m ([objective] timeout)'
            cand --repeat 'Runs of each candidate, at least ([objective] repeat)'
            cand --baseline-repeat 'Runs of the baseline, to measure the noise ([objective] baseline_repeat)'
            cand --min-effect 'Smallest improvement worth keeping, in metric units ([objective] min_effect)'
            cand --confidence 'Confidence of a keep ([objective] confidence)'
            cand --check 'A check that must exit 0 before a keep (repeatable; replaces [objective] checks)'
            cand --protect 'A path or glob no candidate may change (repeatable; replaces [objective] protect)'
            cand --max-runs 'Stop after this many runs in the segment ([objective.stop] max_runs)'
            cand --max-discards-in-a-row 'Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row)'
            cand --max-hours 'Stop after this many hours of the segment ([objective.stop] max_hours)'
            cand --target 'Stop once the best reaches this value ([objective.stop] target)'
            cand --result-format 'How the experiment prints its metrics: arx (a __RESULT__ {json} line), pi (METRIC name=value lines), summary (name: value lines after a line ---), pattern ([objective] format)'
            cand --result-pattern 'A regular expression with named groups matched against each line of the output, each group a metric (the format pattern; [objective] pattern)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;restore'= {
            cand --older-than 'With --prune: the age (such as 30d, 12h) beyond which a set-aside candidate goes'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --list 'List the candidates set aside under refs/arx/discarded/, oldest first, with their age and size; change nothing'
            cand --prune 'Remove the refs of candidates set aside longer ago than --older-than (git gc then frees their space)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;log'= {
            cand --limit 'Show at most the N most recent runs'
            cand --last 'Show at most the N most recent runs'
            cand --candidate 'Only runs of this candidate'
            cand --format 'The ratchet''s results table instead (commit, metric, status, description, other metrics), as TSV or CSV'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;report'= {
            cand --svg 'Write the progress chart to FILE (SVG)'
            cand --html 'Write a self-contained HTML page to FILE: chart, summary, run table, rounds, dead ends'
            cand --refresh 'Make the HTML page reload itself every SECONDS (a page left open follows the loop live)'
            cand --junit 'Write every run as a JUnit test case to FILE'
            cand --segment 'Narrow the report to ratchet segment N, or summarize `all` of them (default: every run, the latest segment summarized)'
            cand --last 'How many last runs (and dead ends, rounds) to list'
            cand --x 'The chart''s x axis'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --markdown 'Print the summary and the last runs as Markdown (for $GITHUB_STEP_SUMMARY and pull-request comments)'
            cand --holdout 'Print the held-out check''s values and output from the operator''s held-out journal (ARX_HOLDOUT_JOURNAL), which nothing else shows'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;show'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;journal'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand merge 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
            cand verify 'Check the journal: readable records, duplicate and conflicting run ids'
            cand import 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;journal;merge'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;journal;verify'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;journal;import'= {
            cand --from 'The loop that wrote it (default: told by the file''s first line)'
            cand --metric 'The metric''s column (karpathy; default: the one arx.toml names, else the first numeric column that is not a commit, time, memory or counter and that varies); the name to record it under (codex''s `metric` column, pi''s metric)'
            cand --direction 'Which way the metric improves (default: the file''s own word, else arx.toml''s when it names that metric, else the way the night''s keeps moved; when none tells, arx asks for this flag)'
            cand --undo 'Remove exactly what an import added: every import of FILE, or the import with that id (shown by the import), so it can be redone'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;journal;help'= {
            cand merge 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
            cand verify 'Check the journal: readable records, duplicate and conflicting run ids'
            cand import 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;journal;help;merge'= {
        }
        &'arx;journal;help;verify'= {
        }
        &'arx;journal;help;import'= {
        }
        &'arx;journal;help;help'= {
        }
        &'arx;lane'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
            cand list 'The lanes: path, base commit, keeps behind the best, last try, live run'
            cand sync 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)'
            cand rm 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;lane;add'= {
            cand --dir 'Where lanes go (default: `<repository>.lanes/` beside the repository)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;lane;list'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;lane;sync'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --theirs 'Where the lane''s work conflicts with the best, the best''s side wins (the rest of the work is replayed); the work as it was is stored under refs/arx/discarded/lane-NAME-<time> first'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;lane;rm'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --force 'Remove it even with unsaved work, which is first stored under refs/arx/discarded/lane-NAME-<time> (`arx restore lane-NAME-<time>` puts it back)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;lane;help'= {
            cand add 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
            cand list 'The lanes: path, base commit, keeps behind the best, last try, live run'
            cand sync 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)'
            cand rm 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;lane;help;add'= {
        }
        &'arx;lane;help;list'= {
        }
        &'arx;lane;help;sync'= {
        }
        &'arx;lane;help;rm'= {
        }
        &'arx;lane;help;help'= {
        }
        &'arx;fleet'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand status 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)'
            cand sync 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;fleet;status'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --fetch 'Fetch from the remote first (without publishing anything)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;fleet;sync'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;fleet;help'= {
            cand status 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)'
            cand sync 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;fleet;help;status'= {
        }
        &'arx;fleet;help;sync'= {
        }
        &'arx;fleet;help;help'= {
        }
        &'arx;next'= {
            cand --candidates 'Candidates: TOML `[[candidate]]` tables or a JSON array with name, statement, optional steps and preferences. Without it, the open ideas of the backlog (`arx idea add`) are ranked from the ratchet''s record'
            cand --lane 'The lane asking (`arx lane add`): never given an idea in flight in another lane, and the idea it is given counts as in flight for the others until it is tried (ideas only)'
            cand --seed 'Seed of the pick (default: derived from the journal''s length)'
            cand --temperature 'Selection temperature (beta = precision / temperature); the default is the one that did best in the selection simulation'
            cand --model 'Model of expected free energy'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --greedy 'Take the lowest expected free energy instead of sampling'
            cand --explain 'Print a table of every candidate (on stdout, after the name)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;precision'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand show 'Values, alpha, beta and variance per level, and whether adaptation is due'
            cand rebuild 'Rebuild the state from the journal'
            cand reset 'Forget learned precision (kept across rebuilds)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;precision;show'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;precision;rebuild'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;precision;reset'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;precision;help'= {
            cand show 'Values, alpha, beta and variance per level, and whether adaptation is due'
            cand rebuild 'Rebuild the state from the journal'
            cand reset 'Forget learned precision (kept across rebuilds)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;precision;help;show'= {
        }
        &'arx;precision;help;rebuild'= {
        }
        &'arx;precision;help;reset'= {
        }
        &'arx;precision;help;help'= {
        }
        &'arx;policy'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand show 'Q-values per (state fingerprint, candidate), with success counts'
            cand crystallize 'Turn groups that keep succeeding into knowhow entries (once each)'
            cand cycles 'Do failures cluster on a weekday? (chi-squared over failing runs)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;policy;show'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;policy;crystallize'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve this step at its gate (`execute` before running, `kg_write` before writing dead ends and knowhow)'
            cand --no-gates 'Turn every gate off'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;policy;cycles'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;policy;help'= {
            cand show 'Q-values per (state fingerprint, candidate), with success counts'
            cand crystallize 'Turn groups that keep succeeding into knowhow entries (once each)'
            cand cycles 'Do failures cluster on a weekday? (chi-squared over failing runs)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;policy;help;show'= {
        }
        &'arx;policy;help;crystallize'= {
        }
        &'arx;policy;help;cycles'= {
        }
        &'arx;policy;help;help'= {
        }
        &'arx;round'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand validate 'Validate a patch: kernel rules plus checks against the real tree'
            cand apply 'Validate, evaluate, gate and land a patch as one git commit'
            cand revert 'Revert an applied round with a revert commit'
            cand status 'List rounds and say when the next one is allowed'
            cand protect-check 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
            cand evidence 'Select evidence for a round from findings (newest and strongest first)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;round;validate'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;apply'= {
            cand --round-id 'Round id (default: the UTC time, YYYYMMDD-HHMMSS)'
            cand --context 'With --evidence: the findings relevant to TEXT, best ranked first'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --auto 'Land the round when its checks pass and confidence suffices (never overrides the kill switch)'
            cand --dry-run 'Stop after validation and the duplicate check'
            cand --evidence 'Base the round on the store''s active findings (as `arx round evidence`): saved as the round''s evidence.md; too few skip it'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;revert'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;status'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;protect-check'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;evidence'= {
            cand --findings 'Findings: a JSON array of {kind, content, source, created_at} (default: the active findings of the store, .arx/findings.jsonl)'
            cand --context 'Draw from the store the findings relevant to TEXT, best ranked first (`arx finding rank`), instead of all active ones'
            cand --min 'Fewest findings for a round (default: config min_evidence, 3)'
            cand --max 'Most findings kept (default: config max_evidence, 25)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;round;help'= {
            cand validate 'Validate a patch: kernel rules plus checks against the real tree'
            cand apply 'Validate, evaluate, gate and land a patch as one git commit'
            cand revert 'Revert an applied round with a revert commit'
            cand status 'List rounds and say when the next one is allowed'
            cand protect-check 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
            cand evidence 'Select evidence for a round from findings (newest and strongest first)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;round;help;validate'= {
        }
        &'arx;round;help;apply'= {
        }
        &'arx;round;help;revert'= {
        }
        &'arx;round;help;status'= {
        }
        &'arx;round;help;protect-check'= {
        }
        &'arx;round;help;evidence'= {
        }
        &'arx;round;help;help'= {
        }
        &'arx;init'= {
            cand --metric 'The metric `arx try` improves: the key of the experiment''s `__RESULT__` line ([objective] metric; needs --direction)'
            cand --direction 'Which way the metric improves ([objective] direction)'
            cand --command 'The experiment, one shell command line ([objective] command)'
            cand --protect 'Paths or globs no candidate may change ([objective] protect)'
            cand --check 'Commands that must exit 0 before a keep ([objective] checks)'
            cand --format 'How the experiment prints its numbers ([objective] format): arx''s `__RESULT__` line, karpathy''s closing summary block, pi''s `METRIC` lines, or the named groups of `--pattern`'
            cand --pattern 'The regular expression of `--format pattern`, one named group per metric ([objective] pattern)'
            cand --timeout 'The time limit of one run ([objective] timeout: `10m`, `1h`)'
            cand --from 'Set arx up in the repository of another loop: its objective read from the loop''s files into arx.toml, its output files ignored by git, its night imported, and arx''s loop written where that loop''s agent reads its instructions. Other flags given with it win over what the files say'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --agent 'Also write (or update) the arx section of AGENTS.md: the loop an agent follows, filled with arx.toml''s objective'
            cand --share-journal 'Share the journal through git (committed, merged with merge=union): only the files arx derives are ignored. Without it the state directory is ignored by git as a whole'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;ps'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --reap 'Journal lost runs as `lost`, end their orphaned experiments and remove their live files'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;watch'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;serve'= {
            cand --port 'The port to listen on (0: any free port, printed)'
            cand --bind 'The address to listen on. Anything but a loopback address lets every machine that reaches it read the report'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;completions'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;mcp'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --approve 'Approve the `execute` gate for every call, as the operator starting the server (also `[mcp] approve = true` in arx.toml)'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;demo'= {
            cand --dir 'Where to create the demo''s repository (new or empty; default: a new directory under the system''s temporary directory)'
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;man'= {
            cand --color 'When to colour human output'
            cand --config 'Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON). Default: arx.toml found from the working directory upward'
            cand --state-dir 'State directory. Default: .arx/ at the repository root'
            cand --holdout-config 'A TOML file outside the repository holding [objective.holdout], the held-out check (kept where the agent does not read it)'
            cand --now 'The current time (RFC 3339), for reproducible records'
            cand --json 'Print machine-readable JSON on stdout instead of the human view'
            cand -q 'Print nothing on stdout; the exit code carries the answer'
            cand --quiet 'Print nothing on stdout; the exit code carries the answer'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'arx;help'= {
            cand parse 'Print the metrics of the first `__RESULT__ {json}` line as JSON'
            cand measure 'Compute the verdict of an experiment''s stdout against a metric spec'
            cand classify 'Print the failure class (H2, H3, H4 or none) of a stderr stream'
            cand gate 'Approval gates: check one before acting, or show their state'
            cand decide 'Decide the loop''s next step from the latest verdict'
            cand plateau 'Detect a plateau: the last WINDOW verdicts hold no `supported`'
            cand deadend 'Dead ends: approaches that a deterministic refutation ruled out'
            cand knowhow 'Knowhow: positive learnings worth keeping'
            cand finding 'Findings: what the loop learned, kept healthy (dedupe, reinforcement, decay, contradiction) and ranked for the next proposal'
            cand idea 'The backlog of ideas: what to try, each try''s idea, what became of it'
            cand run 'Run an experiment: gate, live output, verdict, journal'
            cand compare 'Compare a baseline and a candidate command over interleaved runs'
            cand try 'One iteration of the keep-if-better ratchet: run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it'
            cand best 'The best kept run of the ratchet''s segment: value, interval, commit'
            cand status 'The ratchet''s state and the stop advice: exit 0 when a stop rule fires, 1 to go on'
            cand restore 'Put a discarded candidate back in the working tree (a clean tree is needed); list or prune the candidates set aside'
            cand log 'List journaled runs, newest last (`--json`: one record per line)'
            cand report 'What the loop did: the segment''s summary, the last runs, runs by metric and candidate; the progress chart (SVG), an HTML page, JUnit or Markdown'
            cand show 'Show one journaled run in full (a unique prefix of its id is enough)'
            cand journal 'The run journal: merge journals from many machines, verify one'
            cand lane 'Lanes: many tries at once, each in its own git worktree, sharing one state and one best (a keep is a compare-and-swap of the best)'
            cand fleet 'A fleet: machines sharing one best through a git remote (`[fleet]` in arx.toml); a keep is a compare-and-swap push of the best'
            cand next 'Pick the next experiment from candidates, by expected free energy'
            cand precision 'The precision engine''s state: show, rebuild from the journal, reset'
            cand policy 'The policy cache: Q-values per state and candidate, crystallized knowhow, and weekday cycles of failures'
            cand round 'Life-harness rounds: validate, apply, revert and list patches to the project''s own prompts, config and code, each as one git commit'
            cand init 'Set up arx in this repository: .arx/, arx.toml and .gitattributes'
            cand ps 'Live runs: every running `arx run` and `arx try`, with its elapsed time, last progress and heartbeat age'
            cand watch 'Follow live runs'' events (progress, heartbeats, verdicts) until they end; `--json` prints them as NDJSON'
            cand serve 'Serve the night''s report as a live page on this machine: the summary, the chart, each try as it ends, the runs running now and the backlog of ideas, updated in the open page without a reload'
            cand completions 'Print a shell completion script'
            cand mcp 'Serve arx as Model Context Protocol tools over stdio (for Claude Code, Codex and other MCP clients)'
            cand demo 'Run the keep-if-better loop on a bundled example: a toy training run in a new git repository, a dozen edits through the real `arx try` (a win, a null change, a harmful one, a crash, an edit of the protected evaluation, a discard brought back with `arx restore`), then `arx status`, `arx report` and an HTML page'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'arx;help;parse'= {
        }
        &'arx;help;measure'= {
        }
        &'arx;help;classify'= {
        }
        &'arx;help;gate'= {
            cand check 'Check a gate: exit 0 to proceed, 1 paused (prints the pending gate)'
            cand show 'Show which gates are on, and where the setting came from'
        }
        &'arx;help;gate;check'= {
        }
        &'arx;help;gate;show'= {
        }
        &'arx;help;decide'= {
        }
        &'arx;help;plateau'= {
        }
        &'arx;help;deadend'= {
            cand add 'Record a dead end by hand (kept once per approach)'
            cand check 'Exit 1 when STATEMENT is a known dead end, 0 otherwise'
            cand scan 'Exit 1 when a file names a known dead end: a spec''s `hypothesis`, a candidates file''s `statement`s, or a line of any other text file'
            cand list 'List known dead ends'
            cand promote 'Promote a verdict to a dead end: only a deterministic refutation is kept'
        }
        &'arx;help;deadend;add'= {
        }
        &'arx;help;deadend;check'= {
        }
        &'arx;help;deadend;scan'= {
        }
        &'arx;help;deadend;list'= {
        }
        &'arx;help;deadend;promote'= {
        }
        &'arx;help;knowhow'= {
            cand add 'Record a positive learning (an identical one is kept once)'
            cand list 'List knowhow'
        }
        &'arx;help;knowhow;add'= {
        }
        &'arx;help;knowhow;list'= {
        }
        &'arx;help;finding'= {
            cand add 'Record a finding; one at least 0.95 similar to a stored one (and not contradicting it) is that finding, reinforced instead'
            cand ingest 'Extract candidate findings from free text (notes, logs, a transcript) and record them'
            cand maintain 'One maintenance pass: reinforcement, decay, contradiction audit, mutation, resolution, safety check. Prints what changed and why'
            cand rank 'What to read before the next proposal: live findings ranked by 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension (relevance below 0.3 dropped)'
            cand list 'List findings (live ones unless --all or --status)'
            cand show 'Show one finding in full (a unique prefix of its id is enough)'
            cand explain 'Why a finding ranks where it does, what reinforced or contradicted it, and its lineage'
            cand merge 'Merge findings files (e.g. from other machines) into the store: the union, one finding per id, the most recently updated version winning'
        }
        &'arx;help;finding;add'= {
        }
        &'arx;help;finding;ingest'= {
        }
        &'arx;help;finding;maintain'= {
        }
        &'arx;help;finding;rank'= {
        }
        &'arx;help;finding;list'= {
        }
        &'arx;help;finding;show'= {
        }
        &'arx;help;finding;explain'= {
        }
        &'arx;help;finding;merge'= {
        }
        &'arx;help;idea'= {
            cand add 'Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone on stdout'
            cand list 'The backlog, oldest first: each idea''s id, status (open, in flight in a lane, tried: how each try ended, with its run, or dropped), family and statement'
            cand drop 'Drop an idea: no longer proposed (its tries stay in the journal)'
        }
        &'arx;help;idea;add'= {
        }
        &'arx;help;idea;list'= {
        }
        &'arx;help;idea;drop'= {
        }
        &'arx;help;run'= {
        }
        &'arx;help;compare'= {
        }
        &'arx;help;try'= {
        }
        &'arx;help;best'= {
        }
        &'arx;help;status'= {
        }
        &'arx;help;restore'= {
        }
        &'arx;help;log'= {
        }
        &'arx;help;report'= {
        }
        &'arx;help;show'= {
        }
        &'arx;help;journal'= {
            cand merge 'Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id'
            cand verify 'Check the journal: readable records, duplicate and conflicting run ids'
            cand import 'Import another loop''s night as ratchet records marked imported: karpathy''s or codex''s results.tsv, pi''s autoresearch.jsonl (or .auto/log.jsonl)'
        }
        &'arx;help;journal;merge'= {
        }
        &'arx;help;journal;verify'= {
        }
        &'arx;help;journal;import'= {
        }
        &'arx;help;lane'= {
            cand add 'Add lanes: a git worktree each, on its own branch `arx/lane/NAME`, started at the best commit, beside the repository (not inside it)'
            cand list 'The lanes: path, base commit, keeps behind the best, last try, live run'
            cand sync 'Replay a lane''s work onto the best (exit 1 when it conflicts; nothing changes then)'
            cand rm 'Remove a lane: its worktree and branch. Refuses unsaved work unless --force'
        }
        &'arx;help;lane;add'= {
        }
        &'arx;help;lane;list'= {
        }
        &'arx;help;lane;sync'= {
        }
        &'arx;help;lane;rm'= {
        }
        &'arx;help;fleet'= {
            cand status 'The machines: class, last seen, what each tries, the fleet''s best and each class''s best (as last fetched; `--fetch` asks the remote)'
            cand sync 'Fetch the fleet''s records and publish this machine''s now (every `arx try` does it at its start and end). Exit 2 when the remote does not answer'
        }
        &'arx;help;fleet;status'= {
        }
        &'arx;help;fleet;sync'= {
        }
        &'arx;help;next'= {
        }
        &'arx;help;precision'= {
            cand show 'Values, alpha, beta and variance per level, and whether adaptation is due'
            cand rebuild 'Rebuild the state from the journal'
            cand reset 'Forget learned precision (kept across rebuilds)'
        }
        &'arx;help;precision;show'= {
        }
        &'arx;help;precision;rebuild'= {
        }
        &'arx;help;precision;reset'= {
        }
        &'arx;help;policy'= {
            cand show 'Q-values per (state fingerprint, candidate), with success counts'
            cand crystallize 'Turn groups that keep succeeding into knowhow entries (once each)'
            cand cycles 'Do failures cluster on a weekday? (chi-squared over failing runs)'
        }
        &'arx;help;policy;show'= {
        }
        &'arx;help;policy;crystallize'= {
        }
        &'arx;help;policy;cycles'= {
        }
        &'arx;help;round'= {
            cand validate 'Validate a patch: kernel rules plus checks against the real tree'
            cand apply 'Validate, evaluate, gate and land a patch as one git commit'
            cand revert 'Revert an applied round with a revert commit'
            cand status 'List rounds and say when the next one is allowed'
            cand protect-check 'Refuse files that `[objective] protect` covers (a pre-commit hook: the next `arx try` would set such a change aside)'
            cand evidence 'Select evidence for a round from findings (newest and strongest first)'
        }
        &'arx;help;round;validate'= {
        }
        &'arx;help;round;apply'= {
        }
        &'arx;help;round;revert'= {
        }
        &'arx;help;round;status'= {
        }
        &'arx;help;round;protect-check'= {
        }
        &'arx;help;round;evidence'= {
        }
        &'arx;help;init'= {
        }
        &'arx;help;ps'= {
        }
        &'arx;help;watch'= {
        }
        &'arx;help;serve'= {
        }
        &'arx;help;completions'= {
        }
        &'arx;help;mcp'= {
        }
        &'arx;help;demo'= {
        }
        &'arx;help;man'= {
        }
        &'arx;help;help'= {
        }
    ]
    $completions[$command]
}
