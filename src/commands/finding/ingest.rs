//! `arx finding ingest`: candidate findings from free text.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::{confidence, kind, note, now, Ctx};
use crate::commands::{pass_kg_write_gate, WARN};
use crate::engine::finding::ingest::{extract, Claim};
use crate::engine::finding::Finding;
use crate::error::Exit;
use crate::io::input::{read_text, Source};
use crate::ops::finding::{record, Recorded};
use crate::ops::gate::GateFlags;
use crate::output::{bold, dim, warn, Report};

/// Confidence of ingested claims when not given: they were not measured.
const INGEST_CONFIDENCE: f64 = 0.5;

#[derive(Serialize)]
struct IngestReport {
    dry_run: bool,
    source: String,
    claims: Vec<Claim>,
    /// What recording each claim did (empty for a dry run).
    recorded: Vec<Recorded>,
}

impl Report for IngestReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        if self.claims.is_empty() {
            return writeln!(out, "{d}no claims found in {}{d:#}", self.source);
        }
        if self.dry_run {
            for c in &self.claims {
                writeln!(
                    out,
                    "{d}line {:<4} {:<10}{d:#} {}",
                    c.line, c.kind, c.content
                )?;
            }
            return writeln!(
                out,
                "{d}{} claims; nothing recorded (--dry-run){d:#}",
                self.claims.len()
            );
        }
        let new = self.recorded.iter().filter(|r| r.outcome == "new").count();
        writeln!(
            out,
            "{b}{} claims{b:#}: {new} new, {} already known",
            self.claims.len(),
            self.claims.len() - new
        )?;
        for r in &self.recorded {
            writeln!(
                out,
                "  {d}{:<10} {}{d:#} {}",
                r.outcome, r.finding.id, r.finding.content
            )?;
        }
        Ok(())
    }
}

pub fn run(
    ctx: &Ctx,
    file: Option<&Path>,
    dry_run: bool,
    kind_name: Option<&str>,
    source: Option<String>,
    conf: Option<f64>,
    gates: GateFlags,
) -> Result<Exit> {
    let input = Source::from_arg(file);
    let text = read_text(&input, "the text to ingest")?;
    let c = confidence(conf, INGEST_CONFIDENCE)?;
    let source = source.unwrap_or_else(|| match &input {
        Source::Stdin => "stdin".to_string(),
        Source::File(p) => format!("file:{}", p.display()),
    });
    let mut claims = extract(&text);
    if let Some(k) = kind_name {
        for claim in &mut claims {
            claim.kind = kind(k);
        }
    }
    let found = !claims.is_empty();
    if dry_run || !found {
        ctx.out.emit(&IngestReport {
            dry_run,
            source,
            claims,
            recorded: Vec::new(),
        })?;
        return Ok(if found { Exit::Ok } else { Exit::No });
    }
    if !pass_kg_write_gate(ctx, gates, &format!("{} findings", claims.len()))? {
        return Ok(Exit::No);
    }
    let now = now(ctx)?;
    let at = now.to_string();
    let news: Vec<Finding> = claims
        .iter()
        .map(|cl| Finding::new(cl.kind, &cl.content, Some(source.clone()), c, &at))
        .collect();
    let (recorded, warning) = record(&ctx.state_dir()?, news, now, WARN)?;
    if let Some(w) = warning {
        warn(w);
    }
    for r in &recorded {
        for a in &r.contradicts {
            note(
                ctx,
                &format!(
                    "{} contradicts {} ({:.2}): {}",
                    r.finding.id, a.id, a.score, a.content
                ),
            );
        }
    }
    ctx.out.emit(&IngestReport {
        dry_run,
        source,
        claims,
        recorded,
    })?;
    Ok(Exit::Ok)
}
