//! Putting the branch and working tree back to the kept commit, and a
//! set-aside candidate back into them.

use std::collections::BTreeSet;

use git2::{Oid, Tree};

use super::tree::Entry;
use super::worktree::{Progress, Steps};
use super::{short, Changed, RatchetRepo, Restored};
use crate::error::Hinted;
use crate::io::git::git_err;

impl RatchetRepo {
    /// Put the branch and working tree back to `kept` (HEAD or an ancestor
    /// of it): tracked files get the kept content, files the candidate
    /// created are removed (untracked ones, not ignored, and ones in HEAD
    /// but not in `kept`), the index matches `kept`, and the branch moves to
    /// `kept` if the candidate has commits. Ignored files and the state
    /// directory are not touched (commits after `kept` that change only the
    /// state directory stay on the branch when they are all there is).
    ///
    /// Only the changed paths are written. Each file is replaced atomically,
    /// then the index is written, then the branch moves; a restore stopped
    /// part-way (a crash, a full disk) is finished by running it again.
    /// Set the candidate aside first ([`RatchetRepo::snapshot`]): what the
    /// restore overwrites is gone from the working tree.
    pub fn restore_to(&self, kept: &str) -> anyhow::Result<Restored> {
        self.restore_to_with(kept, &mut |_| Ok(()))
    }

    /// Write `paths` as commit `to` has them (a path it lacks is removed),
    /// in the working tree and the index; the branch and every other path
    /// stay as they are. A main working tree with changes of its own
    /// follows a lane's keep this way, on the paths the keep changed and
    /// it did not.
    pub fn restore_paths(&self, to: &str, paths: &[String]) -> anyhow::Result<Restored> {
        let to = self.commit_id(to)?;
        let tree = self.tree_of(to)?;
        let paths: BTreeSet<String> = paths.iter().cloned().collect();
        let plan = self.plan(&paths, &tree)?;
        let mut fault = |_| Ok(());
        let mut steps = Steps::new(&mut fault);
        let progress = self.put_paths(&plan, &mut steps).map_err(|(e, _)| e)?;
        let mut index = self.repo.index().map_err(git_err)?;
        for (path, entry) in &plan {
            self.set_index_entry(&mut index, path, *entry, true)?;
        }
        index
            .write()
            .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        Ok(Restored {
            restored: progress.written,
            removed: progress.removed,
        })
    }

    /// [`RatchetRepo::restore_to`], announcing each step (every path, the
    /// index, the branch) to `fault` first, so tests can stop it anywhere.
    pub(crate) fn restore_to_with(
        &self,
        kept: &str,
        fault: &mut dyn FnMut(usize) -> std::io::Result<()>,
    ) -> anyhow::Result<Restored> {
        let kept = self.commit_id(kept)?;
        self.require_descends(self.head_oid()?, kept)?;
        let changed = self.scan()?;
        self.restore_changed(kept, changed, fault)
    }

    /// [`RatchetRepo::restore_to`], given what a scan found changed.
    pub(crate) fn restore_changed(
        &self,
        kept: Oid,
        changed: Vec<Changed>,
        fault: &mut dyn FnMut(usize) -> std::io::Result<()>,
    ) -> anyhow::Result<Restored> {
        let head = self.head_oid()?;
        self.require_descends(head, kept)?;
        let move_branch = !self.candidate_commits(kept, head)?.is_empty();
        let kept_tree = self.tree_of(kept)?;
        let head_tree = self.tree_of(head)?;
        let mut paths: BTreeSet<String> = changed.into_iter().map(|c| c.path).collect();
        paths.extend(self.diff_trees(&kept_tree, &head_tree)?);
        let plan = self.plan(&paths, &kept_tree)?;
        let mut steps = Steps::new(fault);
        let stopped = |e: anyhow::Error| {
            e.context(format!(
                "putting back the kept commit {} stopped part-way; running it again finishes it",
                short(kept)
            ))
        };
        let progress = self
            .put_paths(&plan, &mut steps)
            .map_err(|(e, _)| stopped(e))?;
        steps.step("write the index").map_err(stopped)?;
        let mut index = self.repo.index().map_err(git_err)?;
        let conflicted = index.has_conflicts();
        for (path, entry) in &plan {
            if conflicted {
                // Drops the conflict stages too.
                let _ = index.remove_path(&super::fs_path(path));
            }
            self.set_index_entry(&mut index, path, *entry, true)
                .map_err(stopped)?;
        }
        index
            .write()
            .map_err(|e| stopped(anyhow::anyhow!("cannot write the index: {}", e.message())))?;
        if move_branch {
            steps.step("move the branch").map_err(stopped)?;
            self.repo
                .reference_matching(
                    &self.branch_ref,
                    kept,
                    true,
                    head,
                    &format!("arx: back to the kept commit {}", short(kept)),
                )
                .map_err(|e| {
                    stopped(anyhow::anyhow!(
                        "cannot move {}: {}",
                        self.branch(),
                        e.message()
                    ))
                })?;
        }
        Ok(Restored {
            restored: progress.written,
            removed: progress.removed,
        })
    }

