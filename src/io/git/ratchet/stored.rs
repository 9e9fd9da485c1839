//! What the ratchet stores in the repository besides the branch: the
//! candidates set aside under `refs/arx/discarded/`, with their age and
//! the bytes they hold that their parent does not, listed and pruned; and
//! the files of a candidate too large to keep.

use std::os::unix::fs::MetadataExt;

use git2::Oid;

use super::{Candidate, RatchetRepo};
use crate::io::git::git_err;

/// Where set-aside candidates are stored.
pub const DISCARDED_PREFIX: &str = "refs/arx/discarded/";

/// One set-aside candidate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StoredRef {
    /// The full ref name.
    pub refname: String,
    /// The snapshot commit (full hex id).
    pub commit: String,
    /// When it was stored (the snapshot's commit time, Unix seconds).
    pub time: i64,
    /// The paths it changes relative to the commit it was taken on.
    pub paths: usize,
    /// The bytes of the files it changes (what it adds to the repository,
    /// at most).
    pub bytes: u64,
}

impl RatchetRepo {
    /// Every ref under `refs/arx/discarded/`, oldest first.
    pub fn stored_refs(&self) -> anyhow::Result<Vec<StoredRef>> {
        let mut out = Vec::new();
        let refs = self
            .repo
            .references_glob(&format!("{DISCARDED_PREFIX}*"))
            .map_err(git_err)?;
        let odb = self.repo.odb().map_err(git_err)?;
        for r in refs {
            let r = r.map_err(git_err)?;
            let Some(name) = r.name().map(str::to_string) else {
                continue;
            };
            let Ok(commit) = r.peel_to_commit() else {
                continue;
            };
            let tree = commit.tree().map_err(git_err)?;
            let paths = match commit.parent(0) {
                Ok(p) => self.diff_trees(&p.tree().map_err(git_err)?, &tree)?,
                Err(_) => self.tree_paths(&tree)?,
            };
            let mut bytes = 0u64;
            for path in &paths {
                if let Some(e) = self.entry_at(&tree, path)? {
                    if let Ok((size, _)) = odb.read_header(e.id) {
                        bytes += size as u64;
                    }
                }
            }
            out.push(StoredRef {
                refname: name,
                commit: commit.id().to_string(),
                time: commit.time().seconds(),
                paths: paths.len(),
                bytes,
            });
        }
        out.sort_by(|a, b| (a.time, &a.refname).cmp(&(b.time, &b.refname)));
        Ok(out)
    }

    /// The candidate's working-tree files larger than `limit` bytes, with
    /// their sizes, sorted.
    pub fn large_files(
        &self,
        candidate: &Candidate,
        limit: u64,
    ) -> anyhow::Result<Vec<(String, u64)>> {
        let mut out = Vec::new();
        for path in &candidate.changed {
            if let Ok(meta) = std::fs::symlink_metadata(self.workdir.join(super::fs_path(path))) {
                if meta.is_file() && meta.size() > limit {
                    out.push((path.clone(), meta.size()));
                }
            }
        }
        Ok(out)
    }
}

impl RatchetRepo {
    /// One hash of the files matched by `patterns` (gitignore-style, as
    /// `protect` takes them), ignored by git or not, the state directory
    /// and `.git` aside: their paths and bytes, in path order. `None` when
    /// no pattern is given.
    pub fn hash_inputs(&self, patterns: &[String]) -> anyhow::Result<Option<String>> {
        use sha2::{Digest, Sha256};
        if patterns.is_empty() {
            return Ok(None);
        }
        let globs = super::protection_globs(patterns)?;
        let mut files = Vec::new();
        let (top, prefix) = self.project_walk();
        self.walk_inputs(&top, &prefix, &globs, &mut files)?;
        files.sort();
        let mut hasher = Sha256::new();
        for (path, full) in files {
            let bytes = std::fs::read(&full)
                .map_err(|e| anyhow::anyhow!("cannot read the input {path}: {e}"))?;
            hasher.update((path.len() as u64).to_le_bytes());
            hasher.update(path.as_bytes());
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
        let digest = hasher.finalize();
        Ok(Some(
            digest[..16].iter().map(|b| format!("{b:02x}")).collect(),
        ))
    }

    /// The files matched by `patterns` (as `protect` takes them) that git
    /// ignores, with their blob ids (hashed, not stored), sorted: what
    /// `protect` guards beside the candidate's paths.
    pub fn ignored_matching(&self, patterns: &[String]) -> anyhow::Result<Vec<(String, String)>> {
        if patterns.is_empty() {
            return Ok(Vec::new());
        }
        let globs = super::protection_globs(patterns)?;
        let mut files = Vec::new();
        let (top, prefix) = self.project_walk();
        self.walk_inputs(&top, &prefix, &globs, &mut files)?;
        let mut out = Vec::new();
        for (path, full) in files {
            let ignored = self
                .repo
                .is_path_ignored(super::fs_path(&path))
                .unwrap_or(false);
            if !ignored || self.is_own(&path) {
                continue;
            }
            if let Ok(oid) = Oid::hash_file(git2::ObjectType::Blob, &full) {
                out.push((path, oid.to_string()));
            }
        }
        out.sort();
        Ok(out)
    }

    fn walk_inputs(
        &self,
        dir: &std::path::Path,
        prefix: &str,
        globs: &globset::GlobSet,
        out: &mut Vec<(String, std::path::PathBuf)>,
    ) -> anyhow::Result<()> {
        let Ok(listing) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        for item in listing.flatten() {
            let name = super::carry(item.file_name().as_encoded_bytes());
            let path = format!("{prefix}{name}");
            if name == ".git" || self.in_state(&path) {
                continue;
            }
            let Ok(kind) = item.file_type() else { continue };
            if kind.is_dir() {
                self.walk_inputs(&item.path(), &format!("{path}/"), globs, out)?;
            } else if kind.is_file() && globs.is_match(self.in_project(&path)) {
                out.push((path, item.path()));
            }
        }
        Ok(())
    }
}
