//! The keep-if-better ratchet's side of git: what changed since the last
//! kept commit (the candidate), keeping it as one commit, setting it aside
//! under a ref and putting the branch and working tree back to the kept
//! commit, and putting a set-aside candidate back.
//!
//! The state directory (arx's own files, `.arx/` by default) and the
//! agent's notes (`NOTES.md` by default) are never part of a candidate:
//! not committed by a keep, not stored by a snapshot, and not touched by a
//! restore, even when they are tracked in git.
//!
//! Cost grows with the number of changed paths, not with the size of the
//! repository: changed paths come from one scan of the working tree against
//! the index's stat cache (unchanged files are not read; see `scan.rs`),
//! trees are built by updating only the changed directories, and only
//! changed files are written or removed. The index is read once and
//! written at most once per operation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository, Status};

pub use durable::{Built, Finished};
pub use measured::{Measured, Since, Undone};
pub use replay::Replay;
pub use stored::{StoredRef, DISCARDED_PREFIX};

use super::git_err;
use crate::error::Hinted;

mod batch;
mod durable;
mod filters;
mod measured;
mod ops;
mod replay;
mod restore;
mod scan;
mod scope;
mod stored;
mod takeup;
mod tree;
mod worktree;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_durable;
#[cfg(test)]
mod tests_restore;
#[cfg(test)]
mod tests_scan;

pub(crate) use scope::{carry, fs_path, git_bytes};

/// Is `path` (relative, `/`-separated) a configuration file of arx, an
/// `arx.toml` at any depth? Configuration is never part of a candidate:
/// the objective a try decides by is not one of the changes it tries, so a
/// keep does not commit it, a discard neither stores nor undoes it, and a
/// commit that changes nothing else is not a candidate's commit.
pub(crate) fn is_config(path: &str) -> bool {
    path.rsplit('/').next() == Some(crate::io::config::FILE_NAME)
}

/// A repository the ratchet may change: not bare, on a branch with a
/// commit, and not in the middle of a merge, rebase or other operation.
pub struct RatchetRepo {
    repo: Repository,
    workdir: PathBuf,
    /// Full name of the current branch (`refs/heads/...`).
    branch_ref: String,
    /// The state directory relative to the working tree, `/`-separated
    /// (`None` when it lies outside the working tree).
    state: Option<String>,
    /// `core.fileMode`: is the executable bit of files trusted?
    filemode: bool,
    /// The agent's notes (`[objective] notes`): like the state directory,
    /// never part of a candidate.
    notes: globset::GlobSet,
    /// What earlier tries' runs wrote (path, blob id or `None` when they
    /// removed it): left out of a candidate while it holds that.
    outputs: std::sync::Mutex<std::collections::HashMap<String, Option<Oid>>>,
    /// The project's directory relative to the working tree,
    /// `/`-separated, when it is a subdirectory (an `arx.toml` there):
    /// the candidate is the change under it, and nothing outside it is
    /// committed, stored or undone.
    scope: Option<String>,
    /// Was the project's directory given (the runs start there)?
    scope_given: bool,
}

/// Everything that changed since the kept commit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    /// The kept commit (full hex id).
    pub kept: String,
    /// HEAD when the candidate was read (full hex id).
    pub head: String,
    /// Commits on the branch since `kept`, oldest first, without the ones
    /// that change only the state directory.
    pub commits: Vec<String>,
    /// Every path changed relative to `kept`, committed or in the working
    /// tree (staged, unstaged, untracked and not ignored), the state
    /// directory excluded; sorted.
    pub paths: Vec<String>,
    /// Are there staged, unstaged or untracked changes outside the state
    /// directory?
    pub dirty: bool,
    /// The working-tree paths behind `dirty` (staged, unstaged, untracked),
    /// sorted: what a keep commits.
    pub changed: Vec<String>,
    /// Configuration files (`arx.toml`) changed relative to `kept`,
    /// committed or in the working tree, sorted. Never part of the
    /// candidate: not in `paths`, not committed by a keep, not stored or
    /// undone by a discard.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<String>,
}

impl Candidate {
    /// Nothing changed since the kept commit (state directory aside).
    pub fn is_empty(&self) -> bool {
        self.commits.is_empty() && self.paths.is_empty()
    }
}

/// What a restore did to the working tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Restored {
    /// Files written back with the kept commit's content, sorted.
    pub restored: Vec<String>,
    /// Files the candidate created, removed, sorted.
    pub removed: Vec<String>,
}

