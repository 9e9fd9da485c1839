//! The fleet as steps of a try: a sync at its start (the other machines'
//! records merged in, this machine's card saying what it tries) and the
//! take-up of the fleet's best, the keep's compare-and-swap push (a lost
//! race hands the try back to be replayed, as another lane's keep does; an
//! unreachable remote leaves the keep here, pending, pushed by a later
//! sync), and a sync at its end. The fleet's own steps are `ops::fleet`.

use std::path::Path;

use anyhow::Result;

use super::short;
use super::Host;
use crate::error::Hinted;
use crate::io::fleet::Push;
use crate::io::git::ratchet::{RatchetRepo, Replay};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::ops::fleet::{Claimed, Fleet};

/// Where a machine's work is kept while it is replayed onto the fleet's
/// best.
pub const BEFORE_SYNC_REF: &str = "refs/arx/fleet/before-sync";

/// The file that holds a keep made while the remote did not answer.
const PENDING_FILE: &str = "fleet-pending.json";

/// A keep the fleet does not have yet: pushed (from `kept` to `commit`)
/// when the remote answers.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct PendingKeep {
    pub kept: String,
    pub commit: String,
    pub run_id: String,
}

/// The fleet of this working tree, when `[fleet]` names one.
pub fn open(
    config: &crate::io::config::Config,
    repo: &RatchetRepo,
    state: &Path,
    warn: Warn,
) -> Result<Option<Fleet>> {
    crate::ops::fleet::resolve(config, repo.workdir(), state, warn)
}

/// Sync before a try (what it tests on this machine's card), push a keep
/// held while the remote did not answer, and take up the fleet's best:
/// the working tree's work replayed onto it. True when the journal
/// changed (records of other machines came in).
pub fn start(
    fleet: &Fleet,
    repo: &RatchetRepo,
    state: &Path,
    trying: Option<&str>,
    (host, warn): (&dyn Host, Warn),
) -> Result<bool> {
    let now = crate::io::clock::now(None)?;
    let pending = read_pending(state)?;
    let synced = fleet.sync(
        trying,
        pending
            .as_ref()
            .map(|p| (p.commit.as_str(), p.run_id.as_str())),
        &now,
    )?;
    if let Some(why) = &synced.unreachable {
        host.warn(&format!(
            "the fleet's remote {} did not answer ({why}): trying here; a keep is held until it answers",
            fleet.door.remote
        ));
        return Ok(false);
    }
    let mut changed = synced.merged_in > 0 || pending.is_some();
    if let Some(p) = pending {
        push_pending((fleet, repo), state, &p, (host, warn))?;
    }
    // The keeps waiting for other classes: a failure here is no reason
    // not to try.
    match super::confirm_sync::tend(fleet, state, &now, true, warn) {
        Ok(tended) => {
            changed |= tended.promoted.is_some() || tended.completed.is_some();
            for line in super::confirm_sync::lines(&tended) {
                host.say(&line);
            }
        }
        Err(e) => host.warn(&format!(
            "cannot settle the keeps waiting for other classes: {e:#}"
        )),
    }
    let Some(best) = fleet.best() else {
        return Ok(changed);
    };
    match crate::ops::lanes::context(repo)? {
        // A lane takes up the journal's best itself: the machine's best
        // branch follows the fleet's first.
        Some(lane) => {
            let _lock = crate::io::ratchet::lock_keep(state)?;
            for line in catch_up(repo, &lane, state, &best)? {
                host.say(&line);
            }
        }
        None => take_up(repo, &best, host)?,
    }
    super::confirm::take_up_pending(fleet, repo, state, (host, warn))?;
    Ok(changed)
}

/// In a lane of a fleet's machine: the machine's best branch (the one its
/// lanes keep on) and its main working tree brought to `best`, the fleet's
/// best whose records the journal holds, when the branch is behind it (a
/// fast-forward: the branch is one of its ancestors). What to tell. Under
/// the keep lock, which the caller holds.
pub(super) fn catch_up(
    repo: &RatchetRepo,
    lane: &crate::ops::lanes::LaneCtx,
    state: &Path,
    best: &str,
) -> Result<Vec<String>> {
    let Some(tip) = repo.branch_tip(&lane.best_ref).map(|o| o.to_string()) else {
        return Ok(Vec::new());
    };
    if tip == best || !repo.is_ancestor(&tip, best) {
        return Ok(Vec::new());
    }
    let main = lane.main_tree(state, &tip);
    if !repo.advance_branch(&lane.best_ref, &tip, best)? {
        return Ok(Vec::new());
    }
    let (mut notes, warning) = super::tree::follow_in_main(lane, state, main.as_ref(), &tip, best);
    notes.retain(|n| !n.starts_with("the main working tree is not at the best"));
    notes.insert(
        0,
        format!(
            "{} follows the fleet's best {}",
            lane.best_ref.trim_start_matches("refs/heads/"),
            short(best)
        ),
    );
    notes.extend(warning);
    Ok(notes)
}

