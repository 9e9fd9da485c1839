//! Git's filters and attributes, applied as `git add` and `git checkout`
//! apply them, and submodules, moved as `git submodule update` moves them. libgit2 converts line endings (`text`, `eol`,
//! `core.autocrlf`) but runs no filter driver (Git LFS, any
//! `filter.<name>.clean`/`smudge`): for a path with one, the git program
//! itself stores the file (`git hash-object -w --path`) and writes it back
//! (`git cat-file --filters --path`).

use std::process::{Command, Stdio};

use git2::{AttrCheckFlags, AttrValue, Oid};

use super::RatchetRepo;
use crate::error::Hinted;

impl RatchetRepo {
    /// Does a filter driver (the `filter` attribute, as Git LFS sets it)
    /// apply to `path`?
    pub(crate) fn has_filter_driver(&self, path: &str) -> bool {
        let value = self
            .repo
            .get_attr(
                &super::fs_path(path),
                "filter",
                AttrCheckFlags::FILE_THEN_INDEX,
            )
            .ok()
            .flatten();
        matches!(AttrValue::from_string(value), AttrValue::String(_))
    }

    /// Does git convert `path` on its way into the working tree (a filter
    /// driver, `text`/`eol` attributes, `core.autocrlf`)? Such a file is
    /// written as `git checkout` writes it.
    pub(crate) fn converted(&self, path: &str) -> bool {
        if self.has_filter_driver(path) {
            return true;
        }
        let attr = |name: &str| {
            let value = self
                .repo
                .get_attr(&super::fs_path(path), name, AttrCheckFlags::FILE_THEN_INDEX)
                .ok()
                .flatten();
            AttrValue::from_string(value)
        };
        if matches!(attr("text"), AttrValue::False) {
            return false;
        }
        if matches!(attr("eol"), AttrValue::String(_)) {
            return true;
        }
        let autocrlf = self
            .repo
            .config()
            .and_then(|c| c.get_string("core.autocrlf"))
            .unwrap_or_default();
        autocrlf == "true"
    }

    /// The blob `git add` stores for the working tree's file at `path`,
    /// through its filter driver.
    pub(crate) fn clean_blob(&self, path: &str) -> anyhow::Result<Oid> {
        let os = super::fs_path(path);
        let os = os.as_os_str();
        let out = self.git(&[
            "hash-object".as_ref(),
            "-w".as_ref(),
            "--path".as_ref(),
            os,
            "--".as_ref(),
            os,
        ])?;
        let text = String::from_utf8_lossy(&out);
        Oid::from_str(text.trim())
            .map_err(|_| anyhow::anyhow!("git hash-object gave no object id for {path}"))
    }

    /// The bytes `git checkout` writes at `path` for `blob`, through its
    /// filters and attributes.
    pub(crate) fn smudged(&self, path: &str, blob: Oid) -> anyhow::Result<Vec<u8>> {
        let spec = blob.to_string();
        let os = super::fs_path(path);
        self.git(&[
            "cat-file".as_ref(),
            "--filters".as_ref(),
            "--path".as_ref(),
            os.as_os_str(),
            spec.as_ref(),
        ])
    }

    /// The commit the submodule at `path` has checked out (`None`: not a
    /// checked-out repository).
    pub(crate) fn submodule_head(&self, path: &str) -> Option<Oid> {
        let sub = git2::Repository::open(self.workdir.join(super::fs_path(path))).ok()?;
        let head = sub.head().ok()?.target();
        head
    }

    /// Check the submodule at `path` out at `commit` (detached), as `git
    /// submodule update` does.
    pub(crate) fn checkout_submodule(&self, path: &str, commit: Oid) -> anyhow::Result<()> {
        let spec = commit.to_string();
        self.git_in(
            &self.workdir.join(super::fs_path(path)),
            &[
                "checkout".as_ref(),
                "-q".as_ref(),
                "--detach".as_ref(),
                spec.as_ref(),
            ],
        )
        .map(|_| ())
    }

    /// What inside the working tree no candidate can hold, with why:
    /// a submodule with changes of its own or checked out at another
    /// commit than the one recorded, a nested repository that is not a
    /// submodule.
    pub fn nested_problems(&self) -> anyhow::Result<Vec<(String, String)>> {
        let mut out = Vec::new();
        let submodules = self.repo.submodules().map_err(crate::io::git::git_err)?;
        for sub in submodules {
            let path = super::carry(sub.path().as_os_str().as_encoded_bytes());
            let Ok(status) = self
                .repo
                .submodule_status(&path, git2::SubmoduleIgnore::None)
            else {
                continue;
            };
            use git2::SubmoduleStatus as S;
            if status.intersects(S::WD_INDEX_MODIFIED | S::WD_WD_MODIFIED | S::WD_UNTRACKED) {
                out.push((
                    path,
                    "a submodule with uncommitted changes inside".to_string(),
                ));
            }
        }
        // Only where the scan's first pass suspects a change: the cost
        // grows with the changes, not with the repository.
        let suspects = self.suspects()?;
        if suspects.as_ref().is_some_and(Vec::is_empty) {
            return Ok(out);
        }
        let mut opts = git2::StatusOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .exclude_submodules(true);
        if let Some(paths) = &suspects {
            opts.disable_pathspec_match(true);
            for path in paths {
                opts.pathspec(super::git_bytes(path));
            }
        }
        let statuses = self
            .repo
            .statuses(Some(&mut opts))
            .map_err(crate::io::git::git_err)?;
        for entry in statuses.iter() {
            let path = super::carry(entry.path_bytes());
            if let Some(dir) = path.strip_suffix('/') {
                if self.is_own(dir) || !self.workdir.join(super::fs_path(dir)).join(".git").exists()
                {
                    continue;
                }
                out.push((
                    dir.to_string(),
                    "a nested repository that is not a submodule".to_string(),
                ));
            }
        }
        Ok(out)
    }

    /// Run the git program in the working tree; its stdout.
    fn git(&self, args: &[&std::ffi::OsStr]) -> anyhow::Result<Vec<u8>> {
        self.git_in(&self.workdir, args)
    }

    /// Run the git program in `dir`; its stdout.
    fn git_in(&self, dir: &std::path::Path, args: &[&std::ffi::OsStr]) -> anyhow::Result<Vec<u8>> {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                Hinted::error(
                    format!("cannot run git: {e}"),
                    "a path with a filter driver (such as Git LFS) needs the git program on PATH",
                )
            })?;
        if !out.status.success() {
            anyhow::bail!(
                "git {} failed: {}",
                args.join(std::ffi::OsStr::new(" ")).to_string_lossy(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(out.stdout)
    }
}
