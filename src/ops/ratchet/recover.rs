//! Finishing what a killed `arx try` left half done, from the markers it
//! writes before each step (`io::ratchet`): a keep (repository-wide, under
//! the keep lock), a discard and a candidate set aside (per working tree).
//! Only commands that change a working tree call these (`arx try`,
//! `arx restore`, `arx lane add|sync|rm`); a command that only reads says
//! what waits ([`waiting`]) and moves nothing.

use std::path::Path;

use anyhow::Result;

use super::run_short;
use crate::io::git::ratchet::RatchetRepo;
use crate::io::ratchet::{self as markers, KeepIntent, Markers};
use crate::io::Warn;

/// Finish an interrupted keep of the repository, then what this working
/// tree left half done. Returns a line for each thing done (warnings).
pub fn all(repo: &RatchetRepo, state: &Path, warn: Warn) -> Result<Vec<String>> {
    // Nothing a killed try's experiment still writes may land after what
    // follows has read the working tree.
    let mut ended = crate::ops::reactive::end_killed_runs_in(state, repo.workdir(), warn);
    // Then what a killed measurement's runs wrote, seen against the tree
    // before them while the branch is still where they ran (finishing a
    // keep may move it).
    ended.extend(measurement(repo, state)?);
    ended.extend(keep(repo, state, warn)?);
    ended.extend(worktree(repo, state, warn)?);
    Ok(ended)
}

/// What waits to be finished, for a command that only reads: one line
/// each (empty when nothing does).
pub fn waiting(state: &Path, workdir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    if state.join(markers::KEEP_FILE).exists() {
        lines.push(
            "a keep was cut off part-way: the next arx try (in any lane), arx restore or arx lane command finishes it"
                .to_string(),
        );
    }
    if Markers::of(state, workdir).any() {
        lines.push(
            "a try in this working tree was cut off part-way: the next arx try, arx restore or arx lane sync here finishes it"
                .to_string(),
        );
    }
    lines
}

/// Complete (or, when it cannot be, roll back) a keep that a crash cut
/// off between building its commit and journaling its record, under the
/// keep lock. `repo` is the working tree this command runs in.
pub fn keep(repo: &RatchetRepo, state: &Path, warn: Warn) -> Result<Vec<String>> {
    if markers::read_keep(state)?.is_none() {
        return Ok(Vec::new());
    }
    let _lock = markers::lock_keep(state)?;
    // Another command may have finished it while this one waited.
    keep_held(repo, state, warn)
}

/// [`keep`], by a command that holds the keep lock already: a keep about
/// to be made finishes (or rolls back) the one a killed try left first,
/// so that no keep's intent is ever written over another's.
pub fn keep_held(repo: &RatchetRepo, state: &Path, warn: Warn) -> Result<Vec<String>> {
    let Some(intent) = markers::read_keep(state)? else {
        return Ok(Vec::new());
    };
    clear_locks_of_killed_keep(repo, state, &intent);
    let run = run_short(&intent.record.run_id).to_string();
    let records = crate::io::state::journal(state, warn).read()?;
    if records.iter().any(|r| r.run_id == intent.record.run_id) {
        markers::clear_keep(state)?;
        return Ok(Vec::new());
    }
    let segment = intent.record.ratchet.as_ref().map(|i| i.segment.clone());
    let best = crate::ops::lanes::segment_best(state, segment.as_deref(), warn)?;
    let rollback = |why: String| -> Result<Vec<String>> {
        let held = held(repo, &intent)?;
        markers::clear_keep(state)?;
        Ok(vec![format!(
            "rolled back an interrupted keep of run {run}: {why}; the best stays {}, and {held}",
            best.as_deref().map_or("-", super::short),
        )])
    };
    if !repo.has_commit(&intent.commit) {
        return rollback("its commit is not in the repository".into());
    }
    if best.as_deref() != Some(intent.kept.as_str()) {
        return rollback("the journal's best is no longer the one it was measured against".into());
    }
    let mut notes = Vec::new();
    match &intent.best_ref {
        Some(best_ref) => {
            let tip = repo.branch_tip(best_ref).map(|o| o.to_string());
            if tip.as_deref() == Some(intent.kept.as_str()) {
                if !repo.advance_branch(best_ref, &intent.kept, &intent.commit)? {
                    return rollback(format!("{best_ref} moved meanwhile"));
                }
            } else if tip.as_deref() != Some(intent.commit.as_str()) {
                return rollback(format!("{best_ref} was moved outside arx"));
            }
            // The lane's own branch: its next try takes the keep up anyway,
            // so a lane busy with another try is left alone.
            match land_own(repo, state, &intent) {
                Ok(Some(false)) | Err(_) => notes.push(format!(
                    "lane branch {} left as it was (its next try takes up the best)",
                    intent.branch.trim_start_matches("refs/heads/")
                )),
                Ok(_) => {}
            }
            if let Some(main_root) = &intent.main_root {
                notes.extend(follow_main(state, Path::new(main_root), best_ref, &intent));
            }
        }
        None => match land_own(repo, state, &intent)? {
            Some(true) => {}
            Some(false) => return rollback(format!("{} moved meanwhile", intent.branch)),
            None => {
                return Ok(vec![format!(
                    "an interrupted keep of run {run} waits for the try running in {}",
                    intent.worktree
                )])
            }
        },
    }
    crate::ops::journal::record_run(state, &recovered(&intent.record), warn)?;
    markers::clear_keep(state)?;
    let mut line = format!(
        "finished an interrupted keep of run {run}: the best is now {}",
        super::short(&intent.commit)
    );
    for n in notes {
        line.push_str("; ");
        line.push_str(&n);
    }
    Ok(vec![line])
}

