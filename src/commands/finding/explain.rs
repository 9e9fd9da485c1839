//! `arx finding explain`: why a finding ranks where it does, what
//! reinforced or contradicted it, and its lineage.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{find, now, Ctx};
use crate::commands::WARN;
use crate::engine::finding::index::{similarity_to, Index};
use crate::engine::finding::maintain::AUDIT_MIN_SIMILARITY;
use crate::engine::finding::rank::{rank, score, Ranked, MIN_RELEVANCE};
use crate::engine::finding::{Event, Finding};
use crate::error::Exit;
use crate::io::findings;
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct Link {
    id: String,
    status: String,
    content: String,
}

#[derive(Serialize)]
struct Opposed {
    id: String,
    score: f64,
    content: String,
}

#[derive(Serialize)]
struct ExplainReport {
    id: String,
    content: String,
    status: String,
    context: String,
    /// 1-based position among the findings ranked for the context, if ranked.
    position: Option<usize>,
    /// How many findings rank for the context.
    ranked: usize,
    /// Why it is not ranked, if it is not.
    why_not: Option<String>,
    score: Ranked,
    reinforced: Vec<Event>,
    contradicted: Vec<Event>,
    /// Live findings it contradicts now (score = similarity × negation signal).
    contradicts_now: Vec<Opposed>,
    /// Its ancestors, parent first.
    ancestors: Vec<Link>,
    /// Findings mutated from it.
    children: Vec<Link>,
}

impl Report for ExplainReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{b}{}{b:#} {} {d}({}){d:#}",
            self.id, self.content, self.status
        )?;
        let s = &self.score;
        match (self.position, &self.why_not) {
            (Some(p), _) => writeln!(out, "rank {p} of {} for {:?}", self.ranked, self.context)?,
            (None, Some(w)) => writeln!(out, "not ranked for {:?}: {w}", self.context)?,
            _ => {}
        }
        writeln!(
            out,
            "  score {:.3} = 0.4 × relevance {:.3} + 0.3 × confidence {:.3} + 0.2 × recency {:.3} − 0.1 × tension {:.3}",
            s.score, s.relevance, s.confidence, s.recency, s.tension
        )?;
        for e in self.reinforced.iter().chain(&self.contradicted) {
            let by =
                e.by.as_deref()
                    .map(|b| format!(" by {b}"))
                    .unwrap_or_default();
            writeln!(out, "  {d}{}{d:#} {}{by}: {}", e.at, e.what, e.detail)?;
        }
        for o in &self.contradicts_now {
            writeln!(
                out,
                "  contradicts {} {d}({:.2}){d:#} {}",
                o.id, o.score, o.content
            )?;
        }
        for a in &self.ancestors {
            writeln!(
                out,
                "  {d}mutated from{d:#} {} {d}({}){d:#} {}",
                a.id, a.status, a.content
            )?;
        }
        for c in &self.children {
            writeln!(
                out,
                "  {d}mutated into{d:#} {} {d}({}){d:#} {}",
                c.id, c.status, c.content
            )?;
        }
        Ok(())
    }
}

fn link(f: &Finding) -> Link {
    Link {
        id: f.id.clone(),
        status: f.status.as_str().into(),
        content: f.content.clone(),
    }
}

pub fn run(ctx: &Ctx, id: &str, context: Option<&str>) -> Result<Exit> {
    let now = now(ctx)?;
    let store = findings::load(&ctx.state_dir()?, WARN)?;
    let f = find(&store, id)?.clone();
    let at = store.iter().position(|g| g.id == f.id).expect("found");
    let context = context.unwrap_or(&f.content).to_string();
    let ix = Index::build(store.iter().map(|g| g.content.as_str()));
    let ranked = rank(&store, &ix, &context, now, usize::MAX);
    let position = ranked.iter().position(|r| r.index == at).map(|p| p + 1);
    let (v, _) = ix.vector(&context);
    let relevance = similarity_to(&ix, &v, at);
    let why_not = match position {
        Some(_) => None,
        None if !f.is_live() => Some("deprecated findings are not ranked".into()),
        None => Some(format!("relevance {relevance:.3} is below {MIN_RELEVANCE}")),
    };
    let mut contradicts_now = Vec::new();
    for (j, sim) in ix.query(&f.content, AUDIT_MIN_SIMILARITY) {
        if j == at || !store[j].is_live() {
            continue;
        }
        let s = sim * ix.negation(at, j);
        if s > 0.0 {
            contradicts_now.push(Opposed {
                id: store[j].id.clone(),
                score: s,
                content: store[j].content.clone(),
            });
        }
    }
    contradicts_now.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut ancestors = Vec::new();
    let mut cur = f.parent_id.clone();
    while let Some(p) = cur {
        match store.iter().find(|g| g.id == p) {
            Some(g) if ancestors.len() < 16 => {
                ancestors.push(link(g));
                cur = g.parent_id.clone();
            }
            _ => break,
        }
    }
    let children = store
        .iter()
        .filter(|g| g.parent_id.as_deref() == Some(f.id.as_str()))
        .map(link)
        .collect();
    let pick = |what: &[&str]| -> Vec<Event> {
        f.history
            .iter()
            .filter(|e| what.contains(&e.what.as_str()))
            .cloned()
            .collect()
    };
    ctx.out.emit(&ExplainReport {
        id: f.id.clone(),
        content: f.content.clone(),
        status: f.status.as_str().into(),
        context,
        position,
        ranked: ranked.len(),
        why_not,
        score: score(&f, relevance, now),
        reinforced: pick(&["reinforced"]),
        contradicted: pick(&[
            "contradicted",
            "resolved",
            "mutated",
            "decaying",
            "deprecated",
        ]),
        contradicts_now,
        ancestors,
        children,
    })?;
    Ok(Exit::Ok)
}
