//! `[fleet] confirm_classes = N` at a sync (`arx fleet sync`, and a try's
//! start and end): what the records say of the keeps waiting for other
//! classes, acted on, with no run of an experiment.
//!
//! - A keep made here whose push of `refs/arx/fleet/pending/<run>` failed
//!   (the remote away) is pushed again, until it lands: other classes
//!   cannot measure it before.
//! - A keep that machines of N classes have each found better, while the
//!   fleet's best is still the one it was kept over (their verdicts came
//!   at once, each short of N), is made the fleet's best by
//!   compare-and-swap: its commit (the keeping machine's, or the commit of
//!   this machine's verdict that found it better), its record no longer
//!   pending. Not at a try's end: the next sync or try does it.
//! - The ref of a keep that is settled (the best, overtaken or refuted)
//!   is deleted from the remote, by a push that names the value it
//!   expects.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::io::fleet::{pending_ref, Push, Update};
use crate::io::Warn;
use crate::kernel::fleet_confirm::{from_records, standing, Pending, Standing, Verdict};
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet_record::TryStatus;
use crate::ops::fleet::Fleet;

/// What a sync did with the keeps waiting for other classes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tended {
    /// Run ids of keeps made here whose ref reached the remote now (its
    /// push at the keep had failed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pushed: Vec<String>,
    /// A keep N classes found better, made the fleet's best now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted: Option<Promoted>,
    /// Run ids of settled keeps whose ref was deleted from the remote.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pruned: Vec<String>,
    /// The run of a keep a sync killed after its push made the fleet's
    /// best, its record here now saying so (published by the next sync).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed: Option<String>,
}

impl Tended {
    pub fn is_empty(&self) -> bool {
        self.pushed.is_empty()
            && self.promoted.is_none()
            && self.pruned.is_empty()
            && self.completed.is_none()
    }
}

/// A confirmed keep made the fleet's best by a sync.
#[derive(Debug, Clone, Serialize)]
pub struct Promoted {
    /// The pending keep's run id.
    pub run: String,
    /// The record that now tells the keep (the pending keep's own, or
    /// this machine's verdict on it).
    pub record: String,
    /// The fleet's best now, and the one it was kept over.
    pub commit: String,
    pub kept: String,
    /// The classes that found it better.
    pub classes: Vec<String>,
}

/// Act on the keeps waiting for other classes, after a sync that reached
/// the remote; `promote`: also make a confirmed keep the fleet's best.
pub fn tend(fleet: &Fleet, state: &Path, now: &str, promote: bool, warn: Warn) -> Result<Tended> {
    let mut done = Tended::default();
    let n = fleet.confirm_classes.unwrap_or(1);
    if n <= 1 {
        return Ok(done);
    }
    let records = crate::io::state::journal(state, warn).read()?;
    let (pending, verdicts) = from_records(&records);
    done.pushed = push_unsent(fleet, &pending, &verdicts, n)?;
    if promote {
        let _lock = crate::io::ratchet::lock_keep(state)?;
        // Read again under the lock: a keep of a lane may have landed.
        let records = crate::io::state::journal(state, warn).read()?;
        done.completed = complete_cut_off(fleet, state, &records, warn)?;
        if done.completed.is_none() {
            done.promoted = promote_confirmed(fleet, state, &records, now, warn)?;
        }
    }
    let records = crate::io::state::journal(state, warn).read()?;
    done.pruned = prune_settled(fleet, &records, n)?;
    Ok(done)
}

/// A local commit a keep was set aside at (`refs/arx/discarded/<run>`):
/// only the machine that made it has it.
fn set_aside(fleet: &Fleet, run: &str) -> Option<String> {
    fleet.door.resolve(&format!("refs/arx/discarded/{run}"))
}

/// The keeps still waiting, made here, that the remote does not have:
/// pushed now (a ref only created where it is absent). Their run ids.
fn push_unsent(
    fleet: &Fleet,
    pending: &[Pending],
    verdicts: &[Verdict],
    n: u32,
) -> Result<Vec<String>> {
    let best = fleet.best();
    let mut pushed = Vec::new();
    for p in pending {
        let waiting = matches!(
            standing(p, verdicts, best.as_deref(), n),
            Standing::Waiting { .. }
        );
        if !waiting || fleet.door.fetched_pending(&p.commit).is_some() {
            continue;
        }
        let Some(commit) = set_aside(fleet, &p.commit) else {
            continue;
        };
        let update = Update {
            commit: &commit,
            refname: pending_ref(&p.commit),
            expected: None,
        };
        match fleet.door.push(&[update])? {
            Push::Landed => {
                fleet.door.pending_moved(&p.commit, Some(&commit))?;
                pushed.push(p.commit.clone());
            }
            // Another clone of this machine pushed it meanwhile.
            Push::Lost(_) => {}
            Push::Unreachable(_) => break,
        }
    }
    Ok(pushed)
}