    /// Put a snapshot (made by [`RatchetRepo::snapshot`]) back into the
    /// working tree and the index on top of the current HEAD, as `git stash
    /// apply --index` does: the files it changed relative to where it and
    /// HEAD meet are written, the files it deleted are removed, and what was
    /// staged when it was taken (a partially staged file, a staged new file,
    /// deletion or mode change) is staged again; everything else comes back
    /// unstaged. The branch stays as it is, so the candidate's commits come
    /// back flattened into uncommitted changes. Refuses a working tree or
    /// index with changes, and a snapshot that changed a file HEAD changed
    /// differently since (nothing is written then). A snapshot taken with
    /// nothing staged (or by an older arx) puts back the working tree only.
    /// Returns the paths written, removed or staged, sorted.
    pub fn apply_snapshot(&self, refname_or_id: &str) -> anyhow::Result<Vec<String>> {
        let (snapshot, parent) = self.snapshot_commits(refname_or_id)?;
        self.require_clean("apply the snapshot")?;
        let head = self.head_oid()?;
        let base = self.repo.merge_base(head, parent).unwrap_or(parent);
        let commit = self.repo.find_commit(snapshot).map_err(git_err)?;
        let work_tree = commit.tree().map_err(git_err)?;
        let base_tree = self.tree_of(base)?;
        let head_tree = self.tree_of(head)?;
        let parent_tree = self.tree_of(parent)?;
        let index_tree = match commit.parent(1) {
            Ok(staged) => Some(staged.tree().map_err(git_err)?),
            Err(_) => None,
        };
        let mut plan = Vec::new();
        let mut conflicts = Vec::new();
        for path in self.diff_trees(&base_tree, &work_tree)? {
            let ours = self.entry_at(&head_tree, &path)?;
            let theirs = self.entry_at(&work_tree, &path)?;
            if ours == theirs {
                continue;
            }
            if ours == self.entry_at(&base_tree, &path)? {
                plan.push((path, theirs));
            } else {
                conflicts.push(path);
            }
        }
        // What was staged: the index's changes against the snapshot's HEAD,
        // put on the current HEAD's entry when HEAD has not changed the
        // path since (HEAD holds it as the snapshot's HEAD or their meeting
        // point did).
        let mut staged = Vec::new();
        if let Some(index_tree) = &index_tree {
            for path in self.diff_trees(&parent_tree, index_tree)? {
                let entry = self.entry_at(index_tree, &path)?;
                let ours = self.entry_at(&head_tree, &path)?;
                if ours == entry {
                    continue;
                }
                if ours == self.entry_at(&parent_tree, &path)?
                    || ours == self.entry_at(&base_tree, &path)?
                {
                    staged.push((path, entry));
                } else if !conflicts.contains(&path) {
                    conflicts.push(path);
                }
            }
        }
        if !conflicts.is_empty() {
            conflicts.sort();
            return Err(Hinted::error(
                format!(
                    "the snapshot {refname_or_id} changes files changed since on {}: {}",
                    self.branch(),
                    conflicts.join(", ")
                ),
                format!("nothing was written; inspect it with git show {refname_or_id}"),
            ));
        }
        let progress =
            self.put_paths_or_undo(&plan, &head_tree, &mut Steps::new(&mut |_| Ok(())))?;
        let mut paths: BTreeSet<String> = progress.touched().cloned().collect();
        if !staged.is_empty() {
            let mut index = self.repo.index().map_err(git_err)?;
            let written = (|| -> anyhow::Result<()> {
                for (path, entry) in &staged {
                    let worktree = self.entry_at(&work_tree, path)?;
                    self.set_index_entry(&mut index, path, *entry, *entry == worktree)?;
                }
                index
                    .write()
                    .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))
            })();
            if let Err(e) = written {
                let _ = index.read(true);
                let failed = self.undo(&progress, &head_tree);
                return Err(undone(e, failed));
            }
            paths.extend(staged.into_iter().map(|(p, _)| p));
        }
        Ok(paths.into_iter().collect())
    }

    /// Put a snapshot back exactly as it was taken: the branch at the
    /// snapshot's first parent (its commits back, when a restore had moved
    /// the branch to one of their ancestors), the working tree as it was
    /// (untracked files included) and the index as it was (what was staged
    /// is staged again). Refuses a working tree with changes, and a branch
    /// that is not an ancestor of (or at) the snapshot's first parent.
    /// Files go first, then the index, then the branch; if a step fails,
    /// what was done is undone.
    pub fn put_back(&self, refname: &str) -> anyhow::Result<()> {
        self.put_back_with(refname, &mut |_| Ok(()))
    }

    pub(crate) fn put_back_with(
        &self,
        refname: &str,
        fault: &mut dyn FnMut(usize) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        let (snapshot, parent) = self.snapshot_commits(refname)?;
        let head = self.head_oid()?;
        if head != parent
            && !self
                .repo
                .graph_descendant_of(parent, head)
                .map_err(git_err)?
        {
            return Err(Hinted::error(
                format!(
                    "{} (at {}) is not where the snapshot {refname} was taken (on {})",
                    self.branch(),
                    short(head),
                    short(parent)
                ),
                format!("check out the branch it was taken on; the snapshot stays under {refname}"),
            ));
        }
        self.require_clean("put the snapshot back")?;
        let commit = self.repo.find_commit(snapshot).map_err(git_err)?;
        let work_tree = commit.tree().map_err(git_err)?;
        let parent_tree = self.tree_of(parent)?;
        let index_tree = match commit.parent(1) {
            Ok(staged) => staged.tree().map_err(git_err)?,
            Err(_) => parent_tree.clone(),
        };
        let head_tree = self.tree_of(head)?;
        let mut paths: BTreeSet<String> = BTreeSet::new();
        paths.extend(self.diff_trees(&head_tree, &parent_tree)?);
        paths.extend(self.diff_trees(&parent_tree, &work_tree)?);
        paths.extend(self.diff_trees(&parent_tree, &index_tree)?);
        let plan = self.plan(&paths, &work_tree)?;
        let staged = self.plan(&paths, &index_tree)?;
        let mut steps = Steps::new(fault);
        let progress = self.put_paths_or_undo(&plan, &head_tree, &mut steps)?;
        let mut index = self.repo.index().map_err(git_err)?;
        let undo_all = |index: &mut git2::Index, e: anyhow::Error| -> anyhow::Error {
            let _ = index.read(true);
            let failed = self.undo(&progress, &head_tree);
            undone(e, failed)
        };
        let result = (|| -> anyhow::Result<()> {
            steps.step("write the index")?;
            for ((path, worktree), (_, entry)) in plan.iter().zip(&staged) {
                self.set_index_entry(&mut index, path, *entry, entry == worktree)?;
            }
            index
                .write()
                .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))
        })();
        if let Err(e) = result {
            return Err(undo_all(&mut index, e));
        }
        if head != parent {
            let moved = steps.step("move the branch").and_then(|()| {
                self.repo
                    .reference_matching(
                        &self.branch_ref,
                        parent,
                        true,
                        head,
                        &format!("arx: snapshot {refname} put back"),
                    )
                    .map(|_| ())
                    .map_err(|e| anyhow::anyhow!("cannot move {}: {}", self.branch(), e.message()))
            });
            if let Err(e) = moved {
                for (path, _) in &plan {
                    let entry = self.entry_at(&head_tree, path)?;
                    let _ = self.set_index_entry(&mut index, path, entry, false);
                }
                let _ = index.write();
                let failed = self.undo(&progress, &head_tree);
                return Err(undone(e, failed));
            }
        }
        Ok(())
    }

    /// The snapshot commit named by `spec` and its first parent.
    fn snapshot_commits(&self, spec: &str) -> anyhow::Result<(Oid, Oid)> {
        let snapshot = self.commit_id(spec).map_err(|_| {
            Hinted::error(
                format!("there is no snapshot {spec}"),
                "list the set-aside candidates with git for-each-ref refs/arx",
            )
        })?;
        let commit = self.repo.find_commit(snapshot).map_err(git_err)?;
        let parent = commit
            .parent_id(0)
            .map_err(|_| anyhow::anyhow!("{spec} is not a snapshot (it has no parent)"))?;
        Ok((snapshot, parent))
    }

    /// Each path with its entry in `tree`.
    fn plan(
        &self,
        paths: &BTreeSet<String>,
        tree: &Tree<'_>,
    ) -> anyhow::Result<Vec<(String, Option<Entry>)>> {
        paths
            .iter()
            .map(|p| Ok((p.clone(), self.entry_at(tree, p)?)))
            .collect()
    }

    /// [`RatchetRepo::put_paths`], putting the changed paths back to
    /// `before` if it fails part-way.
    fn put_paths_or_undo(
        &self,
        plan: &[(String, Option<Entry>)],
        before: &Tree<'_>,
        steps: &mut Steps<'_>,
    ) -> anyhow::Result<Progress> {
        // A snapshot's files are its working tree's bytes.
        steps.raw = true;
        let result = self.put_paths(plan, steps);
        steps.raw = false;
        result.map_err(|(e, progress)| {
            let failed = self.undo(&progress, before);
            undone(e, failed)
        })
    }

    /// Write back the paths `progress` changed as `before` has them;
    /// returns what could not be.
    fn undo(&self, progress: &Progress, before: &Tree<'_>) -> Vec<String> {
        let paths: BTreeSet<String> = progress.touched().cloned().collect();
        let plan = match self.plan(&paths, before) {
            Ok(plan) => plan,
            Err(e) => return vec![format!("{e:#}")],
        };
        match self.put_paths(&plan, &mut Steps::new(&mut |_| Ok(()))) {
            Ok(_) => Vec::new(),
            Err((e, _)) => vec![format!("{e:#}")],
        }
    }
}

/// The error of an operation whose changes were undone (or not all).
fn undone(e: anyhow::Error, failed: Vec<String>) -> anyhow::Error {
    if failed.is_empty() {
        e.context("nothing was changed (what was written is undone)")
    } else {
        e.context(format!(
            "stopped part-way, and undoing it failed too ({}); the snapshot still holds everything",
            failed.join("; ")
        ))
    }
}
