//! The candidate as it is measured: a snapshot of the working tree taken
//! when its measurement starts (a commit under no ref, its first parent
//! HEAD, as a set-aside snapshot is). A keep commits exactly its tree; a
//! discard stores it and undoes it on the files that still hold what it
//! took. What changed in the working tree after it was taken (an edit made
//! while the runs ran, a file a run wrote) was never measured: it is not
//! kept, not undone, and stays as it is.

use std::collections::BTreeSet;

use super::durable::Built;
use super::{is_config, short, RatchetRepo, Restored};
use crate::io::git::git_err;

/// The snapshot a candidate is measured as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measured {
    /// The snapshot commit (full hex id): its tree is the candidate.
    pub commit: String,
    /// HEAD when it was taken (full hex id).
    pub head: String,
    /// The working-tree paths it took (staged, unstaged, untracked),
    /// sorted.
    pub paths: Vec<String>,
}

/// What changed in the working tree since a [`Measured`] was taken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Since {
    /// The candidate's own paths, edited since: not what was measured.
    pub edited: Vec<String>,
    /// Other paths that changed (written by the runs, or by hand).
    pub written: Vec<String>,
}

/// What undoing a measured candidate did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Undone {
    pub restored: Restored,
    /// The candidate's paths that changed since it was measured: left as
    /// they are, sorted.
    pub left: Vec<String>,
}