/// The oldest keep N classes found better, kept over the fleet's best,
/// made the fleet's best: by the record of it this machine holds (its
/// own keep, or its verdict that found it better), no longer pending, and
/// pushed with the best as one compare-and-swap. Journaled here once the
/// push landed.
fn promote_confirmed(
    fleet: &Fleet,
    state: &Path,
    records: &[RunRecord],
    now: &str,
    warn: Warn,
) -> Result<Option<Promoted>> {
    let n = fleet.confirm_classes.unwrap_or(1);
    let Some(best) = fleet.best() else {
        return Ok(None);
    };
    let (mut pending, verdicts) = from_records(records);
    pending.sort_by(|a, b| (&a.at, &a.commit).cmp(&(&b.at, &b.commit)));
    for p in &pending {
        let Standing::Confirmed { classes } = standing(p, &verdicts, Some(&best), n) else {
            continue;
        };
        let Some((rec, commit)) = record_here(fleet, records, &p.commit, &best) else {
            continue;
        };
        let mut rec = rec.clone();
        if let Some(i) = rec.ratchet.as_mut() {
            i.fleet_pending = false;
            i.commit = Some(commit.clone());
            i.discarded_ref = None;
        }
        if fleet.push_keep(&best, &commit, &rec, now)? != Push::Landed {
            return Ok(None);
        }
        crate::io::failpoint::hit(crate::io::failpoint::CONFIRM_AFTER_PUSH);
        landed_here(state, &rec.run_id, &commit, warn)?;
        return Ok(Some(Promoted {
            run: p.commit.clone(),
            record: rec.run_id.clone(),
            commit,
            kept: best,
            classes,
        }));
    }
    Ok(None)
}

/// A promotion cut off after its push: the fleet's best is the commit of
/// a record here still marked pending. Its record says so now; its run.
fn complete_cut_off(
    fleet: &Fleet,
    state: &Path,
    records: &[RunRecord],
    warn: Warn,
) -> Result<Option<String>> {
    let Some(best) = fleet.best() else {
        return Ok(None);
    };
    let Some(r) = records.iter().find(|r| {
        r.ratchet.as_ref().is_some_and(|i| i.fleet_pending)
            && set_aside(fleet, &r.run_id).as_deref() == Some(best.as_str())
    }) else {
        return Ok(None);
    };
    landed_here(state, &r.run_id, &best, warn)?;
    Ok(Some(r.run_id.clone()))
}

/// The record `run` here, a keep marked pending whose commit the fleet's
/// best now is: no longer pending, its commit named.
fn landed_here(state: &Path, run: &str, commit: &str, warn: Warn) -> Result<()> {
    crate::io::state::journal(state, warn).rewrite(|loaded| {
        let mut all = loaded.records.clone();
        let i = all.iter_mut().find(|r| r.run_id == run)?.ratchet.as_mut()?;
        i.fleet_pending = false;
        i.commit = Some(commit.to_string());
        i.discarded_ref = None;
        Some(all)
    })?;
    Ok(())
}

/// The record of keep `run` this machine can land: the keep itself, or a
/// verdict on it that found it better, whose commit was set aside here
/// with the fleet's best as its parent.
fn record_here<'a>(
    fleet: &Fleet,
    records: &'a [RunRecord],
    run: &str,
    best: &str,
) -> Option<(&'a RunRecord, String)> {
    let keeps = records.iter().filter(|r| {
        r.ratchet.as_ref().is_some_and(|i| {
            i.status == TryStatus::Keep
                && i.fleet_pending
                && (r.run_id == run || i.confirms.as_deref() == Some(run))
        })
    });
    // The keep itself first, then the verdicts in the journal's order.
    let mut keeps: Vec<&RunRecord> = keeps.collect();
    keeps.sort_by_key(|r| r.run_id != run);
    keeps.into_iter().find_map(|r| {
        let commit = set_aside(fleet, &r.run_id)?;
        (fleet.door.parent_of(&commit).ok().flatten().as_deref() == Some(best))
            .then_some((r, commit))
    })
}

/// The refs of settled keeps (the best, overtaken, refuted, or no longer
/// pending) deleted from the remote, each only while it is where it was
/// fetched. A ref whose record this journal does not hold yet is left.
fn prune_settled(fleet: &Fleet, records: &[RunRecord], n: u32) -> Result<Vec<String>> {
    let best = fleet.best();
    let (pending, verdicts) = from_records(records);
    let mut pruned = Vec::new();
    for (run, commit) in fleet.door.fetched_pendings()? {
        let settled = match pending.iter().find(|p| p.commit == run) {
            Some(p) => !matches!(
                standing(p, &verdicts, best.as_deref(), n),
                Standing::Waiting { .. } | Standing::Confirmed { .. }
            ),
            None => records.iter().any(|r| r.run_id == run),
        };
        if !settled {
            continue;
        }
        match fleet.door.delete(&pending_ref(&run), &commit)? {
            Push::Landed => {
                fleet.door.pending_moved(&run, None)?;
                pruned.push(run);
            }
            Push::Lost(_) => {}
            Push::Unreachable(_) => break,
        }
    }
    Ok(pruned)
}

/// What a sync's work on the keeps waiting for classes says, a line each.
pub fn lines(t: &Tended) -> Vec<String> {
    let mut out = Vec::new();
    for run in &t.pushed {
        out.push(format!(
            "pushed the keep of run {} as {}: other classes can measure it now",
            super::run_short(run),
            pending_ref(run)
        ));
    }
    if let Some(p) = &t.promoted {
        out.push(format!(
            "the keep of run {} was found better by {} classes ({}): it is the fleet's best {} now",
            super::run_short(&p.run),
            p.classes.len(),
            crate::kernel::text::shown(&p.classes.join(", ")),
            super::short(&p.commit)
        ));
    }
    if let Some(run) = &t.completed {
        out.push(format!(
            "completed the keep of run {} a killed sync made the fleet's best: its record says so now",
            super::run_short(run)
        ));
    }
    if !t.pruned.is_empty() {
        out.push(format!(
            "removed {} settled pending keep(s) from the remote",
            t.pruned.len()
        ));
    }
    out
}
