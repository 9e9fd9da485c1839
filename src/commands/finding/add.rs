//! `arx finding add`: one finding, deduplicated.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{confidence, kind, now, Ctx};
use crate::commands::{pass_kg_write_gate, WARN};
use crate::engine::finding::{check_content, Finding, DEFAULT_CONFIDENCE};
use crate::error::{Exit, Hinted};
use crate::ops::finding::{record, Recorded};
use crate::ops::gate::GateFlags;
use crate::output::{bold, dim, warn, Report};

#[derive(Serialize)]
struct AddReport {
    #[serde(flatten)]
    recorded: Recorded,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let r = &self.recorded;
        let f = &r.finding;
        let what = match r.outcome {
            "new" => "recorded".to_string(),
            "reinforced" => format!(
                "same as a stored finding (similarity {:.2}), reinforced",
                r.similarity.unwrap_or(1.0)
            ),
            _ => "same as a stored finding, reinforced less than a minute ago: unchanged".into(),
        };
        writeln!(
            out,
            "{b}{what}{b:#} {} {d}({}, confidence {:.2}){d:#} {}",
            f.id, f.kind, f.confidence, f.content
        )?;
        for a in &r.contradicts {
            writeln!(
                out,
                "  {d}contradicts{d:#} {} {d}({:.2}){d:#} {}",
                a.id, a.score, a.content
            )?;
        }
        Ok(())
    }
}

pub fn run(
    ctx: &Ctx,
    text: &str,
    kind_name: &str,
    source: Option<String>,
    conf: Option<f64>,
    tags: &[String],
    gates: GateFlags,
) -> Result<Exit> {
    check_content(text).map_err(|e| {
        Hinted::error(
            e,
            "state one finding in a sentence or two (at most 2,000 characters)",
        )
    })?;
    let c = confidence(conf, DEFAULT_CONFIDENCE)?;
    let now = now(ctx)?;
    let mut f = Finding::new(kind(kind_name), text, source, c, &now.to_string());
    f.tags = tags.to_vec();
    if !pass_kg_write_gate(ctx, gates, "a finding")? {
        return Ok(Exit::No);
    }
    let (recorded, warning) = record(&ctx.state_dir()?, vec![f], now, WARN)?;
    if let Some(w) = warning {
        warn(w);
    }
    let recorded = recorded.into_iter().next().expect("one finding recorded");
    ctx.out.emit(&AddReport { recorded })?;
    Ok(Exit::Ok)
}
