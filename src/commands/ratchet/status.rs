//! `arx status`: the ratchet's segment and the stop advice. Exit 0 when a
//! stop rule fires, 1 to go on, so `until arx status -q; do ...; done` is
//! a loop.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{decimals, estimate_of_fold, load_summary, num, short};
use crate::cli::ObjectiveFlags;
use crate::commands::Ctx;
use crate::error::Exit;
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::segment::{stop_advice, Segment, StopAdvice, TryStatus};
use crate::output::{bold, dim, warn, Report};

/// A class's keep waiting for other classes.
#[derive(Serialize)]
pub struct ClassPending {
    pub class: String,
    /// The pending keep's run id.
    pub run: String,
    /// Its value on the class.
    pub value: f64,
}

#[derive(Serialize)]
pub struct StatusReport {
    /// 1-based number of the segment in the journal (0: none yet).
    pub segment_number: usize,
    pub segment: String,
    pub metric: String,
    pub direction: crate::kernel::stats::Direction,
    pub tries: usize,
    pub runs: u64,
    pub keeps: usize,
    /// Tries not kept by the rule or the checks: discards, `checks_failed`,
    /// `guard`, `holdout`, `protected` and `pruned` (as `arx report` counts
    /// them).
    pub discards: usize,
    /// Crashed and interrupted tries.
    pub crashes: usize,
    /// Of the crashes: tries cut off before a verdict (a Ctrl-C, an MCP
    /// client that gave up), not counted in a row (their change is still
    /// in the working tree to be tried).
    pub interrupted: usize,
    /// Of the discards: a check failed.
    pub checks_failed: usize,
    /// Of the discards: a protected path was touched.
    pub protected: usize,
    /// Of the discards: a guard metric vetoed the keep.
    pub guard: usize,
    /// Of the discards: the held-out check vetoed the keep.
    pub holdout: usize,
    pub non_keeps_in_a_row: usize,
    pub elapsed_hours: f64,
    pub baseline: Option<f64>,
    pub best: Option<f64>,
    pub best_commit: Option<String>,
    /// The segment's noise (pooled sd of one run).
    pub noise: Option<f64>,
    /// In a fleet with `confirm_classes`: each class's keep waiting for
    /// other classes (its best, pending: not the fleet's best above).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<ClassPending>,
    #[serde(flatten)]
    pub advice: StopAdvice,
}

