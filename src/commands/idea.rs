//! `arx idea add|list|drop` over the backlog, `.arx/ideas.jsonl`.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{short, Ctx, WARN};
use crate::cli::IdeaCommand;
use crate::error::{Exit, Hinted};
use crate::kernel::idea::{
    check_reason, Backlog, Idea, IdeaAdded, IdeaDropped, IdeaLine, IdeaStatus,
};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::text::shown;
use crate::ops::ideas;
use crate::output::{bold, dim, Report, Row, Rows};

pub fn run(ctx: &Ctx, cmd: &IdeaCommand) -> Result<Exit> {
    match cmd {
        IdeaCommand::Add {
            statement,
            family,
            retry,
            because,
        } => add(
            ctx,
            statement.as_deref(),
            family.as_deref(),
            (retry.as_deref(), because.as_deref()),
        ),
        IdeaCommand::List {
            status,
            family,
            limit,
        } => list(ctx, (status.as_deref(), family.as_deref()), *limit),
        IdeaCommand::Drop { id, reason } => drop_idea(ctx, id, reason.as_deref()),
    }
}

/// Now (or `--now`), with milliseconds: ideas added one after the other
/// sort in that order.
fn now_millis(ctx: &Ctx) -> Result<String> {
    let ts = crate::io::clock::timestamp(ctx.global.now.as_deref())?;
    Ok(crate::io::clock::millis(ts))
}

/// The idea as added: its id alone in the human view (for `id=$(...)`).
#[derive(Serialize)]
struct Added(IdeaAdded);

impl Report for Added {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.0.id)
    }

    fn styled(&self) -> bool {
        false
    }
}

fn add(
    ctx: &Ctx,
    statement: Option<&str>,
    family: Option<&str>,
    (retry, because): (Option<&str>, Option<&str>),
) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let backlog = ideas::load(&state, WARN)?;
    let retried = retried(&backlog, retry, because)?;
    let statement = match (statement, &retried) {
        (Some(s), _) => s.to_string(),
        (None, Some((original, _))) => original.statement.clone(),
        (None, None) => {
            return Err(Hinted::error(
                "arx idea add needs a STATEMENT: the idea, in words",
                "arx idea add --family lr \"halve the learning rate\"",
            ))
        }
    };
    ideas::check_statement(&statement)?;
    let (family, guessed) = match (family, &retried) {
        (Some(f), _) => (ideas::check_family(f)?, false),
        (None, Some((original, _))) => (original.family.clone(), original.family_guessed),
        (None, None) => {
            let nearest = ideas::nearest_family(&backlog, &statement);
            if !ctx.out.quiet {
                crate::errln!("arx: {}", shown(&nearest.said()));
            }
            (nearest.family, true)
        }
    };
    if retried.is_none() {
        warn_repeat(&backlog, &statement);
    }
    let added = crate::io::ideas::add(
        &state,
        IdeaAdded {
            id: String::new(),
            at: now_millis(ctx)?,
            statement,
            family,
            family_guessed: guessed,
            retry_of: retried.as_ref().map(|(o, _)| o.id.clone()),
            because: retried.as_ref().map(|(_, r)| r.to_string()),
            ad_hoc: false,
        },
        WARN,
    )?;
    ctx.out.emit(&Added(added))?;
    Ok(Exit::Ok)
}

/// `--retry ID --because TEXT`: the idea retried (which must have been
/// tried) and the reason; neither flag without the other.
fn retried<'b>(
    backlog: &'b Backlog,
    retry: Option<&str>,
    because: Option<&'b str>,
) -> Result<Option<(&'b Idea, &'b str)>> {
    Ok(match (retry, because) {
        (Some(_), None) => {
            return Err(Hinted::error(
                "--retry needs --because: what changed since the idea was tried",
                "say why it may be kept now, e.g. --because \"the warmup is longer now\"",
            ))
        }
        (None, Some(_)) => {
            return Err(Hinted::error(
                "--because is the reason of a retry, and needs --retry ID",
                "name the idea tried before with --retry ID, or leave --because out",
            ))
        }
        (Some(id), Some(reason)) => {
            check_reason(reason, "--because")
                .map_err(|e| Hinted::error(e, "say what changed since the idea was tried"))?;
            let original = ideas::find(backlog, id)?;
            if original.tries.is_empty() {
                return Err(Hinted::error(
                    format!(
                        "idea {} was never tried: there is nothing to retry",
                        original.id
                    ),
                    format!("try it with arx try --idea {}", original.id),
                ));
            }
            Some((original, reason))
        }
        (None, None) => None,
    })
}

