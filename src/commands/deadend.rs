//! `arx deadend add|check|list|promote` over `.arx/dead-ends.jsonl`.

use std::io::{self, Write};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::{pass_kg_write_gate, require_text, Ctx};
use crate::cli::DeadEndCommand;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::input::{read_text, Source};
use crate::io::state::{dead_ends, Appended};
use crate::kernel::promote::{approach_hash, build_dead_end_record, DeadEndRecord};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::text::shown;
use crate::kernel::verdict::{EvidenceLevel, Verdict, VerdictRecord, DETERMINISTIC};
use crate::ops::gate::GateFlags;
use crate::output::{bold, dim, verdict_style, Report, Row, Rows};

#[derive(Serialize)]
struct AddReport {
    added: bool,
    record: DeadEndRecord,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let what = if self.added {
            "recorded dead end"
        } else {
            "already a dead end"
        };
        writeln!(
            out,
            "{b}{what}{b:#} {d}{}{d:#} {}",
            self.record.approach_hash, self.record.statement
        )
    }
}

#[derive(Serialize)]
struct CheckReport {
    known: bool,
    approach_hash: String,
    record: Option<DeadEndRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discarded: Option<Discarded>,
}

impl Report for CheckReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        match (&self.record, &self.discarded) {
            (Some(r), _) => writeln!(
                out,
                "{b}known dead end{b:#} {}: {} (iteration {})",
                r.approach_hash, r.reason, r.iteration
            ),
            (None, Some(d)) => writeln!(
                out,
                "{b}known dead end{b:#} {}: discarded as not better by try {} at {}",
                self.approach_hash,
                super::short(&d.run_id),
                super::short(&d.parent)
            ),
            (None, None) => writeln!(out, "not a known dead end ({})", self.approach_hash),
        }
    }
}

impl Row for DeadEndRecord {
    fn row(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        writeln!(
            out,
            "{}  {d}it {:<3} {:<13}{d:#} {}  {d}— {}{d:#}",
            self.approach_hash,
            self.iteration,
            self.evidence_level.as_str(),
            self.statement,
            self.reason
        )
    }
}

/// A statement of a scanned file that is a known dead end.
#[derive(Serialize)]
struct Hit {
    file: String,
    statement: String,
    record: DeadEndRecord,
}

#[derive(Serialize)]
struct ScanReport {
    files: usize,
    statements: usize,
    dead_ends: Vec<Hit>,
}

impl Report for ScanReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        for hit in &self.dead_ends {
            writeln!(
                out,
                "{}: {b}known dead end{b:#} {d}{}{d:#} {}  {d}— {}{d:#}",
                hit.file, hit.record.approach_hash, hit.statement, hit.record.reason
            )?;
        }
        if self.dead_ends.is_empty() {
            writeln!(
                out,
                "no known dead end in {} statements of {} files",
                self.statements, self.files
            )?;
        }
        Ok(())
    }
}

/// Look up every statement the files name.
fn scan(ctx: &Ctx, files: &[std::path::PathBuf]) -> Result<Exit> {
    use crate::kernel::statements::statements;
    let known = dead_ends(&ctx.state_dir()?, WARN).read()?;
    let mut report = ScanReport {
        files: files.len(),
        statements: 0,
        dead_ends: Vec::new(),
    };
    for file in files {
        let text = read_text(&Source::from_arg(Some(file)), "the file")?;
        let found = statements(&file.display().to_string(), &text).map_err(|e| {
            Hinted::error(
                format!("{}: {e}", file.display()),
                "fix the file, or leave it out of the scan",
            )
        })?;
        report.statements += found.len();
        for statement in found {
            let hash = approach_hash(&statement);
            if let Some(record) = known.iter().find(|r| r.approach_hash == hash) {
                report.dead_ends.push(Hit {
                    file: file.display().to_string(),
                    statement,
                    record: record.clone(),
                });
            }
        }
    }
    let exit = if report.dead_ends.is_empty() {
        Exit::Ok
    } else {
        Exit::No
    };
    ctx.out.emit(&report)?;
    Ok(exit)
}

