//! The command-line definition (clap derive). Owns flag names, help text and
//! value parsing of plain types; it must not decide anything or touch files.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::ops::spec::{RunSpecFlags, SpecFlags};

const EXIT_CODES: &str = "\
Exit codes:
  0  yes / ok (supported, proceed, found, done)
  1  a \"no\" (refuted, paused, known dead end, nothing found)
  2  error (bad input, usage, I/O)
  3  inconclusive";

/// Deterministic decisions for autoresearch loops.
///
/// Experiments print `__RESULT__ {"metric": 0.83}` on stdout; arx turns that
/// into a verdict, classifies failures, checks gates and remembers dead ends.
#[derive(Debug, Parser)]
#[command(name = "arx", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// Flags accepted by every command.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Print machine-readable JSON on stdout instead of the human view.
    #[arg(long, global = true)]
    pub json: bool,

    /// Print nothing on stdout; the exit code carries the answer.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,

    /// When to colour human output.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON).
    /// Default: arx.toml found from the working directory upward.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// State directory. Default: .arx/ at the repository root.
    #[arg(long, global = true, env = "ARX_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// The current time (RFC 3339), for reproducible records.
    #[arg(long, global = true, value_name = "TIME")]
    pub now: Option<String>,
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the metrics of the first `__RESULT__ {json}` line as JSON.
    ///
    /// Reads FILE or stdin as a stream (bounded memory, any size, invalid
    /// UTF-8 tolerated). Exit 0 when at least one metric was found, 1 when none.
    #[command(after_help = "Example:\n  python train.py | arx parse")]
    Parse {
        /// Experiment stdout (default: stdin; `-` also means stdin).
        file: Option<PathBuf>,
    },

    /// Compute the verdict of an experiment's stdout against a metric spec.
    ///
    /// Exit 0 supported, 1 refuted, 3 inconclusive, 2 on an invalid spec.
    #[command(
        after_help = "Example:\n  arx measure --metric acc --cmp '>=' --target 0.8 < train.log"
    )]
    Measure(MeasureArgs),

    /// Print the failure class (H2, H3, H4 or none) of a stderr stream.
    ///
    /// H2 missing dependency, H3 missing file or permission, H4 timeout or
    /// runtime failure, none for empty stderr. Always exits 0 on readable input.
    #[command(after_help = "Example:\n  arx classify < stderr.log")]
    Classify {
        /// The run timed out (always H4).
        #[arg(long)]
        timed_out: bool,
        /// Experiment stderr (default: stdin; `-` also means stdin).
        file: Option<PathBuf>,
    },

    /// Approval gates: check one before acting, or show their state.
    #[command(subcommand)]
    Gate(GateCommand),

    /// Decide the loop's next step from the latest verdict.
    ///
    /// Prints branch (finalize|revise), done and status (supported|exhausted|active).
    /// Exit 0 when the loop is done, 1 when it should go on.
    #[command(
        after_help = "Example:\n  arx decide --iteration 2 --max-iterations 5 --verdict refuted"
    )]
    Decide {
        /// Current iteration number.
        #[arg(long, allow_negative_numbers = true)]
        iteration: i64,
        /// Iteration budget.
        #[arg(long, allow_negative_numbers = true)]
        max_iterations: i64,
        /// Verdict of the latest experiment.
        #[arg(long, value_parser = VERDICTS)]
        verdict: String,
    },

    /// Detect a plateau: the last WINDOW verdicts hold no `supported`.
    ///
    /// Exit 0 on a plateau, 1 otherwise. Verdicts are read from the arguments,
    /// or whitespace-separated from stdin when none are given (or `-`).
    #[command(
        after_help = "Example:\n  arx plateau --window 3 supported refuted inconclusive refuted"
    )]
    Plateau {
        /// How many recent verdicts to look at (at least 1).
        #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
        window: i64,
        /// Verdicts, oldest first: supported, refuted or inconclusive.
        verdicts: Vec<String>,
    },

    /// Dead ends: approaches that a deterministic refutation ruled out.
    #[command(subcommand, name = "deadend")]
    DeadEnd(DeadEndCommand),

    /// Knowhow: positive learnings worth keeping.
    #[command(subcommand)]
    Knowhow(KnowhowCommand),

    /// Run an experiment: gate, live output, verdict, journal.
    ///
    /// Exit 0 supported, 1 refuted (or paused at the gate, or a known dead
    /// end), 3 inconclusive, 2 on bad input. Without a metric spec the run is
    /// journaled and the exit code says whether it succeeded (0) or not (3).
    #[command(
        after_help = "Examples:\n  arx run --metric acc --cmp '>=' --target 0.8 --timeout 2h -- python train.py\n  arx run --spec spec.toml --repeat 5 --approve -- ./bench.sh"
    )]
    Run(Box<RunArgs>),

    /// Compare a baseline and a candidate command over interleaved runs.
    ///
    /// Runs A B A B ... so drift hits both, then Welch's t-test on the
    /// candidate's improvement. Exit 0 supported (better by at least
    /// --min-effect), 1 refuted, 3 inconclusive.
    #[command(
        after_help = "Example:\n  arx compare --baseline 'python train.py' --candidate 'python train.py --lr 1e-3' --metric acc --direction max --runs 8"
    )]
    Compare(Box<CompareArgs>),

    /// List journaled runs, newest last (`--json`: one record per line).
    #[command(after_help = "Example:\n  arx log --limit 20 --candidate hybrid")]
    Log {
        /// Show at most the N most recent runs.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Only runs of this candidate.
        #[arg(long, value_name = "NAME")]
        candidate: Option<String>,
    },

    /// Show one journaled run in full (a unique prefix of its id is enough).
    #[command(after_help = "Example:\n  arx show 0193a7c2")]
    Show {
        /// Run id or a unique prefix of it.
        run_id: String,
    },

    /// The run journal: merge journals from many machines, verify one.
    #[command(subcommand)]
    Journal(JournalCommand),

    /// Pick the next experiment from candidates, by expected free energy.
    ///
    /// Prints the chosen candidate's name alone on stdout. Exit 1 when every
    /// candidate is a known dead end.
    #[command(
        after_help = "Examples:\n  next=$(arx next --candidates candidates.toml)\n  arx next --candidates candidates.toml --explain"
    )]
    Next(NextArgs),

    /// The precision engine's state: show, rebuild from the journal, reset.
    #[command(after_help = "Example:\n  arx precision show --json")]
    Precision {
        #[command(subcommand)]
        cmd: Option<PrecisionCommand>,
    },

    /// The policy cache: Q-values per state and candidate, crystallized
    /// knowhow, and weekday cycles of failures.
    #[command(subcommand)]
    Policy(PolicyCommand),

    /// Life-harness rounds: validate, apply, revert and list patches to the
    /// project's own prompts, config and code, each as one git commit.
    #[command(subcommand)]
    Round(RoundCommand),

    /// Set up arx in this repository: .arx/, arx.toml and .gitattributes.
    #[command(
        after_help = "Example:\n  arx init && git add arx.toml .gitattributes .arx/journal.jsonl"
    )]
    Init,

    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  arx completions bash > ~/.local/share/bash-completion/completions/arx"
    )]
    Completions {
        /// Target shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The three verdict words, for flags that take one.
pub const VERDICTS: [&str; 3] = ["supported", "refuted", "inconclusive"];

#[derive(Debug, Args)]
pub struct MeasureArgs {
    #[command(flatten)]
    pub spec: SpecFlags,
    /// Exit code of the experiment (default 0, or 124 with --timed-out).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub exit_code: Option<i64>,
    /// The experiment's stderr, classified into a failure class.
    #[arg(long, value_name = "FILE", conflicts_with = "failure_class")]
    pub stderr: Option<PathBuf>,
    /// Failure class when stderr is not at hand.
    #[arg(long, value_name = "C", value_parser = ["H2", "H3", "H4", "none"])]
    pub failure_class: Option<String>,
    /// The run timed out.
    #[arg(long)]
    pub timed_out: bool,
    /// Experiment stdout (default: stdin; `-` also means stdin).
    pub file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub spec: RunSpecFlags,
    /// The hypothesis this run tests (default: the spec file's).
    #[arg(long, value_name = "TEXT")]
    pub hypothesis: Option<String>,
    /// Name of the candidate experiment (for `arx log --candidate`).
    #[arg(long, value_name = "NAME")]
    pub candidate: Option<String>,
    /// A tag for the journal (repeatable).
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,
    /// A feature of the loop's state for the policy cache (repeatable);
    /// numbers, true, false and null are read as JSON, anything else as text.
    #[arg(
        long = "state",
        value_name = "KEY=VALUE",
        conflicts_with = "state_json"
    )]
    pub state: Vec<String>,
    /// The loop's state as a JSON object.
    #[arg(long, value_name = "JSON")]
    pub state_json: Option<String>,
    /// Time limit, e.g. 90s, 15m, 2h, 1h30m (a bare number is seconds).
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Time between SIGTERM and SIGKILL when ending the experiment.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    pub grace: String,
    /// End the experiment once its result line is in (after a 1 s grace).
    #[arg(long)]
    pub stop_on_result: bool,
    /// Write an NDJSON event stream to PATH (`-`: stdout; the experiment's
    /// own stdout then goes to stderr).
    #[arg(long, value_name = "PATH|-")]
    pub events: Option<String>,
    /// Interval of heartbeat events.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    pub heartbeat: String,
    /// Approve the `execute` gate for this run.
    #[arg(long)]
    pub approve: bool,
    /// Turn every gate off.
    #[arg(long)]
    pub no_gates: bool,
    /// Run even when the hypothesis is a known dead end.
    #[arg(long)]
    pub force: bool,
    /// Record a deterministic refutation in the dead-end registry.
    #[arg(long)]
    pub promote: bool,
    /// Loop iteration (recorded with a promoted dead end).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub iteration: i64,
    /// Run the command through /bin/sh -c.
    #[arg(long)]
    pub shell: bool,
    /// Run N times and judge the mean with a confidence interval.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: u32,
    /// Confidence level of the interval (with --repeat).
    #[arg(long, value_name = "C", default_value_t = 0.95)]
    pub confidence: f64,
    /// Do not write the journal.
    #[arg(long)]
    pub no_journal: bool,
    /// The experiment command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Baseline command (run through /bin/sh -c).
    #[arg(long, value_name = "CMD")]
    pub baseline: String,
    /// Candidate command (run through /bin/sh -c).
    #[arg(long, value_name = "CMD")]
    pub candidate: String,
    /// Metric key to compare.
    #[arg(long, value_name = "KEY")]
    pub metric: String,
    /// Which way is better.
    #[arg(long, value_parser = ["max", "min"])]
    pub direction: String,
    /// Smallest improvement that counts.
    #[arg(
        long,
        value_name = "E",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub min_effect: f64,
    /// Runs of each command.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub runs: u32,
    /// Confidence level of the interval.
    #[arg(long, value_name = "C", default_value_t = 0.95)]
    pub confidence: f64,
    /// Time limit per run.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Approve the `execute` gate.
    #[arg(long)]
    pub approve: bool,
    /// Turn every gate off.
    #[arg(long)]
    pub no_gates: bool,
    /// Do not write the journal.
    #[arg(long)]
    pub no_journal: bool,
}

