//! The cache of what the engines learn from the journal,
//! `.arx/precision.json`.
//!
//! The cache holds the [`History`] folded from the journal and the journal's
//! size and a hash of its last 64 KiB when it was folded; a cache that does
//! not match the journal, or holds values no journal can give, is not used. `arx run` extends it by one observation after
//! appending its record; anything else (a merge, a hand edit, a missing or
//! damaged cache) makes it stale, and it is rebuilt by replaying the
//! journal, so every machine with the same journal gets the same state.
//! Reading journal lines into observations is the engine's
//! ([`crate::engine::observe`]); this module reads and writes the files.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::rounds::write_json_atomic;
use super::Warn;
use crate::engine::history::{History, Observation};
use crate::engine::observe::{for_each_observation, observation};
use crate::engine::precision::Hierarchy;
use crate::kernel::journal::RunRecord;

/// The cache file's name in the state directory.
pub const CACHE_FILE: &str = "precision.json";

/// The cache file.
pub fn cache_path(state: &Path) -> PathBuf {
    state.join(CACHE_FILE)
}

/// `.arx/precision.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Cache {
    /// Size of the journal (bytes) the history was folded from.
    pub journal_bytes: u64,
    /// SHA-256 (hex) of the last [`TAIL_BYTES`] of those bytes.
    #[serde(default)]
    pub journal_tail: Option<String>,
    /// Precision was reset after this many runs (`arx precision reset`).
    #[serde(default)]
    pub reset_after: Option<u64>,
    pub history: History,
}

fn journal_bytes(journal: &Path) -> u64 {
    std::fs::metadata(journal).map_or(0, |m| m.len())
}

/// How much of the journal's end the cache key hashes.
pub const TAIL_BYTES: u64 = 64 * 1024;

fn hash_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The cache key of a journal's text: the SHA-256 (hex) of its last
/// [`TAIL_BYTES`] (the precision cache and the report's cache use it).
pub fn tail_key(bytes: &[u8]) -> String {
    hash_hex(&bytes[bytes.len().saturating_sub(TAIL_BYTES as usize)..])
}

/// The hash of the journal's bytes just before offset `len`.
pub fn tail_hash(journal: &Path, len: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let start = len.saturating_sub(TAIL_BYTES);
    let mut buf = vec![0u8; (len - start) as usize];
    if !buf.is_empty() {
        let mut f = std::fs::File::open(journal).ok()?;
        f.seek(SeekFrom::Start(start)).ok()?;
        f.read_exact(&mut buf).ok()?;
    }
    Some(hash_hex(&buf))
}

/// Does `cache` describe the first `len` bytes of `journal`, with values a
/// fold can give?
fn covers(cache: &Cache, journal: &Path, len: u64) -> bool {
    cache.journal_bytes == len
        && cache.journal_tail.is_some()
        && cache.journal_tail == tail_hash(journal, len)
        && cache.history.is_sound()
}

/// A rebuild of the history: the journal's observations replayed in
/// order (honouring a precision reset), fed by whoever reads the journal.
pub struct Replay {
    history: History,
    reset_after: Option<u64>,
}

impl Replay {
    pub fn new(reset_after: Option<u64>) -> Replay {
        Replay {
            history: History::default(),
            reset_after,
        }
    }

    /// Replay the next observation.
    pub fn observe(&mut self, obs: &Observation<'_>) -> Result<()> {
        if self.reset_after == Some(self.history.runs) {
            self.history.precision = Hierarchy::default();
        }
        self.history.observe(obs).map_err(anyhow::Error::msg)
    }

    /// The cache of the journal `bytes` whose complete lines were replayed.
    pub fn finish(mut self, bytes: &[u8]) -> Cache {
        if self.reset_after == Some(self.history.runs) {
            self.history.precision = Hierarchy::default();
        }
        Cache {
            journal_bytes: bytes.len() as u64,
            journal_tail: Some(tail_key(bytes)),
            reset_after: self.reset_after,
            history: self.history,
        }
    }
}

/// Fold the whole journal (honouring a precision reset).
pub fn rebuild(journal: &Path, reset_after: Option<u64>) -> Result<Cache> {
    let text = super::mapped::JournalBytes::open(journal)?;
    let bytes: &[u8] = text.bytes();
    let mut replay = Replay::new(reset_after);
    for_each_observation(bytes, super::mapped::parse_workers(), |obs| {
        replay.observe(&obs)
    })?;
    Ok(replay.finish(bytes))
}

fn read_cache(state: &Path) -> Option<Cache> {
    let text = std::fs::read(cache_path(state)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// The current history: the cache when it matches the journal, else a
/// rebuild (saved for next time when `save` is true). A cache that cannot
/// be saved (a read-only state directory) is reported to `warn`: the
/// history is still computed, in memory.
pub fn load(state: &Path, journal: &Path, save: bool, warn: Warn) -> Result<Cache> {
    match current(state, journal) {
        Ok(cache) => Ok(cache),
        Err(replay) => {
            let cache = rebuild(journal, replay.reset_after)?;
            if save {
                keep(state, &cache, warn);
            }
            Ok(cache)
        }
    }
}

/// The cache when it matches the journal; else the replay that rebuilds
/// it, for a reader of the whole journal to feed (then [`keep`] it).
pub fn current(state: &Path, journal: &Path) -> std::result::Result<Cache, Box<Replay>> {
    let cached = read_cache(state);
    match cached {
        Some(c) if covers(&c, journal, journal_bytes(journal)) => Ok(c),
        other => Err(Box::new(Replay::new(other.and_then(|c| c.reset_after)))),
    }
}

/// The journal was rewritten by adding or removing only imported records,
/// which teach the history nothing: the cache as it covered the journal
/// before (`before`) now covers it as it is, without reading it again.
pub fn carry(state: &Path, journal: &Path, before: Cache, warn: Warn) {
    let len = journal_bytes(journal);
    let cache = Cache {
        journal_bytes: len,
        journal_tail: tail_hash(journal, len),
        ..before
    };
    keep(state, &cache, warn);
}

/// Save a rebuilt cache when the state directory exists (a failure is
/// reported to `warn`).
pub fn keep(state: &Path, cache: &Cache, warn: Warn) {
    if state.is_dir() {
        if let Err(e) = write_json_atomic(&cache_path(state), cache) {
            warn(&format!("cannot save the precision state: {e:#}"));
        }
    }
}

/// After `arx run` appended `record` to the journal, taking it from
/// `before` to `after` bytes: extend the cache by one run when it covered
/// exactly the first `before` bytes, else rebuild it.
pub fn record_run(
    state: &Path,
    journal: &Path,
    (before, after): (u64, u64),
    record: &RunRecord,
) -> Result<()> {
    let cache = match read_cache(state) {
        Some(mut c) if covers(&c, journal, before) => {
            c.history
                .observe(&observation(record))
                .map_err(anyhow::Error::msg)?;
            c.journal_bytes = after;
            c.journal_tail = tail_hash(journal, after);
            c
        }
        other => rebuild(journal, other.and_then(|c| c.reset_after))?,
    };
    write_json_atomic(&cache_path(state), &cache)
}

/// Forget learned precision from now on (kept across rebuilds).
pub fn reset(state: &Path, journal: &Path) -> Result<Cache> {
    let mut cache = load(state, journal, false, |_| {})?;
    cache.reset_after = Some(cache.history.runs);
    cache.history.precision = Hierarchy::default();
    write_json_atomic(&cache_path(state), &cache)?;
    Ok(cache)
}
