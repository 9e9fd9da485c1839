//! `arx finding rank`: what to read before the next proposal. Its JSON is
//! a stable interface (the `finding_rank` tool reads it).

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{now, Ctx};
use crate::commands::{require_text, WARN};
use crate::engine::finding::index::Index;
use crate::engine::finding::rank::rank;
use crate::error::Exit;
use crate::io::findings;
use crate::output::{dim, Report};

/// One ranked finding in `arx finding rank --json`.
#[derive(Serialize)]
struct RankedFinding {
    rank: usize,
    id: String,
    kind: String,
    content: String,
    source: Option<String>,
    status: String,
    score: f64,
    relevance: f64,
    confidence: f64,
    recency: f64,
    tension: f64,
    created_at: String,
    last_reinforced: String,
    tags: Vec<String>,
}

#[derive(Serialize)]
struct RankReport {
    context: String,
    now: String,
    limit: usize,
    /// Live findings in the store.
    considered: usize,
    findings: Vec<RankedFinding>,
}

impl Report for RankReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        if self.findings.is_empty() {
            return writeln!(
                out,
                "{d}nothing relevant among {} live findings{d:#}",
                self.considered
            );
        }
        for f in &self.findings {
            writeln!(
                out,
                "{:>2}. {:.3} {}  {d}{} rel={:.2} c={:.2} rec={:.2} t={:.2}{d:#}  {}",
                f.rank,
                f.score,
                f.id,
                f.kind,
                f.relevance,
                f.confidence,
                f.recency,
                f.tension,
                f.content
            )?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, context: &str, limit: usize) -> Result<Exit> {
    require_text(context, "--context", "say what the next proposal is about")?;
    let now = now(ctx)?;
    let store = findings::load_light(&ctx.state_dir()?, WARN)?;
    let ix = Index::build(store.iter().map(|f| f.content.as_str()));
    let ranked = rank(&store, &ix, context, now, limit);
    let list: Vec<RankedFinding> = ranked
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let f = &store[r.index];
            RankedFinding {
                rank: i + 1,
                id: f.id.clone(),
                kind: f.kind.as_str().into(),
                content: f.content.clone(),
                source: f.source.clone(),
                status: f.status.as_str().into(),
                score: r.score,
                relevance: r.relevance,
                confidence: r.confidence,
                recency: r.recency,
                tension: r.tension,
                created_at: f.created_at.clone(),
                last_reinforced: f.last_reinforced.clone(),
                tags: f.tags.clone(),
            }
        })
        .collect();
    let found = !list.is_empty();
    ctx.out.emit(&RankReport {
        context: context.to_string(),
        now: now.to_string(),
        limit,
        considered: store.iter().filter(|f| f.is_live()).count(),
        findings: list,
    })?;
    Ok(if found { Exit::Ok } else { Exit::No })
}
