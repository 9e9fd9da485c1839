//! The ratchet's markers in the state directory: a discard whose restore
//! has not finished (`ratchet-pending.json`, holding the try's record so a
//! crash before it was journaled loses nothing) and a candidate set aside
//! while the baseline is measured (`ratchet-aside.json`). Each is written
//! atomically before the step it protects and removed after it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::rounds::{read_json, write_json_atomic};
use crate::kernel::journal::RunRecord;

/// A discard in progress.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    /// The commit to restore.
    pub kept: String,
    /// Where the candidate is stored.
    pub discarded_ref: String,
    /// The try's journal record.
    pub record: RunRecord,
}

/// A candidate set aside while the baseline runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Aside {
    pub refname: String,
    /// The branch's commit before it was set aside.
    pub head: String,
}

/// The markers' file names in the state directory.
pub const PENDING_FILE: &str = "ratchet-pending.json";
pub const ASIDE_FILE: &str = "ratchet-aside.json";

fn pending_path(state: &Path) -> PathBuf {
    state.join(PENDING_FILE)
}

fn aside_path(state: &Path) -> PathBuf {
    state.join(ASIDE_FILE)
}

pub fn read_pending(state: &Path) -> Result<Option<Pending>> {
    read_json(&pending_path(state))
}

pub fn write_pending(state: &Path, pending: &Pending) -> Result<()> {
    write_json_atomic(&pending_path(state), pending)
}

pub fn clear_pending(state: &Path) -> Result<()> {
    remove(&pending_path(state))
}

pub fn read_aside(state: &Path) -> Result<Option<Aside>> {
    read_json(&aside_path(state))
}

pub fn write_aside(state: &Path, aside: &Aside) -> Result<()> {
    write_json_atomic(&aside_path(state), aside)
}

pub fn clear_aside(state: &Path) -> Result<()> {
    remove(&aside_path(state))
}

fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// The lock an `arx try` holds on its working tree while it runs: an
/// exclusive file lock on `try-<key>.lock` in the state directory, the key
/// a hash of the working tree's path. The system drops it when the process
/// ends, however it ends (`kill -9` included), so it cannot be left behind.
/// The file holds the holder (pid, start, description) for the message of a
/// second try.
#[derive(Debug)]
pub struct TryLock {
    _file: std::fs::File,
}

/// Who holds a working tree's try lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TryHolder {
    pub pid: u32,
    pub started_at: String,
    #[serde(default)]
    pub description: Option<String>,
}

/// The lock file of the working tree `worktree` in `state`.
pub fn try_lock_path(state: &Path, worktree: &Path) -> PathBuf {
    let canonical = std::fs::canonicalize(worktree).unwrap_or_else(|_| worktree.to_path_buf());
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    state.join(format!("try-{hex}.lock"))
}

/// Take the try lock of `worktree` for `holder`, at once: `Ok(Err(..))`
/// with the holder (when it could be read) if another try has it.
pub fn lock_try(
    state: &Path,
    worktree: &Path,
    holder: &TryHolder,
) -> Result<std::result::Result<TryLock, Option<TryHolder>>> {
    use std::io::{Seek, Write};
    let path = try_lock_path(state, worktree);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let mut file = super::state::open_no_follow(&mut options, &path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let text = std::fs::read(&path).unwrap_or_default();
            return Ok(Err(serde_json::from_slice(&text).ok()));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
    let text = serde_json::to_vec(holder)?;
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(&text))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Ok(TryLock { _file: file }))
}
