//! The arguments of `arx try` and `arx init`.

use clap::Args;

use super::{ImportFrom, ObjectiveFlags};

// `arx try`.
#[derive(Debug, Args)]
pub struct TryArgs {
    /// What the change is: the journal's description, the commit subject.
    #[arg(short = 'm', long, value_name = "TEXT")]
    pub description: Option<String>,
    /// The idea of the backlog this try tests (its id or a unique prefix):
    /// recorded with the try; its statement is the description unless -m
    /// is given.
    #[arg(long, value_name = "ID")]
    pub idea: Option<String>,
    /// The family of the change (one word). With -m and no --idea: the try
    /// adds its description to the backlog as an idea of this family.
    /// Without either, a try takes the family of the most similar idea.
    #[arg(long, value_name = "WORD")]
    pub family: Option<String>,
    /// The decision rule: sequential (arx's: a group-sequential test that
    /// keeps a change no better than the best 1 - confidence of the time),
    /// confirm (screen, then confirmation runs), strict (keep one sample
    /// better than the best, unconfirmed), mad (better, and the segment's
    /// MAD confidence >= 2).
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,
    /// Start a new segment: measure the baseline again.
    #[arg(long)]
    pub new_segment: bool,
    /// Say what would be run, kept or restored; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Run the try in this lane (`arx lane add`), from anywhere in the
    /// repository: the same as running it in the lane's directory.
    #[arg(long, value_name = "NAME")]
    pub lane: Option<String>,
    /// Refuse (exit 1) when the description matches a deprecated or refuted
    /// finding or a known dead end; without it, warn and go on.
    #[arg(long)]
    pub strict: bool,
    /// Approve the `execute` gate for this try.
    #[arg(long, alias = "approved")]
    pub approve: bool,
    /// Ignore the approval gates.
    #[arg(long)]
    pub no_gates: bool,
    /// Refuse (exit 1, `refused: a repeat`) an idea discarded at this
    /// parent already, unless --because says what changed; without it,
    /// warn and go on. The MCP server's `try` always asks for this.
    #[arg(long)]
    pub no_repeat: bool,
    /// With --idea and --because: try the idea again as a retry (a new
    /// idea of the backlog that names it), also when another lane has it
    /// in flight (refused without it, exit 2).
    #[arg(long, requires_all = ["idea", "because"])]
    pub retry: bool,
    /// With --retry: what changed since the idea was tried, or why it runs
    /// here as well as in another lane.
    #[arg(long, value_name = "TEXT", requires = "retry")]
    pub because: Option<String>,
    /// Time between SIGTERM and SIGKILL when ending the experiment.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    pub grace: String,
    /// Append NDJSON events (started, progress, result, heartbeat, finished) to PATH.
    #[arg(long, value_name = "PATH")]
    pub events: Option<String>,
    /// Time between heartbeat events.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    pub heartbeat: String,
    #[command(flatten)]
    pub prune: crate::ops::reactive::PruneFlags,
    #[command(flatten)]
    pub launch: crate::ops::placement::LaunchFlags,
    #[command(flatten)]
    pub objective: ObjectiveFlags,
}

/// `arx init`: set up arx, and with `--metric`, `--direction` and
/// `--command` the loop's objective in arx.toml.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct InitArgs {
    /// Also write (or update) the arx section of AGENTS.md: the loop an
    /// agent follows, filled with arx.toml's objective.
    #[arg(long)]
    pub agent: bool,
    /// The metric `arx try` improves: the key of the experiment's
    /// `__RESULT__` line ([objective] metric; needs --direction).
    #[arg(long, value_name = "KEY", requires = "direction")]
    pub metric: Option<String>,
    /// Which way the metric improves ([objective] direction).
    #[arg(long, value_parser = ["max", "min"], requires = "metric")]
    pub direction: Option<String>,
    /// The experiment, one shell command line ([objective] command).
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// Paths or globs no candidate may change ([objective] protect).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub protect: Vec<String>,
    /// Commands that must exit 0 before a keep ([objective] checks).
    #[arg(long, value_name = "CMD", num_args = 1..)]
    pub check: Vec<String>,
    /// Share the journal through git (committed, merged with
    /// merge=union): only the files arx derives are ignored. Without it
    /// the state directory is ignored by git as a whole.
    #[arg(long)]
    pub share_journal: bool,
    /// How the experiment prints its numbers ([objective] format): arx's
    /// `__RESULT__` line, karpathy's closing summary block, pi's `METRIC`
    /// lines, or the named groups of `--pattern`.
    #[arg(long, value_parser = ["arx", "summary", "pi", "pattern"])]
    pub format: Option<String>,
    /// The regular expression of `--format pattern`, one named group per
    /// metric ([objective] pattern).
    #[arg(long, value_name = "REGEX")]
    pub pattern: Option<String>,
    /// The time limit of one run ([objective] timeout: `10m`, `1h`).
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Set arx up in the repository of another loop: its objective read
    /// from the loop's files into arx.toml, its output files ignored by
    /// git, its night imported, and arx's loop written where that loop's
    /// agent reads its instructions. Other flags given with it win over
    /// what the files say.
    #[arg(long, value_enum)]
    pub from: Option<ImportFrom>,
}