impl Report for StatusReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        if self.segment_number == 0 {
            writeln!(
                out,
                "{b}go on{b:#}: no baseline yet for {} ({}); `arx try` measures it",
                self.metric, self.direction
            )?;
            return Ok(());
        }
        match &self.advice.reason {
            Some(reason) => writeln!(out, "{b}stop{b:#}: {reason}")?,
            None => writeln!(out, "{b}go on{b:#}: no stop rule fired")?,
        }
        writeln!(
            out,
            "  segment {} {d}({}){d:#}: {} {}, {}, {}, {:.2} h",
            self.segment_number,
            self.segment,
            self.metric,
            self.direction,
            crate::output::count(self.tries as u64, "try", "tries"),
            crate::output::count(self.runs, "run", "runs"),
            self.elapsed_hours
        )?;
        let mut vetoes = String::new();
        for (n, what) in [(self.guard, "guard"), (self.holdout, "holdout")] {
            if n > 0 {
                vetoes.push_str(&format!(", {n} {what}"));
            }
        }
        writeln!(
            out,
            "  {} kept, {} discarded ({} checks failed, {} protected{vetoes}), {} crashed; {} not kept in a row",
            self.keeps,
            self.discards,
            self.checks_failed,
            self.protected,
            self.crashes,
            self.non_keeps_in_a_row
        )?;
        if let (Some(best), Some(commit)) = (self.best, &self.best_commit) {
            let dp = decimals(self.noise, best);
            write!(out, "  best {} at {}", num(best, dp), short(commit))?;
            if let Some(base) = self.baseline {
                write!(out, " {d}(baseline {}){d:#}", num(base, dp))?;
            }
            writeln!(out)?;
        }
        for p in &self.pending {
            let dp = decimals(self.noise, p.value);
            writeln!(
                out,
                "  class {}: best {} pending {d}(run {}: the fleet's best once other classes find it better){d:#}",
                crate::kernel::text::shown(&p.class),
                num(p.value, dp),
                crate::kernel::text::shown(&p.run)
            )?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Exit> {
    crate::commands::note_outside_git(ctx, ": arx try keeps and discards changes as its commits")?;
    let loaded = load_summary(ctx, flags)?;
    // A command that only reads moves no file: what a killed try left half
    // done waits for the next command that changes a working tree.
    let tree = crate::io::config::repo_root(&loaded.cwd).unwrap_or_else(|| loaded.cwd.clone());
    for line in crate::ops::ratchet::recover::waiting(&loaded.state, &tree) {
        warn(line);
    }
    if let Some(line) = crate::ops::ratchet::pending_line(&loaded.state) {
        warn(line);
    }
    let o = &loaded.objective;
    let now = crate::io::clock::timestamp(ctx.global.now.as_deref())?;
    asked_metric(flags.metric.as_deref(), &loaded.metrics)?;
    stale_agents_md(ctx, &loaded.cwd)?;
    let Some(seg) = &loaded.segment else {
        return no_segment(ctx, o);
    };
    let hours = seg
        .started_at
        .parse::<jiff::Timestamp>()
        .map(|start| (now.as_millisecond() - start.as_millisecond()).max(0) as f64 / 3_600_000.0)
        .unwrap_or(0.0);
    let best = seg
        .kept
        .as_ref()
        .and_then(|k| estimate_of_fold(k, seg, INTERVAL_CONFIDENCE));
    let baseline = seg
        .baseline
        .as_ref()
        .and_then(|b| estimate_of_fold(b, seg, INTERVAL_CONFIDENCE))
        .map(|e| e.value);
    let advice = stop_advice(
        &Segment {
            runs: seg.runs,
            tally: seg.tally.clone(),
            ..Segment::default()
        },
        &o.stop,
        best.as_ref().map(|e| e.value),
        o.direction,
        hours,
    );
    let stop = advice.stop;
    let (line, next) = answer_of(&advice, seg.tally.since_keep);
    ctx.out.emit(&StatusReport {
        segment_number: seg.number,
        segment: seg.id.clone(),
        metric: o.metric.clone(),
        direction: o.direction,
        tries: seg.tries,
        runs: seg.runs,
        keeps: seg.tally.keeps,
        discards: seg.tally.discards,
        crashes: seg.tally.crashes,
        interrupted: seg.tally.of(TryStatus::Interrupted.as_str()),
        checks_failed: seg.tally.of(TryStatus::ChecksFailed.as_str()),
        protected: seg.tally.of(TryStatus::Protected.as_str()),
        guard: seg.tally.of(TryStatus::Guard.as_str()),
        holdout: seg.tally.of(TryStatus::Holdout.as_str()),
        non_keeps_in_a_row: seg.tally.since_keep,
        elapsed_hours: hours,
        baseline,
        noise: best.as_ref().and_then(|e| e.noise),
        best: best.map(|e| e.value),
        best_commit: seg.kept.as_ref().map(|k| k.commit.clone()),
        pending: class_pending(seg),
        advice,
    })?;
    ctx.answer(&line, next);
    Ok(if stop { Exit::Ok } else { Exit::No })
}

/// Each class's keep waiting for other classes, from the segment's fold.
fn class_pending(seg: &crate::kernel::report::SegmentFold) -> Vec<ClassPending> {
    seg.class_summaries()
        .into_iter()
        .filter_map(|c| {
            let p = c.pending?;
            Some(ClassPending {
                class: c.class,
                run: p.run,
                value: p.value,
            })
        })
        .collect()
}

/// `arx status` before the objective's first baseline.
fn no_segment(ctx: &Ctx, o: &crate::kernel::objective::Objective) -> Result<Exit> {
    ctx.out.emit(&StatusReport::no_segment(o))?;
    ctx.answer(
        &format!("go on: no baseline yet for {} ({})", o.metric, o.direction),
        "`arx try` measures the baseline",
    );
    Ok(Exit::No)
}

/// The answer's line and next step of the stop advice.
fn answer_of(advice: &StopAdvice, in_a_row: usize) -> (String, &'static str) {
    match &advice.reason {
        Some(reason) if advice.stop => (format!("stop: {reason}"), STOP_NEXT),
        _ => (
            format!("go on: no stop rule fired ({in_a_row} not kept in a row)"),
            GO_ON_NEXT,
        ),
    }
}

/// The next step when a stop rule fired.
const STOP_NEXT: &str = "stop: make no further change; tell the person why, the best (`arx best`) and what was tried (`arx report`)";
/// The next step when no stop rule fired.
const GO_ON_NEXT: &str = "`arx next` for the idea, make that one change, then `arx try --idea ID`";

/// Refuse a `--metric` no segment of the journal measures (`metrics`).
fn asked_metric(asked: Option<&str>, metrics: &[String]) -> Result<()> {
    if let Some(asked) = asked {
        if !metrics.is_empty() && !metrics.iter().any(|m| m == asked) {
            return Err(crate::error::Hinted::error(
                format!(
                    "the journal has no segment measuring {asked}; its segments measure {}",
                    metrics.join(", ")
                ),
                format!(
                    "ask for one of those (--metric {}), or leave --metric out for arx.toml's",
                    metrics.last().map_or("", String::as_str)
                ),
            ));
        }
    }
    Ok(())
}

/// Warn when AGENTS.md's arx section is not the one `arx init --agent`
/// would write now (the objective, its guards or stop rules changed).
fn stale_agents_md(ctx: &Ctx, cwd: &std::path::Path) -> Result<()> {
    let root = crate::io::config::repo_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
    let Some(text) = crate::io::state::read_text_if_any(&root.join("AGENTS.md"))? else {
        return Ok(());
    };
    let Some(written) = crate::kernel::agents::current(&text) else {
        return Ok(());
    };
    let config = ctx.config()?;
    let now = crate::kernel::agents::section(&crate::kernel::agents::from_config(
        config.objective.as_ref(),
    ));
    if written != now {
        warn("AGENTS.md's arx section no longer matches arx.toml (the objective, its checks, guards or stop rules changed): run `arx init --agent` to write it again");
    }
    Ok(())
}

impl StatusReport {
    /// Before the objective's first baseline.
    fn no_segment(o: &crate::kernel::objective::Objective) -> StatusReport {
        StatusReport {
            segment_number: 0,
            segment: o.segment_id(),
            metric: o.metric.clone(),
            direction: o.direction,
            tries: 0,
            runs: 0,
            keeps: 0,
            discards: 0,
            crashes: 0,
            interrupted: 0,
            checks_failed: 0,
            protected: 0,
            guard: 0,
            holdout: 0,
            non_keeps_in_a_row: 0,
            elapsed_hours: 0.0,
            baseline: None,
            best: None,
            best_commit: None,
            pending: Vec::new(),
            noise: None,
            advice: StopAdvice {
                stop: false,
                reason: None,
            },
        }
    }
}
