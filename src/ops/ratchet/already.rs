//! A lane's candidate that a replay onto a newer best left with no change:
//! the best holds it already (another lane made the same change and kept
//! it). It is journaled as `already_in_best` and the try exits 1: not run
//! (again), no finding (nothing was shown of the idea), nothing to set
//! aside (the lane is at the best).

use std::time::Duration;

use anyhow::Result;

use super::candidate::TryEnv;
use super::{info, record, short, subject, Carry, Done};
use crate::error::Exit;
use crate::kernel::ratchet_record::TryStatus;
use crate::ops::attempts;
use crate::ops::lanes::LaneCtx;

/// Journal the try of lane `lane` whose candidate the best `best` already
/// holds. `carry` is the try so far when it was measured against an older
/// best before its replay (its runs are kept in the record; none is made).
pub fn already_in_best(
    env: &TryEnv<'_, '_>,
    best: &str,
    carry: Option<Carry>,
    lane: Option<&LaneCtx>,
) -> Result<Done> {
    let runner = env.runner;
    let description = runner.description.as_deref().map(subject);
    let mut i = info(
        runner.objective,
        TryStatus::AlreadyInBest,
        best,
        env.rule,
        description,
    );
    i.lane = lane.map(|l| l.name.clone());
    i.commit = Some(best.to_string());
    let (run_id, start, elapsed, outcomes) = match carry {
        Some(c) => {
            i.replayed_from = c.replayed_from;
            (c.run_id, c.start, c.wall.elapsed(), c.outcomes)
        }
        None => (
            attempts::new_run_id(),
            runner.start()?,
            Duration::ZERO,
            Vec::new(),
        ),
    };
    let rec = record(runner, run_id, start, elapsed, &outcomes, Vec::new(), i)?;
    crate::ops::journal::record_run(env.state, &rec, runner.warn)?;
    Ok(Done {
        exit: Exit::No,
        record: rec,
        notes: vec![format!(
            "the {}'s work as it was is under {}",
            if lane.is_some() { "lane" } else { "machine" },
            super::replay::work_ref(lane)
        )],
        line: format!(
            "already in the best: {} kept {} with this change \u{2192} nothing to run, {} at the best",
            super::replay::another(env),
            short(best),
            if lane.is_some() { "lane" } else { "working tree" }
        ),
        interrupted: false,
        inconclusive: false,
    })
}
