//! What makes a keep and a discard survive a crash: the objects and refs
//! synced to disk before a marker says they exist; a keep built as a
//! commit first and landed on its branch after (so its intent can name
//! the commit); a discard finished only on the files that still hold what
//! was stored; and a working tree following a keep its branch moved to,
//! path by path, whichever step it stopped at.

use super::tree::Entry;
use super::{fs_path, is_config, short, Candidate, Changed, RatchetRepo, Restored};
use crate::error::Hinted;
use crate::io::git::git_err;

/// A keep's commit, built but on no branch yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The keep's commit.
    pub commit: String,
    /// HEAD when it was built: where the branch moves from.
    pub from: String,
    /// The paths taken from the working tree, sorted.
    pub paths: Vec<String>,
}

/// What finishing an interrupted discard did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finished {
    pub restored: Restored,
    /// The candidate's paths that changed since it was stored: left as
    /// they are, sorted.
    pub left: Vec<String>,
    /// The branch moved since the candidate was stored: nothing was put
    /// back.
    pub branch_moved: bool,
}

impl RatchetRepo {
    /// Sync the repository's files (objects, refs) to disk, so a snapshot
    /// or a commit a marker names survives a crash of the machine, not
    /// only of arx.
    pub fn sync_to_disk(&self) -> anyhow::Result<()> {
        let dir = self.repo.path();
        let file = std::fs::File::open(dir)
            .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", dir.display()))?;
        crate::io::platform::sync_filesystem(&file)
            .map_err(|e| anyhow::anyhow!("cannot sync {}: {e}", dir.display()))?;
        Ok(())
    }

    /// Build the commit that keeps the candidate, with `parent` as its only
    /// parent and HEAD's tree with the working tree's changes (the paths
    /// `candidate` found changed, as they are now): objects only, no ref
    /// and no index changed. `None` when the parent is HEAD and the
    /// changes cancel out (HEAD already holds the working tree).
    pub fn keep_commit(
        &self,
        candidate: &Candidate,
        parent: &str,
        message: &str,
    ) -> anyhow::Result<Option<Built>> {
        let changed = if candidate.changed.is_empty() {
            Vec::new()
        } else {
            self.scan_among(Some(candidate.changed.clone()))?
        };
        self.build_keep(changed, parent, message)
    }

    /// [`RatchetRepo::keep_commit`] of the working-tree changes `changed`.
    pub(super) fn build_keep(
        &self,
        changed: Vec<Changed>,
        parent: &str,
        message: &str,
    ) -> anyhow::Result<Option<Built>> {
        let parent = self.commit_id(parent)?;
        let head = self.head_oid()?;
        if changed.is_empty() && parent == head {
            return Ok(None);
        }
        let mut index = self.repo.index().map_err(git_err)?;
        self.refuse_conflicts(&index, "keep the candidate")?;
        let built = (|| -> anyhow::Result<Option<Built>> {
            let updates = self.stage(&mut index, &changed)?;
            let head_tree = self.tree_of(head)?;
            // Configuration files as the parent (the best) has them: what
            // the branch committed to them is not part of the candidate (it
            // stays in the working tree and the index, a change of its own).
            let mut tree_updates = updates.clone();
            let parent_tree = self.tree_of(parent)?;
            for path in self.diff_with_config(&parent_tree, &head_tree)? {
                if is_config(&path) {
                    let entry = self.entry_at(&parent_tree, &path)?;
                    tree_updates.push((path, entry));
                }
            }
            let tree_id = self.update_tree(&head_tree, &tree_updates)?;
            if parent == head && tree_id == head_tree.id() {
                return Ok(None);
            }
            let tree = self.repo.find_tree(tree_id).map_err(git_err)?;
            let parent_commit = self.repo.find_commit(parent).map_err(git_err)?;
            let sig = self.signature()?;
            let commit = self
                .repo
                .commit(None, &sig, &sig, message, &tree, &[&parent_commit])
                .map_err(git_err)?;
            Ok(Some(Built {
                commit: commit.to_string(),
                from: head.to_string(),
                paths: updates.into_iter().map(|(p, _)| p).collect(),
            }))
        })();
        // The index on disk is not touched here: drop what was staged.
        let _ = index.read(true);
        built.map_err(|e| e.context("the candidate was not kept; nothing was changed"))
    }

