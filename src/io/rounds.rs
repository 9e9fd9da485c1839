//! Round files under the state directory (`rounds/<id>/patch.json`,
//! `eval.json`, `RECORD.json`, and `rounds/hashes.jsonl`), and the checks of
//! a patch's paths against the real working tree (symlinks, directories).
//! Writes are atomic: a temporary file, synced, then renamed into place.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::state::{ensure_dir_within, refuse_symlinks, symlink_refusal, Registry};
use crate::kernel::round::{EvalReport, RoundStatus};

/// One line of `rounds/hashes.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HashLine {
    pub hash: String,
    pub round: String,
    pub status: String,
}

/// The rounds directory of a state directory.
pub fn rounds_dir(state: &Path) -> PathBuf {
    state.join("rounds")
}

/// The patch-hash registry.
pub fn hashes(state: &Path, warn: super::Warn) -> Registry<HashLine> {
    Registry::new(rounds_dir(state).join("hashes.jsonl"), warn).within(state)
}

/// Write `value` as pretty JSON to `path` atomically; no symbolic link is
/// followed at the file or its directory.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let dir = path.parent().context("a state file needs a directory")?;
    write_json_within(dir, path, value)
}

/// Write `value` as pretty JSON to `path` atomically, creating its
/// directories from `root` (the state directory) down; no symbolic link
/// is followed from `root` to the file.
pub fn write_json_within<T: Serialize>(root: &Path, path: &Path, value: &T) -> Result<()> {
    let dir = path.parent().context("a state file needs a directory")?;
    ensure_dir_within(root, dir)?;
    refuse_symlinks(root, path)?;
    let mut text = serde_json::to_vec_pretty(value)?;
    text.push(b'\n');
    write_bytes_atomic(path, &text).map_err(|e| {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            symlink_refusal(path, path)
        } else {
            anyhow::Error::new(e).context(format!("cannot write {}", path.display()))
        }
    })
}

/// Write a text file below `root` atomically, as [`write_json_within`].
pub fn write_text_within(root: &Path, path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().context("a state file needs a directory")?;
    ensure_dir_within(root, dir)?;
    refuse_symlinks(root, path)?;
    write_bytes_atomic(path, text.as_bytes()).map_err(|e| {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            symlink_refusal(path, path)
        } else {
            anyhow::Error::new(e).context(format!("cannot write {}", path.display()))
        }
    })
}

/// Replace `path` with `bytes`: written to a temporary file beside it,
/// synced, then renamed over it, so readers see the old file or the whole
/// new one. The temporary file is removed on failure. A symbolic link at
/// `path` is not replaced (an error), nor is the temporary file opened
/// through one.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(std::io::Error::other(format!(
            "{} is a symbolic link",
            path.display()
        )));
    }
    super::atomic::replace(path, bytes, super::atomic::Durability::Synced)
}

/// Read a JSON file (`None` when it does not exist).
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .with_context(|| format!("{} is not valid", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Round ids with a directory under `rounds/`, sorted.
pub fn list_round_ids(state: &Path) -> Result<Vec<String>> {
    let dir = rounds_dir(state);
    let mut ids = Vec::new();
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    if let Some(name) = entry.file_name().to_str() {
                        ids.push(name.to_string());
                    }
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    }
    ids.sort();
    Ok(ids)
}

/// `RECORD.json` of a round.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round_id: String,
    pub status: RoundStatus,
    pub detail: String,
    #[serde(default)]
    pub evidence_count: usize,
    pub patch_hash: Option<String>,
    #[serde(default)]
    pub eval_report: Option<EvalReport>,
    /// The round commit once it is on the current branch.
    #[serde(default)]
    pub applied_sha: Option<String>,
    /// The commit the round was built on.
    #[serde(default)]
    pub parent_sha: Option<String>,
    pub created_at: String,
    /// The round commit (also when awaiting review).
    #[serde(default)]
    pub commit_sha: Option<String>,
    /// The review branch, while it exists.
    #[serde(default)]
    pub branch: Option<String>,
    /// The revert commit, once reverted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverted_sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverted_at: Option<String>,
    /// Validation errors, when rejected for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Written just before the round lands; cleared once it has. Still set
    /// means arx was stopped while landing: the next round settles it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub landing: bool,
}

/// The record file of a round.
pub fn record_path(state: &Path, id: &str) -> PathBuf {
    rounds_dir(state).join(id).join("RECORD.json")
}