#[derive(Debug, Args)]
pub struct NextArgs {
    /// Candidates: TOML `[[candidate]]` tables or a JSON array with name,
    /// statement, optional steps and preferences.
    #[arg(long, value_name = "FILE")]
    pub candidates: PathBuf,
    /// Seed of the pick (default: derived from the journal's length).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Selection temperature (beta = precision / temperature); the default
    /// is the one that did best in the selection simulation.
    #[arg(long, value_name = "T", default_value_t = 0.02)]
    pub temperature: f64,
    /// Model of expected free energy.
    #[arg(long, value_name = "M", value_parser = ["lrs", "aif"])]
    pub model: Option<String>,
    /// Take the lowest expected free energy instead of sampling.
    #[arg(long)]
    pub greedy: bool,
    /// Print a table of every candidate (on stdout, after the name).
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Subcommand)]
pub enum PrecisionCommand {
    /// Values, alpha, beta and variance per level, and whether adaptation is due.
    Show,
    /// Rebuild the state from the journal.
    Rebuild,
    /// Forget learned precision (kept across rebuilds).
    Reset,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Q-values per (state fingerprint, candidate), with success counts.
    #[command(after_help = "Example:\n  arx policy show --json")]
    Show,
    /// Turn groups that keep succeeding into knowhow entries (once each).
    #[command(after_help = "Example:\n  arx policy crystallize")]
    Crystallize,
    /// Do failures cluster on a weekday? (chi-squared over failing runs)
    ///
    /// Exit 0 when they do, 1 when they do not or there are too few.
    #[command(after_help = "Example:\n  arx policy cycles")]
    Cycles,
}

