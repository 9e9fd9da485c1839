//! What a try does to the working tree and the best, in the order that
//! loses nothing when arx dies between the steps: the candidate set aside
//! to measure the best (and put back), the discard sequence, the keep (a
//! compare-and-swap of the best in lanes, with its intent written first).
//! What a crash interrupted is finished by `recover.rs`.

use std::path::Path;

use anyhow::Result;

use super::candidate::{Against, TryEnv};
use super::short;
use crate::error::Hinted;
use crate::io::git::ratchet::{Measured, RatchetRepo, Undone};
use crate::io::ratchet::{Aside, KeepIntent, KeepLock, Markers, Pending};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::ops::lanes::{LaneCtx, MainTree};

/// What is never part of a candidate besides the state directory: the
/// agent's notes (`[objective] notes`) and what earlier tries' runs wrote
/// in this working tree (while it still holds that).
pub fn own_files(repo: &mut RatchetRepo, state: &Path, notes: &[String]) -> Result<()> {
    repo.set_notes(notes)?;
    let outputs: Vec<(String, Option<String>)> = Markers::of(state, repo.workdir())
        .read_outputs()?
        .into_iter()
        .map(|o| (o.path, o.blob))
        .collect();
    repo.set_outputs(&outputs);
    Ok(())
}

/// Name, once, the changes outside the project's directory (a project in
/// a subdirectory of a larger repository): a try leaves them alone.
pub fn outside_scope_warning(repo: &RatchetRepo, warn: Warn) -> Result<()> {
    let outside = repo.outside_scope()?;
    if outside.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = outside
        .iter()
        .take(5)
        .map(|p| crate::kernel::text::shown(p))
        .collect();
    let more = match outside.len() - shown.len() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    warn(&format!(
        "outside the project's directory {}/, so left alone (not measured as the change, \
         not kept, not undone): {}{more}",
        crate::kernel::text::shown(repo.scope().unwrap_or_default()),
        shown.join(", ")
    ));
    Ok(())
}

/// The git-ignored files under `protect` (`patterns`) that changed since
/// the last baseline of this working tree recorded them, sorted: git
/// does not track them, so no candidate's paths name them, yet the
/// experiment reads them. With `record` (a baseline), or when none was
/// recorded yet, they are recorded as they are now and none changed.
pub fn protected_ignored(
    repo: &RatchetRepo,
    state: &Path,
    patterns: &[String],
    record: bool,
) -> Result<Vec<String>> {
    if patterns.is_empty() {
        return Ok(Vec::new());
    }
    let now: Vec<crate::io::ratchet::Output> = repo
        .ignored_matching(patterns)?
        .into_iter()
        .map(|(path, blob)| crate::io::ratchet::Output {
            path,
            blob: Some(blob),
        })
        .collect();
    let markers = Markers::of(state, repo.workdir());
    let before = match (record, markers.read_protected()?) {
        (false, Some(before)) => before,
        _ => return markers.write_protected(&now).map(|()| Vec::new()),
    };
    let mut changed: Vec<String> = Vec::new();
    for o in now.iter().chain(&before) {
        let a = now.iter().find(|n| n.path == o.path).map(|n| &n.blob);
        let b = before.iter().find(|n| n.path == o.path).map(|n| &n.blob);
        if a != b && !changed.contains(&o.path) {
            changed.push(o.path.clone());
        }
    }
    changed.sort();
    Ok(changed)
}

/// Record `paths` as outputs of a try's runs: left out of later
/// candidates while the working tree holds what they wrote.
pub fn record_outputs(repo: &RatchetRepo, state: &Path, paths: &[String]) -> Result<()> {
    let outputs: Vec<crate::io::ratchet::Output> = repo
        .output_entries(paths)
        .into_iter()
        .map(|(path, blob)| crate::io::ratchet::Output { path, blob })
        .collect();
    if outputs.is_empty() {
        return Ok(());
    }
    repo.add_outputs(
        &outputs
            .iter()
            .map(|o| (o.path.clone(), o.blob.clone()))
            .collect::<Vec<_>>(),
    );
    Markers::of(state, repo.workdir()).add_outputs(&outputs)
}

/// Say that `measured` is being measured (a marker): what the runs write
/// is known even when arx is killed before it compares the working tree
/// with the snapshot (see `recover.rs`). `baseline`: the best measured as
/// it is.
pub fn measuring(
    repo: &RatchetRepo,
    state: &Path,
    measured: &Measured,
    baseline: bool,
) -> Result<()> {
    Markers::of(state, repo.workdir()).write_measuring(&crate::io::ratchet::Measuring {
        commit: measured.commit.clone(),
        head: measured.head.clone(),
        paths: measured.paths.clone(),
        baseline,
        resumes: None,
    })
}

