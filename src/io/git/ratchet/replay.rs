//! Lanes: a candidate replayed onto a newer best (another lane kept
//! meanwhile), and a keep whose parent is the best it was measured against.

use std::collections::BTreeSet;

use git2::Oid;

use super::worktree::Steps;
use super::{short, RatchetRepo};
use crate::error::Hinted;
use crate::io::git::git_err;

/// A lane's work merged onto the best: the merged tree and the paths
/// where the best's side was taken, or the conflicting paths.
pub(super) type Merged = Result<(Oid, Vec<String>), Vec<String>>;

/// What [`RatchetRepo::replay_onto`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// HEAD is `onto` or descends from it: nothing to do.
    Already,
    /// The candidate now sits on `onto` as uncommitted changes; the lane's
    /// work as it was is kept under `snapshot` (a ref).
    Replayed { snapshot: String },
    /// The candidate does not apply to `onto`: these paths conflict.
    /// Nothing was changed but the snapshot ref.
    Conflicts(Vec<String>),
}

impl RatchetRepo {
    /// Replay the candidate (the commits since HEAD and `onto` met, and the
    /// working tree's changes, untracked files included) onto `onto`, as a
    /// three-way merge of trees, line by line within a file: afterwards the
    /// branch is at `onto`, the index holds `onto`, and the working tree
    /// holds the merge (the candidate's commits flattened into uncommitted
    /// changes). The work as it was is stored under `snapshot_ref` first,
    /// so a replay loses nothing. A conflict changes nothing else.
    pub fn replay_onto(&self, onto: &str, snapshot_ref: &str) -> anyhow::Result<Replay> {
        self.replay(onto, snapshot_ref, false, &mut |_| Ok(()))
            .map(|(r, _)| r)
    }

    /// [`RatchetRepo::replay_onto`], with the best's side taken where the
    /// candidate conflicts with it (within a file, only the conflicting
    /// lines; a file one side deleted and the other changed, as the best
    /// has it): never [`Replay::Conflicts`]. Returns, beside what it did,
    /// the paths where the best's side was taken, sorted.
    pub fn replay_onto_best_wins(
        &self,
        onto: &str,
        snapshot_ref: &str,
    ) -> anyhow::Result<(Replay, Vec<String>)> {
        self.replay(onto, snapshot_ref, true, &mut |_| Ok(()))
    }

    /// [`RatchetRepo::replay_onto`] (or, with `best_wins`,
    /// [`RatchetRepo::replay_onto_best_wins`]), calling `stored` with the
    /// snapshot commit once the work is stored under `snapshot_ref`,
    /// before anything else changes: what a marker of the replay needs to
    /// undo it (the ref alone cannot tell, as storing the same work on the
    /// same commit again within a second gives the very commit it held).
    pub fn replay_marked(
        &self,
        (onto, snapshot_ref): (&str, &str),
        best_wins: bool,
        stored: &mut dyn FnMut(&str) -> anyhow::Result<()>,
    ) -> anyhow::Result<(Replay, Vec<String>)> {
        self.replay(onto, snapshot_ref, best_wins, stored)
    }

