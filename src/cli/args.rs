//! The argument structs of the subcommands (and their subcommand enums).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::{RunSpecFlags, SpecFlags};
use crate::ops::gate::GateFlags;

/// `arx next --temperature` when not given.
pub const DEFAULT_TEMPERATURE: f64 = 0.02;
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
    #[command(flatten)]
    pub result: crate::ops::result_format::ResultFlags,
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
    #[arg(long, alias = "approved")]
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
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = clap::value_parser!(i64).range(0..))]
    pub iteration: i64,
    /// Run the command through /bin/sh -c.
    #[arg(long)]
    pub shell: bool,
    /// Run N times and judge the mean with a confidence interval.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub repeat: u32,
    /// Confidence level of the interval (with --repeat).
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0.95,
        allow_negative_numbers = true
    )]
    pub confidence: f64,
    /// Do not write the journal.
    #[arg(long)]
    pub no_journal: bool,
    #[command(flatten)]
    pub prune: crate::ops::reactive::PruneFlags,
    #[command(flatten)]
    pub launch: crate::ops::placement::LaunchFlags,
    #[command(flatten)]
    pub result: crate::ops::result_format::ResultFlags,
    /// The experiment command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Baseline command (run through /bin/sh -c).
    #[arg(long = "baseline-cmd", alias = "baseline", value_name = "CMD")]
    pub baseline: String,
    /// Candidate command (run through /bin/sh -c).
    #[arg(long = "candidate-cmd", alias = "candidate", value_name = "CMD")]
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
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5,
        allow_negative_numbers = true
    )]
    pub runs: u32,
    /// Confidence level of the interval.
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0.95,
        allow_negative_numbers = true
    )]
    pub confidence: f64,
    /// Time limit per run.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Approve the `execute` gate.
    #[arg(long, alias = "approved")]
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
    /// statement, optional steps and preferences. Without it, the open
    /// ideas of the backlog (`arx idea add`) are ranked from the ratchet's
    /// record.
    #[arg(long, value_name = "FILE")]
    pub candidates: Option<PathBuf>,
    /// The lane asking (`arx lane add`): never given an idea in flight in
    /// another lane, and the idea it is given counts as in flight for the
    /// others until it is tried (ideas only).
    #[arg(long, value_name = "NAME", conflicts_with = "candidates")]
    pub lane: Option<String>,
    /// Seed of the pick (default: derived from the journal's length).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Selection temperature (beta = precision / temperature); the default
    /// is the one that did best in the selection simulation.
    #[arg(
        long,
        value_name = "T",
        default_value_t = DEFAULT_TEMPERATURE,
        allow_negative_numbers = true
    )]
    pub temperature: f64,
    /// Model of expected free energy.
    #[arg(long, value_name = "M", value_parser = ["lrs", "aif"], requires = "candidates")]
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
    #[command(after_help = "Example:\n  arx policy crystallize --approve")]
    Crystallize {
        #[command(flatten)]
        gates: GateFlags,
    },
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
        /// Base the round on the store's active findings (as `arx round
        /// evidence`): saved as the round's evidence.md; too few skip it.
        #[arg(long)]
        evidence: bool,
        /// With --evidence: the findings relevant to TEXT, best ranked first.
        #[arg(long, value_name = "TEXT", requires = "evidence")]
        context: Option<String>,
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
    /// Refuse files that `[objective] protect` covers (a pre-commit hook:
    /// the next `arx try` would set such a change aside).
    ///
    /// Exit 0 when none is protected, 1 when one is (each named), 2 error.
    #[command(
        name = "protect-check",
        after_help = "Example:\n  arx round protect-check prepare.py src/model.py"
    )]
    ProtectCheck {
        /// Files, from the repository root (as pre-commit passes them).
        files: Vec<String>,
    },
    /// Select evidence for a round from findings (newest and strongest first).
    ///
    /// Exit 1 when there is too little evidence.
    #[command(
        after_help = "Examples:\n  arx round evidence --findings findings.json --min 3 --max 25\n  arx round evidence --context \"learning rate schedule\""
    )]
    Evidence {
        /// Findings: a JSON array of {kind, content, source, created_at}
        /// (default: the active findings of the store, .arx/findings.jsonl).
        #[arg(long, value_name = "FILE")]
        findings: Option<String>,
        /// Draw from the store the findings relevant to TEXT, best ranked
        /// first (`arx finding rank`), instead of all active ones.
        #[arg(long, value_name = "TEXT", conflicts_with = "findings")]
        context: Option<String>,
        /// Fewest findings for a round (default: config min_evidence, 3).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        min: Option<usize>,
        /// Most findings kept (default: config max_evidence, 25).
        #[arg(long, value_name = "M", allow_negative_numbers = true)]
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
    /// Import another loop's night as ratchet records marked imported:
    /// karpathy's or codex's results.tsv, pi's autoresearch.jsonl (or
    /// .auto/log.jsonl).
    ///
    /// The loop, the metric and its direction are read from the file,
    /// arx.toml and the night itself; when nothing tells the direction,
    /// arx asks for --direction rather than guess. Importing again adds
    /// only the rows not yet imported; --undo removes what an import added.
    /// A malformed row, or a line over 1 MiB, is skipped and named; a file
    /// of another kind, not UTF-8, not a regular file, or whose data rows
    /// all fail is refused (exit 2) with nothing written. Imported values
    /// are shown by log, report and best, and never count as runs of the
    /// noise: the first `arx try` measures a baseline of its own.
    #[command(
        after_help = "Examples:\n  arx journal import results.tsv\n  arx journal import .auto/log.jsonl --from pi\n  arx journal import results.tsv --metric roc_auc --direction max\n  arx journal import --undo results.tsv"
    )]
    Import(ImportArgs),
}

