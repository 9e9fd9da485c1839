//! `arx precision show|rebuild|reset`: the hierarchical precision state.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::cli::PrecisionCommand;
use crate::engine::precision::{Level, ADAPTATION_THRESHOLD};
use crate::error::Exit;
use crate::io::history::{self, Cache};
use crate::io::state::{ensure_dir, JOURNAL_FILE};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct LevelView {
    level: Level,
    value: f64,
    alpha: f64,
    beta: f64,
    variance: f64,
    adapt: bool,
}

#[derive(Serialize)]
struct PrecisionReport {
    runs: u64,
    levels: Vec<LevelView>,
    adaptation_threshold: f64,
    adaptation_due: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reset_after: Option<u64>,
}

impl Report for PrecisionReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{b}{:<10} {:>7} {:>8} {:>8} {:>9}{b:#}",
            "level", "value", "alpha", "beta", "variance"
        )?;
        for l in &self.levels {
            let flag = if l.adapt { "  adapt" } else { "" };
            writeln!(
                out,
                "{:<10} {:>7.4} {:>8.4} {:>8.4} {:>9.6}{flag}",
                l.level.as_str(),
                l.value,
                l.alpha,
                l.beta,
                l.variance
            )?;
        }
        let runs = crate::output::count(self.runs, "run", "runs");
        writeln!(out, "{d}{runs} observed{d:#}")?;
        if self.adaptation_due {
            writeln!(
                out,
                "adaptation due: precision below {} — widen the approach space (new candidates, other hypotheses)",
                self.adaptation_threshold
            )?;
        }
        Ok(())
    }
}

fn report(cache: &Cache) -> PrecisionReport {
    let h = &cache.history.precision;
    let levels: Vec<LevelView> = Level::ALL
        .iter()
        .map(|&level| {
            let beta = h.get(level);
            LevelView {
                level,
                value: beta.value(),
                alpha: beta.alpha,
                beta: beta.beta,
                variance: beta.variance(),
                adapt: beta.should_adapt(),
            }
        })
        .collect();
    PrecisionReport {
        runs: cache.history.runs,
        adaptation_due: levels.iter().any(|l| l.adapt),
        levels,
        adaptation_threshold: ADAPTATION_THRESHOLD,
        reset_after: cache.reset_after,
    }
}

pub fn run(ctx: &Ctx, cmd: Option<&PrecisionCommand>) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let journal = state.join(JOURNAL_FILE);
    let cache = match cmd.unwrap_or(&PrecisionCommand::Show) {
        PrecisionCommand::Show => history::load(&state, &journal, state.is_dir(), WARN)?,
        PrecisionCommand::Rebuild => {
            ensure_dir(&state)?;
            let old = history::load(&state, &journal, false, WARN).ok();
            let cache = history::rebuild(&journal, old.and_then(|c| c.reset_after))?;
            crate::io::rounds::write_json_atomic(&history::cache_path(&state), &cache)?;
            cache
        }
        PrecisionCommand::Reset => {
            ensure_dir(&state)?;
            history::reset(&state, &journal)?
        }
    };
    ctx.out.emit(&report(&cache))?;
    Ok(Exit::Ok)
}