    fn replay(
        &self,
        onto: &str,
        snapshot_ref: &str,
        best_wins: bool,
        stored: &mut dyn FnMut(&str) -> anyhow::Result<()>,
    ) -> anyhow::Result<(Replay, Vec<String>)> {
        let head = self.head_oid()?;
        let onto = self.commit_id(onto)?;
        if head == onto || self.repo.graph_descendant_of(head, onto).map_err(git_err)? {
            return Ok((Replay::Already, Vec::new()));
        }
        let base = self.repo.merge_base(head, onto).map_err(|_| {
            Hinted::error(
                format!(
                    "{} (at {}) and the best {} have no commit in common",
                    self.branch(),
                    short(head),
                    short(onto)
                ),
                "was the lane's branch replaced? remove the lane (arx lane rm --force) and add it again",
            )
        })?;
        // Only the try holding this working tree's lock writes its
        // snapshot ref: a lock git left on it is a killed try's.
        self.clear_stale_ref_lock(snapshot_ref);
        let changed = self.scan()?;
        let snapshot = self.snapshot_of(
            &changed,
            snapshot_ref,
            &format!(
                "arx: the lane's work before its replay onto {}",
                short(onto)
            ),
        )?;
        stored(&snapshot)?;
        let snapshot_id = self.commit_id(&snapshot)?;
        let work_tree = self.tree_of(snapshot_id)?;
        let base_tree = self.tree_of(base)?;
        let onto_tree = self.tree_of(onto)?;
        let head_tree = self.tree_of(head)?;
        let (merged_id, best_won) =
            match self.merge_work(&base_tree, &onto_tree, &work_tree, best_wins)? {
                Ok(merged) => merged,
                Err(paths) => return Ok((Replay::Conflicts(paths), Vec::new())),
            };
        let merged_tree = self.repo.find_tree(merged_id).map_err(git_err)?;
        // Files: from the working tree as it is to the merge.
        let mut paths: BTreeSet<String> = changed.iter().map(|c| c.path.clone()).collect();
        paths.extend(self.diff_trees(&work_tree, &merged_tree)?);
        let plan: Vec<_> = paths
            .iter()
            .map(|p| Ok((p.clone(), self.entry_at(&merged_tree, p)?)))
            .collect::<anyhow::Result<_>>()?;
        self.put_paths(&plan, &mut Steps::new(&mut |_| Ok(())))
            .map_err(|(e, _)| {
                e.context(format!(
                    "the replay stopped part-way; the lane's work is under {snapshot_ref} (arx restore can put it back)"
                ))
            })?;
        crate::io::failpoint::hit(crate::io::failpoint::TAKE_UP_AFTER_FILES);
        // Index: onto's entries wherever HEAD's index differed from onto.
        let mut index_paths = paths;
        index_paths.extend(self.diff_trees(&head_tree, &onto_tree)?);
        let mut index = self.repo.index().map_err(git_err)?;
        for path in &index_paths {
            let entry = self.entry_at(&onto_tree, path)?;
            let same = entry == self.entry_at(&merged_tree, path)?;
            self.set_index_entry(&mut index, path, entry, same)?;
        }
        index
            .write()
            .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        crate::io::failpoint::hit(crate::io::failpoint::TAKE_UP_AFTER_INDEX);
        self.repo
            .reference_matching(
                &self.branch_ref,
                onto,
                true,
                head,
                &format!("arx: replayed onto the best {}", short(onto)),
            )
            .map_err(|e| anyhow::anyhow!("cannot move {}: {}", self.branch(), e.message()))?;
        Ok((Replay::Replayed { snapshot }, best_won))
    }

    /// The merge of a lane's work (`work_tree`) onto `onto_tree` from
    /// their common `base_tree`: the merged tree and, with `best_wins`,
    /// the paths where the best's side was taken; `Err` with the
    /// conflicting paths when they conflict and the best does not win.
    pub(super) fn merge_work(
        &self,
        base_tree: &git2::Tree<'_>,
        onto_tree: &git2::Tree<'_>,
        work_tree: &git2::Tree<'_>,
        best_wins: bool,
    ) -> anyhow::Result<Merged> {
        let mut merged = self
            .repo
            .merge_trees(base_tree, onto_tree, work_tree, None)
            .map_err(git_err)?;
        let mut best_won = Vec::new();
        if merged.has_conflicts() {
            let paths = conflict_paths(&merged)?;
            if !best_wins {
                return Ok(Err(paths));
            }
            // The best's side (`ours` here) within the conflicting files,
            // then the best's entry where whole files still conflict.
            let mut favor = git2::MergeOptions::new();
            favor.file_favor(git2::FileFavor::Ours);
            merged = self
                .repo
                .merge_trees(base_tree, onto_tree, work_tree, Some(&favor))
                .map_err(git_err)?;
            for path in conflict_paths(&merged)? {
                // Drops the conflict stages too.
                merged
                    .remove_path(&super::fs_path(&path))
                    .map_err(git_err)?;
                if let Some(e) = self.entry_at(onto_tree, &path)? {
                    self.set_index_entry(&mut merged, &path, Some(e), false)?;
                }
            }
            best_won = paths;
        }
        let id = merged.write_tree_to(&self.repo).map_err(git_err)?;
        Ok(Ok((id, best_won)))
    }

    /// Move the branch `branch` (full name) from `from` to `to`, only if it
    /// is still at `from`: `false` when it has moved.
    pub fn advance_branch(&self, branch: &str, from: &str, to: &str) -> anyhow::Result<bool> {
        let from = self.commit_id(from)?;
        let to = self.commit_id(to)?;
        match self.repo.find_reference(branch) {
            Ok(r) if r.target() == Some(from) => {}
            Ok(_) => return Ok(false),
            Err(e) => return Err(git_err(e)),
        }
        match self
            .repo
            .reference_matching(branch, to, true, from, "arx: a lane kept")
        {
            Ok(_) => Ok(true),
            Err(e) if e.code() == git2::ErrorCode::Modified => Ok(false),
            Err(e) => Err(git_err(e)),
        }
    }

    /// The commit a branch (full name) points at.
    pub fn branch_tip(&self, branch: &str) -> Option<Oid> {
        self.repo.refname_to_id(branch).ok()
    }