/// `arx journal import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file: results.tsv (karpathy, codex) or autoresearch.jsonl /
    /// .auto/log.jsonl (pi).
    #[arg(required_unless_present = "undo")]
    pub file: Option<PathBuf>,
    /// The loop that wrote it (default: told by the file's first line).
    #[arg(long, value_enum)]
    pub from: Option<ImportFrom>,
    /// The metric's column (karpathy; default: the one arx.toml names, else
    /// the first numeric column that is not a commit, time, memory or
    /// counter and that varies); the name to record it under (codex's
    /// `metric` column, pi's metric).
    #[arg(long, value_name = "NAME")]
    pub metric: Option<String>,
    /// Which way the metric improves (default: the file's own word, else
    /// arx.toml's when it names that metric, else the way the night's
    /// keeps moved; when none tells, arx asks for this flag).
    #[arg(long, value_parser = ["max", "min"])]
    pub direction: Option<String>,
    /// Remove exactly what an import added: every import of FILE, or the
    /// import with that id (shown by the import), so it can be redone.
    #[arg(long, value_name = "FILE|ID", conflicts_with_all = ["file", "from", "metric", "direction"])]
    pub undo: Option<String>,
}

/// The loop a night comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFrom {
    /// karpathy/autoresearch's results.tsv.
    Karpathy,
    /// pi-autoresearch's autoresearch.jsonl.
    Pi,
    /// codex-autoresearch's results.tsv.
    Codex,
}

#[derive(Debug, Subcommand)]
pub enum LaneCommand {
    /// Add lanes: a git worktree each, on its own branch `arx/lane/NAME`,
    /// started at the best commit, beside the repository (not inside it).
    #[command(
        after_help = "Examples:\n  arx lane add a b c d\n  arx lane add gpu0 --dir /scratch/lanes"
    )]
    Add {
        /// Lane names (letters, digits, `.`, `_`, `-`); none: the next free number.
        names: Vec<String>,
        /// Where lanes go (default: `<repository>.lanes/` beside the repository).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// The lanes: path, base commit, keeps behind the best, last try, live run.
    #[command(after_help = "Example:\n  arx lane list --json | jq -r '.[].path'")]
    List,
    /// Replay a lane's work onto the best (exit 1 when it conflicts; nothing changes then).
    #[command(
        after_help = "Examples:\n  arx lane sync            # this lane, or every lane from the main working tree\n  arx lane sync a\n  arx lane sync --theirs   # take up the best even where the lane's work conflicts with it"
    )]
    Sync {
        /// The lane (default: the lane of the working directory, or every lane).
        name: Option<String>,
        /// Where the lane's work conflicts with the best, the best's side
        /// wins (the rest of the work is replayed); the work as it was is
        /// stored under refs/arx/discarded/lane-NAME-<time> first.
        #[arg(long)]
        theirs: bool,
    },
    /// Remove a lane: its worktree and branch. Refuses unsaved work unless --force.
    #[command(after_help = "Example:\n  arx lane rm c --force")]
    Rm {
        /// The lane.
        name: String,
        /// Remove it even with unsaved work, which is first stored under
        /// refs/arx/discarded/lane-NAME-<time> (`arx restore lane-NAME-<time>`
        /// puts it back).
        #[arg(long)]
        force: bool,
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
        #[arg(long = "approve", alias = "approved")]
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
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = clap::value_parser!(i64).range(0..))]
        iteration: i64,
        /// Strength of the evidence.
        #[arg(long, default_value = "manual", value_parser = ["deterministic", "exit_code", "llm", "manual"])]
        evidence_level: String,
        #[command(flatten)]
        gates: GateFlags,
    },
    /// Exit 1 when STATEMENT is a known dead end, 0 otherwise.
    #[command(
        after_help = "Example:\n  arx deadend check \"$HYPOTHESIS\" || exit 0  # skip known dead ends"
    )]
    Check {
        /// The approach to look up (case and spacing do not matter).
        statement: String,
    },
    /// Exit 1 when a file names a known dead end: a spec's `hypothesis`, a
    /// candidates file's `statement`s, or a line of any other text file.
    ///
    /// For pre-commit hooks and CI (exit 2 when a file cannot be read).
    #[command(after_help = "Example:\n  arx deadend scan hypotheses.md candidates.toml spec.toml")]
    Scan {
        /// Files to scan.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
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
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = clap::value_parser!(i64).range(0..))]
        iteration: i64,
        #[command(flatten)]
        gates: GateFlags,
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
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = clap::value_parser!(i64).range(0..))]
        iteration: i64,
        #[command(flatten)]
        gates: GateFlags,
    },
    /// List knowhow.
    #[command(after_help = "Example:\n  arx knowhow list --json")]
    List,
}

/// A results table's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Tab-separated, with a header line (results.tsv).
    Tsv,
    /// Comma-separated (RFC 4180), with a header line.
    Csv,
}

#[derive(Debug, Subcommand)]
pub enum FleetCommand {
    /// The machines: class, last seen, what each tries, the fleet's best
    /// and each class's best (as last fetched; `--fetch` asks the remote).
    #[command(
        after_help = "Examples:\n  arx fleet status\n  arx fleet status --fetch --json | jq '.machines[].machine'"
    )]
    Status {
        /// Fetch from the remote first (without publishing anything).
        #[arg(long)]
        fetch: bool,
    },
    /// Fetch the fleet's records and publish this machine's now (every
    /// `arx try` does it at its start and end). Exit 2 when the remote
    /// does not answer.
    #[command(after_help = "Example:\n  arx fleet sync")]
    Sync,
}