/// Warn when an idea of the backlog with the same statement was tried and
/// not kept (a crash says nothing of it): adding it again is a repeat.
fn warn_repeat(backlog: &crate::kernel::idea::Backlog, statement: &str) {
    let same = |s: &str| s.trim().eq_ignore_ascii_case(statement.trim());
    for idea in backlog.ideas.iter().filter(|i| same(&i.statement)) {
        let Some(last) = idea.tries.iter().rev().find(|t| {
            t.status.is_non_keep() && !matches!(t.status, TryStatus::Crash | TryStatus::Interrupted)
        }) else {
            continue;
        };
        crate::output::warn(format_args!(
            "a repeat: idea {} says the same and was tried ({} {} at {}); to try it again, retry it saying what changed (arx idea add --retry {} --because TEXT; over MCP: try with retry and because)",
            idea.id,
            last.status,
            short(&last.run_id),
            short(&last.parent),
            idea.id
        ));
        return;
    }
}

/// One idea as `arx idea list` shows it.
#[derive(Serialize)]
struct Listed {
    #[serde(flatten)]
    idea: Idea,
    #[serde(flatten)]
    status: IdeaStatus,
}

/// How a try ended, in a word people read.
fn outcome(status: TryStatus) -> &'static str {
    match status {
        TryStatus::Keep => "kept",
        TryStatus::Discard => "discarded",
        TryStatus::Crash => "crashed",
        TryStatus::ChecksFailed => "checks failed",
        TryStatus::Protected => "protected",
        TryStatus::Interrupted => "interrupted",
        TryStatus::Pruned => "pruned",
        TryStatus::Stale => "stale",
        TryStatus::AlreadyInBest => "already in best",
        TryStatus::Guard => "vetoed by a guard",
        TryStatus::Holdout => "failed the held-out check",
        TryStatus::Baseline | TryStatus::Remeasure => "measured",
    }
}

impl Row for Listed {
    fn row(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let status = match &self.status {
            IdeaStatus::Open => format!("{b}open{b:#}"),
            IdeaStatus::InFlight { lane: Some(l) } => format!("{b}in flight{b:#} in lane {l}"),
            IdeaStatus::InFlight { lane: None } => format!("{b}in flight{b:#}"),
            IdeaStatus::Tried { .. } => {
                let tries: Vec<String> = self
                    .idea
                    .tries
                    .iter()
                    .map(|t| format!("{} {}", outcome(t.status), short(&t.run_id)))
                    .collect();
                format!("tried: {}", tries.join(", "))
            }
            IdeaStatus::Dropped => format!("{d}dropped{d:#}"),
        };
        let retry = self
            .idea
            .retry_of
            .as_deref()
            .map(|r| {
                format!(
                    "  {d}(retry of {r}: {}){d:#}",
                    shown(self.idea.because.as_deref().unwrap_or(""))
                )
            })
            .unwrap_or_default();
        writeln!(
            out,
            "{}  {:<12} {}  {status}{retry}",
            self.idea.id,
            self.idea.family,
            shown(&self.idea.statement)
        )
    }
}

fn list(
    ctx: &Ctx,
    (status, family): (Option<&str>, Option<&str>),
    limit: Option<usize>,
) -> Result<Exit> {
    let family = family.map(ideas::check_family).transpose()?;
    let backlog = ideas::load(&ctx.state_dir()?, WARN)?;
    let mut items: Vec<Listed> = backlog
        .ideas
        .into_iter()
        .map(|idea| Listed {
            status: idea.status(),
            idea,
        })
        .filter(|l| status.is_none_or(|s| l.status.word() == s))
        .filter(|l| family.as_deref().is_none_or(|f| l.idea.family == f))
        .collect();
    if let Some(n) = limit {
        items.drain(..items.len().saturating_sub(n));
    }
    ctx.out.emit(&Rows {
        items,
        empty: "no ideas (add one with arx idea add \"STATEMENT\")",
    })?;
    Ok(Exit::Ok)
}

#[derive(Serialize)]
struct Dropped {
    id: String,
    statement: String,
    /// False when it was dropped already (nothing written).
    dropped: bool,
}

impl Report for Dropped {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let what = if self.dropped {
            "dropped"
        } else {
            "already dropped"
        };
        writeln!(out, "{b}{what}{b:#} {} {}", self.id, shown(&self.statement))
    }
}

fn drop_idea(ctx: &Ctx, id: &str, reason: Option<&str>) -> Result<Exit> {
    if let Some(r) = reason {
        check_reason(r, "--reason")
            .map_err(|e| Hinted::error(e, "say why, or leave --reason out"))?;
    }
    let state = ctx.state_dir()?;
    let backlog = ideas::load(&state, WARN)?;
    let idea = ideas::find(&backlog, id)?;
    let dropped = idea.dropped.is_none();
    if dropped {
        let line = IdeaLine::Drop(IdeaDropped {
            id: idea.id.clone(),
            at: now_millis(ctx)?,
            reason: reason.map(str::to_string),
        });
        crate::io::ideas::append(&state, &line, WARN)?;
    }
    ctx.out.emit(&Dropped {
        id: idea.id.clone(),
        statement: idea.statement.clone(),
        dropped,
    })?;
    Ok(Exit::Ok)
}
