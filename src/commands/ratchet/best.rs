//! `arx best`: the best kept run of the ratchet's current segment.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{decimals, estimate_of_fold, load_summary, num, short, signed, Estimate};
use crate::cli::ObjectiveFlags;
use crate::commands::Ctx;
use crate::error::Exit;
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
pub struct BestReport {
    pub segment: String,
    pub metric: String,
    pub direction: crate::kernel::stats::Direction,
    pub run_id: String,
    pub commit: String,
    pub description: Option<String>,
    /// The mean of the kept commit's samples, with its interval.
    #[serde(flatten)]
    pub estimate: Estimate,
    pub samples: Vec<f64>,
    /// False when no confirmation backs the keep (`--rule strict`).
    pub confirmed: bool,
    /// The baseline's value: as it measures on the best's slot when the
    /// two were recorded on slots that differ (`baseline_slot`).
    pub baseline: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_slot: Option<String>,
    /// Best minus baseline.
    pub change: Option<f64>,
    /// Read from another loop's night (`arx journal import`), not measured
    /// by arx: shown, never the best a try is measured against.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
}

impl Report for BestReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let dp = decimals(self.estimate.noise, self.estimate.value);
        write!(
            out,
            "{b}best{b:#}: {} {}",
            self.metric,
            num(self.estimate.value, dp)
        )?;
        if let Some((lo, hi)) = self.estimate.interval {
            write!(out, " [{}, {}]", num(lo, dp), num(hi, dp))?;
        }
        write!(out, " (n={})", self.estimate.n)?;
        if !self.commit.is_empty() {
            write!(out, " at {}", short(&self.commit))?;
        }
        if let Some(desc) = &self.description {
            write!(out, " \"{}\"", crate::kernel::text::shown(desc))?;
        }
        if let (Some(c), Some(base)) = (self.change, self.baseline) {
            let on = self
                .baseline_slot
                .as_ref()
                .map(|s| format!(" on slot {s}"))
                .unwrap_or_default();
            write!(
                out,
                " {d}{} vs baseline {}{on}{d:#}",
                signed(c, dp),
                num(base, dp)
            )?;
        }
        if !self.confirmed {
            write!(out, " {d}(unconfirmed){d:#}")?;
        }
        if self.imported {
            write!(
                out,
                " {d}(imported: not measured by arx; the first arx try measures a baseline){d:#}"
            )?;
        }
        writeln!(out)
    }
}

pub fn run(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Exit> {
    let loaded = load_summary(ctx, flags)?;
    let o = &loaded.objective;
    let imported = loaded.segment.is_none() && loaded.imported.is_some();
    let Some(seg) = loaded.segment.or(loaded.imported) else {
        return no_best(ctx, o, "nothing measured yet in this segment");
    };
    let Some(kept) = &seg.kept else {
        return no_best(ctx, o, "the segment has no baseline yet");
    };
    // An imported value is one number shown as the file gave it.
    let shown_as_given = || {
        let value = kept.samples.first().copied().filter(|_| imported)?;
        Some(Estimate {
            value,
            interval: None,
            n: kept.samples.len(),
            noise: None,
        })
    };
    let estimate = estimate_of_fold(kept, &seg, INTERVAL_CONFIDENCE).or_else(shown_as_given);
    let Some(estimate) = estimate else {
        return no_best(
            ctx,
            o,
            &format!("the kept commit has no sample of {}", o.metric),
        );
    };
    // The baseline as it measures on the best's slot, when the two were
    // recorded on slots that differ.
    let on_slot = seg.baseline_on_best_slot();
    let baseline = match &on_slot {
        Some(o) => Some(o.value),
        None => seg.baseline.as_ref().and_then(|b| {
            let e = estimate_of_fold(b, &seg, INTERVAL_CONFIDENCE).map(|e| e.value);
            e.or(b.samples.first().copied().filter(|_| imported))
        }),
    };
    let (value, noise) = (estimate.value, estimate.noise);
    ctx.out.emit(&BestReport {
        segment: seg.id.clone(),
        metric: if imported {
            seg.metric.clone()
        } else {
            o.metric.clone()
        },
        direction: seg.direction.filter(|_| imported).unwrap_or(o.direction),
        run_id: kept.run_id.clone(),
        commit: kept.commit.clone(),
        description: kept.description.clone(),
        change: baseline.map(|b| estimate.value - b),
        estimate,
        samples: kept.samples.clone(),
        confirmed: kept.confirmed,
        baseline,
        baseline_slot: on_slot.map(|o| o.slot),
        imported,
    })?;
    let dp = decimals(noise, value);
    let at = match kept.commit.as_str() {
        "" => String::new(),
        commit => format!(" at {}", short(commit)),
    };
    let metric = if imported { &seg.metric } else { &o.metric };
    ctx.answer(
        &format!("best: {metric} {}{at}", num(value, dp)),
        "go on: `arx status`, then `arx next`",
    );
    Ok(Exit::Ok)
}

/// `arx best` before there is one: exit 1 (a "no"), saying so on stdout
/// (`best` null under `--json`) and what to run.
#[derive(Serialize)]
pub struct NoBest {
    /// Always null: there is no best yet.
    pub best: Option<f64>,
    pub metric: String,
    pub direction: crate::kernel::stats::Direction,
    /// Why there is none.
    pub reason: String,
    /// What to run.
    pub next: &'static str,
}

/// What to run when there is no best yet.
const NO_BEST_NEXT: &str = "`arx try` measures the baseline (the working tree as it is)";

impl Report for NoBest {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}no best yet{b:#}: {} ({} {}); next: {}",
            self.reason, self.metric, self.direction, self.next
        )
    }
}

fn no_best(ctx: &Ctx, o: &crate::kernel::objective::Objective, reason: &str) -> Result<Exit> {
    ctx.out.emit(&NoBest {
        best: None,
        metric: o.metric.clone(),
        direction: o.direction,
        reason: reason.to_string(),
        next: NO_BEST_NEXT,
    })?;
    ctx.answer(&format!("no best yet: {reason}"), NO_BEST_NEXT);
    Ok(Exit::No)
}