#[derive(Debug, Subcommand)]
pub enum RoundCommand {
    /// Validate a patch: kernel rules plus checks against the real tree.
    ///
    /// Exit 0 valid, 1 invalid (every error listed), 2 unreadable input.
    #[command(after_help = "Example:\n  arx round validate patch.json")]
    Validate {
        /// The patch (JSON), `-` for stdin.
        patch: String,
    },
    /// Validate, evaluate, gate and land a patch as one git commit.
    ///
    /// Exit 0 applied, evaluated (awaiting review) or skipped; 1 rejected;
    /// 2 error.
    #[command(
        after_help = "Examples:\n  arx round apply patch.json            # review mode: a branch to merge\n  arx round apply patch.json --auto     # land it when checks pass"
    )]
    Apply {
        /// The patch (JSON), `-` for stdin.
        patch: String,
        /// Land the round when its checks pass and confidence suffices
        /// (never overrides the kill switch).
        #[arg(long)]
        auto: bool,
        /// Stop after validation and the duplicate check.
        #[arg(long)]
        dry_run: bool,
        /// Round id (default: the UTC time, YYYYMMDD-HHMMSS).
        #[arg(long, value_name = "ID")]
        round_id: Option<String>,
    },
    /// Revert an applied round with a revert commit.
    #[command(after_help = "Example:\n  arx round revert 20261121-101500")]
    Revert {
        /// Round id.
        id: String,
    },
    /// List rounds and say when the next one is allowed.
    #[command(after_help = "Example:\n  arx round status --json")]
    Status,
    /// Select evidence for a round from findings (newest and strongest first).
    ///
    /// Exit 1 when there is too little evidence.
    #[command(
        after_help = "Example:\n  arx round evidence --findings findings.json --min 3 --max 25"
    )]
    Evidence {
        /// Findings: a JSON array of {kind, content, source, created_at}.
        #[arg(long, value_name = "FILE")]
        findings: String,
        /// Fewest findings for a round (default: config min_evidence, 3).
        #[arg(long, value_name = "N")]
        min: Option<usize>,
        /// Most findings kept (default: config max_evidence, 25).
        #[arg(long, value_name = "M")]
        max: Option<usize>,
    },
}