/// The measurement [`measuring`] marked is over (its outputs recorded).
pub fn measured(repo: &RatchetRepo, state: &Path) -> Result<()> {
    Markers::of(state, repo.workdir()).clear_measuring()
}

/// Set the candidate aside under the aside ref (a marker first, so that
/// the next `arx try` puts it back if arx dies) and restore `kept`, to
/// measure the best; `what` names why in the snapshot's message.
pub fn set_aside(repo: &RatchetRepo, state: &Path, kept: &str, what: &str) -> Result<()> {
    let markers = Markers::of(state, repo.workdir());
    let refname = markers.aside_ref.clone();
    // A try killed while it wrote this ref left git's lock on it.
    repo.clear_stale_ref_lock(&refname);
    markers.write_aside(&Aside {
        refname: refname.clone(),
        head: repo.head(),
        kept: Some(kept.to_string()),
    })?;
    // A candidate's measurement under way: what its runs wrote so far is
    // an output, not set aside with the candidate.
    let resumes = markers.read_measuring()?;
    if let Some(t) = &resumes {
        super::recover::outputs_since(repo, state, t)?;
    }
    let candidate: Vec<String> = repo.scan()?.into_iter().map(|c| c.path).collect();
    repo.snapshot(&refname, &format!("arx: set aside for {what}"))?;
    repo.restore_to(kept)?;
    // The best's runs are measured next: what they write outside the
    // candidate is known even if arx is killed before it puts it back.
    let before = repo.measure_snapshot(&format!("arx: before {what}"))?;
    markers.write_measuring(&crate::io::ratchet::Measuring {
        commit: before.commit,
        head: before.head,
        paths: candidate,
        baseline: false,
        resumes: resumes.map(Box::new),
    })?;
    Ok(())
}

/// Put the candidate [`set_aside`] set aside back, and forget the marker.
/// What the runs of `kept` wrote meanwhile (outputs, tracked or not) is
/// undone first: the candidate is what comes back, not the outputs.
/// Returns the paths so undone.
pub fn put_back(repo: &RatchetRepo, state: &Path, kept: &str) -> Result<Vec<String>> {
    let markers = Markers::of(state, repo.workdir());
    let outputs = repo.restore_to(kept)?;
    repo.put_back(&markers.aside_ref)?;
    repo.delete_ref(&markers.aside_ref)?;
    markers.clear_aside()?;
    match markers.read_measuring()?.and_then(|t| t.resumes) {
        Some(resumed) => markers.write_measuring(&resumed)?,
        None => markers.clear_measuring()?,
    }
    let mut paths = outputs.restored;
    paths.extend(outputs.removed);
    paths.sort();
    Ok(paths)
}