    /// Move the branch from `from` to the keep `commit`, the index taking
    /// the keep's entries at `paths` first. `Ok(true)` once the branch is
    /// at `commit` (it already was, or it moved); `Ok(false)` when it is
    /// neither at `from` nor at `commit` (it moved meanwhile: nothing was
    /// changed).
    pub fn land_keep(&self, from: &str, commit: &str, paths: &[String]) -> anyhow::Result<bool> {
        let from = self.commit_id(from)?;
        let commit = self.commit_id(commit)?;
        let head = self.head_oid()?;
        if head == commit {
            return Ok(true);
        }
        if head != from {
            return Ok(false);
        }
        let tree = self.tree_of(commit)?;
        let mut index = self.repo.index().map_err(git_err)?;
        self.refuse_conflicts(&index, "keep the candidate")?;
        let before: Vec<(String, Option<git2::IndexEntry>)> = paths
            .iter()
            .map(|p| (p.clone(), index.get_path(&fs_path(p), 0)))
            .collect();
        for p in paths {
            let entry = self.entry_at(&tree, p)?;
            let same = self.worktree_holds(p, entry)?;
            self.set_index_entry(&mut index, p, entry, same)?;
        }
        index.write().map_err(|e| {
            let _ = index.read(true);
            anyhow::anyhow!("cannot write the index: {}", e.message())
        })?;
        let subject = self
            .repo
            .find_commit(commit)
            .ok()
            .and_then(|c| c.summary().map(str::to_string))
            .unwrap_or_default();
        if let Err(e) = self.repo.reference_matching(
            &self.branch_ref,
            commit,
            true,
            from,
            &format!("arx keep: {subject}"),
        ) {
            for (path, entry) in &before {
                match entry {
                    Some(entry) => {
                        let _ = index.add(entry);
                    }
                    None => {
                        let _ = index.remove_path(&fs_path(path));
                    }
                }
            }
            let _ = index.write();
            return Err(Hinted::error(
                format!(
                    "{} moved while the candidate was kept: {}",
                    self.branch(),
                    e.message()
                ),
                "nothing was committed; run the keep again",
            ));
        }
        Ok(true)
    }

    /// Does the commit `spec` exist here?
    pub fn has_commit(&self, spec: &str) -> bool {
        git2::Oid::from_str(spec)
            .ok()
            .is_some_and(|oid| self.repo.find_commit(oid).is_ok())
    }

    /// Follow the keep `commit` (whose parent is `kept`) that this working
    /// tree's branch moved to, path by path, whatever step it stopped at:
    /// at a path the keep changed, a file still as `kept` has it is
    /// written as the keep has it; a file with changes of its own is left
    /// as it is (returned); and the index takes the keep's entry wherever
    /// it still holds `kept`'s, so what is staged is never an undo of the
    /// keep. An index entry staged by hand (neither `kept`'s nor the
    /// keep's) stays, and its path is returned too. Returns the paths left
    /// as they were, sorted.
    pub fn follow_keep(&self, kept: &str, commit: &str) -> anyhow::Result<Vec<String>> {
        let kept_tree = self.tree_of(self.commit_id(kept)?)?;
        let keep_tree = self.tree_of(self.commit_id(commit)?)?;
        let mut index = self.repo.index().map_err(git_err)?;
        let mut plan: Vec<(String, Option<Entry>)> = Vec::new();
        let mut left = Vec::new();
        let mut index_to: Vec<(String, Option<Entry>)> = Vec::new();
        for path in self.diff_trees(&kept_tree, &keep_tree)? {
            let old = self.entry_at(&kept_tree, &path)?;
            let new = self.entry_at(&keep_tree, &path)?;
            let staged = index
                .get_path(&fs_path(&path), 0)
                .map(|e| super::ops::entry_of(&e));
            let worktree_old = self.worktree_holds(&path, old)?;
            if worktree_old {
                plan.push((path.clone(), new));
            } else if !self.worktree_holds(&path, new)? {
                left.push(path.clone());
            }
            if staged == old {
                index_to.push((path, new));
            } else if staged != new && !left.contains(&path) {
                left.push(path);
            }
        }
        let mut fault = |_| Ok(());
        let mut steps = super::worktree::Steps::new(&mut fault);
        self.put_paths(&plan, &mut steps).map_err(|(e, _)| e)?;
        for (path, entry) in &index_to {
            let same = self.worktree_holds(path, *entry)?;
            self.set_index_entry(&mut index, path, *entry, same)?;
        }
        if !index_to.is_empty() {
            index
                .write()
                .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        }
        left.sort();
        Ok(left)
    }