/// One changed path from the status scan.
pub(crate) struct Changed {
    pub path: String,
    pub status: Status,
}

impl RatchetRepo {
    /// Open the repository holding `cwd`; `state_dir` (absolute, or
    /// relative to `cwd`; it need not exist yet) is excluded everywhere.
    ///
    /// Refuses, changing nothing: a directory outside any repository, a
    /// bare repository, a merge, rebase, cherry-pick, revert or bisect in
    /// progress, a branch with no commit yet, a detached HEAD.
    pub fn open(cwd: &Path, state_dir: &Path) -> anyhow::Result<RatchetRepo> {
        let repo = Repository::discover(cwd).map_err(|_| {
            Hinted::error(
                format!("{} is not inside a git repository", cwd.display()),
                "arx try keeps and discards changes as git commits: run it in a repository (git init, then a first commit)",
            )
        })?;
        if repo.is_bare() {
            return Err(Hinted::error(
                "the repository is bare",
                "run arx try in a clone with a working tree",
            ));
        }
        let operation = match repo.state() {
            git2::RepositoryState::Clean => None,
            git2::RepositoryState::Merge => Some("a merge"),
            git2::RepositoryState::Revert | git2::RepositoryState::RevertSequence => {
                Some("a revert")
            }
            git2::RepositoryState::CherryPick | git2::RepositoryState::CherryPickSequence => {
                Some("a cherry-pick")
            }
            git2::RepositoryState::Bisect => Some("a bisect"),
            git2::RepositoryState::Rebase
            | git2::RepositoryState::RebaseInteractive
            | git2::RepositoryState::RebaseMerge => Some("a rebase"),
            git2::RepositoryState::ApplyMailbox | git2::RepositoryState::ApplyMailboxOrRebase => {
                Some("git am")
            }
        };
        if let Some(operation) = operation {
            return Err(Hinted::error(
                format!("the repository is in the middle of {operation}"),
                "finish or abort it first (for example git merge --abort, git rebase --abort, git bisect reset)",
            ));
        }
        let head = match repo.head() {
            Ok(h) => h,
            Err(e) if e.code() == git2::ErrorCode::UnbornBranch => {
                return Err(Hinted::error(
                    "the current branch has no commits yet",
                    "make a first commit (git add -A && git commit -m start): it becomes the first kept commit",
                ))
            }
            Err(e) => return Err(git_err(e)),
        };
        if !head.is_branch() {
            return Err(Hinted::error(
                "HEAD is detached",
                "check out a branch first (git switch <branch>, or git switch -c <new-branch>)",
            ));
        }
        let branch_ref = head.name().unwrap_or_default().to_string();
        drop(head);
        let workdir = repo
            .workdir()
            .ok_or_else(|| anyhow::anyhow!("the repository has no working tree"))?
            .to_path_buf();
        let state = state_prefix(&workdir, &cwd.join(state_dir))?;
        let filemode = repo
            .config()
            .and_then(|c| c.get_bool("core.filemode"))
            .unwrap_or(true);
        let default_notes: Vec<String> = crate::kernel::objective::DEFAULT_NOTES
            .iter()
            .map(|n| n.to_string())
            .collect();
        Ok(RatchetRepo {
            repo,
            workdir,
            branch_ref,
            state,
            filemode,
            notes: protection_globs(&default_notes)?,
            outputs: Default::default(),
            scope: None,
            scope_given: false,
        })
    }

    /// The files earlier tries' runs wrote (path, blob id, `None` when
    /// they removed it): each is left out of a candidate while the
    /// working tree holds what they wrote.
    pub fn set_outputs(&mut self, outputs: &[(String, Option<String>)]) {
        self.outputs
            .get_mut()
            .map(|o| o.clear())
            .unwrap_or_default();
        self.add_outputs(outputs);
    }

    /// [`RatchetRepo::set_outputs`] of more outputs, found while a try
    /// runs (a path's entry replaced).
    pub fn add_outputs(&self, outputs: &[(String, Option<String>)]) {
        let found: Vec<(String, Option<Oid>)> = outputs
            .iter()
            .filter_map(|(p, b)| match b {
                Some(b) => Oid::from_str(b).ok().map(|o| (p.clone(), Some(o))),
                None => Some((p.clone(), None)),
            })
            .collect();
        if let Ok(mut known) = self.outputs.lock() {
            known.extend(found);
        }
    }

