//! The `.arx/` state directory and its append-only JSONL registries.
//!
//! Writers take an exclusive lock on the registry file, so concurrent
//! `arx` processes never lose or interleave records. A record is one line
//! written with one `write` call and synced; a crash can leave at most a
//! torn last line, which readers skip with a warning and the next writer
//! trims (restoring the file to its last complete version). Readers take a
//! shared lock and never fail on a bad line: they skip it and warn.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::Hinted;
use crate::output::warn;

/// The state directory: `--state-dir` / `ARX_STATE_DIR`, else `.arx/` at
/// the repository root (or the working directory outside a repository).
pub fn state_dir(explicit: Option<&Path>, cwd: &Path) -> PathBuf {
    match explicit {
        Some(p) if p.is_absolute() => p.to_path_buf(),
        Some(p) => cwd.join(p),
        None => super::config::repo_root(cwd)
            .unwrap_or_else(|| cwd.to_path_buf())
            .join(".arx"),
    }
}

/// Create the state directory if needed, with a clear error when a file
/// stands in its way.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Hinted::error(
            format!("state directory {} is not a directory", dir.display()),
            "move the file away or choose another place with --state-dir",
        ));
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create state directory {}", dir.display()))
}

/// The records of a registry file, and what was wrong with it.
#[derive(Debug)]
pub struct Loaded<T> {
    pub records: Vec<T>,
    /// Length of the file up to the end of its last complete line.
    pub complete_len: u64,
    /// The file ends in a partial line.
    pub torn_tail: bool,
}

/// An append-only JSONL file of `T` records.
#[derive(Debug, Clone)]
pub struct Registry<T> {
    pub path: PathBuf,
    _record: PhantomData<fn() -> T>,
}

/// What an append did.
#[derive(Debug)]
pub enum Appended<T> {
    /// The record was written.
    Added(T),
    /// An equal record was already there; nothing was written.
    Existing(T),
}

impl<T: Serialize + DeserializeOwned + Clone> Registry<T> {
    pub fn new(path: PathBuf) -> Self {
        Registry {
            path,
            _record: PhantomData,
        }
    }

    /// All readable records (an absent file is empty).
    pub fn read(&self) -> Result<Vec<T>> {
        if self.path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a registry file",
                self.path.display()
            );
        }
        let mut file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot open {}", self.path.display()))
            }
        };
        file.lock_shared()
            .with_context(|| format!("cannot lock {}", self.path.display()))?;
        let loaded = self.load(&mut file)?;
        if loaded.torn_tail {
            warn(format_args!(
                "{}: skipped a torn last line (an interrupted write)",
                self.path.display()
            ));
        }
        Ok(loaded.records)
    }

    fn load(&self, file: &mut File) -> Result<Loaded<T>> {
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            anyhow::bail!("{} is not a regular file", self.path.display());
        }
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let torn_tail = complete_len < bytes.len();
        let mut records = Vec::new();
        for (n, line) in bytes[..complete_len].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<T>(line) {
                Ok(r) => records.push(r),
                Err(e) => warn(format_args!(
                    "{}:{}: skipped an unreadable record ({e})",
                    self.path.display(),
                    n + 1
                )),
            }
        }
        Ok(Loaded {
            records,
            complete_len: complete_len as u64,
            torn_tail,
        })
    }

    /// Append `record` unless `existing` finds its equal among the current
    /// records; both happen under one exclusive lock.
    pub fn append_unless(
        &self,
        record: T,
        existing: impl Fn(&[T]) -> Option<T>,
    ) -> Result<Appended<T>> {
        if let Some(dir) = self.path.parent() {
            ensure_dir(dir)?;
        }
        if self.path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a registry file",
                self.path.display()
            );
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&self.path)
            .with_context(|| format!("cannot open {} for writing", self.path.display()))?;
        file.lock()
            .with_context(|| format!("cannot lock {}", self.path.display()))?;
        let loaded = self.load(&mut file)?;
        if loaded.torn_tail {
            file.set_len(loaded.complete_len)
                .with_context(|| format!("cannot repair {}", self.path.display()))?;
            warn(format_args!(
                "{}: removed a torn last line left by an interrupted write",
                self.path.display()
            ));
        }
        if let Some(found) = existing(&loaded.records) {
            return Ok(Appended::Existing(found));
        }
        let mut line = serde_json::to_vec(&record)?;
        line.push(b'\n');
        let written = file.write_all(&line).and_then(|()| file.sync_data());
        if let Err(e) = written {
            // Leave the file as it was: drop whatever part of the line got in.
            let _ = file.set_len(loaded.complete_len);
            return Err(e).with_context(|| format!("cannot write {}", self.path.display()));
        }
        Ok(Appended::Added(record))
    }
}

/// The dead-end registry of a state directory.
pub fn dead_ends(dir: &Path) -> Registry<crate::kernel::promote::DeadEndRecord> {
    Registry::new(dir.join("dead-ends.jsonl"))
}

/// The knowhow registry of a state directory.
pub fn knowhow(dir: &Path) -> Registry<crate::kernel::promote::KnowhowRecord> {
    Registry::new(dir.join("knowhow.jsonl"))
}
