//! Commands: glue, one file per subcommand. Each reads input through
//! [`crate::io`], decides through [`crate::kernel`] and emits a report
//! through [`crate::output`]; none holds decision logic of its own.

mod classify;
mod compare;
mod completions;
mod deadend;
mod decide;
mod demo;
mod finding;
mod fleet;
mod gate;
mod idea;
mod init;
mod journal;
mod knowhow;
pub mod lane;
mod log;
mod man;
mod mcp;
mod measure;
mod next;
mod parse;
mod plateau;
mod policy;
mod precision;
mod ps;
mod ratchet;
mod report;
mod round;
mod run;
mod serve;
mod show;
mod watch;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::cli::{Cli, Command, GlobalArgs};
use crate::error::Exit;
use crate::io;
use crate::kernel::gate::Gate;
use crate::kernel::verdict::Verdict;
use crate::ops::gate::GateFlags;
use crate::output::{bold, Output, Report, Spinner};

/// Refuse a blank `value` (empty or only whitespace) for `what`.
pub fn require_text(value: &str, what: &str, hint: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(crate::error::Hinted::error(
            format!("{what} must not be blank"),
            hint,
        ));
    }
    Ok(())
}

pub(crate) use crate::ops::attempts::OUTPUT_HELD;

/// What every command may need, resolved on demand.
pub struct Ctx {
    pub global: GlobalArgs,
    pub out: Output,
}

impl Ctx {
    /// The answer's line of a command with an outcome, under `--json` (the
    /// human view says the same on stdout): `arx: LINE; next: NEXT` on
    /// stderr, what happened and what to do next, as `arx try` gives it.
    pub fn answer(&self, line: &str, next: &str) {
        if self.out.json && !self.out.quiet {
            crate::errln!("arx: {line}; next: {next}");
        }
    }

    pub fn cwd(&self) -> Result<PathBuf> {
        std::env::current_dir().context("cannot determine the working directory")
    }

    /// The configuration, with what was wrong with it shown as warnings.
    pub fn config(&self) -> Result<io::config::Config> {
        let config = io::config::load(self.global.config.as_deref(), &self.cwd()?)?;
        for w in &config.warnings {
            crate::output::warn(w);
        }
        Ok(config)
    }

    pub fn state_dir(&self) -> Result<PathBuf> {
        Ok(io::state::state_dir(
            self.global.state_dir.as_deref(),
            &self.cwd()?,
        ))
    }

    pub fn now(&self) -> Result<String> {
        io::clock::now(self.global.now.as_deref())
    }
}

pub use crate::ops::ratchet::{run_short, short};

/// Say first, on stderr, that `cwd` is not inside a git repository (the
/// ratchet works on one; `what` is what the command does without it).
/// True when it is not.
pub fn note_outside_git(ctx: &Ctx, what: &str) -> Result<bool> {
    let cwd = ctx.cwd()?;
    if crate::io::config::repo_root(&cwd).is_some() {
        return Ok(false);
    }
    if !ctx.out.quiet {
        crate::errln!(
            "arx: {} is not inside a git repository{what}",
            cwd.display()
        );
    }
    Ok(true)
}

/// A path for people: relative to the working directory when inside it.
pub fn shown(path: &Path, cwd: &Path) -> String {
    path.strip_prefix(cwd)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Most run ids listed when a prefix is ambiguous.
const LISTED_IDS: usize = 10;

/// The run `run_id` names (a unique prefix is enough), or an error that
/// says what is wrong with the id.
pub fn lookup_run(
    ctx: &Ctx,
    records: &[crate::kernel::journal::RunRecord],
    journal_path: &Path,
    run_id: &str,
) -> Result<crate::kernel::journal::RunRecord> {
    use crate::error::Hinted;
    use crate::kernel::journal::{find_run, Lookup, MIN_PREFIX_LEN};
    const LISTED: usize = LISTED_IDS;
    Ok(match find_run(records, run_id) {
        Lookup::Found(r) => r.clone(),
        Lookup::TooShort => {
            return Err(Hinted::error(
                format!(
                    "run id {run_id:?} is too short: give at least {MIN_PREFIX_LEN} characters"
                ),
                "copy the id from `arx log`",
            ))
        }
        Lookup::Missing => {
            return Err(Hinted::error(
                format!("no run {run_id:?} in {}", shown(journal_path, &ctx.cwd()?)),
                "list the runs with `arx log`",
            ))
        }
        Lookup::Ambiguous(ids) => {
            let mut listed = ids
                .iter()
                .take(LISTED)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            if ids.len() > LISTED {
                listed.push_str(&format!(" and {} more", ids.len() - LISTED));
            }
            return Err(Hinted::error(
                format!(
                    "run id prefix {run_id:?} matches {} runs: {listed}",
                    ids.len()
                ),
                "give more characters of the run id",
            ));
        }
    })
}

/// How the commands show a warning that io recovered from.
pub const WARN: io::Warn = |message| crate::output::warn(message);

/// The exit code of a verdict.
/// The next step after a verdict, in the answer's line.
pub fn verdict_next(v: Verdict) -> &'static str {
    match v {
        Verdict::Supported => "go on: the hypothesis holds",
        Verdict::Refuted => "try another approach: this one is refuted",
        Verdict::Inconclusive => {
            "run it again with more runs (`--repeat`), or fix what the detail says"
        }
    }
}

