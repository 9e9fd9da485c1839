//! Keeping a candidate (one commit on the branch) and setting one aside (a
//! commit under a ref, nothing else changed).

use git2::{IndexEntry, Status};

use super::tree::Entry;
use super::{fs_path, short, Candidate, Changed, RatchetRepo, Restored};
use crate::error::Hinted;
use crate::io::git::git_err;

/// Status bits meaning "the index differs from HEAD".
fn staged(status: Status) -> bool {
    status.intersects(
        Status::INDEX_NEW
            | Status::INDEX_MODIFIED
            | Status::INDEX_DELETED
            | Status::INDEX_RENAMED
            | Status::INDEX_TYPECHANGE
            | Status::CONFLICTED,
    )
}

pub(crate) fn entry_of(e: &IndexEntry) -> Entry {
    Entry {
        id: e.id,
        mode: e.mode as i32,
    }
}

impl RatchetRepo {
    /// Keep the candidate. With changes in the working tree (state
    /// directory aside), stage exactly the changed paths (as `git add -A`
    /// would, never the state directory, even when it is tracked) and
    /// commit them on the branch with `message`; the author and committer
    /// come from git's configuration (or `GIT_AUTHOR_NAME` and the like),
    /// falling back to `arx <arx@localhost>`. With a clean tree the
    /// candidate is the commits already made, and HEAD is kept as it is.
    /// Returns the kept commit.
    ///
    /// The commit is built from HEAD's tree with only the changed paths
    /// replaced; the index is written before the branch moves, and put back
    /// if the branch cannot move (it moved meanwhile).
    pub fn keep(&self, message: &str) -> anyhow::Result<String> {
        let changed = self.scan()?;
        self.keep_changed(changed, message)
    }

    /// [`RatchetRepo::keep`] of what `candidate` found changed in the
    /// working tree, without scanning the whole tree again: only those
    /// paths are looked at (as they are now) and committed. Files that
    /// appeared after the candidate was read (an experiment's output) are
    /// not part of it and stay as they are.
    pub fn keep_candidate(&self, candidate: &Candidate, message: &str) -> anyhow::Result<String> {
        if candidate.changed.is_empty() {
            return self.keep_changed(Vec::new(), message);
        }
        let changed = self.scan_among(Some(candidate.changed.clone()))?;
        self.keep_changed(changed, message)
    }

    /// The keep of `changed` on the branch at HEAD: built as a commit, then
    /// landed (the index first); HEAD as it is when they cancel out.
    fn keep_changed(&self, changed: Vec<Changed>, message: &str) -> anyhow::Result<String> {
        let head = self.head_oid()?.to_string();
        let Some(built) = self.build_keep(changed, &head, message)? else {
            return Ok(head);
        };
        if !self.land_keep(&built.from, &built.commit, &built.paths)? {
            return Err(Hinted::error(
                format!("{} moved while the candidate was kept", self.branch()),
                "nothing was committed; run the keep again",
            ));
        }
        Ok(built.commit)
    }

    /// Stage exactly the changed paths in `index` (in memory), as `git add
    /// -A` would: a file on disk is added, a file gone is removed. Returns
    /// each path with its new entry, for [`RatchetRepo::update_tree`].
    pub(crate) fn stage(
        &self,
        index: &mut git2::Index,
        changed: &[Changed],
    ) -> anyhow::Result<Vec<(String, Option<Entry>)>> {
        let mut updates = Vec::with_capacity(changed.len());
        for c in changed {
            let path = &fs_path(&c.path);
            if let Some(id) = self.moved_gitlink(index, &c.path) {
                // A submodule checked out at another commit: the new gitlink.
                let entry = Entry {
                    id,
                    mode: super::tree::GITLINK_MODE,
                };
                self.set_index_entry(index, &c.path, Some(entry), false)?;
                updates.push((c.path.clone(), Some(entry)));
                continue;
            }
            let on_disk =
                std::fs::symlink_metadata(self.workdir.join(path)).is_ok_and(|m| !m.is_dir());
            if on_disk {
                index
                    .add_path(path)
                    .map_err(|e| anyhow::anyhow!("cannot stage {}: {}", c.path, e.message()))?;
            } else if index.get_path(path, 0).is_some() {
                index.remove_path(path).map_err(git_err)?;
            }
            updates.push((
                c.path.clone(),
                index.get_path(path, 0).map(|e| entry_of(&e)),
            ));
        }
        Ok(updates)
    }

    /// Set the candidate aside: a commit whose first parent is HEAD (so the
    /// candidate's commits are reachable from it) and whose tree is the
    /// working tree, untracked files included (not ignored ones, not the
    /// state directory), byte for byte. When something is staged, a second
    /// parent records the index, so a put-back restores what was staged.
    /// `refname` (such as `refs/arx/discarded/<run-id>`) is set to it,
    /// replacing what it pointed at. The index, the working tree and the
    /// branch are not touched. Returns the commit.
    pub fn snapshot(&self, refname: &str, message: &str) -> anyhow::Result<String> {
        self.check_snapshot_ref(refname)?;
        let changed = self.scan()?;
        self.snapshot_of(&changed, refname, message)
    }

