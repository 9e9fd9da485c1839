//! All git access goes through here (git2): the state of the working tree
//! recorded with each run, and the repository a life-harness round changes
//! (commits built in memory, review branches, landing, reverts), the
//! keep-if-better ratchet's keeps, snapshots and restores (`ratchet`), and
//! lanes, the linked worktrees many tries run in at once (`lane`: made and
//! removed by the git program itself).

use std::path::Path;

use git2::{Repository, StatusOptions};

use crate::kernel::journal::GitState;

mod base;
mod eol;
mod history;
mod inputs;
pub mod lane;
pub mod ratchet;
#[cfg(test)]
pub(crate) mod testing;

pub use base::diff_text;
pub use history::GitRound;
pub use inputs::ignored_inputs;

/// Each of `commits` (a full id or a prefix of one) as the repository
/// holding `dir` names it in full, when it holds that commit; `None` for
/// one it does not hold or that names more than one, and for every one
/// outside a repository.
pub fn full_commits(dir: &Path, commits: &[Option<String>]) -> Vec<Option<String>> {
    let mut r = Commits::new(dir);
    commits.iter().map(|c| r.full(c.as_deref()?)).collect()
}

/// Commits named by a prefix, resolved in the repository holding a
/// directory (none outside one), the latest answers remembered.
pub struct Commits {
    repo: Option<Repository>,
    known: std::collections::HashMap<String, Option<String>>,
}

impl Commits {
    /// Answers remembered at most.
    const REMEMBERED: usize = 1 << 14;

    pub fn new(dir: &Path) -> Commits {
        Commits {
            repo: Repository::discover(dir).ok(),
            known: Default::default(),
        }
    }

    /// The full id of the commit `c` (hex, a prefix) names, if any.
    pub fn full(&mut self, c: &str) -> Option<String> {
        let repo = self.repo.as_ref()?;
        if c.is_empty() || !c.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        if let Some(known) = self.known.get(c) {
            return known.clone();
        }
        // Looked up among the objects by prefix, never as a ref name: a
        // branch or tag named like hex is not the commit meant (and a
        // million rows' refs lookups would be most of an import's time).
        let found = repo
            .find_commit_by_prefix(c)
            .ok()
            .map(|commit| commit.id().to_string())
            .filter(|id| id.starts_with(&c.to_ascii_lowercase()));
        if self.known.len() >= Self::REMEMBERED {
            self.known.clear();
        }
        self.known.insert(c.to_string(), found.clone());
        found
    }
}

/// HEAD, branch and dirty flag of the repository holding `dir`, or `None`
/// outside a repository (or when it cannot be read). Changes under
/// `ignore` (arx's own state directory) do not make the tree dirty.
pub fn state(dir: &Path, ignore: &Path) -> Option<GitState> {
    let repo = Repository::discover(dir).ok()?;
    if repo.is_bare() {
        return None;
    }
    let head = repo.head().ok();
    let commit = head
        .as_ref()
        .and_then(|h| h.peel_to_commit().ok())
        .map(|c| c.id().to_string());
    let branch = head
        .as_ref()
        .filter(|h| h.is_branch())
        .and_then(|h| h.shorthand().map(str::to_string));
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .include_ignored(false)
        .exclude_submodules(true);
    let workdir = repo.workdir()?.canonicalize().ok()?;
    let ignore = ignore
        .canonicalize()
        .ok()
        .and_then(|p| p.strip_prefix(&workdir).ok().map(Path::to_path_buf));
    let dirty = repo
        .statuses(Some(&mut opts))
        .map(|statuses| {
            statuses.iter().any(|entry| match (entry.path(), &ignore) {
                (Some(p), Some(ig)) => !Path::new(p).starts_with(ig),
                _ => true,
            })
        })
        .unwrap_or(false);
    Some(GitState {
        head: commit,
        branch,
        dirty,
    })
}