pub fn verdict_exit(v: Verdict) -> Exit {
    match v {
        Verdict::Supported => Exit::Ok,
        Verdict::Refuted => Exit::No,
        Verdict::Inconclusive => Exit::Inconclusive,
    }
}

/// Pass an experiment's output through with the spinner cleared (plainly
/// when the spinner is never drawn: no lock per write).
pub fn passthrough(spinner: &Spinner) -> io::process::Passthrough {
    if !spinner.visible() {
        return io::process::Passthrough::default();
    }
    let spinner = spinner.clone();
    io::process::Passthrough::new(move |write| spinner.suspend(write))
}

/// Why a command did not run its experiment (a gate, a dead end).
#[derive(serde::Serialize)]
pub struct Refusal {
    pub proceed: bool,
    pub reason: &'static str,
    pending_gate: Option<Gate>,
    approach_hash: Option<String>,
    detail: String,
}

impl Report for Refusal {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let b = bold();
        writeln!(out, "{b}{}{b:#}: {}", self.reason, self.detail)
    }
}

/// The `execute` gate before running `what`: proceed when it is off,
/// approved, or confirmed at an interactive prompt; otherwise report the
/// pause and return false.
pub fn pass_execute_gate(ctx: &Ctx, approve: bool, no_gates: bool, what: &str) -> Result<bool> {
    pass_gate(
        ctx,
        Gate::Execute,
        approve,
        no_gates,
        &format!("Run `{what}`?"),
    )
}

/// The `kg_write` gate before writing `what` (dead ends, knowhow), as
/// [`pass_execute_gate`] passes `execute`.
pub fn pass_kg_write_gate(ctx: &Ctx, flags: GateFlags, what: &str) -> Result<bool> {
    pass_gate(
        ctx,
        Gate::KgWrite,
        flags.approve,
        flags.no_gates,
        &format!("Write {what}?"),
    )
}

fn pass_gate(ctx: &Ctx, gate: Gate, approve: bool, no_gates: bool, question: &str) -> Result<bool> {
    let config = ctx.config()?;
    let confirm = || io::terminal::confirm(question);
    match crate::ops::gate::pass_gate(&config, gate, approve, no_gates, confirm) {
        crate::ops::gate::GateOutcome::Proceed => Ok(true),
        crate::ops::gate::GateOutcome::Paused { pending_gate } => {
            ctx.out.emit(&Refusal {
                proceed: false,
                reason: "paused",
                pending_gate,
                approach_hash: None,
                detail: format!(
                    "pending gate {} (a person approves with --approve, or turns it off in the committed arx.toml)",
                    gate.as_str()
                ),
            })?;
            ctx.answer(
                &format!("paused: pending gate {}; nothing ran", gate.as_str()),
                "stop: ask the person to approve (`--approve`); never edit arx.toml",
            );
            Ok(false)
        }
    }
}

/// `path` made absolute against `start` (the directory arx was started
/// in), so that a command that works from another directory (`arx try
/// --lane`) reads and writes the same files.
pub fn anchored(path: &Path, start: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        start.join(path)
    }
}

/// The global path flags (`--config`, `--state-dir` and `ARX_STATE_DIR`,
/// `--holdout-config` and `ARX_HOLDOUT_CONFIG`) made absolute against the
/// directory arx was started in. The held-out configuration is read where
/// the configuration is loaded, from `ARX_HOLDOUT_CONFIG`: the flag sets
/// it (for this process and the commands it starts, never an experiment).
fn anchor_global(global: &mut GlobalArgs) {
    let Ok(start) = std::env::current_dir() else {
        return;
    };
    for path in [
        &mut global.config,
        &mut global.state_dir,
        &mut global.holdout_config,
    ]
    .into_iter()
    .flatten()
    {
        *path = anchored(path, &start);
    }
    match &global.holdout_config {
        Some(path) => std::env::set_var(io::holdout::CONFIG_ENV, path),
        None => std::env::remove_var(io::holdout::CONFIG_ENV),
    }
}

