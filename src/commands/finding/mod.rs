//! `arx finding add|ingest|maintain|rank|list|show|explain|merge` over
//! `.arx/findings.jsonl`. The engine (`engine::finding`) decides; the store
//! is read and written through `io::findings`; these files gather and render.

mod add;
mod explain;
mod ingest;
mod list;
mod maintain;
mod merge;
mod rank;

use std::io::Write;

use anyhow::Result;
use jiff::Timestamp;

use super::Ctx;
use crate::cli::FindingCommand;
use crate::engine::finding::{lookup, Finding, Kind};
use crate::error::{Exit, Hinted};

pub fn run(ctx: &Ctx, cmd: &FindingCommand) -> Result<Exit> {
    match cmd {
        FindingCommand::Add {
            text,
            kind,
            source,
            confidence,
            tags,
            gates,
        } => add::run(ctx, text, kind, source.clone(), *confidence, tags, *gates),
        FindingCommand::Ingest {
            file,
            dry_run,
            kind,
            source,
            confidence,
            gates,
        } => ingest::run(
            ctx,
            file.as_deref(),
            *dry_run,
            kind.as_deref(),
            source.clone(),
            *confidence,
            *gates,
        ),
        FindingCommand::Maintain { force, dry_run } => maintain::run(ctx, *force, *dry_run),
        FindingCommand::Rank { context, limit } => rank::run(ctx, context, *limit),
        FindingCommand::List {
            kind,
            status,
            all,
            limit,
        } => list::list(ctx, (kind.as_deref(), status.as_deref(), *all), *limit),
        FindingCommand::Show { id } => list::show(ctx, id),
        FindingCommand::Explain { id, context } => explain::run(ctx, id, context.as_deref()),
        FindingCommand::Merge { files } => merge::run(ctx, files),
    }
}

/// The time of this command (`--now`, else the clock).
pub fn now(ctx: &Ctx) -> Result<Timestamp> {
    crate::io::clock::timestamp(ctx.global.now.as_deref())
}

/// The kind a flag names (clap checked it).
pub fn kind(text: &str) -> Kind {
    Kind::parse(text).unwrap_or(Kind::Takeaway)
}

/// A `--confidence` value, checked.
pub fn confidence(value: Option<f64>, default: f64) -> Result<f64> {
    let c = value.unwrap_or(default);
    if !(0.0..=1.0).contains(&c) || c.is_nan() {
        return Err(Hinted::error(
            format!("--confidence must be in [0, 1], not {c}"),
            "use e.g. --confidence 0.7",
        ));
    }
    Ok(c)
}

/// The finding `id` names, or an error saying why none does.
pub fn find<'a>(store: &'a [Finding], id: &str) -> Result<&'a Finding> {
    lookup(store, id)
        .map_err(|e| Hinted::error(e, "list the findings with `arx finding list --all`"))
}

/// One finding's line: id, kind, status, confidence, tension, content.
pub fn line(out: &mut dyn Write, f: &Finding) -> std::io::Result<()> {
    let d = crate::output::dim();
    writeln!(
        out,
        "{}  {d}{:<10} {:<10} c={:.2} t={:.2}{d:#}  {}",
        f.id, f.kind, f.status, f.confidence, f.tension, f.content
    )
}

/// Progress and notes on stderr, unless quiet.
pub fn note(ctx: &Ctx, text: &str) {
    if !ctx.out.quiet {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "arx: {text}");
    }
}