/// A repository a round may change: not bare, on a branch with a commit,
/// and not in the middle of a merge, rebase or other operation.
pub struct RoundRepo {
    repo: git2::Repository,
    workdir: std::path::PathBuf,
    /// Full name of the current branch (`refs/heads/...`).
    pub branch_ref: String,
    /// The commit the current branch points at.
    pub head: git2::Oid,
    /// The tree of each commit looked up so far: libgit2 does not cache a
    /// commit larger than a few KiB (a round's message lists every entry),
    /// and reading and hashing it again for each path would make checks
    /// grow with the square of the entries.
    trees: std::cell::RefCell<std::collections::HashMap<git2::Oid, git2::Oid>>,
}

/// The round lock of a repository, released when dropped.
pub struct RoundLock(#[allow(dead_code)] std::fs::File);

/// A change to one path: new content (`None` deletes the file).
#[derive(Debug, Clone)]
pub struct Change {
    pub path: String,
    pub content: Option<Vec<u8>>,
}

/// What HEAD's tree holds at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKind {
    Absent,
    File,
    Executable,
    Symlink,
    Directory,
    Submodule,
}

fn git_err(e: git2::Error) -> anyhow::Error {
    anyhow::anyhow!("{}", e.message())
}

impl RoundRepo {
    /// Open the repository holding `dir`, refusing what a round must not touch.
    pub fn open(dir: &Path) -> anyhow::Result<RoundRepo> {
        Self::open_with(dir, true)
    }

    /// Open the repository holding `dir` to read it only (validating a
    /// patch): also in the middle of a merge or rebase, and on a detached
    /// HEAD, where a pre-commit hook may run.
    pub fn open_to_read(dir: &Path) -> anyhow::Result<RoundRepo> {
        Self::open_with(dir, false)
    }

    fn open_with(dir: &Path, to_change: bool) -> anyhow::Result<RoundRepo> {
        use crate::error::Hinted;
        let repo = Repository::discover(dir).map_err(|_| {
            Hinted::error(
                format!("{} is not inside a git repository", dir.display()),
                "rounds land as git commits: run arx round in a repository",
            )
        })?;
        if repo.is_bare() {
            return Err(Hinted::error(
                "the repository is bare",
                "run arx round in a clone with a working tree",
            ));
        }
        if to_change && repo.state() != git2::RepositoryState::Clean {
            return Err(Hinted::error(
                format!(
                    "the repository is in the middle of an operation ({:?})",
                    repo.state()
                ),
                "finish or abort the merge, rebase, cherry-pick or revert first",
            ));
        }
        let head = match repo.head() {
            Ok(h) => h,
            Err(e) if e.code() == git2::ErrorCode::UnbornBranch => {
                return Err(Hinted::error(
                    "the current branch has no commits yet",
                    "make a first commit, then apply rounds on top of it",
                ))
            }
            Err(e) => return Err(git_err(e)),
        };
        if to_change && !head.is_branch() {
            return Err(Hinted::error(
                "HEAD is detached",
                "check out a branch first (git switch <branch>)",
            ));
        }
        let branch_ref = head.name().unwrap_or("HEAD").to_string();
        let head_oid = head
            .target()
            .ok_or_else(|| anyhow::anyhow!("HEAD has no target"))?;
        drop(head);
        let workdir = repo
            .workdir()
            .ok_or_else(|| anyhow::anyhow!("the repository has no working tree"))?
            .to_path_buf();
        Ok(RoundRepo {
            repo,
            workdir,
            branch_ref,
            head: head_oid,
            trees: Default::default(),
        })
    }

    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// Is `commit` on the current branch (HEAD or an ancestor of it)?
    /// The branch is read again: another process may have moved it since
    /// the repository was opened.
    pub fn contains(&self, commit: git2::Oid) -> bool {
        let head = self
            .repo
            .refname_to_id(&self.branch_ref)
            .unwrap_or(self.head);
        head == commit || self.repo.graph_descendant_of(head, commit).unwrap_or(false)
    }