/// The locks git left where the keep of `intent` was killed while it
/// wrote: the best's branch (only keeps move it, under the keep lock this
/// command holds) and the main working tree's index it was following.
fn clear_locks_of_killed_keep(repo: &RatchetRepo, state: &Path, intent: &KeepIntent) {
    if let Some(best_ref) = &intent.best_ref {
        repo.clear_killed_keeps_ref_lock(best_ref);
    }
    if let Some(main) = intent
        .main_root
        .as_deref()
        .and_then(|root| RatchetRepo::open(Path::new(root), state).ok())
    {
        main.clear_stale_index_lock();
    }
}

/// The tag of a record journaled by the command that finished its cut-off
/// try, not by the try itself.
pub const RECOVERED_TAG: &str = "recovered";

/// `record` marked as journaled by recovery.
fn recovered(record: &crate::kernel::journal::RunRecord) -> crate::kernel::journal::RunRecord {
    let mut r = record.clone();
    if !r.tags.iter().any(|t| t == RECOVERED_TAG) {
        r.tags.push(RECOVERED_TAG.to_string());
    }
    r
}

/// Where the commit of a rolled-back keep is, in words: on the branch (or
/// other ref) that holds it, else put under `refs/arx/discarded/<run>` so
/// nothing is lost (`arx restore` brings it back), else gone.
fn held(repo: &RatchetRepo, intent: &KeepIntent) -> Result<String> {
    let commit = super::short(&intent.commit);
    if !repo.has_commit(&intent.commit) {
        return Ok(format!(
            "the candidate's commit {commit} is not in the repository (nothing of it to keep)"
        ));
    }
    if let Some(name) = repo.ref_holding(&intent.commit) {
        return Ok(match name.strip_prefix("refs/heads/") {
            Some(branch) => format!(
                "the candidate's commit {commit} stays on its branch {branch} (the next try there measures it again)"
            ),
            None => format!("the candidate's commit {commit} stays under {name}"),
        });
    }
    let refname = format!("refs/arx/discarded/{}", intent.record.run_id);
    repo.hold_under(&refname, &intent.commit)?;
    Ok(format!(
        "the candidate's commit {commit}, on no branch, is kept under {refname} (arx restore {} puts it back)",
        run_short(&intent.record.run_id)
    ))
}

