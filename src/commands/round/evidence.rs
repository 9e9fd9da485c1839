//! `arx round evidence`: which findings a round should be based on.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::commands::{Ctx, WARN};
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

pub fn run(
    ctx: &Ctx,
    findings: Option<&str>,
    context: Option<&str>,
    min: Option<usize>,
    max: Option<usize>,
) -> Result<Exit> {
    let autonomy = resolve_autonomy(&ctx.config()?.grd, false);
    let (min, max) = (
        min.unwrap_or(autonomy.min_evidence),
        max.unwrap_or(autonomy.max_evidence),
    );
    let (available, selected) = match findings {
        Some(file) => {
            let list = read_findings(file)?;
            (list.len(), select_evidence(&list, min, max))
        }
        None => {
            let now = crate::io::clock::timestamp(ctx.global.now.as_deref())?;
            crate::ops::finding::evidence(&ctx.state_dir()?, context, now, min, max, WARN)?
        }
    };
    let enough = !selected.is_empty() || (min == 0 && available == 0);
    ctx.out.emit(&EvidenceReport {
        enough,
        min,
        max,
        available,
        selected,
    })?;
    Ok(if enough { Exit::Ok } else { Exit::No })
}

fn read_findings(file: &str) -> Result<Vec<Finding>> {
    let source = Source::from_arg(Some(Path::new(file)));
    let text = read_text(&source, "the findings")?;
    serde_json::from_str(&text).map_err(|e| {
        Hinted::error(
            format!("{} is not a list of findings: {e}", source.describe()),
            "findings are a JSON array of {\"kind\", \"content\", \"source\", \"created_at\"}",
        )
    })
}
