//! What a try does to the working tree and the best, in the order that
//! loses nothing when arx dies between the steps: the candidate set aside
//! to measure the best (and put back), the discard sequence, the keep (a
//! compare-and-swap of the best in lanes), and the recovery of a discard
//! or a set-aside that a crash interrupted.

use std::path::Path;

use anyhow::Result;

use super::candidate::{Against, TryEnv};
use super::short;
use crate::error::Hinted;
use crate::io::git::ratchet::{Candidate, RatchetRepo, Restored};
use crate::io::ratchet::{Aside, KeepLock, Markers, Pending};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::ops::lanes::{LaneCtx, MainTree};

/// Set the candidate aside under the aside ref (a marker first, so that
/// the next `arx try` puts it back if arx dies) and restore `kept`, to
/// measure the best; `what` names why in the snapshot's message.
pub fn set_aside(repo: &RatchetRepo, state: &Path, kept: &str, what: &str) -> Result<()> {
    let markers = Markers::of(state, repo.workdir());
    let refname = markers.aside_ref.clone();
    markers.write_aside(&Aside {
        refname: refname.clone(),
        head: repo.head(),
    })?;
    repo.snapshot(&refname, &format!("arx: set aside for {what}"))?;
    repo.restore_to(kept)?;
    Ok(())
}

/// Put the candidate [`set_aside`] set aside back, and forget the marker.
pub fn put_back(repo: &RatchetRepo, state: &Path) -> Result<()> {
    let markers = Markers::of(state, repo.workdir());
    repo.put_back(&markers.aside_ref)?;
    repo.delete_ref(&markers.aside_ref)?;
    markers.clear_aside()
}

/// Discard a candidate: a marker naming the record first (so a crash
/// loses nothing: the next command finishes the job), the record
/// journaled, the candidate stored under `refs/arx/discarded/<run id>`,
/// the kept commit restored, the marker cleared. Returns the record as
/// journaled (with its `discarded_ref`) and what the restore did.
pub fn discard(
    repo: &RatchetRepo,
    state: &Path,
    kept: &str,
    mut rec: RunRecord,
    warn: Warn,
) -> Result<(RunRecord, Restored)> {
    let refname = format!("refs/arx/discarded/{}", rec.run_id);
    if let Some(info) = rec.ratchet.as_mut() {
        info.discarded_ref = Some(refname.clone());
    }
    let markers = Markers::of(state, repo.workdir());
    markers.write_pending(&Pending {
        kept: kept.to_string(),
        discarded_ref: refname.clone(),
        record: rec.clone(),
    })?;
    crate::ops::journal::record_run(state, &rec, warn)?;
    let (_, restored) = repo.discard(kept, &refname, &format!("arx: discarded {}", rec.run_id))?;
    markers.clear_pending()?;
    Ok((rec, restored))
}

/// What a keep came to.
pub enum Keep {
    /// Committed as `commit`; the keep lock is held until the record is
    /// journaled. `notes` for the report, `warning` for stderr.
    Kept {
        commit: String,
        lock: KeepLock,
        notes: Vec<String>,
        warning: Option<String>,
    },
    /// Another lane kept first: the best is now `best`.
    Moved { best: String },
}