    /// Discard the candidate: [`RatchetRepo::snapshot`] under `refname`,
    /// then [`RatchetRepo::restore_to`] `kept`, reading the working tree
    /// once for both. Returns the snapshot and what the restore did. If the
    /// restore stops part-way, the snapshot is already stored; running
    /// [`RatchetRepo::restore_to`] finishes the job.
    pub fn discard(
        &self,
        kept: &str,
        refname: &str,
        message: &str,
    ) -> anyhow::Result<(String, Restored)> {
        self.discard_with(kept, refname, message, &mut |_| Ok(()))
    }

    /// [`RatchetRepo::discard`], calling `stored` with the snapshot once it
    /// is stored under `refname` and before anything is restored (to sync
    /// it and journal the try); its error stops the discard there.
    pub fn discard_with(
        &self,
        kept: &str,
        refname: &str,
        message: &str,
        stored: &mut dyn FnMut(&str) -> anyhow::Result<()>,
    ) -> anyhow::Result<(String, Restored)> {
        self.check_snapshot_ref(refname)?;
        let kept = self.commit_id(kept)?;
        self.require_descends(self.head_oid()?, kept)?;
        let changed = self.scan()?;
        let snapshot = self.snapshot_of(&changed, refname, message)?;
        stored(&snapshot)?;
        let restored = self.restore_changed(kept, changed, &mut |_| Ok(()))?;
        Ok((snapshot, restored))
    }

    pub(crate) fn check_snapshot_ref(&self, refname: &str) -> anyhow::Result<()> {
        if refname == self.branch_ref || refname == "HEAD" || !refname.starts_with("refs/") {
            anyhow::bail!(
                "cannot store a snapshot under {refname}: use a ref such as refs/arx/aside"
            );
        }
        Ok(())
    }

    /// [`RatchetRepo::snapshot`] of the changes a scan found.
    pub(crate) fn snapshot_of(
        &self,
        changed: &[Changed],
        refname: &str,
        message: &str,
    ) -> anyhow::Result<String> {
        let snapshot = self.snapshot_commit(changed, message)?;
        self.repo
            .reference(refname, snapshot, true, "arx: set the candidate aside")
            .map_err(|e| anyhow::anyhow!("cannot set {refname}: {}", e.message()))?;
        Ok(snapshot.to_string())
    }

    /// The commit [`RatchetRepo::snapshot_of`] stores, under no ref.
    pub(crate) fn snapshot_commit(
        &self,
        changed: &[Changed],
        message: &str,
    ) -> anyhow::Result<git2::Oid> {
        let head = self.head_oid()?;
        let head_commit = self.repo.find_commit(head).map_err(git_err)?;
        let head_tree = head_commit.tree().map_err(git_err)?;
        let index = self.repo.index().map_err(git_err)?;
        self.refuse_conflicts(&index, "set the candidate aside")?;
        let mut work = Vec::with_capacity(changed.len());
        let mut staged_paths = Vec::new();
        for c in changed {
            let in_index = index.get_path(&fs_path(&c.path), 0);
            let known = match &in_index {
                Some(e) => Some(e.mode as i32),
                None => self.entry_at(&head_tree, &c.path)?.map(|e| e.mode),
            };
            work.push((c.path.clone(), self.store_worktree_file(&c.path, known)?));
            if staged(c.status) {
                staged_paths.push((c.path.clone(), in_index.as_ref().map(entry_of)));
            }
        }
        let work_tree = self.update_tree(&head_tree, &work)?;
        let index_tree = self.update_tree(&head_tree, &staged_paths)?;
        let sig = self.signature()?;
        let mut parents = vec![head_commit.clone()];
        if index_tree != head_tree.id() {
            let tree = self.repo.find_tree(index_tree).map_err(git_err)?;
            let staged_commit = self
                .repo
                .commit(
                    None,
                    &sig,
                    &sig,
                    &format!("index on {}: {}", self.branch(), short(head)),
                    &tree,
                    &[&head_commit],
                )
                .map_err(git_err)?;
            parents.push(self.repo.find_commit(staged_commit).map_err(git_err)?);
        }
        let tree = self.repo.find_tree(work_tree).map_err(git_err)?;
        let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        self.repo
            .commit(None, &sig, &sig, message, &tree, &parent_refs)
            .map_err(git_err)
    }

    pub(crate) fn refuse_conflicts(&self, index: &git2::Index, doing: &str) -> anyhow::Result<()> {
        if index.has_conflicts() {
            return Err(Hinted::error(
                format!("cannot {doing}: the index has unresolved conflicts"),
                "resolve them (edit, then git add) or git reset the conflicted paths first",
            ));
        }
        Ok(())
    }
}
