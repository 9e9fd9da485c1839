//! The steps of `arx try`. A try is a [`TryRequest`] (what a front end
//! asks for: the flags, the global settings) made into an answer by
//! [`attempt`]: the gate, the working tree's lock, the recovery of an
//! interrupted step, the lane's take-up of the best, the baseline when the
//! segment has none, then one candidate measured to its decision
//! ([`try_candidate`]) — screened, measured (the best measured again on
//! its slot when needed), then kept as a compare-and-swap of the best,
//! discarded, or replayed onto a best another lane kept meanwhile.
//!
//! - `request.rs`: the request, its dry run ([`plan`]) and what a try
//!   starts from;
//! - `attempt.rs`: the try from the request to its answer;
//! - `candidate.rs`: one candidate, as its named steps; `measure.rs`: its
//!   runs to a decision; `guard.rs`: the guard metrics' veto;
//!   `holdout.rs`: the held-out check before a keep (and at the
//!   baseline); `end.rs`: the ends (keep, discard, crash, …);
//!   `replay.rs`: a candidate whose best moved;
//! - `best.rs`: runs of the best (baseline, remeasure); `tree.rs`: the
//!   steps that change the tree and the best (set aside, discard, keep);
//!   `recover.rs`: finishing what a crash cut off; `runner.rs`: the runs, the checks, the [`Host`].
//!
//! Nothing here prints: what happened comes back as values, progress goes
//! to the front end's [`Host`].

use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::io::process::RunOutcome;
use crate::kernel::instances::{InstanceRuns, Scores};
use crate::kernel::journal::RunRecord;
use crate::kernel::objective::Objective;
use crate::kernel::outcome::Judgement;
use crate::kernel::ratchet::{estimate, segment_noise, Rule};
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};
use crate::kernel::segment::{Measured, Segment};
use crate::kernel::stats::summarize;
use crate::ops::attempts;

mod already;
mod attempt;
mod batch;
mod batch_bisect;
mod batch_lease;
mod best;
mod candidate;
mod confirm;
mod confirm_sync;
mod end;
mod fleet;
mod fleet_sync;
mod guard;
pub mod holdout;
mod idea;
mod measure;
pub mod recover;
mod refuse;
mod replay;
mod request;
mod runner;
pub mod takeup;
mod tree;

pub use already::already_in_best;
pub use attempt::{attempt, Attempted};
pub use best::{baseline, remeasure, Baselined, Remeasured};
pub use candidate::{try_candidate, Against, TryEnv};
pub use confirm_sync::{lines as confirm_lines, Promoted, Tended};
pub use end::Done;
pub use fleet_sync::{pending_line, sync_now, PendingSynced};
pub use idea::Tested;
pub use replay::{replay_moved, stale, Carry, Replayed, Tried};
pub use request::{load, load_summary, plan, screened, Loaded, Plan, Planned, Summary, TryRequest};
pub use runner::{finding, run_checks, Host, Runner};
pub use tree::{
    discard, keep, measured, measuring, outside_scope_warning, own_files, protected_ignored,
    put_back, record_outputs, set_aside, Keep,
};

/// A commit id as people read it.
pub fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// A run id as people read it.
pub fn run_short(run_id: &str) -> &str {
    run_id
        .get(..crate::kernel::journal::SHORT_ID_LEN)
        .unwrap_or(run_id)
}

/// One line for a commit message: no line breaks (which could forge
/// trailer lines), trimmed.
pub fn subject(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The honest estimate of a measured commit: the mean of its samples and
/// its interval, with the segment's pooled noise.
#[derive(Debug, Clone, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub n: usize,
    /// The segment's noise (pooled sd of one run), when it has replicates.
    pub noise: Option<f64>,
}

pub fn estimate_of(m: &Measured, seg: &Segment, confidence: f64) -> Option<Estimate> {
    let groups: Vec<&[f64]> = seg.replicates.iter().map(Vec::as_slice).collect();
    let noise = segment_noise(&groups, &m.samples);
    let (value, interval) = estimate(&m.samples, noise, confidence)?;
    Some(Estimate {
        value,
        interval: (m.samples.len() > 1 || noise.is_some()).then_some(interval),
        n: m.samples.len(),
        noise: noise.map(|(sd, _)| sd),
    })
}

/// The ratchet part of a record, before the outcome is known.
pub fn info(
    objective: &Objective,
    status: TryStatus,
    kept: &str,
    rule: Rule,
    description: Option<String>,
) -> RatchetInfo {
    RatchetInfo {
        description,
        ..RatchetInfo::new(
            objective.segment_id(),
            status,
            objective.metric.clone(),
            objective.direction,
            rule.name().to_string(),
            kept.to_string(),
        )
    }
}

/// The record of runs' per-instance scores, one row per sample; `None`
/// when no run had any.
pub(crate) fn instance_runs(scores: &[Option<Scores>]) -> Option<InstanceRuns> {
    if scores.iter().all(Option::is_none) {
        return None;
    }
    let rows: Vec<Option<&Scores>> = scores.iter().map(Option::as_ref).collect();
    Some(InstanceRuns::of(&rows))
}

/// The journal record of the runs of one try.
pub fn record(
    runner: &Runner<'_>,
    run_id: String,
    start: jiff::Timestamp,
    elapsed: Duration,
    outcomes: &[RunOutcome],
    samples: Vec<f64>,
    mut info: RatchetInfo,
) -> Result<RunRecord> {
    if outcomes.iter().any(|o| o.seed.is_some()) {
        info.seeds = outcomes.iter().map(|o| o.seed).collect();
    }
    runner.tested.mark(&mut info);
    info.class.clone_from(&runner.class);
    let summary = if samples.len() > 1 {
        summarize(&samples)
    } else {
        None
    };
    Ok(RunRecord::builder(
        attempts::origin(
            run_id,
            start,
            elapsed,
            &runner.cwd,
            Some(runner.git.clone()),
        ),
        runner.spec.argv.clone(),
        runner.spec.shell,
        outcomes,
        outcomes.len() > 1,
    )
    .judgement(Judgement {
        samples: if samples.len() > 1 {
            samples
        } else {
            Vec::new()
        },
        summary,
        ..Judgement::default()
    })
    .ratchet(info)
    .build())
}