/// A verdict record as `arx measure --json` (or the reference host) writes it.
#[derive(Debug, Deserialize)]
struct VerdictInput {
    verdict: Verdict,
    evidence_level: EvidenceLevel,
    #[serde(default)]
    strategy: Option<String>,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    raw_evidence_ref: Option<String>,
    #[serde(default)]
    hypothesis: Option<String>,
}

#[derive(Serialize)]
struct PromoteReport {
    promoted: bool,
    added: bool,
    verdict: Verdict,
    evidence_level: EvidenceLevel,
    reason: String,
    record: Option<DeadEndRecord>,
}

impl Report for PromoteReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, s) = (bold(), verdict_style(self.verdict));
        match &self.record {
            Some(r) if self.added => writeln!(
                out,
                "{b}promoted{b:#} {} to dead end: {}",
                r.approach_hash, r.statement
            ),
            Some(r) => writeln!(
                out,
                "{b}already a dead end{b:#} {}: {}",
                r.approach_hash, r.statement
            ),
            None => writeln!(
                out,
                "{b}not promoted{b:#}: {} ({s}{}{s:#}, {} evidence)",
                self.reason,
                self.verdict,
                self.evidence_level.as_str()
            ),
        }
    }
}

fn add_record(ctx: &Ctx, record: DeadEndRecord) -> Result<(bool, DeadEndRecord)> {
    let registry = dead_ends(&ctx.state_dir()?, WARN);
    let hash = record.approach_hash.clone();
    let appended = registry.append_unless(record, |existing| {
        existing.iter().find(|r| r.approach_hash == hash).cloned()
    })?;
    Ok(match appended {
        Appended::Added(r) => (true, r),
        Appended::Existing(r) => (false, r),
    })
}

pub fn run(ctx: &Ctx, cmd: &DeadEndCommand) -> Result<Exit> {
    match cmd {
        DeadEndCommand::Add {
            statement,
            reason,
            iteration,
            evidence_level,
            gates,
        } => add(ctx, statement, reason, *iteration, evidence_level, *gates),
        DeadEndCommand::Check { statement } => check(ctx, statement),
        DeadEndCommand::Scan { files } => scan(ctx, files),
        DeadEndCommand::List => {
            ctx.out.emit(&Rows {
                items: dead_ends(&ctx.state_dir()?, WARN).read()?,
                empty: "no dead ends recorded",
            })?;
            Ok(Exit::Ok)
        }
        DeadEndCommand::Promote {
            verdict,
            statement,
            iteration,
            gates,
        } => promote(ctx, verdict, statement.as_deref(), *iteration, *gates),
    }
}

/// `arx deadend add`.
fn add(
    ctx: &Ctx,
    statement: &str,
    reason: &str,
    iteration: i64,
    evidence_level: &str,
    gates: GateFlags,
) -> Result<Exit> {
    require_text(statement, "the statement", "name the approach that failed")?;
    require_text(reason, "--reason", "say why it is a dead end")?;
    let record = DeadEndRecord {
        approach_hash: approach_hash(statement),
        statement: statement.to_string(),
        reason: reason.to_string(),
        iteration,
        evidence_level: evidence_level.parse().map_err(anyhow::Error::msg)?,
        created_at: Some(ctx.now()?),
    };
    if !pass_kg_write_gate(ctx, gates, "a dead end")? {
        return Ok(Exit::No);
    }
    let (added, record) = add_record(ctx, record)?;
    let line = match added {
        true => format!("added dead end {}", record.approach_hash),
        false => format!("already a dead end {}", record.approach_hash),
    };
    ctx.out.emit(&AddReport { added, record })?;
    ctx.answer(&line, "go on: `arx next`; `arx deadend check` now knows it");
    Ok(Exit::Ok)
}

