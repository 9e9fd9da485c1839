//! `arx finding list` and `arx finding show`.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{find, line, Ctx};
use crate::commands::WARN;
use crate::engine::finding::{Finding, Status};
use crate::error::Exit;
use crate::io::findings;
use crate::output::{bold, dim, Report, Row, Rows};

#[derive(Serialize)]
#[serde(transparent)]
struct Item(Finding);

impl Row for Item {
    fn row(&self, out: &mut dyn Write) -> io::Result<()> {
        line(out, &self.0)
    }
}

pub fn list(
    ctx: &Ctx,
    (kind, status, all): (Option<&str>, Option<&str>, bool),
    limit: Option<usize>,
) -> Result<Exit> {
    let store = findings::load(&ctx.state_dir()?, WARN)?;
    let mut items: Vec<Item> = store
        .into_iter()
        .filter(|f| kind.is_none_or(|k| f.kind.as_str() == k))
        .filter(|f| match status {
            Some(s) => f.status.as_str() == s,
            None => all || f.status != Status::Deprecated,
        })
        .map(Item)
        .collect();
    if let Some(n) = limit {
        items.drain(..items.len().saturating_sub(n));
    }
    ctx.out.emit(&Rows {
        items,
        empty: "no findings",
    })?;
    Ok(Exit::Ok)
}

#[derive(Serialize)]
#[serde(transparent)]
struct ShowReport(Finding);

impl Report for ShowReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let f = &self.0;
        writeln!(out, "{b}{}{b:#} {}", f.id, f.content)?;
        let rows = [
            ("kind", f.kind.to_string()),
            ("status", f.status.to_string()),
            ("confidence", format!("{:.3}", f.confidence)),
            ("tension", format!("{:.3}", f.tension)),
            ("use_count", f.use_count.to_string()),
            ("source", f.source.clone().unwrap_or_else(|| "-".into())),
            ("created_at", f.created_at.clone()),
            ("last_reinforced", f.last_reinforced.clone()),
            (
                "parent_id",
                f.parent_id.clone().unwrap_or_else(|| "-".into()),
            ),
            ("depth", f.depth.to_string()),
            (
                "tags",
                if f.tags.is_empty() {
                    "-".into()
                } else {
                    f.tags.join(", ")
                },
            ),
        ];
        for (k, v) in rows {
            writeln!(out, "{d}{k:<16}{d:#}{v}")?;
        }
        for e in &f.history {
            let by = e.by.as_deref().map(|b| format!(" {b}")).unwrap_or_default();
            writeln!(out, "{d}{}{d:#} {}{by}: {}", e.at, e.what, e.detail)?;
        }
        Ok(())
    }
}

pub fn show(ctx: &Ctx, id: &str) -> Result<Exit> {
    let store = findings::load(&ctx.state_dir()?, WARN)?;
    let f = find(&store, id)?.clone();
    ctx.out.emit(&ShowReport(f))?;
    Ok(Exit::Ok)
}