/// Run one parsed command line.
/// Import another loop's night as `arx journal import` does, telling
/// nothing on stdout (the caller reports it): for `arx init --from`.
pub fn import_night(ctx: &Ctx, args: crate::cli::ImportArgs) -> Result<Exit> {
    let quiet = Ctx {
        global: ctx.global.clone(),
        out: Output::new(false, true, crate::output::Color::Never),
    };
    journal::run(&quiet, &crate::cli::JournalCommand::Import(args))
}

pub fn dispatch(cli: Cli) -> Result<Exit> {
    let mut cli = cli;
    anchor_global(&mut cli.global);
    let ctx = Ctx {
        out: Output::new(
            cli.global.json,
            cli.global.quiet,
            match cli.global.color {
                crate::cli::ColorWhen::Auto => crate::output::Color::Auto,
                crate::cli::ColorWhen::Always => crate::output::Color::Always,
                crate::cli::ColorWhen::Never => crate::output::Color::Never,
            },
        ),
        global: cli.global,
    };
    match cli.command {
        Command::Parse { file, result } => parse::run(&ctx, file.as_deref(), &result),
        Command::Measure(args) => measure::run(&ctx, &args),
        Command::Classify { timed_out, file } => classify::run(&ctx, timed_out, file.as_deref()),
        Command::Gate(cmd) => gate::run(&ctx, &cmd),
        Command::Decide {
            iteration,
            max_iterations,
            verdict,
        } => decide::run(&ctx, iteration, max_iterations, &verdict),
        Command::Plateau { window, verdicts } => plateau::run(&ctx, window, &verdicts),
        Command::DeadEnd(cmd) => deadend::run(&ctx, &cmd),
        Command::Knowhow(cmd) => knowhow::run(&ctx, &cmd),
        Command::Finding(cmd) => finding::run(&ctx, &cmd),
        Command::Idea(cmd) => idea::run(&ctx, &cmd),
        Command::Run(args) => run::run(&ctx, &args),
        Command::Compare(args) => compare::run(&ctx, &args),
        Command::Try(args) => ratchet::attempt::run(&ctx, &args),
        Command::Best { objective } => ratchet::best::run(&ctx, &objective),
        Command::Status { objective } => ratchet::status::run(&ctx, &objective),
        Command::Restore {
            run_id,
            list,
            prune,
            older_than,
        } => {
            if list {
                ratchet::restore::list(&ctx)
            } else if prune {
                ratchet::restore::prune(&ctx, older_than.as_deref().unwrap_or_default())
            } else {
                ratchet::restore::run(&ctx, run_id.as_deref())
            }
        }
        Command::Log {
            limit,
            candidate,
            format,
        } => log::run(&ctx, limit, candidate.as_deref(), format),
        Command::Report(args) => report::run(&ctx, &args),
        Command::Show { run_id } => show::run(&ctx, &run_id),
        Command::Journal(cmd) => journal::run(&ctx, &cmd),
        Command::Lane(cmd) => lane::run(&ctx, &cmd),
        Command::Fleet(cmd) => fleet::run(&ctx, &cmd),
        Command::Next(args) => next::run(&ctx, &args),
        Command::Precision { cmd } => precision::run(&ctx, cmd.as_ref()),
        Command::Policy(cmd) => policy::run(&ctx, &cmd),
        Command::Round(cmd) => round::run(&ctx, &cmd),
        Command::Init(args) => init::run(&ctx, &args),
        Command::Completions { shell } => completions::run(&ctx, shell),
        Command::Ps { reap } => ps::run(&ctx, reap),
        Command::Watch { run } => watch::run(&ctx, run.as_deref()),
        Command::Mcp { approve } => mcp::run(&ctx, approve),
        Command::Serve { port, bind } => serve::run(&ctx, bind, port),
        Command::Man => man::run(&ctx),
        Command::Demo { dir } => demo::run(&ctx, dir.as_deref()),
    }
}

/// After a try or a run is journaled: the finding it adds (or reinforces),
/// said on stderr. A failure here warns and never fails the command (the
/// run is already journaled).
pub fn finding_from_result(ctx: &Ctx, state: &Path, record: &crate::kernel::journal::RunRecord) {
    let outcome = io::clock::timestamp(ctx.global.now.as_deref())
        .and_then(|now| crate::ops::finding::record_result(state, record, now, WARN));
    match outcome {
        Ok(Some(line)) if !ctx.out.quiet => crate::errln!("arx: {line}"),
        Ok(_) => {}
        Err(e) => crate::output::warn(format_args!(
            "the finding of this run was not recorded: {e:#}"
        )),
    }
}