/// `arx deadend check`: a known dead end is a "no".
fn check(ctx: &Ctx, statement: &str) -> Result<Exit> {
    let hash = approach_hash(statement);
    let state = ctx.state_dir()?;
    let record = dead_ends(&state, WARN)
        .read()?
        .into_iter()
        .find(|r| r.approach_hash == hash);
    // A change the ratchet discarded as not better is a dead end too, at
    // the best it was tried on.
    let discarded = match record {
        Some(_) => None,
        None => crate::io::state::journal(&state, WARN)
            .read()?
            .iter()
            .rev()
            .find_map(|r| {
                let i = r.ratchet.as_ref()?;
                let not_better =
                    i.status == TryStatus::Discard && i.improvement.is_none_or(|d| d <= 0.0);
                let same = i
                    .description
                    .as_deref()
                    .is_some_and(|d| approach_hash(d) == hash);
                (not_better && same).then(|| Discarded {
                    run_id: r.run_id.clone(),
                    parent: i.parent.clone().unwrap_or_else(|| i.kept.clone()),
                    improvement: i.improvement,
                })
            }),
    };
    let known = record.is_some() || discarded.is_some();
    let (line, next) = match (&record, &discarded) {
        (Some(r), _) => (
            format!("known dead end {}: {}", r.approach_hash, shown(&r.reason)),
            "do not try it: pick another approach (`arx next`)",
        ),
        (None, Some(d)) => (
            format!(
                "known dead end: discarded as not better by run {}",
                d.run_id
            ),
            "do not try it again as it was: pick another approach (`arx next`)",
        ),
        (None, None) => (
            format!("not a known dead end ({hash})"),
            "go on: it may be tried",
        ),
    };
    ctx.out.emit(&CheckReport {
        known,
        approach_hash: hash,
        record,
        discarded,
    })?;
    ctx.answer(&line, next);
    Ok(if known { Exit::No } else { Exit::Ok })
}

/// A try of the same change that the ratchet discarded as not better.
#[derive(Serialize)]
struct Discarded {
    run_id: String,
    /// The best it was measured against.
    parent: String,
    improvement: Option<f64>,
}

/// `arx deadend promote`: a deterministic refutation becomes a dead end.
fn promote(
    ctx: &Ctx,
    verdict: &str,
    statement: Option<&str>,
    iteration: i64,
    gates: GateFlags,
) -> Result<Exit> {
    let source = Source::from_arg(Some(std::path::Path::new(verdict)));
    let text = read_text(&source, "the verdict record")?;
    let input: VerdictInput = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a verdict record", source.describe()))
        .map_err(|e| {
            Hinted::error(
                format!("{e:#}"),
                "pass the JSON printed by `arx measure --json`",
            )
        })?;
    let statement = statement
        .map(str::to_string)
        .or(input.hypothesis.clone())
        .ok_or_else(|| {
            Hinted::error(
                "no statement to promote",
                "pass --statement, or measure with a spec that has a hypothesis",
            )
        })?;
    require_text(&statement, "the statement", "pass --statement TEXT")?;
    let record = VerdictRecord {
        verdict: input.verdict,
        strategy: input.strategy.unwrap_or_else(|| DETERMINISTIC.to_string()),
        evidence_level: input.evidence_level,
        detail: input.detail,
        raw_evidence_ref: input.raw_evidence_ref,
    };
    let candidate = build_dead_end_record(&statement, iteration, &record, Some(ctx.now()?));
    let Some(candidate) = candidate else {
        ctx.out.emit(&PromoteReport {
            promoted: false,
            added: false,
            verdict: record.verdict,
            evidence_level: record.evidence_level,
            reason: "only a deterministic refutation may promote a dead end".into(),
            record: None,
        })?;
        return Ok(Exit::No);
    };
    if !pass_kg_write_gate(ctx, gates, "a dead end")? {
        return Ok(Exit::No);
    }
    let (added, stored) = add_record(ctx, candidate)?;
    ctx.out.emit(&PromoteReport {
        promoted: true,
        added,
        verdict: record.verdict,
        evidence_level: record.evidence_level,
        reason: record.detail,
        record: Some(stored),
    })?;
    Ok(Exit::Ok)
}
