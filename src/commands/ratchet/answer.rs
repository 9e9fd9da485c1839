//! How every answer of `arx try` starts: its outcome in the one table of
//! outcomes (`kernel::try_outcome`), the line that says what happened, and
//! the next step. The record (or the pause, the refusal) follows as data;
//! under `--json` the line goes to stderr, so it is never missing.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use crate::commands::Ctx;
use crate::error::Exit;
use crate::kernel::gate::Gate;
use crate::kernel::try_outcome::{self, Outcome};
use crate::output::{bold, dim, Report};

/// A try's report with its outcome, exit code, line and next step first.
#[derive(Serialize)]
pub struct Answer<'a, R: Report> {
    /// The outcome (`discard (inconclusive)`, `paused`): the line's first
    /// words.
    pub outcome: &'static str,
    /// arx's exit code for it (the record's `exit_code` is the
    /// experiment's).
    pub exit: u8,
    /// What happened, in one line.
    pub line: String,
    /// What to do next.
    pub next: &'static str,
    #[serde(flatten)]
    pub report: &'a R,
}

impl<R: Report> Report for Answer<'_, R> {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        self.report.human(out)?;
        let d = dim();
        writeln!(out, "  {d}next: {}{d:#}", self.next)
    }
}

/// The exit code of an outcome.
pub fn exit_of(o: &Outcome) -> Exit {
    match o.exit {
        0 => Exit::Ok,
        1 => Exit::No,
        3 => Exit::Inconclusive,
        _ => Exit::Error,
    }
}

/// Emit `report` as the answer of outcome `o` with its `line`: the data on
/// stdout, and under `--json` the line and the next step on stderr.
pub fn emit<R: Report>(ctx: &Ctx, o: &'static Outcome, line: String, report: &R) -> Result<Exit> {
    if ctx.out.json && !ctx.out.quiet {
        let mut err = anstream::stderr().lock();
        let _ = writeln!(err, "arx: {line}; next: {}", o.next);
    }
    ctx.out.emit(&Answer {
        outcome: o.name,
        exit: o.exit,
        line,
        next: o.next,
        report,
    })?;
    Ok(exit_of(o))
}

fn outcome(name: &str) -> &'static Outcome {
    try_outcome::find(name).unwrap_or(&try_outcome::OUTCOMES[0])
}

/// A try stopped by a gate before anything ran: nothing was measured,
/// kept, set aside or undone; the candidate is still in the working tree.
/// Its `ratchet.status` is `paused`, never a discard's.
#[derive(Serialize)]
pub struct PausedTry {
    pub proceed: bool,
    pub reason: &'static str,
    pub pending_gate: Option<Gate>,
    /// `{"status": "paused"}`, where every other try says its status.
    pub ratchet: Status,
    /// Always false: the working tree is as the candidate left it.
    pub undone: bool,
    pub detail: String,
}

#[derive(Serialize)]
pub struct Status {
    pub status: &'static str,
}

impl Report for PausedTry {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let b = bold();
        writeln!(out, "{b}paused{b:#}: {}", self.detail)
    }
}

/// A try the `execute` gate paused, reported as a [`PausedTry`].
pub fn paused_try(ctx: &Ctx, pending_gate: Option<Gate>) -> Result<Exit> {
    let detail = "pending gate execute: nothing ran and nothing was undone; the candidate is \
                  still in the working tree (a person approves with --approve, or sets execute = \
                  false under [gates] in the committed arx.toml for an unattended loop)";
    emit(
        ctx,
        outcome("paused"),
        format!("paused: {detail}"),
        &PausedTry {
            proceed: false,
            reason: "paused",
            pending_gate,
            ratchet: Status { status: "paused" },
            undone: false,
            detail: detail.to_string(),
        },
    )
}

/// A try refused before anything ran (`--strict` and a failed approach,
/// or an idea discarded at this parent already).
#[derive(Serialize)]
pub struct Refused {
    pub proceed: bool,
    pub reason: &'static str,
    pub ratchet: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approach_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idea: Option<String>,
    pub detail: String,
}

impl Report for Refused {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let b = bold();
        writeln!(out, "{b}refused{b:#}: {}", self.detail)
    }
}

/// `--strict`: refuse a try whose description matches a failed approach.
pub fn refuse_screened(
    ctx: &Ctx,
    description: &str,
    m: &crate::ops::finding::DeadMatch,
) -> Result<Exit> {
    let detail = format!(
        "{}; drop --strict to try it anyway",
        crate::ops::ratchet::screened(description, m)
    );
    emit(
        ctx,
        outcome("refused: a failed approach"),
        format!("refused: a failed approach: {detail}"),
        &Refused {
            proceed: false,
            reason: "matches a failed approach",
            ratchet: Status { status: "refused" },
            approach_hash: (m.what == "dead end").then(|| m.id.clone()),
            idea: None,
            detail,
        },
    )
}

/// `--no-repeat`: refuse an idea discarded at this parent already.
pub fn refuse_repeat(ctx: &Ctx, idea: &str, detail: String) -> Result<Exit> {
    emit(
        ctx,
        outcome("refused: a repeat"),
        format!("refused: a repeat: {detail}"),
        &Refused {
            proceed: false,
            reason: "a repeat",
            ratchet: Status { status: "refused" },
            approach_hash: None,
            idea: Some(idea.to_string()),
            detail,
        },
    )
}