    /// Take the repository's round lock (`.git/arx-rounds.lock`), waiting
    /// for another arx process to release it: landings, reverts and the
    /// settling of round records happen one at a time. Held until the
    /// returned guard is dropped.
    pub fn lock_rounds(&self) -> anyhow::Result<RoundLock> {
        use anyhow::Context;
        let path = self.repo.path().join("arx-rounds.lock");
        let file = crate::io::state::open_no_follow(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true),
            &path,
        )?;
        file.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(RoundLock(file))
    }

    /// [`Self::lock_rounds`] for a command that only reads unless a round
    /// needs settling: `None` where the repository cannot be written (a
    /// read-only checkout), where no other process can land a round either.
    pub fn lock_rounds_to_read(&self) -> anyhow::Result<Option<RoundLock>> {
        match self.lock_rounds() {
            Ok(lock) => Ok(Some(lock)),
            Err(e) => {
                let read_only = e.chain().any(|c| {
                    c.downcast_ref::<std::io::Error>().is_some_and(|io| {
                        matches!(
                            io.kind(),
                            std::io::ErrorKind::ReadOnlyFilesystem
                                | std::io::ErrorKind::PermissionDenied
                        )
                    })
                });
                if read_only {
                    Ok(None)
                } else {
                    Err(e)
                }
            }
        }
    }

    /// The short name of the current branch.
    pub fn branch_name(&self) -> &str {
        self.branch_ref
            .strip_prefix("refs/heads/")
            .unwrap_or(&self.branch_ref)
    }

    /// The root tree of `commit` (its id remembered, see `trees`).
    fn commit_tree(&self, commit: git2::Oid) -> anyhow::Result<git2::Tree<'_>> {
        let known = self.trees.borrow().get(&commit).copied();
        let id = match known {
            Some(id) => id,
            None => {
                let id = self.repo.find_commit(commit).map_err(git_err)?.tree_id();
                self.trees.borrow_mut().insert(commit, id);
                id
            }
        };
        self.repo.find_tree(id).map_err(git_err)
    }

    /// What the tree of `commit` holds at `path`.
    pub fn tree_kind(&self, commit: git2::Oid, path: &str) -> anyhow::Result<TreeKind> {
        let tree = self.commit_tree(commit)?;
        let entry = match tree.get_path(Path::new(path)) {
            Ok(e) => e,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(TreeKind::Absent),
            Err(e) => return Err(git_err(e)),
        };
        Ok(match entry.filemode() {
            0o040000 => TreeKind::Directory,
            0o120000 => TreeKind::Symlink,
            0o160000 => TreeKind::Submodule,
            0o100755 => TreeKind::Executable,
            _ => TreeKind::File,
        })
    }

    /// Content of `path` in the tree of `commit` (`None` when absent).
    pub fn blob_at(&self, commit: git2::Oid, path: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let tree = self.commit_tree(commit)?;
        match tree.get_path(Path::new(path)) {
            Ok(e) => {
                let obj = e.to_object(&self.repo).map_err(git_err)?;
                Ok(obj.as_blob().map(|b| b.content().to_vec()))
            }
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(git_err(e)),
        }
    }

    /// The author and the committer of a round's commits, as git chooses
    /// them: `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL` (`GIT_COMMITTER_*`)
    /// over `user.name`/`user.email`, then `EMAIL` for the address. With
    /// no name or address, an error that says how to set one (git itself
    /// refuses to commit then).
    fn signatures(
        &self,
        when: i64,
    ) -> anyhow::Result<(git2::Signature<'static>, git2::Signature<'static>)> {
        let time = git2::Time::new(when, 0);
        let config = self.repo.config().ok();
        let get = |key: &str| config.as_ref().and_then(|c| c.get_string(key).ok());
        let env = |key: &str| std::env::var(key).ok().filter(|v| !v.trim().is_empty());
        let person = |role: &str| -> anyhow::Result<git2::Signature<'static>> {
            let name = env(&format!("GIT_{role}_NAME")).or_else(|| get("user.name"));
            let email = env(&format!("GIT_{role}_EMAIL"))
                .or_else(|| get("user.email"))
                .or_else(|| env("EMAIL"));
            match (name, email) {
                (Some(name), Some(email)) if !name.trim().is_empty() => {
                    git2::Signature::new(&name, &email, &time).map_err(git_err)
                }
                _ => Err(crate::error::Hinted::error(
                    "no git identity to commit the round with (user.name and user.email are not set)",
                    format!(
                        "set one as git takes it: git config user.name \"CI\" && git config user.email \"ci@example.com\", or GIT_{role}_NAME and GIT_{role}_EMAIL"
                    ),
                )),
            }
        };
        Ok((person("AUTHOR")?, person("COMMITTER")?))
    }

    /// A commit on top of `parent` with `changes` applied to its tree, built
    /// in memory: no branch, index or working tree is touched. Cost grows
    /// with the number and depth of the changed paths, not the tree's size.
    pub fn build_commit(
        &self,
        parent: git2::Oid,
        changes: &[Change],
        message: &str,
        when: i64,
    ) -> anyhow::Result<git2::Oid> {
        let parent_commit = self.repo.find_commit(parent).map_err(git_err)?;
        let base = parent_commit.tree().map_err(git_err)?;
        let mut update = git2::build::TreeUpdateBuilder::new();
        for change in changes {
            match &change.content {
                Some(bytes) => {
                    // The working tree's text checked in, as `git add` would.
                    let blob = self
                        .repo
                        .blob(&self.to_blob(&change.path, bytes))
                        .map_err(git_err)?;
                    let mode = match self.tree_kind(parent, &change.path)? {
                        TreeKind::Executable => git2::FileMode::BlobExecutable,
                        _ => git2::FileMode::Blob,
                    };
                    update.upsert(&change.path, blob, mode);
                }
                None => {
                    update.remove(&change.path);
                }
            }
        }
        let tree_id = update.create_updated(&self.repo, &base).map_err(git_err)?;
        let tree = self.repo.find_tree(tree_id).map_err(git_err)?;
        let (author, committer) = self.signatures(when)?;
        self.repo
            .commit(None, &author, &committer, message, &tree, &[&parent_commit])
            .map_err(git_err)
    }

    /// Point a new branch at `commit` (fails when it exists).
    pub fn create_branch(&self, name: &str, commit: git2::Oid) -> anyhow::Result<()> {
        let c = self.repo.find_commit(commit).map_err(git_err)?;
        self.repo.branch(name, &c, false).map_err(git_err)?;
        Ok(())
    }

    /// The commit a local branch points at (`None`: no such branch).
    pub fn branch_target(&self, name: &str) -> Option<git2::Oid> {
        self.repo
            .find_branch(name, git2::BranchType::Local)
            .ok()?
            .get()
            .target()
    }

    /// Remove a branch (no error when it is already gone).
    pub fn delete_branch(&self, name: &str) -> anyhow::Result<()> {
        match self.repo.find_branch(name, git2::BranchType::Local) {
            Ok(mut b) => b.delete().map_err(git_err),
            Err(_) => Ok(()),
        }
    }

    /// Write the tree of `commit` into `dir` (a scratch checkout for checks).
    pub fn export_tree(&self, commit: git2::Oid, dir: &Path) -> anyhow::Result<()> {
        write_tree(&self.repo, commit, dir)
    }

    /// The touched paths that have uncommitted changes (staged, unstaged or
    /// an untracked or ignored file in the way). One status scan of the
    /// tracked files for all the paths, so the cost does not grow with the
    /// square of their number.
    pub fn dirty_paths(&self, paths: &[&str]) -> anyhow::Result<Vec<String>> {
        let mut opts = StatusOptions::new();
        opts.include_untracked(false)
            .include_ignored(false)
            .exclude_submodules(true);
        let statuses = self.repo.statuses(Some(&mut opts)).map_err(git_err)?;
        let changed: std::collections::HashSet<String> = statuses
            .iter()
            .filter(|e| !e.status().is_empty() && e.status() != git2::Status::CURRENT)
            .filter_map(|e| e.path().map(str::to_string))
            .collect();
        let head_tree = self
            .repo
            .find_commit(self.head)
            .map_err(git_err)?
            .tree()
            .map_err(git_err)?;
        let mut dirty = Vec::new();
        for path in paths {
            let in_the_way = || {
                std::fs::symlink_metadata(self.workdir.join(path)).is_ok()
                    && head_tree.get_path(Path::new(path)).is_err()
            };
            if changed.contains(*path) || in_the_way() {
                dirty.push(path.to_string());
            }
        }
        Ok(dirty)
    }

    /// The paths a commit changes relative to its first parent.
    pub fn changed_paths(&self, commit: git2::Oid) -> anyhow::Result<Vec<String>> {
        let c = self.repo.find_commit(commit).map_err(git_err)?;
        let parent = c.parent(0).map_err(git_err)?;
        let diff = self
            .repo
            .diff_tree_to_tree(
                Some(&parent.tree().map_err(git_err)?),
                Some(&c.tree().map_err(git_err)?),
                None,
            )
            .map_err(git_err)?;
        let mut paths = Vec::new();
        for delta in diff.deltas() {
            for file in [delta.old_file(), delta.new_file()] {
                if let Some(p) = file.path().and_then(|p| p.to_str()) {
                    if !paths.iter().any(|x: &String| x == p) {
                        paths.push(p.to_string());
                    }
                }
            }
        }
        Ok(paths)
    }

    /// A commit on the current branch's HEAD undoing `commit` (built in
    /// memory; the caller lands it). Returns the commit and its changes.
    pub fn build_revert(
        &self,
        commit: git2::Oid,
        message: &str,
        when: i64,
    ) -> anyhow::Result<(git2::Oid, Vec<Change>)> {
        let target = self.repo.find_commit(commit).map_err(git_err)?;
        let ours = self.repo.find_commit(self.head).map_err(git_err)?;
        let on_branch = self.head == commit
            || self
                .repo
                .graph_descendant_of(self.head, commit)
                .map_err(git_err)?;
        if !on_branch {
            anyhow::bail!(
                "commit {commit} is not on {} (was the branch reset or switched?)",
                self.branch_name()
            );
        }
        let mut index = self
            .repo
            .revert_commit(&target, &ours, 0, None)
            .map_err(git_err)?;
        if index.has_conflicts() {
            anyhow::bail!("reverting conflicts with later changes to the same files");
        }
        let tree_id = index.write_tree_to(&self.repo).map_err(git_err)?;
        let tree = self.repo.find_tree(tree_id).map_err(git_err)?;
        let (author, committer) = self.signatures(when)?;
        let oid = self
            .repo
            .commit(None, &author, &committer, message, &tree, &[&ours])
            .map_err(git_err)?;
        let mut changes = Vec::new();
        for path in self.changed_paths(commit)? {
            changes.push(Change {
                content: self.blob_at(oid, &path)?,
                path,
            });
        }
        Ok((oid, changes))
    }
}

