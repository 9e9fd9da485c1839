//! Git's filters and attributes, applied as `git add` and `git checkout`
//! apply them. libgit2 converts line endings (`text`, `eol`,
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
                std::path::Path::new(path),
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
                .get_attr(
                    std::path::Path::new(path),
                    name,
                    AttrCheckFlags::FILE_THEN_INDEX,
                )
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
        let out = self.git(&["hash-object", "-w", "--path", path, "--", path])?;
        let text = String::from_utf8_lossy(&out);
        Oid::from_str(text.trim())
            .map_err(|_| anyhow::anyhow!("git hash-object gave no object id for {path}"))
    }

    /// The bytes `git checkout` writes at `path` for `blob`, through its
    /// filters and attributes.
    pub(crate) fn smudged(&self, path: &str, blob: Oid) -> anyhow::Result<Vec<u8>> {
        let spec = blob.to_string();
        self.git(&["cat-file", "--filters", "--path", path, &spec])
    }

    /// Run the git program in the working tree; its stdout.
    fn git(&self, args: &[&str]) -> anyhow::Result<Vec<u8>> {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.workdir)
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
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(out.stdout)
    }
}