#[derive(Debug, Subcommand)]
pub enum JournalCommand {
    /// Merge journals (e.g. from CI jobs) into this one: union, deduplicated by run id.
    #[command(after_help = "Example:\n  arx journal merge artifacts/*/journal.jsonl")]
    Merge {
        /// Journal files to merge in (none: deduplicate this journal in place).
        files: Vec<PathBuf>,
    },
    /// Check the journal: readable records, duplicate and conflicting run ids.
    ///
    /// Exit 0 when sound, 1 when a run id conflicts or is missing or a line
    /// is unreadable.
    #[command(after_help = "Example:\n  arx journal verify")]
    Verify {
        /// Journal file (default: the state directory's journal.jsonl).
        file: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum GateCommand {
    /// Check a gate: exit 0 to proceed, 1 paused (prints the pending gate).
    #[command(after_help = "Example:\n  arx gate check execute || echo 'waiting for approval'")]
    Check {
        /// The gate: execute or kg_write.
        #[arg(value_parser = GATES)]
        gate: String,
        /// A person approved this step.
        #[arg(long)]
        approved: bool,
        /// Turn every gate off.
        #[arg(long)]
        no_gates: bool,
    },
    /// Show which gates are on, and where the setting came from.
    #[command(after_help = "Example:\n  arx gate show --json")]
    Show {
        /// Turn every gate off.
        #[arg(long)]
        no_gates: bool,
    },
}

/// Gate names.
pub const GATES: [&str; 2] = ["execute", "kg_write"];

#[derive(Debug, Subcommand)]
pub enum DeadEndCommand {
    /// Record a dead end by hand (kept once per approach).
    #[command(
        after_help = "Example:\n  arx deadend add 'BM25 alone reaches recall@10 >= 0.8' --reason 'recall 0.61 on eval'"
    )]
    Add {
        /// The approach, as a hypothesis statement.
        statement: String,
        /// Why it is a dead end.
        #[arg(long)]
        reason: String,
        /// Loop iteration it was found in.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        iteration: i64,
        /// Strength of the evidence.
        #[arg(long, default_value = "manual", value_parser = ["deterministic", "exit_code", "llm", "manual"])]
        evidence_level: String,
    },
    /// Exit 1 when STATEMENT is a known dead end, 0 otherwise.
    #[command(
        after_help = "Example:\n  arx deadend check \"$HYPOTHESIS\" || exit 0  # skip known dead ends"
    )]
    Check {
        /// The approach to look up (case and spacing do not matter).
        statement: String,
    },
    /// List known dead ends.
    #[command(after_help = "Example:\n  arx deadend list --json")]
    List,
    /// Promote a verdict to a dead end: only a deterministic refutation is kept.
    ///
    /// Exit 0 when recorded (or already known), 1 when the verdict may not
    /// promote (nothing is written).
    #[command(
        after_help = "Example:\n  arx measure --json ... > v.json; arx deadend promote --verdict v.json --statement \"$H\""
    )]
    Promote {
        /// Verdict record as printed by `arx measure --json` (`-` for stdin).
        #[arg(long, value_name = "FILE|-")]
        verdict: String,
        /// The approach (default: the hypothesis in the verdict record).
        #[arg(long)]
        statement: Option<String>,
        /// Loop iteration.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        iteration: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum KnowhowCommand {
    /// Record a positive learning (an identical one is kept once).
    #[command(
        after_help = "Example:\n  arx knowhow add 'hybrid retrieval' --content 'BM25+dense with RRF k=60 lifts recall by 6 points'"
    )]
    Add {
        /// What the learning is about.
        statement: String,
        /// The learning itself.
        #[arg(long)]
        content: String,
        /// Loop iteration it was found in.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        iteration: i64,
    },
    /// List knowhow.
    #[command(after_help = "Example:\n  arx knowhow list --json")]
    List,
}

/// Show a clap error (or help/version) and return the exit code: help and
/// version exit 0; usage errors print `arx: error: ...` and exit 2.
pub fn usage_error(e: &clap::Error) -> crate::error::Exit {
    use std::io::Write;
    if !e.use_stderr() {
        let _ = e.print();
        return crate::error::Exit::Ok;
    }
    let text = e.render().ansi().to_string();
    let mut stderr = anstream::stderr().lock();
    let _ = write!(stderr, "arx: {text}");
    crate::error::Exit::Error
}
