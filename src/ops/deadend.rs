//! The dead-end registry around a run: is its hypothesis a known dead end,
//! and promoting a deterministic refutation to one.

use std::path::Path;

use anyhow::Result;

use crate::io::state::{dead_ends, Appended};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::kernel::promote::{build_dead_end_record, DeadEndRecord};
use crate::kernel::verdict::Verdict;

/// The dead end recorded under `approach_hash`, if any.
pub fn known(state: &Path, approach_hash: &str, warn: Warn) -> Result<Option<DeadEndRecord>> {
    Ok(dead_ends(state, warn)
        .read()?
        .into_iter()
        .find(|r| r.approach_hash == approach_hash))
}

/// What `--promote` did with a run.
#[derive(Debug)]
pub enum Promotion {
    /// The run has no hypothesis to promote.
    NoHypothesis,
    /// The run has no verdict (no spec): nothing to promote, nothing to say.
    NoVerdict,
    /// Refuted, but not deterministically: it may not become a dead end.
    NotDeterministic,
    /// Not refuted: nothing to promote.
    NotRefuted,
    Added(DeadEndRecord),
    /// Already a dead end.
    Existing(DeadEndRecord),
}

/// Record a deterministic refutation of the run's hypothesis as a dead end
/// (at `iteration`, dated `now`), unless it is one already.
pub fn promote(
    state: &Path,
    record: &RunRecord,
    iteration: i64,
    now: String,
    warn: Warn,
) -> Result<Promotion> {
    let Some(statement) = &record.hypothesis else {
        return Ok(Promotion::NoHypothesis);
    };
    let Some(verdict) = &record.verdict else {
        return Ok(Promotion::NoVerdict);
    };
    let Some(dead) = build_dead_end_record(statement, iteration, verdict, Some(now)) else {
        return Ok(if verdict.verdict == Verdict::Refuted {
            Promotion::NotDeterministic
        } else {
            Promotion::NotRefuted
        });
    };
    let hash = dead.approach_hash.clone();
    let appended = dead_ends(state, warn).append_unless(dead, |existing| {
        existing.iter().find(|r| r.approach_hash == hash).cloned()
    })?;
    Ok(match appended {
        Appended::Added(r) => Promotion::Added(r),
        Appended::Existing(r) => Promotion::Existing(r),
    })
}