    /// The working tree's content at each of `paths`, as
    /// [`RatchetRepo::set_outputs`] takes it: a regular file's blob id
    /// (hashed, not stored), `None` when there is no file; symlinks and
    /// directories are left out.
    pub fn output_entries(&self, paths: &[String]) -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        for path in paths {
            let full = self.workdir.join(fs_path(path));
            match std::fs::symlink_metadata(&full) {
                Err(_) => out.push((path.clone(), None)),
                Ok(m) if m.is_file() => {
                    if let Ok(oid) = Oid::hash_file(git2::ObjectType::Blob, &full) {
                        out.push((path.clone(), Some(oid.to_string())));
                    }
                }
                Ok(_) => {}
            }
        }
        out
    }

    /// Does the working tree hold, at `path`, what a try's runs wrote
    /// there (an output, never part of a candidate)?
    pub(crate) fn is_output(&self, path: &str) -> bool {
        let Some(recorded) = self
            .outputs
            .lock()
            .ok()
            .and_then(|known| known.get(path).copied())
        else {
            return false;
        };
        let full = self.workdir.join(fs_path(path));
        match (recorded, std::fs::symlink_metadata(&full)) {
            (None, Err(e)) => e.kind() == std::io::ErrorKind::NotFound,
            (Some(oid), Ok(m)) if m.is_file() => {
                Oid::hash_file(git2::ObjectType::Blob, &full).is_ok_and(|o| o == oid)
            }
            _ => false,
        }
    }

    /// The agent's notes: files matched by `patterns` (gitignore-style, as
    /// `protect` is written) are never part of a candidate: not committed
    /// by a keep, not stored or undone by a discard. `NOTES.md` until
    /// told otherwise.
    pub fn set_notes(&mut self, patterns: &[String]) -> anyhow::Result<()> {
        self.notes = protection_globs(patterns)?;
        Ok(())
    }

    /// Full hex id of HEAD.
    pub fn head(&self) -> String {
        self.head_oid().map(|o| o.to_string()).unwrap_or_default()
    }

    /// The short name of the current branch.
    pub fn branch(&self) -> &str {
        self.branch_ref
            .strip_prefix("refs/heads/")
            .unwrap_or(&self.branch_ref)
    }

    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// Is `kept` HEAD or an ancestor of it?
    pub fn descends_from(&self, kept: &str) -> anyhow::Result<bool> {
        let kept = self.commit_id(kept)?;
        let head = self.head_oid()?;
        Ok(head == kept || self.repo.graph_descendant_of(head, kept).map_err(git_err)?)
    }

    /// The candidate relative to `kept`, which must be HEAD or an ancestor
    /// of it.
    pub fn candidate(&self, kept: &str) -> anyhow::Result<Candidate> {
        let kept_oid = self.commit_id(kept)?;
        let head = self.head_oid()?;
        self.require_descends(head, kept_oid)?;
        let commits = self.candidate_commits(kept_oid, head)?;
        let (config_changed, changed): (Vec<Changed>, Vec<Changed>) = self
            .scan_with_config(self.suspects()?)?
            .into_iter()
            .partition(|c| is_config(&c.path));
        let mut paths: BTreeSet<String> = changed.iter().map(|c| c.path.clone()).collect();
        let mut config: BTreeSet<String> = config_changed.into_iter().map(|c| c.path).collect();
        if head != kept_oid {
            let kept_tree = self.tree_of(kept_oid)?;
            let head_tree = self.tree_of(head)?;
            for path in self.diff_with_config(&kept_tree, &head_tree)? {
                if is_config(&path) {
                    config.insert(path);
                } else {
                    paths.insert(path);
                }
            }
        }
        Ok(Candidate {
            kept: kept_oid.to_string(),
            head: head.to_string(),
            commits: commits.iter().map(Oid::to_string).collect(),
            paths: paths.into_iter().collect(),
            dirty: !changed.is_empty(),
            changed: changed.into_iter().map(|c| c.path).collect(),
            config: config.into_iter().collect(),
        })
    }

    /// The candidate's paths matched by any of `patterns` (gitignore-style:
    /// a pattern without a slash, such as `prepare.py` or `*.lock`, matches
    /// a file or directory of that name at any depth; one with a slash,
    /// such as `eval/**` or `/setup.cfg`, is anchored at the top of the
    /// working tree; a directory protects everything below it; `*` does
    /// not cross a `/`, `**` does).
    pub fn protected_paths(
        &self,
        candidate: &Candidate,
        patterns: &[String],
    ) -> anyhow::Result<Vec<String>> {
        let set = protection_globs(patterns)?;
        Ok(candidate
            .paths
            .iter()
            .filter(|p| set.is_match(self.in_project(p)))
            .cloned()
            .collect())
    }

    /// The commit `refname` points at, if the ref exists.
    pub fn ref_target(&self, refname: &str) -> Option<String> {
        self.repo
            .refname_to_id(refname)
            .ok()
            .map(|oid| oid.to_string())
    }

    /// Remove a ref (no error when it is already gone).
    pub fn delete_ref(&self, refname: &str) -> anyhow::Result<()> {
        match self.repo.find_reference(refname) {
            Ok(mut r) => r.delete().map_err(git_err),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(()),
            Err(e) => Err(git_err(e)),
        }
    }

    // ----- shared helpers -------------------------------------------------

    pub(crate) fn head_oid(&self) -> anyhow::Result<Oid> {
        self.repo.refname_to_id(&self.branch_ref).map_err(|e| {
            anyhow::anyhow!("cannot read the branch {}: {}", self.branch(), e.message())
        })
    }

    /// A commit named by a full or abbreviated hex id, a ref name or any
    /// revision git understands.
    pub(crate) fn commit_id(&self, spec: &str) -> anyhow::Result<Oid> {
        self.repo
            .revparse_single(spec)
            .and_then(|o| o.peel_to_commit())
            .map(|c| c.id())
            .map_err(|_| {
                Hinted::error(
                    format!("commit {spec} is not in this repository"),
                    "was the repository replaced or the commit garbage-collected? check the journal's kept commit",
                )
            })
    }

    pub(crate) fn tree_of(&self, commit: Oid) -> anyhow::Result<git2::Tree<'_>> {
        self.repo
            .find_commit(commit)
            .and_then(|c| c.tree())
            .map_err(git_err)
    }

    pub(crate) fn require_descends(&self, head: Oid, kept: Oid) -> anyhow::Result<()> {
        if head == kept || self.repo.graph_descendant_of(head, kept).map_err(git_err)? {
            return Ok(());
        }
        Err(Hinted::error(
            format!(
                "{} (at {}) does not descend from the kept commit {}",
                self.branch(),
                short(head),
                short(kept)
            ),
            "the branch was reset or switched since the last keep: check out the branch that holds the kept commit",
        ))
    }

    /// Is `path` (relative, `/`-separated) the state directory or inside it?
    pub(crate) fn in_state(&self, path: &str) -> bool {
        inside(self.state.as_deref(), path)
    }

    /// Is `path` arx's or the agent's own (the state directory, the
    /// notes), or outside the project's directory: never part of a
    /// candidate?
    pub(crate) fn is_own(&self, path: &str) -> bool {
        self.in_state(path) || self.notes.is_match(path) || self.out_of_scope(path)
    }

    /// Commits from `kept` (excluded) to `head`, oldest first, without the
    /// ones whose changes (against their first parent) all lie in the state
    /// directory.
    pub(crate) fn candidate_commits(&self, kept: Oid, head: Oid) -> anyhow::Result<Vec<Oid>> {
        if kept == head {
            return Ok(Vec::new());
        }
        let mut walk = self.repo.revwalk().map_err(git_err)?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
            .map_err(git_err)?;
        walk.push(head).map_err(git_err)?;
        walk.hide(kept).map_err(git_err)?;
        let mut commits = Vec::new();
        for oid in walk {
            let oid = oid.map_err(git_err)?;
            let commit = self.repo.find_commit(oid).map_err(git_err)?;
            let tree = commit.tree().map_err(git_err)?;
            let touched = match commit.parent(0) {
                Ok(parent) => self.diff_trees(&parent.tree().map_err(git_err)?, &tree)?,
                Err(_) => self.tree_paths(&tree)?,
            };
            if !touched.is_empty() {
                commits.push(oid);
            }
        }
        Ok(commits)
    }

    /// Refuse when anything outside the state directory is staged,
    /// modified or untracked.
    pub(crate) fn require_clean(&self, doing: &str) -> anyhow::Result<()> {
        let changed = self.scan()?;
        if changed.is_empty() {
            return Ok(());
        }
        let shown: Vec<&str> = changed.iter().take(5).map(|c| c.path.as_str()).collect();
        let more = if changed.len() > shown.len() {
            format!(" and {} more", changed.len() - shown.len())
        } else {
            String::new()
        };
        Err(Hinted::error(
            format!(
                "cannot {doing}: the working tree has changes ({}{more})",
                shown.join(", ")
            ),
            "commit, stash or discard them first (the set-aside changes stay under their ref until then)",
        ))
    }

    /// Author and committer: `user.name` and `user.email` from git's
    /// configuration, or `arx <arx@localhost>`.
    pub(crate) fn signature(&self) -> anyhow::Result<git2::Signature<'static>> {
        let config = self.repo.config().ok();
        let get = |key: &str| config.as_ref().and_then(|c| c.get_string(key).ok());
        let name = get("user.name").unwrap_or_else(|| "arx".to_string());
        let email = get("user.email").unwrap_or_else(|| "arx@localhost".to_string());
        git2::Signature::now(&name, &email).map_err(git_err)
    }
}

