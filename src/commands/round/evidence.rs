//! `arx round evidence`: which findings a round should be based on.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::commands::Ctx;
use crate::error::{Exit, Hinted};
use crate::io::input::{read_text, Source};
use crate::kernel::round::{resolve_autonomy, select_evidence, Finding};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct EvidenceReport {
    enough: bool,
    min: usize,
    max: usize,
    available: usize,
    selected: Vec<Finding>,
}

impl Report for EvidenceReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        if !self.enough {
            return writeln!(
                out,
                "{b}too little evidence{b:#}: {} findings, a round needs {}",
                self.available, self.min
            );
        }
        for f in &self.selected {
            writeln!(
                out,
                "{d}{:<10} {:<25}{d:#} {}",
                f.kind, f.created_at, f.content
            )?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, findings: &str, min: Option<usize>, max: Option<usize>) -> Result<Exit> {
    let source = Source::from_arg(Some(Path::new(findings)));
    let text = read_text(&source, "the findings")?;
    let list: Vec<Finding> = serde_json::from_str(&text).map_err(|e| {
        Hinted::error(
            format!("{} is not a list of findings: {e}", source.describe()),
            "findings are a JSON array of {\"kind\", \"content\", \"source\", \"created_at\"}",
        )
    })?;
    let autonomy = resolve_autonomy(&ctx.config()?.grd, false);
    let (min, max) = (
        min.unwrap_or(autonomy.min_evidence),
        max.unwrap_or(autonomy.max_evidence),
    );
    let selected = select_evidence(&list, min, max);
    let enough = !selected.is_empty() || (min == 0 && list.is_empty());
    ctx.out.emit(&EvidenceReport {
        enough,
        min,
        max,
        available: list.len(),
        selected,
    })?;
    Ok(if enough { Exit::Ok } else { Exit::No })
}