/// Claim the idea a try tests fleet-wide (or renew this machine's claim,
/// made by `arx next`), held while the try runs and released at its end.
/// An idea another machine holds is refused; with the remote away the try
/// goes on unclaimed.
pub fn claim<'a>(
    fleet: Option<&'a Fleet>,
    idea: Option<&str>,
    now: Option<&str>,
    host: &dyn Host,
) -> Result<Option<crate::ops::fleet::Holding<'a>>> {
    let (Some(fleet), Some(idea)) = (fleet, idea) else {
        return Ok(None);
    };
    let clock = crate::io::clock::Ticking::start(now)?;
    match fleet.claim(idea, &clock.now()?)? {
        Claimed::Held { commit, .. } => Ok(Some(fleet.hold(idea, commit, clock))),
        Claimed::Taken { by, until } => Err(Hinted::error(
            format!("idea {idea} is being tried by machine {by} (its lease holds until {until})"),
            "pick another with `arx next`; a dead machine's claim is free once its lease expires",
        )),
        Claimed::Unreachable(why) => {
            host.warn(&format!(
                "the fleet's remote did not answer ({why}): idea {idea} is tried here unclaimed"
            ));
            Ok(None)
        }
    }
}

/// Syncs when dropped: at a try's end, however it ends; then releases the
/// try's claim on its idea, if it holds one, so that the idea's record is
/// on the remote before its claim goes.
pub struct EndSync<'a> {
    fleet: &'a Fleet,
    state: std::path::PathBuf,
    host: &'a dyn Host,
    claim: Option<crate::ops::fleet::Holding<'a>>,
}

impl<'a> EndSync<'a> {
    pub fn new(fleet: &'a Fleet, state: &Path, host: &'a dyn Host) -> EndSync<'a> {
        EndSync {
            fleet,
            state: state.to_path_buf(),
            host,
            claim: None,
        }
    }

    /// Hold the try's claim until after the end's sync.
    pub fn hold(&mut self, claim: Option<crate::ops::fleet::Holding<'a>>) {
        self.claim = claim;
    }
}

impl Drop for EndSync<'_> {
    fn drop(&mut self) {
        finish(self.fleet, &self.state, self.host);
        drop(self.claim.take());
    }
}

/// Sync after a try: its records on the remote, the card idle. A remote
/// that does not answer is a warning.
pub fn finish(fleet: &Fleet, state: &Path, host: &dyn Host) {
    if let Err(e) = super::confirm::tag_verdict(fleet, state, |_| {}) {
        host.warn(&format!(
            "cannot mark the try as a verdict on a pending keep: {e:#}"
        ));
    }
    let pending = read_pending(state).ok().flatten();
    let now = crate::io::clock::now(None).unwrap_or_default();
    match fleet.sync(
        None,
        pending
            .as_ref()
            .map(|p| (p.commit.as_str(), p.run_id.as_str())),
        &now,
    ) {
        Ok(s) if s.unreachable.is_none() => {
            match super::confirm_sync::tend(fleet, state, &now, false, |_| {}) {
                Ok(t) => super::confirm_sync::lines(&t)
                    .iter()
                    .for_each(|l| host.say(l)),
                Err(e) => host.warn(&format!(
                    "cannot settle the keeps waiting for other classes: {e:#}"
                )),
            }
        }
        Ok(s) => host.warn(&format!(
            "the fleet's remote {} did not answer ({}): this try's records go with the next sync",
            fleet.door.remote,
            s.unreachable.unwrap_or_default()
        )),
        Err(e) => host.warn(&format!("the fleet's sync failed: {e:#}")),
    }
}