/// Is `path` the directory `dir` or inside it (both relative,
/// `/`-separated)?
pub(crate) fn inside(dir: Option<&str>, path: &str) -> bool {
    match dir {
        Some(d) => {
            path == d
                || (path.len() > d.len() && path.starts_with(d) && path.as_bytes()[d.len()] == b'/')
        }
        None => false,
    }
}

/// The state directory relative to `workdir`, `/`-separated, or `None`
/// when it lies outside. Refuses the working tree itself.
pub(crate) fn state_prefix(workdir: &Path, state_dir: &Path) -> anyhow::Result<Option<String>> {
    let workdir = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    let state = canonical_lenient(state_dir);
    let Ok(rel) = state.strip_prefix(&workdir) else {
        return Ok(None);
    };
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        return Err(Hinted::error(
            format!(
                "the state directory {} is the working tree itself",
                state_dir.display()
            ),
            "use a directory inside it, such as .arx",
        ));
    }
    Ok(Some(parts.join("/")))
}

/// `path` made absolute with `.`, `..` and symlinks resolved as far as it
/// exists; the rest is appended as written.
fn canonical_lenient(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        if let Ok(mut out) = existing.canonicalize() {
            for part in rest.iter().rev() {
                if part == ".." {
                    out.pop();
                } else if part != "." {
                    out.push(part);
                }
            }
            return out;
        }
        let Some(last) = existing.file_name().map(|n| n.to_os_string()) else {
            return path.to_path_buf();
        };
        rest.push(last);
        if !existing.pop() {
            return path.to_path_buf();
        }
    }
}