impl RatchetRepo {
    /// A throwaway checkout of `commit` (a measured snapshot or a kept
    /// commit) in a new temporary directory outside the working tree,
    /// removed when the value is dropped: where the held-out command runs,
    /// so that nothing it writes reaches the working tree or a snapshot.
    /// Readable by other local users (the candidate's own files), so that
    /// an evaluation run as another user can read what it evaluates.
    pub fn scratch_checkout(&self, commit: &str) -> anyhow::Result<tempfile::TempDir> {
        use anyhow::Context;
        let oid = self.commit_id(commit)?;
        let dir = tempfile::Builder::new()
            .prefix("arx-heldout-")
            .tempdir()
            .context("cannot create a scratch checkout for the held-out check")?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
                .context("cannot open the scratch checkout to the held-out command")?;
        }
        crate::io::git::write_tree(&self.repo, oid, dir.path())?;
        Ok(dir)
    }

    /// Take the snapshot of the working tree a candidate is measured as
    /// (the state directory, configuration and notes aside).
    pub fn measure_snapshot(&self, message: &str) -> anyhow::Result<Measured> {
        let changed = self.scan()?;
        let head = self.head_oid()?;
        let commit = self.snapshot_commit(&changed, message)?;
        Ok(Measured {
            commit: commit.to_string(),
            head: head.to_string(),
            paths: changed.into_iter().map(|c| c.path).collect(),
        })
    }

    /// What changed in the working tree since `measured` was taken.
    pub fn changed_since(&self, measured: &Measured) -> anyhow::Result<Since> {
        let snap_tree = self.tree_of(self.commit_id(&measured.commit)?)?;
        let taken: BTreeSet<&str> = measured.paths.iter().map(String::as_str).collect();
        let mut paths: BTreeSet<String> = measured.paths.iter().cloned().collect();
        paths.extend(self.scan()?.into_iter().map(|c| c.path));
        let mut since = Since::default();
        for path in paths {
            let entry = self.entry_at(&snap_tree, &path)?;
            if self.worktree_holds(&path, entry)? {
                continue;
            }
            if taken.contains(path.as_str()) {
                since.edited.push(path);
            } else {
                since.written.push(path);
            }
        }
        Ok(since)
    }

    /// The commit that keeps `measured`, with `parent` as its only parent
    /// and the snapshot's tree (configuration files as the parent has
    /// them): objects only, no ref and no index changed. `None` when the
    /// parent is HEAD and already holds that tree.
    pub fn keep_measured(
        &self,
        measured: &Measured,
        parent: &str,
        message: &str,
    ) -> anyhow::Result<Option<Built>> {
        let parent = self.commit_id(parent)?;
        let head = self.head_oid()?;
        let snap_tree = self.tree_of(self.commit_id(&measured.commit)?)?;
        let parent_tree = self.tree_of(parent)?;
        // What the branch committed to the configuration is not part of
        // the candidate: it stays as a change of its own.
        let mut updates = self.cleaned(measured, &snap_tree)?;
        for path in self.diff_with_config(&parent_tree, &snap_tree)? {
            if is_config(&path) {
                updates.push((path.clone(), self.entry_at(&parent_tree, &path)?));
            }
        }
        let tree_id = self.update_tree(&snap_tree, &updates)?;
        if parent == head && tree_id == self.tree_of(head)?.id() {
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
            paths: measured.paths.clone(),
        }))
    }

    /// The snapshot's files as `git add` stores them: a file the working
    /// tree still holds as it was measured is staged (in memory) through
    /// the repository's filters and attributes (`text`, `eol`), as the
    /// keep commits it; a file changed since keeps the bytes measured.
    fn cleaned(
        &self,
        measured: &Measured,
        snap_tree: &git2::Tree<'_>,
    ) -> anyhow::Result<Vec<(String, Option<super::tree::Entry>)>> {
        let mut same = Vec::new();
        for path in &measured.paths {
            let entry = self.entry_at(snap_tree, path)?;
            if entry.is_some() && self.worktree_holds(path, entry)? {
                same.push(super::Changed {
                    path: path.clone(),
                    status: git2::Status::WT_MODIFIED,
                });
            }
        }
        if same.is_empty() {
            return Ok(Vec::new());
        }
        // libgit2 converts line endings but runs no filter driver (Git
        // LFS): such a file is stored by the git program.
        let (driven, same): (Vec<_>, Vec<_>) = same
            .into_iter()
            .partition(|c| self.has_filter_driver(&c.path));
        let mut index = self.repo.index().map_err(git_err)?;
        let staged = self.stage(&mut index, &same);
        // The index on disk is not touched here: drop what was staged.
        let _ = index.read(true);
        let mut staged = staged?;
        for c in driven {
            let mode = self.entry_at(snap_tree, &c.path)?.map(|e| e.mode);
            let id = self.clean_blob(&c.path)?;
            staged.push((c.path, mode.map(|mode| super::tree::Entry { id, mode })));
        }
        Ok(staged)
    }

    /// The commits on the branch since `measured` was taken (none made by
    /// arx: a try changes the branch only when it ends), oldest first.
    pub fn commits_since(&self, measured: &Measured) -> anyhow::Result<Vec<String>> {
        let taken_on = self.commit_id(&measured.head)?;
        let head = self.head_oid()?;
        if head == taken_on {
            return Ok(Vec::new());
        }
        let mut walk = self.repo.revwalk().map_err(git_err)?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
            .map_err(git_err)?;
        walk.push(head).map_err(git_err)?;
        // An unrelated history (a reset) has no base to hide.
        let _ = walk.hide(taken_on);
        walk.map(|oid| oid.map(|o| o.to_string()).map_err(git_err))
            .collect()
    }

    /// Does `head` hold commits of a candidate since `kept` (commits that
    /// change more than arx's own files and the configuration)?
    pub fn has_own_commits(&self, kept: &str, head: &str) -> anyhow::Result<bool> {
        let kept = self.commit_id(kept)?;
        let head = self.commit_id(head)?;
        Ok(!self.candidate_commits(kept, head)?.is_empty())
    }

    /// Discard a measured candidate: the snapshot stored under `refname`
    /// (`stored` called then, before anything is undone; its error stops
    /// the discard there), then `kept` put back on the files that still
    /// hold what the snapshot took, and the branch moved back to `kept`
    /// when the candidate had commits. A file changed since it was
    /// measured is left as it is (and returned).
    ///
    /// When the branch moved since (a person's commit), the candidate is
    /// set aside alone: the branch stays, and only its working-tree files
    /// are undone, where that commit left them as `kept` has them. The
    /// caller refuses that case when the candidate had commits of its own
    /// (they cannot be undone under a person's commit).
    pub fn discard_measured(
        &self,
        kept: &str,
        measured: &Measured,
        refname: &str,
        stored: &mut dyn FnMut(&str) -> anyhow::Result<()>,
    ) -> anyhow::Result<Undone> {
        self.check_snapshot_ref(refname)?;
        let kept_oid = self.commit_id(kept)?;
        let snapshot = self.commit_id(&measured.commit)?;
        let taken_on = self.commit_id(&measured.head)?;
        let head = self.head_oid()?;
        if head != taken_on && !self.candidate_commits(kept_oid, taken_on)?.is_empty() {
            anyhow::bail!(
                "{} moved since the candidate was measured (at {}) and the candidate has commits of its own: nothing was undone",
                self.branch(),
                short(taken_on)
            );
        }
        self.repo
            .reference(refname, snapshot, true, "arx: set the candidate aside")
            .map_err(|e| anyhow::anyhow!("cannot set {refname}: {}", e.message()))?;
        stored(&measured.commit)?;
        if head == taken_on {
            let finished = self.finish_discard(kept, &measured.commit)?;
            return Ok(Undone {
                restored: finished.restored,
                left: finished.left,
            });
        }
        self.undo_alone(kept_oid, snapshot)
    }

    /// Undo a candidate of working-tree changes only under a branch that
    /// moved since: a path goes back to `kept` where
    /// the working tree still holds what the snapshot took and the new
    /// commits left it as `kept` has it.
    fn undo_alone(&self, kept: git2::Oid, snapshot: git2::Oid) -> anyhow::Result<Undone> {
        let kept_tree = self.tree_of(kept)?;
        let head_tree = self.tree_of(self.head_oid()?)?;
        let snap_tree = self.tree_of(snapshot)?;
        let mut plan = Vec::new();
        let mut left = Vec::new();
        for path in self.diff_trees(&kept_tree, &snap_tree)? {
            let old = self.entry_at(&kept_tree, &path)?;
            if self.entry_at(&head_tree, &path)? != old {
                left.push(path);
            } else if self.worktree_holds(&path, old)? {
            } else if self.worktree_holds(&path, self.entry_at(&snap_tree, &path)?)? {
                plan.push((path, old));
            } else {
                left.push(path);
            }
        }
        let mut fault = |_| Ok(());
        let mut steps = super::worktree::Steps::new(&mut fault);
        let progress = self.put_paths(&plan, &mut steps).map_err(|(e, _)| e)?;
        let mut index = self.repo.index().map_err(git_err)?;
        for (path, entry) in &plan {
            self.set_index_entry(&mut index, path, *entry, true)?;
        }
        index
            .write()
            .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        Ok(Undone {
            restored: Restored {
                restored: progress.written,
                removed: progress.removed,
            },
            left,
        })
    }
}