    /// A ref (its full name) whose commit is `commit` or descends from it:
    /// what keeps the commit from being lost. Branches first, then any
    /// other ref; `None` when no ref holds it.
    pub fn ref_holding(&self, commit: &str) -> Option<String> {
        let c = self.commit_id(commit).ok()?;
        let mut names: Vec<(String, Oid)> = self
            .repo
            .references()
            .ok()?
            .flatten()
            .filter_map(|r| Some((r.name()?.to_string(), r.resolve().ok()?.target()?)))
            .collect();
        names.sort_by_key(|(n, _)| (!n.starts_with("refs/heads/"), n.clone()));
        names
            .into_iter()
            .find(|(_, tip)| *tip == c || self.repo.graph_descendant_of(*tip, c).unwrap_or(false))
            .map(|(n, _)| n)
    }

    /// Remove the lock file (`<ref>.lock`) a killed writer left on
    /// `refname`, which would fail every later update of it. Only for a
    /// ref no one else writes: a working tree's aside ref, a lane's own
    /// branch, under that working tree's try lock.
    pub fn clear_stale_ref_lock(&self, refname: &str) {
        let ours = refname.starts_with("refs/arx/") || refname.starts_with("refs/heads/arx/lane/");
        if ours {
            self.clear_killed_keeps_ref_lock(refname);
        }
    }

    /// Remove the lock file a keep killed while it moved `refname` (the
    /// best's branch) left. Only under the keep lock, with the intent of
    /// that keep in hand: no one else moves that branch meanwhile.
    pub fn clear_killed_keeps_ref_lock(&self, refname: &str) {
        if !refname.starts_with("refs/") || refname.contains("..") {
            return;
        }
        // Refs live in the common git directory (a linked working tree's
        // own one names it in `commondir`).
        let own = self.repo.path();
        let common = match std::fs::read_to_string(own.join("commondir")) {
            Ok(text) => own.join(text.trim()),
            Err(_) => own.to_path_buf(),
        };
        let _ = std::fs::remove_file(common.join(format!("{refname}.lock")));
    }

    /// Remove the index lock (`index.lock`) an arx killed while it wrote
    /// this working tree's index left, which would fail every later write
    /// of it. Called only when a marker shows that an arx step was cut off
    /// here, under the working tree's try lock.
    pub fn clear_stale_index_lock(&self) {
        let _ = std::fs::remove_file(self.repo.path().join("index.lock"));
    }

    /// The full names of the refs whose name starts with `prefix`, sorted.
    pub fn refs_starting(&self, prefix: &str) -> Vec<String> {
        let Ok(refs) = self.repo.references() else {
            return Vec::new();
        };
        let mut names: Vec<String> = refs
            .flatten()
            .filter_map(|r| r.name().map(str::to_string))
            .filter(|n| n.starts_with(prefix))
            .collect();
        names.sort();
        names
    }

    /// Point the new ref `refname` at `commit` (an existing ref of that
    /// name is left as it is: `false`).
    pub fn hold_under(&self, refname: &str, commit: &str) -> anyhow::Result<bool> {
        let c = self.commit_id(commit)?;
        match self
            .repo
            .reference(refname, c, false, "arx: hold a rolled-back keep")
        {
            Ok(_) => Ok(true),
            Err(e) if e.code() == git2::ErrorCode::Exists => Ok(false),
            Err(e) => Err(git_err(e)),
        }
    }

    /// The full name of the current branch.
    pub fn branch_ref(&self) -> &str {
        &self.branch_ref
    }

    /// Is `ancestor` the commit `of` or one of its ancestors?
    pub fn is_ancestor(&self, ancestor: &str, of: &str) -> bool {
        let (Ok(a), Ok(o)) = (self.commit_id(ancestor), self.commit_id(of)) else {
            return false;
        };
        a == o || self.repo.graph_descendant_of(o, a).unwrap_or(false)
    }

    /// Does HEAD hold `commit` (is it HEAD or one of its ancestors)?
    pub fn contains(&self, commit: &str) -> bool {
        let (Ok(c), Ok(head)) = (self.commit_id(commit), self.head_oid()) else {
            return false;
        };
        c == head || self.repo.graph_descendant_of(head, c).unwrap_or(false)
    }
}

/// The paths of a merge's conflicts, sorted.
fn conflict_paths(merged: &git2::Index) -> anyhow::Result<Vec<String>> {
    let mut paths = BTreeSet::new();
    for c in merged.conflicts().map_err(git_err)? {
        let c = c.map_err(git_err)?;
        for e in [c.ancestor, c.our, c.their].into_iter().flatten() {
            paths.insert(super::carry(&e.path));
        }
    }
    Ok(paths.into_iter().collect())
}
