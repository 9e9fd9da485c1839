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
