//! All git access goes through here (git2). For now: the state of the
//! working tree recorded with each run.

use std::path::Path;

use git2::{Repository, StatusOptions};

use crate::kernel::journal::GitState;

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