/// Every round record, oldest first, and a message for each record that
/// could not be read (it is skipped).
pub fn all_records(state: &Path) -> Result<(Vec<RoundRecord>, Vec<String>)> {
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    for id in list_round_ids(state)? {
        match read_json::<RoundRecord>(&record_path(state, &id)) {
            Ok(Some(r)) => records.push(r),
            Ok(None) => {}
            Err(e) => skipped.push(format!("{e:#}; skipped")),
        }
    }
    Ok((records, skipped))
}

/// Problems with writing `path` inside `workdir` as the real tree stands:
/// a path that is not in normal form (an empty or `.` component, a
/// trailing slash: git and the filesystem would read it differently), a
/// symlink anywhere on the way or at the target, a file where a directory
/// is needed, a directory where the file should be.
pub fn tree_path_problems(workdir: &Path, path: &str, op_delete: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let rel = Path::new(path);
    if path.is_empty() || path.starts_with('/') || path.contains('\\') {
        // String checks report these; nothing on disk to look at.
        return problems;
    }
    if path.split('/').any(|c| c.is_empty() || c == ".") {
        problems.push(format!(
            "{path}: not a normal path (an empty or '.' component, or a trailing slash)"
        ));
        return problems;
    }
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        // String checks report these (`..`); nothing on disk to look at.
        return problems;
    }
    let mut walked = workdir.to_path_buf();
    let parts: Vec<_> = rel.components().collect();
    for (i, part) in parts.iter().enumerate() {
        walked.push(part.as_os_str());
        let last = i + 1 == parts.len();
        let meta = match std::fs::symlink_metadata(&walked) {
            Ok(m) => m,
            Err(_) => break, // nothing there yet: it will be created
        };
        let shown = Path::new(path)
            .components()
            .take(i + 1)
            .collect::<PathBuf>()
            .display()
            .to_string();
        if meta.file_type().is_symlink() {
            problems.push(if last {
                format!("{path}: is a symlink (a write could leave the repository)")
            } else {
                format!(
                    "{path}: goes through the symlink {shown} (a write could leave the repository)"
                )
            });
            break;
        }
        if last {
            if meta.is_dir() {
                problems.push(format!("{path}: names a directory"));
            }
        } else if !meta.is_dir() {
            problems.push(format!("{path}: {shown} is a file, not a directory"));
            break;
        }
    }
    let _ = op_delete;
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_and_directories_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path();
        std::fs::create_dir_all(w.join("docs")).unwrap();
        std::fs::write(w.join("file.md"), "x").unwrap();
        std::os::unix::fs::symlink("/tmp", w.join("out")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", w.join("link.md")).unwrap();
        assert!(tree_path_problems(w, "docs/new.md", false).is_empty());
        assert!(tree_path_problems(w, "new/dir/new.md", false).is_empty());
        assert_eq!(tree_path_problems(w, "docs", false).len(), 1);
        assert_eq!(tree_path_problems(w, "out/evil.md", false).len(), 1);
        assert_eq!(tree_path_problems(w, "link.md", false).len(), 1);
        assert_eq!(tree_path_problems(w, "file.md/sub.md", false).len(), 1);
    }

    #[test]
    fn round_files_are_never_written_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&state).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("victim"), "precious").unwrap();
        // A link at the file, and a link for the rounds directory.
        let record = record_path(&state, "r1");
        std::fs::create_dir_all(record.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(outside.join("victim"), &record).unwrap();
        let err = write_json_within(&state, &record, &1).unwrap_err();
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        std::fs::remove_dir_all(rounds_dir(&state)).unwrap();
        std::os::unix::fs::symlink(&outside, rounds_dir(&state)).unwrap();
        let err = write_json_within(&state, &record_path(&state, "r2"), &1).unwrap_err();
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        let err = hashes(&state, |_| {})
            .append(&HashLine {
                hash: "h".into(),
                round: "r".into(),
                status: "applied".into(),
            })
            .unwrap_err();
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        let names: Vec<_> = std::fs::read_dir(&outside).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(
            std::fs::read_to_string(outside.join("victim")).unwrap(),
            "precious"
        );
        // A plain write works, and replaces nothing but the file.
        std::fs::remove_file(rounds_dir(&state)).unwrap();
        write_json_within(&state, &record_path(&state, "r3"), &1).unwrap();
        assert!(write_bytes_atomic(&outside.join("victim"), b"x").is_ok());
    }

    #[test]
    fn paths_must_be_normal() {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path();
        std::fs::write(w.join("file.md"), "x").unwrap();
        for p in ["./new.md", "a//b.md", "new.md/", "a/./b.md", "a/."] {
            assert_eq!(tree_path_problems(w, p, false).len(), 1, "{p}");
        }
        assert!(tree_path_problems(w, "file.md", true).is_empty());
    }
}