    /// Finish a discard a crash interrupted, whose candidate is stored as
    /// `snapshot`: put `kept` back only where the working tree still holds
    /// what the snapshot stored (a file changed since is new work: left as
    /// it is, and named), and move the branch back to `kept` when the
    /// candidate had commits. When the branch moved since the snapshot was
    /// taken, nothing is put back.
    pub fn finish_discard(&self, kept: &str, snapshot: &str) -> anyhow::Result<Finished> {
        let kept = self.commit_id(kept)?;
        let snap = self
            .repo
            .find_commit(self.commit_id(snapshot)?)
            .map_err(git_err)?;
        let taken_on = snap
            .parent_id(0)
            .map_err(|_| anyhow::anyhow!("{snapshot} is not a snapshot (it has no parent)"))?;
        let head = self.head_oid()?;
        let kept_tree = self.tree_of(kept)?;
        let snap_tree = snap.tree().map_err(git_err)?;
        let candidate_paths = self.diff_trees(&kept_tree, &snap_tree)?;
        if head != taken_on
            || !(head == kept || self.repo.graph_descendant_of(head, kept).map_err(git_err)?)
        {
            return Ok(Finished {
                left: candidate_paths,
                branch_moved: true,
                ..Finished::default()
            });
        }
        // What was staged when the snapshot was taken (its second parent).
        let staged_tree = match snap.parent(1) {
            Ok(staged) => Some(staged.tree().map_err(git_err)?),
            Err(_) => None,
        };
        let staged_paths = match &staged_tree {
            Some(t) => self.diff_trees(&kept_tree, t)?,
            None => Vec::new(),
        };
        let mut plan = Vec::new();
        let mut left = Vec::new();
        for path in candidate_paths {
            let old = self.entry_at(&kept_tree, &path)?;
            if self.worktree_holds(&path, old)? {
                // Put back already (the restore had got this far).
            } else if self.worktree_holds(&path, self.entry_at(&snap_tree, &path)?)? {
                plan.push((path.clone(), old));
            } else {
                left.push(path);
            }
        }
        let mut fault = |_| Ok(());
        let mut steps = super::worktree::Steps::new(&mut fault);
        let progress = self.put_paths(&plan, &mut steps).map_err(|(e, _)| e)?;
        // The index: kept's entries on the paths put back, and, when the
        // branch moves back to kept, wherever HEAD and kept differ.
        let move_branch = head != kept && !self.candidate_commits(kept, head)?.is_empty();
        let mut index_paths: std::collections::BTreeSet<String> =
            plan.iter().map(|(p, _)| p.clone()).collect();
        // A path staged then, and still staged so: unstaged.
        let mut index = self.repo.index().map_err(git_err)?;
        if let Some(staged_tree) = &staged_tree {
            for path in staged_paths {
                let now = index
                    .get_path(&fs_path(&path), 0)
                    .map(|e| super::ops::entry_of(&e));
                if now == self.entry_at(staged_tree, &path)? && !left.contains(&path) {
                    index_paths.insert(path);
                }
            }
        }
        if move_branch {
            let head_tree = self.tree_of(head)?;
            index_paths.extend(self.diff_trees(&kept_tree, &head_tree)?);
            index_paths.extend(left.iter().cloned());
        }
        for path in &index_paths {
            let entry = self.entry_at(&kept_tree, path)?;
            let same = self.worktree_holds(path, entry)?;
            self.set_index_entry(&mut index, path, entry, same)?;
        }
        index
            .write()
            .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        if move_branch {
            self.repo
                .reference_matching(
                    &self.branch_ref,
                    kept,
                    true,
                    head,
                    &format!("arx: back to the kept commit {}", short(kept)),
                )
                .map_err(|e| anyhow::anyhow!("cannot move {}: {}", self.branch(), e.message()))?;
        }
        Ok(Finished {
            restored: Restored {
                restored: progress.written,
                removed: progress.removed,
            },
            left,
            branch_moved: false,
        })
    }
}