/// Discard a candidate: the candidate stored under
/// `refs/arx/discarded/<run id>` and synced to disk, then a marker naming
/// it and the record (so a crash loses nothing: the next command that
/// changes the working tree finishes the job, on the files that still hold
/// what was stored, see `recover.rs`), the record journaled, the kept
/// commit restored, the marker cleared. Returns the record as journaled
/// (with its `discarded_ref`) and what the restore did.
///
/// With `measured` (the snapshot the candidate was measured as), that
/// snapshot is what is stored and undone: a file changed since it was
/// taken is left as it is, and returned.
pub fn discard(
    repo: &RatchetRepo,
    state: &Path,
    (kept, measured): (&str, Option<&Measured>),
    mut rec: RunRecord,
    warn: Warn,
) -> Result<(RunRecord, Undone)> {
    use crate::io::failpoint::{self, hit};
    let refname = format!("refs/arx/discarded/{}", rec.run_id);
    if let Some(info) = rec.ratchet.as_mut() {
        info.discarded_ref = Some(refname.clone());
    }
    let markers = Markers::of(state, repo.workdir());
    // The marker before anything moves: a crash at any later step is
    // finished by the next command (the record journaled, the candidate
    // stored or left where it is, see `recover.rs`).
    markers.write_pending(&Pending {
        kept: kept.to_string(),
        discarded_ref: refname.clone(),
        snapshot: None,
        record: rec.clone(),
    })?;
    let message = format!("arx: discarded {}", rec.run_id);
    let mut stored = |snapshot: &str| {
        repo.sync_to_disk()?;
        hit(failpoint::DISCARD_AFTER_SNAPSHOT);
        markers.write_pending(&Pending {
            kept: kept.to_string(),
            discarded_ref: refname.clone(),
            snapshot: Some(snapshot.to_string()),
            record: rec.clone(),
        })?;
        hit(failpoint::DISCARD_AFTER_MARKER);
        crate::ops::journal::record_run(state, &rec, warn)?;
        hit(failpoint::DISCARD_AFTER_RECORD);
        Ok(())
    };
    let discarded = match measured {
        Some(m) => repo.discard_measured(kept, m, &refname, &mut stored),
        None => repo
            .discard_with(kept, &refname, &message, &mut stored)
            .map(|(_, restored)| Undone {
                restored,
                left: Vec::new(),
            }),
    };
    let undone = match discarded {
        Ok(done) => done,
        // An error before the candidate was stored changed nothing: no
        // discard to finish.
        Err(e) if repo.ref_target(&refname).is_none() => {
            let _ = markers.clear_pending();
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    hit(failpoint::DISCARD_AFTER_RESTORE);
    markers.clear_pending()?;
    Ok((rec, undone))
}

/// What a keep came to.
pub enum Keep {
    /// Committed as `commit`, and `record` (with it) journaled. `notes`
    /// for the report, `warning` for stderr.
    Kept {
        commit: String,
        record: Box<RunRecord>,
        notes: Vec<String>,
        warning: Option<String>,
    },
    /// Another lane kept first: the best is now `best` (`commit`: the keep
    /// commit a fleet's push lost with).
    Moved {
        best: String,
        commit: Option<String>,
    },
}

/// Keep the candidate as one commit on `kept` and journal its record
/// `rec`; with `measured`, the commit's tree is exactly the snapshot the
/// candidate was measured as. In a lane this is a compare-and-swap of the best, under the
/// repository's keep lock (`held` when the try already holds it): the
/// journal's best must still be `kept`; then the keep commit advances the
/// best's branch from `kept`, and the main working tree on that branch
/// follows it (around changes of its own).
///
/// The commit is built and synced first, then its intent written
/// (`ratchet-keep.json`), so that a crash at any later step (the keeping
/// branch, the best's branch, the main working tree, the record) is
/// completed by the next command that changes a working tree, in any
/// lane (`recover.rs`).
pub fn keep(
    env: &TryEnv<'_, '_>,
    at: &Against,
    message: &str,
    (held, measured): (Option<KeepLock>, Option<&Measured>),
    mut rec: RunRecord,
) -> Result<Keep> {
    use crate::io::failpoint::{self, hit};
    let (repo, state, kept, candidate) = (env.repo, env.state, at.kept.as_str(), &at.candidate);
    let lock = match held {
        Some(lock) => lock,
        None => crate::io::ratchet::lock_keep(state)?,
    };
    // A keep another lane's try left half done, cut off after this try
    // began: finished first, so the best compared below is the journal's.
    for line in super::recover::keep_held(repo, state, env.runner.warn)? {
        env.runner.host.warn(&line);
    }
    if env.lane.is_some() {
        let now_best =
            crate::ops::lanes::segment_best(state, Some(&at.segment.id), env.runner.warn)?;
        if now_best.as_deref() != Some(kept) {
            let Some(best) = now_best else {
                return Err(Hinted::error(
                    "the objective changed while this try ran (a new segment began): nothing was kept, \
                     the candidate is still in the working tree",
                    "run arx try again: the candidate is measured by the objective now in arx.toml",
                ));
            };
            return Ok(Keep::Moved { best, commit: None });
        }
    }
    if let (Some(_), Some(l)) = (env.fleet, env.lane) {
        // The fleet's best, come in with its records: the machine's best
        // branch follows it before this lane keeps on it.
        for line in super::fleet::catch_up(repo, l, state, kept)? {
            env.runner.host.say(&line);
        }
    }
    let main = env.lane.and_then(|l| l.main_tree(state, kept));
    // In a lane the keep's parent is the best (a batch's: the other keeps
    // stacked on it); elsewhere the branch's own commits since the best
    // are kept as they are.
    let head = repo.head();
    let parent = match (&at.batch, env.lane) {
        (Some(b), Some(_)) => b.tip.as_str(),
        (None, Some(_)) => kept,
        _ => head.as_str(),
    };
    let set_commit = |rec: &mut RunRecord, commit: &str| {
        if let Some(i) = rec.ratchet.as_mut() {
            i.commit = Some(commit.to_string());
        }
    };
    let message = &super::batch::message(at, message);
    super::batch::record(at, &mut rec);
    let built = match measured {
        Some(m) => repo.keep_measured(m, parent, message)?,
        None => repo.keep_commit(candidate, parent, message)?,
    };
    let Some(built) = built else {
        // The branch already holds the working tree: nothing to commit.
        set_commit(&mut rec, &head);
        crate::ops::journal::record_run(state, &rec, env.runner.warn)?;
        drop(lock);
        return Ok(Keep::Kept {
            commit: head,
            record: Box::new(rec),
            notes: Vec::new(),
            warning: None,
        });
    };
    repo.sync_to_disk()?;
    let commit = built.commit.clone();
    set_commit(&mut rec, &commit);
    crate::io::ratchet::write_keep(
        state,
        &KeepIntent {
            kept: kept.to_string(),
            commit: commit.clone(),
            branch: repo.branch_ref().to_string(),
            branch_from: built.from.clone(),
            worktree: repo.workdir().display().to_string(),
            paths: built.paths.clone(),
            best_ref: env.lane.map(|l| l.best_ref.clone()),
            main_root: env
                .lane
                .filter(|_| main.as_ref().is_some_and(|m| m.changed.is_some()))
                .map(|l| l.main_root.display().to_string()),
            record: rec.clone(),
        },
    )?;
    hit(failpoint::KEEP_AFTER_INTENT);
    // In a fleet the keep is the push: the best's branch on the remote
    // from `kept` to the commit, with its record, or nothing.
    let mut held_here = None;
    if let Some(f) = env.fleet {
        let also = super::batch::landing(at);
        match super::fleet::push_keep(f, (kept, &commit), &rec, &also, env.runner.host)? {
            super::fleet::Pushed::Landed => hit(failpoint::KEEP_AFTER_PUSH),
            super::fleet::Pushed::Lost { best } => {
                crate::io::ratchet::clear_keep(state)?;
                return Ok(Keep::Moved {
                    best,
                    commit: Some(commit),
                });
            }
            super::fleet::Pushed::Held { why } => held_here = Some(why),
        }
    }
    let landed = repo.land_keep(&built.from, &commit, &built.paths);
    if !matches!(landed, Ok(true)) {
        crate::io::ratchet::clear_keep(state)?;
        landed?;
        return Err(Hinted::error(
            format!("{} moved while the candidate was kept", repo.branch()),
            "nothing was committed; run the keep again",
        ));
    }
    hit(failpoint::KEEP_AFTER_BRANCH);
    let (mut notes, mut warning) = (Vec::new(), None);
    if let Some(l) = env.lane {
        if !repo.advance_branch(&l.best_ref, kept, &commit)? {
            crate::io::ratchet::clear_keep(state)?;
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
        hit(failpoint::KEEP_AFTER_BEST);
        (notes, warning) = follow_in_main(l, state, main.as_ref(), kept, &commit);
        hit(failpoint::KEEP_AFTER_MAIN);
    }
    // The branches are on disk before the record says so.
    repo.sync_to_disk()?;
    if let Some(why) = held_here {
        super::fleet::hold(
            state,
            &super::fleet::PendingKeep {
                kept: kept.to_string(),
                commit: commit.clone(),
                run_id: rec.run_id.clone(),
            },
        )?;
        notes.push(format!(
            "pending: the fleet's remote did not answer ({why}); the keep is the best here and is pushed when it answers"
        ));
    }
    crate::ops::journal::record_run(state, &rec, env.runner.warn)?;
    hit(failpoint::KEEP_AFTER_RECORD);
    crate::io::ratchet::clear_keep(state)?;
    drop(lock);
    Ok(Keep::Kept {
        commit,
        record: Box::new(rec),
        notes,
        warning,
    })
}

/// The main working tree on the best's branch follows a lane's keep
/// (around changes of its own): what to note, and a warning when it
/// could not.
pub(super) fn follow_in_main(
    l: &LaneCtx,
    state: &Path,
    main: Option<&MainTree>,
    kept: &str,
    commit: &str,
) -> (Vec<String>, Option<String>) {
    let (mut notes, mut warning) = (Vec::new(), None);
    match main.map(|m| (m, m.changed.as_deref())) {
        Some((m, Some(_))) => match l.follow_in_main(state, m, kept, commit) {
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
