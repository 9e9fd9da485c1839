//! A lane's take-up of the best (its work replayed onto the best), with
//! its marker written before the replay starts and cleared once the lane's
//! branch moved: one cut off part-way is undone by the next command that
//! changes the working tree ([`undo`]), then taken up again from the start.

use anyhow::Result;

use super::{short, Host};
use crate::error::Hinted;
use crate::ops::lanes::LaneCtx;

use crate::io::git::ratchet::{RatchetRepo, Replay};
use crate::io::ratchet::{Markers, TakeUp};
use std::path::Path;

/// Replay the lane's work onto `onto` (the best's side winning where they
/// conflict with `best_wins`), its work stored under `snapshot_ref` first,
/// under the take-up marker. See [`RatchetRepo::replay_onto`].
pub fn replay(
    repo: &RatchetRepo,
    state: &Path,
    (onto, snapshot_ref): (&str, &str),
    best_wins: bool,
) -> Result<(Replay, Vec<String>)> {
    let m = Markers::of(state, repo.workdir());
    // A candidate measured, then replayed onto a newer best: what its
    // runs wrote is not lane work to carry over.
    if let Some(t) = m.read_measuring()? {
        super::recover::outputs_since(repo, state, &t)?;
    }
    let mut marker = TakeUp {
        head: repo.head(),
        onto: onto.to_string(),
        snapshot_ref: snapshot_ref.to_string(),
        before: repo.ref_target(snapshot_ref),
        snapshot: None,
    };
    m.write_take_up(&marker)?;
    // The snapshot named in the marker before the replay writes a file.
    let done = repo.replay_marked((onto, snapshot_ref), best_wins, &mut |snapshot| {
        marker.snapshot = Some(snapshot.to_string());
        m.write_take_up(&marker)
    });
    if done.is_err() {
        // Stopped part-way by an error: undone at once, as after a kill.
        let _ = undo(repo, &m, &marker);
    }
    m.clear_take_up()?;
    done
}

/// Undo the take-up `t` a kill cut off, if it had changed anything: a line
/// saying what was done (`None` when there was nothing to undo). The
/// marker goes.
pub fn undo(repo: &RatchetRepo, m: &Markers, t: &TakeUp) -> Result<Option<String>> {
    repo.clear_stale_ref_lock(&t.snapshot_ref);
    let moved = repo.head() != t.head;
    // The marker names the snapshot once it is stored; before that, the
    // ref tells only when it changed (a kill between storing it and
    // naming it in the marker: no file was written yet).
    let (snapshot, stored) = match &t.snapshot {
        Some(s) => (Some(s.clone()), true),
        None => {
            let s = repo.ref_target(&t.snapshot_ref);
            let stored = s.is_some() && s != t.before;
            (s, stored)
        }
    };
    let Some(snapshot) = snapshot.filter(|_| stored && !moved) else {
        // Done up to the branch, or cut off before anything changed.
        m.clear_take_up()?;
        return Ok(None);
    };
    let left = repo.undo_replay(&t.onto, &snapshot)?;
    m.clear_take_up()?;
    let mut line = format!(
        "undid a take-up of the best {} cut off part-way: the lane's work is as it was (also under {})",
        super::short(&t.onto),
        t.snapshot_ref
    );
    if !left.is_empty() {
        line.push_str(&format!(
            "; changed since, left as they are: {}",
            left.iter()
                .map(|p| crate::kernel::text::shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(Some(line))
}

/// Before a lane's try: take up the keeps other lanes made since its work
/// started (its work replayed onto the best); true when it did and the lane
/// had work of its own. A conflict stops the try and changes nothing.
pub(super) fn take_up_best(
    (repo, state): (&RatchetRepo, &Path),
    lane: &LaneCtx,
    best: &str,
    host: &dyn Host,
) -> Result<bool> {
    let refname = lane.before_sync_ref();
    let had_work = !repo.contains(best)
        && crate::io::git::lane::Lanes::open(repo.workdir())?
            .merge_base(&repo.head(), best)
            .map_or(Ok(true), |base| {
                repo.candidate(&base).map(|c| !c.is_empty())
            })?;
    match replay(repo, state, (best, &refname), false)?.0 {
        Replay::Already => Ok(false),
        Replay::Replayed { .. } => {
            host.say(&format!(
                "lane {}: took up the best {} (the work as it was is under {refname})",
                lane.name,
                short(best)
            ));
            Ok(had_work)
        }
        Replay::Conflicts(paths) => Err(Hinted::error(
            format!(
                "lane {}'s work conflicts with the best {} in {}; nothing was changed",
                lane.name,
                short(best),
                paths.join(", ")
            ),
            format!(
                "arx lane sync --theirs {} takes up the best with its side winning in those files \
                 (the work as it was is stored under refs/arx/discarded/ first); or drop the conflicting change; then arx try again",
                lane.name
            ),
        )),
    }
}