/// Those of `paths` (from the repository root, `/`-separated) that
/// `patterns` protect, with the rules of [`RatchetRepo::protected_paths`].
pub fn protected_among(patterns: &[String], paths: &[String]) -> anyhow::Result<Vec<String>> {
    let set = protection_globs(patterns)?;
    Ok(paths
        .iter()
        .filter(|p| set.is_match(p.as_str()))
        .cloned()
        .collect())
}

/// The glob set for protected-path patterns (see
/// [`RatchetRepo::protected_paths`]).
fn protection_globs(patterns: &[String]) -> anyhow::Result<globset::GlobSet> {
    let mut builder = globset::GlobSetBuilder::new();
    for raw in patterns {
        let mut pattern = raw.trim();
        if pattern.is_empty() {
            continue;
        }
        while let Some(rest) = pattern.strip_prefix("./") {
            pattern = rest;
        }
        let dir_only = pattern.ends_with('/');
        let pattern = pattern.trim_end_matches('/');
        let anchored = pattern.starts_with('/') || pattern.contains('/');
        let pattern = pattern.trim_start_matches('/');
        if pattern.is_empty() {
            continue;
        }
        let base = if anchored {
            pattern.to_string()
        } else {
            format!("**/{pattern}")
        };
        let mut globs = vec![format!("{base}/**")];
        if !dir_only {
            globs.push(base);
        }
        for glob in globs {
            let glob = globset::GlobBuilder::new(&glob)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| {
                    Hinted::error(
                        format!("the protected-path pattern {raw:?} is not valid: {e}"),
                        "use gitignore-style patterns such as prepare.py, eval/**, *.lock or data/",
                    )
                })?;
            builder.add(glob);
        }
    }
    builder
        .build()
        .map_err(|e| anyhow::anyhow!("cannot build the protected-path patterns: {e}"))
}

/// The first 12 hex digits of a commit id.
pub(crate) fn short(oid: Oid) -> String {
    let mut s = oid.to_string();
    s.truncate(12);
    s
}