/// Land the keep on the keeping working tree's branch: `Some(true)` done,
/// `Some(false)` that branch moved elsewhere, `None` another try holds
/// that working tree.
fn land_own(repo: &RatchetRepo, state: &Path, intent: &KeepIntent) -> Result<Option<bool>> {
    let worktree = Path::new(&intent.worktree);
    let same = |a: &Path, b: &Path| {
        a.canonicalize().unwrap_or_else(|_| a.to_path_buf())
            == b.canonicalize().unwrap_or_else(|_| b.to_path_buf())
    };
    if same(repo.workdir(), worktree) {
        return repo
            .land_keep(&intent.branch_from, &intent.commit, &intent.paths)
            .map(Some);
    }
    // Another lane's branch: that lane's next try takes the best up (its
    // work is in it), so its working tree is not locked from here, where
    // a try starting there would find it held.
    if intent.best_ref.is_some() {
        return Ok(Some(false));
    }
    if !worktree.exists() {
        return Ok(Some(false));
    }
    let holder = markers::TryHolder::ours(
        crate::io::clock::timestamp(None)?.to_string(),
        Some("finishing an interrupted keep".into()),
    );
    let Ok(_lock) = markers::lock_try(state, worktree, &holder)? else {
        return Ok(None);
    };
    let there = RatchetRepo::open(worktree, state)?;
    if there.branch_ref() != intent.branch {
        return Ok(Some(false));
    }
    there
        .land_keep(&intent.branch_from, &intent.commit, &intent.paths)
        .map(Some)
}

/// The main working tree follows the keep its branch moved to; what it
/// could not follow comes back as notes.
fn follow_main(state: &Path, root: &Path, best_ref: &str, intent: &KeepIntent) -> Vec<String> {
    let followed = RatchetRepo::open(root, state).and_then(|main| {
        if main.branch_ref() != best_ref {
            return Ok(None);
        }
        main.follow_keep(&intent.kept, &intent.commit).map(Some)
    });
    match followed {
        Ok(Some(left)) if !left.is_empty() => vec![format!(
            "the main working tree has changes of its own in {}, left as they were",
            left.join(", ")
        )],
        Ok(_) => Vec::new(),
        Err(e) => vec![format!(
            "the main working tree did not follow the keep: {e:#}"
        )],
    }
}

/// Put back a candidate a crash left set aside: cut off before its
/// snapshot was stored, it never left the working tree (the marker goes);
/// cut off while the working tree was restored to the kept commit, or
/// while the candidate was put back, the files that still hold the
/// candidate go to the kept commit first, so the put-back finds the tree
/// as it left it (a file changed since is new work, and is refused).
fn put_back_aside(
    repo: &RatchetRepo,
    m: &Markers,
    aside: &crate::io::ratchet::Aside,
) -> Result<String> {
    // A try killed while it wrote the ref left git's lock on it.
    repo.clear_stale_ref_lock(&aside.refname);
    let Some(snapshot) = repo.ref_target(&aside.refname) else {
        m.clear_aside()?;
        return Ok(format!(
            "a candidate being set aside was cut off before it was stored under {}: it never left the working tree",
            aside.refname
        ));
    };
    if let Some(kept) = &aside.kept {
        repo.finish_discard(kept, &snapshot)?;
    }
    if let Err(e) = repo.put_back(&aside.refname) {
        // New work since (the working tree changed, the branch moved):
        // the candidate is kept under a ref of its own, which `arx
        // restore` takes, and the working tree is left as it is.
        let kept_as = format!(
            "refs/arx/discarded/aside-{}",
            snapshot.get(..12).unwrap_or(&snapshot)
        );
        repo.hold_under(&kept_as, &snapshot)?;
        repo.delete_ref(&aside.refname)?;
        m.clear_aside()?;
        return Ok(format!(
            "a candidate set aside by a try that was cut off could not be put back ({}): it is kept under {kept_as} (arx restore aside-{} puts it back) and the working tree is left as it is",
            crate::kernel::text::shown(&format!("{e:#}")),
            snapshot.get(..8).unwrap_or(&snapshot)
        ));
    }
    repo.delete_ref(&aside.refname)?;
    m.clear_aside()?;
    Ok(format!(
        "put back the candidate set aside for the baseline ({})",
        aside.refname
    ))
}

