//! `arx fleet sync` with a keep held while the remote did not answer: the
//! sync pushes it as the compare-and-swap it was (from the best it was
//! measured against), or, when another machine kept meanwhile, marks it
//! overtaken and replays its change onto the fleet's best as work for the
//! next try, as the next `arx try` would.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::confirm_sync::Tended;
use super::fleet::{clear_pending, overtaken, read_pending, BEFORE_SYNC_REF};
use crate::io::fleet::Push;
use crate::io::git::ratchet::{RatchetRepo, Replay};
use crate::io::Warn;
use crate::ops::fleet::{Fleet, Synced};

/// What a sync did with the keep held here.
#[derive(Debug, Clone, Serialize)]
pub struct PendingSynced {
    /// The keep's commit and its run.
    pub commit: String,
    pub run_id: String,
    /// `pushed` (now the fleet's best), `replayed` (another machine kept
    /// first: its change is work on the fleet's best, its record `stale`),
    /// `held` (the remote did not answer, or a try runs here and settles
    /// it).
    pub outcome: &'static str,
    /// With `replayed`: files where its change and the fleet's best
    /// conflict (the working tree was left as it was).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
}

/// Sync now (fetch, merge, publish); act on the keeps waiting for other
/// classes (`confirm_sync`); then push the keep held here if there is
/// one, or replay it onto the fleet's best when another machine kept
/// first. `root`: the working tree to replay in.
pub fn sync_now(
    fleet: &Fleet,
    root: &Path,
    state: &Path,
    now: &str,
    warn: Warn,
) -> Result<(Synced, Tended, Option<PendingSynced>)> {
    let pending = read_pending(state)?;
    let ids = pending
        .as_ref()
        .map(|p| (p.commit.as_str(), p.run_id.as_str()));
    let mut synced = fleet.sync(None, ids, now)?;
    let mut tended = Tended::default();
    if synced.unreachable.is_none() {
        tended = super::confirm_sync::tend(fleet, state, now, true, warn)?;
        if tended.promoted.is_some() {
            synced.best = fleet.best();
        }
        // The record it completed goes to the remote now.
        if tended.completed.is_some() {
            let again = fleet.sync(None, ids, now)?;
            synced.published = again.published;
        }
    }
    let (synced, pending) = sync_pending(fleet, (root, state), now, warn, (synced, pending))?;
    Ok((synced, tended, pending))
}

/// The keep held here while the remote did not answer, after a sync:
/// pushed, replayed, or still held.
fn sync_pending(
    fleet: &Fleet,
    (root, state): (&Path, &Path),
    now: &str,
    warn: Warn,
    (synced, pending): (Synced, Option<super::fleet::PendingKeep>),
) -> Result<(Synced, Option<PendingSynced>)> {
    let Some(p) = pending else {
        return Ok((synced, None));
    };
    let mut answer = PendingSynced {
        commit: p.commit.clone(),
        run_id: p.run_id.clone(),
        outcome: "held",
        conflicts: Vec::new(),
    };
    // A try running here settles it at its own start; the remote away, it
    // waits.
    if synced.unreachable.is_some() || !crate::io::ratchet::running_tries(state).is_empty() {
        return Ok((synced, Some(answer)));
    }
    let _lock = crate::io::ratchet::lock_keep(state)?;
    let repo = RatchetRepo::open(root, state)?;
    let journal = crate::io::state::journal(state, warn).read()?;
    let Some(rec) = journal.iter().find(|r| r.run_id == p.run_id) else {
        clear_pending(state)?;
        return Ok((synced, None));
    };
    match fleet.push_keep(&p.kept, &p.commit, rec, now)? {
        Push::Landed => {
            clear_pending(state)?;
            answer.outcome = "pushed";
            let best = fleet.best();
            Ok((Synced { best, ..synced }, Some(answer)))
        }
        Push::Lost(_) => {
            overtaken((&repo, fleet), state, &p, warn)?;
            clear_pending(state)?;
            answer.outcome = "replayed";
            answer.conflicts = replay(fleet, &repo)?;
            // Its record, `stale` now, goes with this machine's chain.
            let synced = fleet.sync(None, None, now)?;
            Ok((synced, Some(answer)))
        }
        Push::Unreachable(_) => Ok((synced, Some(answer))),
    }
}

/// The working tree's work (the overtaken keep among it) replayed onto the
/// fleet's best; the files that conflict, when it could not be (nothing
/// changed then).
fn replay(fleet: &Fleet, repo: &RatchetRepo) -> Result<Vec<String>> {
    let Some(best) = fleet.best() else {
        return Ok(Vec::new());
    };
    if repo.contains(&best) {
        return Ok(Vec::new());
    }
    match repo.replay_onto(&best, BEFORE_SYNC_REF)? {
        Replay::Conflicts(paths) => Ok(paths),
        _ => Ok(Vec::new()),
    }
}

/// What `arx status` and `arx report` say of a keep held here while the
/// fleet's remote did not answer, if there is one.
pub fn pending_line(state: &Path) -> Option<String> {
    let p = read_pending(state).ok().flatten()?;
    Some(format!(
        "the keep {} (run {}) is pending: the fleet's remote did not answer when it was made; \
         the next arx try or arx fleet sync pushes it (or replays it, if another machine kept first)",
        super::short(&p.commit),
        super::run_short(&p.run_id)
    ))
}
