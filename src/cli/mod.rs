//! The command-line definition (clap derive). Owns flag names, help text and
//! value parsing of plain types; it must not decide anything or touch files.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::ops::objective::ObjectiveFlags;
pub use crate::ops::spec::{RunSpecFlags, SpecFlags};

mod args;
pub use args::*;
mod finding;
pub use finding::*;
mod idea;
pub use idea::*;
mod report;
pub use report::{ChartX, ReportArgs, SegmentChoice};
mod try_init;
pub use try_init::{InitArgs, TryArgs};

const EXIT_CODES: &str = "\
Exit codes:
  0  yes / ok (supported, proceed, found, done)
  1  a \"no\" (refuted, paused, known dead end, nothing found)
  2  error (bad input, usage, I/O)
  3  inconclusive";

/// `arx try --help`'s end: the outcomes by exit code (the table of
/// `kernel::try_outcome`, checked by a test) and examples.
pub const TRY_AFTER_HELP: &str = "Outcomes (the first words of the answer) by exit code:\n  0  keep, baseline, config_change\n  1  discard, discard (inconclusive), protected, checks_failed, guard, holdout, pruned, stale, already_in_best, refused: a repeat, refused: a failed approach, paused, paused: declined, paused: cancelled, paused: no person to ask\n  3  crash, interrupted\n  2  an error: nothing changed\n\nExamples:\n  arx try -m \"double the learning rate\"\n  arx try --dry-run\n  arx try --metric acc --direction max -m \"bigger batch\" -- python train.py";

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
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,

    /// Print nothing on stdout; the exit code carries the answer.
    #[arg(long, short = 'q', global = true, help_heading = "Global options")]
    pub quiet: bool,

    /// When to colour human output.
    #[arg(long, global = true, help_heading = "Global options", value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Configuration file: arx.toml (TOML) or a GRD .planning/config.json (JSON).
    /// Default: arx.toml found from the working directory upward.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "PATH"
    )]
    pub config: Option<PathBuf>,

    /// State directory. Default: .arx/ at the repository root.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "ARX_STATE_DIR",
        value_name = "DIR"
    )]
    pub state_dir: Option<PathBuf>,

    /// A TOML file outside the repository holding [objective.holdout], the
    /// held-out check (kept where the agent does not read it).
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "ARX_HOLDOUT_CONFIG",
        value_name = "FILE"
    )]
    pub holdout_config: Option<PathBuf>,

    /// The current time (RFC 3339), for reproducible records.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "TIME"
    )]
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
    /// UTF-8 tolerated); `--result-format` (or `[objective] format`) reads
    /// another shape. Exit 0 when at least one metric was found, 1 when none.
    #[command(after_help = "Example:\n  python train.py | arx parse")]
    Parse {
        /// Experiment stdout (default: stdin; `-` also means stdin).
        file: Option<PathBuf>,
        #[command(flatten)]
        result: crate::ops::result_format::ResultFlags,
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
        #[arg(long, value_parser = VerdictWord)]
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

    /// Findings: what the loop learned, kept healthy (dedupe, reinforcement,
    /// decay, contradiction) and ranked for the next proposal.
    #[command(subcommand)]
    Finding(FindingCommand),

    /// The backlog of ideas: what to try, each try's idea, what became of it.
    #[command(subcommand)]
    Idea(IdeaCommand),

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
        after_help = "Example:\n  arx compare --baseline-cmd 'python train.py' --candidate-cmd 'python train.py --lr 1e-3' --metric acc --direction max --runs 8"
    )]
    Compare(Box<CompareArgs>),

    /// One iteration of the keep-if-better ratchet: run the candidate (what
    /// changed since the last kept commit), keep it as a commit when it beats
    /// the best beyond the noise, otherwise set it aside and undo it.
    ///
    /// The first try of a segment measures the baseline. The answer starts
    /// with its outcome and the next step (on stderr under --json, and as
    /// `outcome`, `exit`, `line` and `next` in the JSON). Exit 0 kept
    /// (or baseline), 1 every discard (inconclusive included), refusal or
    /// pause, 3 only a crash or an interrupted try, 2 an error.
    #[command(after_help = TRY_AFTER_HELP)]
    Try(Box<TryArgs>),

    /// The best kept run of the ratchet's segment: value, interval, commit.
    #[command(after_help = "Example:\n  arx best --json | jq .value")]
    Best {
        #[command(flatten)]
        objective: Box<ObjectiveFlags>,
    },

    /// The ratchet's state and the stop advice: exit 0 when a stop rule
    /// fires, 1 to go on.
    #[command(after_help = "Example:\n  until arx status -q; do ...; arx try -m \"...\"; done")]
    Status {
        #[command(flatten)]
        objective: Box<ObjectiveFlags>,
    },

    /// Put a discarded candidate back in the working tree (a clean tree is needed);
    /// list or prune the candidates set aside.
    #[command(
        after_help = "Examples:\n  arx restore                    # the newest discarded try\n  arx restore 0193a7c2           # the try of that run id (a unique prefix)\n  arx restore lane-a-1795803054  # the work arx lane rm --force stored\n  arx restore --list             # every candidate set aside, with its size\n  arx restore --prune --older-than 30d"
    )]
    Restore {
        /// Run id (or a unique prefix) of the discarded try, or the name of
        /// work stored under refs/arx/discarded/ (as `arx lane rm --force`
        /// prints it); the newest discarded try of the journal when absent.
        #[arg(conflicts_with_all = ["list", "prune"])]
        run_id: Option<String>,
        /// List the candidates set aside under refs/arx/discarded/, oldest
        /// first, with their age and size; change nothing.
        #[arg(long, conflicts_with = "prune")]
        list: bool,
        /// Remove the refs of candidates set aside longer ago than
        /// --older-than (git gc then frees their space).
        #[arg(long, requires = "older_than")]
        prune: bool,
        /// With --prune: the age (such as 30d, 12h) beyond which a
        /// set-aside candidate goes.
        #[arg(long, value_name = "AGE", requires = "prune")]
        older_than: Option<String>,
    },

    /// List journaled runs, newest last (`--json`: one record per line).
    #[command(after_help = "Example:\n  arx log --limit 20 --candidate hybrid")]
    Log {
        /// Show at most the N most recent runs.
        #[arg(
            long,
            visible_alias = "last",
            value_name = "N",
            allow_negative_numbers = true
        )]
        limit: Option<usize>,
        /// Only runs of this candidate.
        #[arg(long, value_name = "NAME")]
        candidate: Option<String>,
        /// The ratchet's results table instead (commit, metric, status,
        /// description, other metrics), as TSV or CSV.
        #[arg(long, value_name = "FORMAT")]
        format: Option<TableFormat>,
    },

    /// What the loop did: the segment's summary, the last runs, runs by
    /// metric and candidate; the progress chart (SVG), an HTML page, JUnit
    /// or Markdown.
    #[command(
        after_help = "Examples:\n  arx report\n  arx report --html report.html --refresh 30\n  arx report --svg progress.svg --junit runs.xml\n  arx report --markdown >> \"$GITHUB_STEP_SUMMARY\""
    )]
    Report(Box<ReportArgs>),

    /// Show one journaled run in full (a unique prefix of its id is enough).
    #[command(after_help = "Example:\n  arx show 0193a7c2")]
    Show {
        /// Run id or a unique prefix of it.
        run_id: String,
    },

    /// The run journal: merge journals from many machines, verify one.
    #[command(subcommand)]
    Journal(JournalCommand),

    /// Lanes: many tries at once, each in its own git worktree, sharing
    /// one state and one best (a keep is a compare-and-swap of the best).
    #[command(subcommand)]
    Lane(LaneCommand),

    /// A fleet: machines sharing one best through a git remote (`[fleet]`
    /// in arx.toml); a keep is a compare-and-swap push of the best.
    #[command(subcommand)]
    Fleet(FleetCommand),

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
        after_help = "Examples:\n  arx init && git add arx.toml .gitattributes\n  arx init --share-journal && git add arx.toml .gitattributes .arx/.gitignore .arx/journal.jsonl\n  arx init --agent   # also the loop for an agent, in AGENTS.md"
    )]
    Init(InitArgs),

    /// Live runs: every running `arx run` and `arx try`, with its elapsed
    /// time, last progress and heartbeat age.
    ///
    /// A run whose heartbeat is older than twice its interval and whose arx
    /// process is gone is lost; `--reap` journals it as `lost` and ends its
    /// orphaned experiment. Exit 0.
    #[command(after_help = "Examples:\n  arx ps\n  arx ps --reap --json")]
    Ps {
        /// Journal lost runs as `lost`, end their orphaned experiments and
        /// remove their live files.
        #[arg(long)]
        reap: bool,
    },

    /// Follow live runs' events (progress, heartbeats, verdicts) until they
    /// end; `--json` prints them as NDJSON.
    #[command(after_help = "Examples:\n  arx watch\n  arx watch 01a2 --json")]
    Watch {
        /// Follow only this run (a prefix of its id is enough).
        run: Option<String>,
    },

    /// Serve the night's report as a live page on this machine: the
    /// summary, the chart, each try as it ends, the runs running now and
    /// the backlog of ideas, updated in the open page without a reload.
    ///
    /// Read-only (GET only, no write endpoints). Listens on 127.0.0.1
    /// unless `--bind` names another address; from another machine, use an
    /// SSH port forward. Prints the page's URL on stdout, then serves until
    /// stopped (Ctrl-C). A port that is taken exits 2.
    #[command(
        after_help = "Examples:\n  arx serve\n  arx serve --port 0 --json\n  ssh -N -L 8470:localhost:8470 gpu-box   # on your laptop, then open http://localhost:8470/"
    )]
    Serve {
        /// The port to listen on (0: any free port, printed).
        #[arg(long, value_name = "PORT", default_value_t = 8470)]
        port: u16,
        /// The address to listen on. Anything but a loopback address
        /// lets every machine that reaches it read the report.
        #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
    },

    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  arx completions bash > ~/.local/share/bash-completion/completions/arx"
    )]
    Completions {
        /// Target shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Serve arx as Model Context Protocol tools over stdio (for Claude
    /// Code, Codex and other MCP clients).
    ///
    /// Tools: try, best, status, log, measure, run, next, deadend_check,
    /// finding_rank, report. Each returns its command's `--json` output
    /// (report: its Markdown); errors come back as tool errors. Logs go to
    /// stderr. A caller cannot approve the `execute` gate: when it would
    /// pause `try` or `run`, the server asks the person through the client
    /// (MCP elicitation), and the call pauses when the client cannot ask or
    /// the person declines.
    #[command(after_help = "Example:\n  claude mcp add arx -- arx mcp")]
    Mcp {
        /// Approve the `execute` gate for every call, as the operator
        /// starting the server (also `[mcp] approve = true` in arx.toml).
        #[arg(long)]
        approve: bool,
    },

    /// Run the keep-if-better loop on a bundled example: a toy training run
    /// in a new git repository, a dozen edits through the real `arx try`
    /// (a win, a null change, a harmful one, a crash, an edit of the
    /// protected evaluation, a discard brought back with `arx restore`),
    /// then `arx status`, `arx report` and an HTML page.
    ///
    /// Needs `git`, `sh` and `awk`; nothing else. The repository is kept
    /// for you to look around (its path is the last line). Exit 0.
    #[command(after_help = "Examples:\n  arx demo\n  arx demo --dir /tmp/arx-demo")]
    Demo {
        /// Where to create the demo's repository (new or empty; default: a
        /// new directory under the system's temporary directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },

    /// Print the man page (roff).
    #[command(after_help = "Example:\n  arx man > arx.1 && man -l arx.1")]
    Man,
}

/// The three verdict words, for flags that take one.
pub const VERDICTS: [&str; 3] = ["supported", "refuted", "inconclusive"];

/// A verdict word, with the whitespace around it trimmed first (a value
/// read from a file or a shell variable often ends in `\r` or `\n`); the
/// possible values stay those of [`VERDICTS`] for help and completions.
#[derive(Clone)]
pub struct VerdictWord;

impl clap::builder::TypedValueParser for VerdictWord {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let trimmed = value.to_str().map(str::trim).map(std::ffi::OsStr::new);
        clap::builder::PossibleValuesParser::new(VERDICTS).parse_ref(
            cmd,
            arg,
            trimmed.unwrap_or(value),
        )
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            VERDICTS.into_iter().map(clap::builder::PossibleValue::new),
        ))
    }
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