/// Put back a candidate set aside for a baseline, and finish a discard
/// that a crash interrupted, in this working tree: the try journaled if it
/// was not, and the kept commit put back only on the files that still
/// hold what was stored (anything changed since is new work, left as it
/// is). Returns a line for each thing done.
pub fn worktree(repo: &RatchetRepo, state: &Path, warn: Warn) -> Result<Vec<String>> {
    let mut done = Vec::new();
    let m = Markers::of(state, repo.workdir());
    // A lane's branch is moved only by the try holding its working tree's
    // lock (which this command holds): a lock git left on it is a killed
    // try's.
    repo.clear_stale_ref_lock(repo.branch_ref());
    repo.clear_stale_ref_lock(&m.aside_ref);
    // A lane's working tree is written only by arx, under the try lock this
    // command holds: an index lock there is a killed try's, whatever step
    // it was at (a take-up of the best has no marker).
    let in_lane = crate::io::config::main_root(repo.workdir()).is_some();
    if m.any() || in_lane {
        // The step cut off may have been writing the index.
        repo.clear_stale_index_lock();
    }
    done.extend(measurement(repo, state)?);
    if let Some(t) = m.read_take_up()? {
        done.extend(super::takeup::undo(repo, &m, &t)?);
    }
    if let Some(aside) = m.read_aside()? {
        done.push(put_back_aside(repo, &m, &aside)?);
    }
    let Some(p) = m.read_pending()? else {
        return Ok(done);
    };
    let records = crate::io::state::journal(state, warn).read()?;
    if !records.iter().any(|r| r.run_id == p.record.run_id) {
        crate::io::state::journal(state, warn).append(&recovered(&p.record))?;
    }
    let run = run_short(&p.record.run_id);
    let snapshot = p
        .snapshot
        .clone()
        .or_else(|| repo.ref_target(&p.discarded_ref));
    let Some(snapshot) = snapshot else {
        m.clear_pending()?;
        done.push(format!(
            "an interrupted discard of run {run} had not stored its candidate: the working tree is left as it is"
        ));
        return Ok(done);
    };
    let f = repo.finish_discard(&p.kept, &snapshot)?;
    m.clear_pending()?;
    if f.branch_moved {
        done.push(format!(
            "an interrupted discard of run {run}: {} moved since its candidate was stored under {}; nothing was put back",
            repo.branch(),
            p.discarded_ref
        ));
        return Ok(done);
    }
    let mut line = format!(
        "finished an interrupted discard of run {run}: {} restored, {} removed",
        f.restored.restored.len(),
        f.restored.removed.len()
    );
    if !f.left.is_empty() {
        line.push_str(&format!(
            "; left as they are, changed since the candidate was stored under {}: {}",
            p.discarded_ref,
            f.left.join(", ")
        ));
    }
    done.push(line);
    Ok(done)
}

/// The outputs of a measurement a kill cut off in this working tree, if
/// any (see [`outputs_of_killed`]).
fn measurement(repo: &RatchetRepo, state: &Path) -> Result<Vec<String>> {
    let m = Markers::of(state, repo.workdir());
    match m.read_measuring()? {
        Some(t) => Ok(outputs_of_killed(repo, state, &m, &t)?
            .into_iter()
            .collect()),
        None => Ok(Vec::new()),
    }
}

/// A try killed while it measured (`t`, its snapshot before the runs):
/// the paths that changed since, outside what it measured (all of them
/// for a baseline), were written by its runs: recorded as outputs, so
/// they are not taken for the next candidate. Its measured files edited
/// since stay the user's work.
fn outputs_of_killed(
    repo: &RatchetRepo,
    state: &Path,
    m: &Markers,
    t: &crate::io::ratchet::Measuring,
) -> Result<Option<String>> {
    let written = outputs_since(repo, state, t)?;
    m.clear_measuring()?;
    Ok((!written.is_empty()).then(|| {
        format!(
            "a try was cut off while it measured: what its runs wrote ({}) is recorded as outputs, not part of a candidate",
            written
                .iter()
                .map(|p| crate::kernel::text::shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }))
}

/// Record as outputs what changed since the measurement `t` began outside
/// what it measured (everything, for a baseline); returns those paths.
pub fn outputs_since(
    repo: &RatchetRepo,
    state: &Path,
    t: &crate::io::ratchet::Measuring,
) -> Result<Vec<String>> {
    let measured = crate::io::git::ratchet::Measured {
        commit: t.commit.clone(),
        head: t.head.clone(),
        paths: t.paths.clone(),
    };
    // The snapshot is gone, or the branch moved since: nothing to tell.
    let since = match repo.head() == t.head {
        true => repo.changed_since(&measured).ok(),
        false => None,
    };
    let Some(since) = since else {
        return Ok(Vec::new());
    };
    let mut written = since.written;
    if t.baseline {
        written.extend(since.edited);
    }
    written.sort();
    super::record_outputs(repo, state, &written)?;
    Ok(written)
}