/// Keep the candidate as one commit on `kept`. In a lane this is a
/// compare-and-swap of the best, under the repository's keep lock (`held`
/// when the try already holds it): the journal's best must still be
/// `kept`; then the keep commit advances the best's branch from `kept`,
/// and the main working tree on that branch follows it (around changes
/// of its own).
pub fn keep(
    env: &TryEnv<'_, '_>,
    at: &Against,
    message: &str,
    held: Option<KeepLock>,
) -> Result<Keep> {
    let (repo, state, kept, candidate) = (env.repo, env.state, at.kept.as_str(), &at.candidate);
    let lock = match held {
        Some(lock) => lock,
        None => crate::io::ratchet::lock_keep(state)?,
    };
    let Some(l) = env.lane else {
        let commit = repo.keep_candidate(candidate, message)?;
        return Ok(Keep::Kept {
            commit,
            lock,
            notes: Vec::new(),
            warning: None,
        });
    };
    let now_best = crate::ops::lanes::segment_best(state, Some(&at.segment.id), env.runner.warn)?;
    if now_best.as_deref() != Some(kept) {
        let Some(best) = now_best else {
            return Err(anyhow::anyhow!(
                "the journal no longer has a best for this segment"
            ));
        };
        return Ok(Keep::Moved { best });
    }
    let main = l.main_tree(state, kept);
    let commit = repo.keep_onto(candidate, kept, message)?;
    if !repo.advance_branch(&l.best_ref, kept, &commit)? {
        return Err(Hinted::error(
            format!(
                "{} is no longer at the best {}: it was moved outside arx",
                l.best_ref.trim_start_matches("refs/heads/"),
                short(kept)
            ),
            format!(
                "the keep is on the lane's branch ({}); put the best's branch back, then arx lane sync",
                short(&commit)
            ),
        ));
    }
    let (notes, warning) = follow_in_main(l, state, main.as_ref(), &commit, candidate);
    Ok(Keep::Kept {
        commit,
        lock,
        notes,
        warning,
    })
}

/// The main working tree on the best's branch follows a lane's keep
/// (around changes of its own): what to note, and a warning when it
/// could not.
fn follow_in_main(
    l: &LaneCtx,
    state: &Path,
    main: Option<&MainTree>,
    commit: &str,
    candidate: &Candidate,
) -> (Vec<String>, Option<String>) {
    let (mut notes, mut warning) = (Vec::new(), None);
    match main.map(|m| (m, m.changed.as_deref())) {
        Some((m, Some(_))) => match l.follow_in_main(state, m, commit, &candidate.paths) {
            Ok(both) if both.is_empty() => {}
            Ok(both) => notes.push(format!(
                "the main working tree has changes of its own in {}, which the keep changed too: \
                 left as they were (its branch is at {})",
                both.join(", "),
                short(commit)
            )),
            Err(e) => {
                warning = Some(format!(
                    "the main working tree did not follow the keep: {e:#}"
                ))
            }
        },
        Some((_, None)) => notes.push(format!(
            "the main working tree is not at the best: its branch moved to {} under it",
            short(commit)
        )),
        None => {}
    }
    (notes, warning)
}

/// Finish a discard that a crash interrupted (journaled, not yet
/// restored), and put back a candidate set aside for a baseline. Returns a
/// line for each thing done.
pub fn recover(
    repo: &RatchetRepo,
    state: &Path,
    records: &[RunRecord],
    warn: Warn,
) -> Result<Vec<String>> {
    let mut done = Vec::new();
    let markers = Markers::of(state, repo.workdir());
    if let Some(aside) = markers.read_aside()? {
        repo.put_back(&aside.refname)?;
        repo.delete_ref(&aside.refname)?;
        markers.clear_aside()?;
        done.push(format!(
            "put back the candidate set aside for the baseline ({})",
            aside.refname
        ));
    }
    if let Some(p) = markers.read_pending()? {
        if !records.iter().any(|r| r.run_id == p.record.run_id) {
            crate::io::state::journal(state, warn).append(&p.record)?;
        }
        if repo.ref_target(&p.discarded_ref).is_none() {
            repo.snapshot(
                &p.discarded_ref,
                &format!("arx: discarded {}", p.record.run_id),
            )?;
        }
        let restored = repo.restore_to(&p.kept)?;
        markers.clear_pending()?;
        done.push(format!(
            "finished an interrupted discard of run {}: {} restored, {} removed",
            super::run_short(&p.record.run_id),
            restored.restored.len(),
            restored.removed.len()
        ));
    }
    Ok(done)
}
