//! What the crate's tests share to set up repositories: the git program
//! run in a directory, as a fixed author, its output trimmed.

use std::path::Path;
use std::process::Command;

/// `git ARGS` in `dir` as author and committer `t`; its standard output,
/// trimmed. Panics (the test fails) when git fails.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