/// The working tree on the fleet's best: its work (commits and changes)
/// replayed onto it when the branch does not hold it yet.
fn take_up(repo: &RatchetRepo, best: &str, host: &dyn Host) -> Result<()> {
    if repo.contains(best) {
        return Ok(());
    }
    match repo.replay_onto(best, BEFORE_SYNC_REF)? {
        Replay::Already => Ok(()),
        Replay::Replayed { .. } => {
            host.say(&format!(
                "took up the fleet's best {} (the work as it was is under {BEFORE_SYNC_REF})",
                short(best)
            ));
            Ok(())
        }
        Replay::Conflicts(paths) => Err(Hinted::error(
            format!(
                "the work here conflicts with the fleet's best {} in {}; nothing was changed",
                short(best),
                paths.join(", ")
            ),
            "drop or commit the conflicting change elsewhere, then arx try again",
        )),
    }
}

/// What a keep's push came to, for the keep.
pub enum Pushed {
    /// On the remote: the fleet's best.
    Landed,
    /// Another machine kept first: the fleet's best is now `best`.
    Lost { best: String },
    /// The remote did not answer: kept here, pending.
    Held { why: String },
}

/// Push a keep (the best from `kept` to `commit`, with its record) as a
/// compare-and-swap. A lost race syncs (the winner's record comes in with
/// its best).
pub fn push_keep(
    fleet: &Fleet,
    (kept, commit): (&str, &str),
    rec: &RunRecord,
    also: &[crate::io::fleet::Update<'_>],
    host: &dyn Host,
) -> Result<Pushed> {
    let now = crate::io::clock::now(None)?;
    match fleet.push_keep_with(kept, commit, rec, &now, also)? {
        Push::Landed => Ok(Pushed::Landed),
        Push::Lost(_) => {
            let synced = fleet.sync(None, None, &now)?;
            match (synced.unreachable, fleet.best()) {
                (None, Some(best)) if best != kept => Ok(Pushed::Lost { best }),
                // A batch whose queue moved (a keep taken out, the lead
                // taken over): nothing landed, and it is not held either.
                (None, Some(best)) if !also.is_empty() => Ok(Pushed::Lost { best }),
                (why, _) => Ok(Pushed::Held {
                    why: why.unwrap_or_else(|| "the remote refused the push".into()),
                }),
            }
        }
        Push::Unreachable(why) => {
            host.warn(&format!(
                "the fleet's remote {} did not answer ({why}): the keep is held here, pushed when it answers",
                fleet.door.remote
            ));
            Ok(Pushed::Held { why })
        }
    }
}

/// Remember a keep the remote did not take yet.
pub fn hold(state: &Path, pending: &PendingKeep) -> Result<()> {
    crate::io::marker::write(&state.join(PENDING_FILE), pending)
}

pub(super) fn read_pending(state: &Path) -> Result<Option<PendingKeep>> {
    crate::io::marker::read(&state.join(PENDING_FILE))
}

pub(super) fn clear_pending(state: &Path) -> Result<()> {
    crate::io::marker::clear(&state.join(PENDING_FILE))
}

/// A keep held while the remote did not answer, pushed now. When the
/// fleet's best moved meanwhile, it stays this machine's (the working
/// tree is taken up onto the fleet's best next, its keep replayed as
/// work) and the report says so.
fn push_pending(
    (fleet, repo): (&Fleet, &RatchetRepo),
    state: &Path,
    p: &PendingKeep,
    (host, warn): (&dyn Host, Warn),
) -> Result<()> {
    let journal = crate::io::state::journal(state, warn).read()?;
    let Some(rec) = journal.iter().find(|r| r.run_id == p.run_id) else {
        return clear_pending(state);
    };
    let now = crate::io::clock::now(None)?;
    match fleet.push_keep(&p.kept, &p.commit, rec, &now)? {
        Push::Landed => {
            host.say(&format!(
                "pushed the keep {} held while the fleet's remote did not answer",
                short(&p.commit)
            ));
            clear_pending(state)
        }
        Push::Lost(_) => {
            host.warn(&format!(
                "the keep {} made while the remote did not answer was overtaken by another machine's keep: \
                 its change is replayed onto the fleet's best as this try's work",
                short(&p.commit)
            ));
            overtaken((repo, fleet), state, p, warn)?;
            clear_pending(state)
        }
        Push::Unreachable(_) => Ok(()),
    }
}

/// Before recovery: a keep a crash cut off after its intent was written
/// is settled with the remote first. Landed there (the remote's best is
/// its commit or holds it), or pushed now (the remote's best is still the
/// one it was measured against), recovery completes it; overtaken by
/// another machine's keep, it is rolled back (its commit held under
/// `refs/arx/discarded/<run>`, the working tree keeps the candidate). With
/// the remote unreachable, recovery completes it here and it is pending.
pub fn settle_intent(fleet: &Fleet, repo: &RatchetRepo, state: &Path) -> Result<Vec<String>> {
    if crate::io::ratchet::read_keep(state)?.is_none() {
        return Ok(Vec::new());
    }
    let _lock = crate::io::ratchet::lock_keep(state)?;
    // Read again under the lock: what was there may have been another
    // lane's keep in progress, finished (or rolled back) meanwhile.
    let Some(intent) = crate::io::ratchet::read_keep(state)? else {
        return Ok(Vec::new());
    };
    let run = super::run_short(&intent.record.run_id).to_string();
    let pending = || {
        hold(
            state,
            &PendingKeep {
                kept: intent.kept.clone(),
                commit: intent.commit.clone(),
                run_id: intent.record.run_id.clone(),
            },
        )
    };
    if let Err(why) = fleet.door.fetch()? {
        pending()?;
        return Ok(vec![format!(
            "the fleet's remote did not answer ({why}): the interrupted keep of run {run} is pending"
        )]);
    }
    let best = fleet.best();
    let landed = best
        .as_deref()
        .is_some_and(|b| b == intent.commit || repo.is_ancestor(&intent.commit, b));
    if landed {
        return Ok(Vec::new());
    }
    if best.as_deref() == Some(intent.kept.as_str()) {
        let now = crate::io::clock::now(None)?;
        match fleet.push_keep(&intent.kept, &intent.commit, &intent.record, &now)? {
            Push::Landed => return Ok(Vec::new()),
            Push::Unreachable(why) => {
                pending()?;
                return Ok(vec![format!(
                    "the fleet's remote did not answer ({why}): the interrupted keep of run {run} is pending"
                )]);
            }
            Push::Lost(_) => {}
        }
    }
    let refname = format!("refs/arx/discarded/{}", intent.record.run_id);
    repo.hold_under(&refname, &intent.commit)?;
    crate::io::ratchet::clear_keep(state)?;
    Ok(vec![format!(
        "rolled back an interrupted keep of run {run}: another machine's keep {} came first on the fleet's remote; \
         its commit is under {refname}, the candidate is still in the working tree",
        fleet.best().as_deref().map_or("-", short)
    )])
}

/// A pending keep another machine's keep overtook: its record (never
/// published) says `stale`, so the best here is the fleet's again and its
/// change is work to replay onto it.
pub(super) fn overtaken(
    (repo, fleet): (&RatchetRepo, &Fleet),
    state: &Path,
    p: &PendingKeep,
    warn: Warn,
) -> Result<()> {
    roll_back_lanes_best(repo, fleet, state, p)?;
    let journal = crate::io::state::journal(state, warn);
    journal.rewrite(|loaded| {
        let mut records = loaded.records.clone();
        for r in records.iter_mut().filter(|r| r.run_id == p.run_id) {
            if let Some(i) = r.ratchet.as_mut() {
                i.status = crate::kernel::ratchet_record::TryStatus::Stale;
                i.commit = None;
            }
        }
        Some(records)
    })?;
    Ok(())
}

/// A pending keep made in a lane, overtaken: the branch the lanes keep on
/// goes back from it to the best it was measured against (its commit held
/// under `refs/arx/discarded/<run>`; the lane that made it carries its
/// change as work), and the main working tree with it, so that the branch
/// follows the fleet's best again. A working tree on that branch itself
/// is taken up whole instead (its keep replayed as its work).
fn roll_back_lanes_best(
    repo: &RatchetRepo,
    fleet: &Fleet,
    state: &Path,
    p: &PendingKeep,
) -> Result<()> {
    let best_ref = format!("refs/heads/{}", fleet.door.branch);
    let at_keep = repo.branch_tip(&best_ref).map(|o| o.to_string()) == Some(p.commit.clone());
    let lanes = crate::io::git::lane::Lanes::open(repo.workdir())?;
    if !at_keep || (repo.branch_ref() == best_ref && lanes.list()?.is_empty()) {
        return Ok(());
    }
    repo.hold_under(&format!("refs/arx/discarded/{}", p.run_id), &p.commit)?;
    if lanes.main_branch().as_deref() == Some(fleet.door.branch.as_str()) {
        RatchetRepo::open(&lanes.root, state)?.follow_keep(&p.commit, &p.kept)?;
    }
    repo.advance_branch(&best_ref, &p.commit, &p.kept)?;
    Ok(())
}