mod land;

/// Write the tree of `commit` of `repo` into `dir`: files with their
/// executable bit, symlinks, and submodules as empty directories.
pub(crate) fn write_tree(
    repo: &git2::Repository,
    commit: git2::Oid,
    dir: &Path,
) -> anyhow::Result<()> {
    let tree = repo
        .find_commit(commit)
        .map_err(git_err)?
        .tree()
        .map_err(git_err)?;
    let mut failure: Option<anyhow::Error> = None;
    tree.walk(git2::TreeWalkMode::PreOrder, |root, entry| {
        let path = dir.join(root).join(entry.name().unwrap_or_default());
        let result = (|| -> anyhow::Result<()> {
            match entry.filemode() {
                0o040000 => std::fs::create_dir_all(&path)?,
                0o160000 => std::fs::create_dir_all(&path)?,
                mode => {
                    let obj = entry.to_object(repo).map_err(git_err)?;
                    let bytes = obj
                        .as_blob()
                        .map(|b| b.content().to_vec())
                        .unwrap_or_default();
                    if mode == 0o120000 {
                        let target = String::from_utf8_lossy(&bytes).into_owned();
                        std::os::unix::fs::symlink(target, &path)?;
                    } else {
                        std::fs::write(&path, &bytes)?;
                        if mode == 0o100755 {
                            use std::os::unix::fs::PermissionsExt;
                            std::fs::set_permissions(
                                &path,
                                std::fs::Permissions::from_mode(0o755),
                            )?;
                        }
                    }
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => git2::TreeWalkResult::Ok,
            Err(e) => {
                failure = Some(e);
                git2::TreeWalkResult::Abort
            }
        }
    })
    .map_err(git_err)
    .or_else(|e| if failure.is_some() { Ok(()) } else { Err(e) })?;
    match failure {
        Some(e) => Err(e.context(format!(
            "cannot write a scratch checkout to {}",
            dir.display()
        ))),
        None => Ok(()),
    }
}
