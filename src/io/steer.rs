//! The cache of steering's fold of the journal, `.arx/steer.json`: the
//! [`Fold`] of the journal's complete lines, keyed by their length and a
//! hash of their end (as the precision and report caches are). A cache
//! that describes a prefix of the journal is extended by the lines
//! appended since; anything else (a merge, a hand edit, a damaged or
//! missing cache, another version) is rebuilt from the whole journal.
//! Derived: git-ignored, never committed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::history::{tail_hash, tail_key};
use super::mapped::{parse_workers, JournalBytes};
use super::rounds::write_json_atomic;
use super::Warn;
use crate::engine::observe::for_each_chunk;
use crate::engine::steer::fold::{try_line, Fold, TryLine};

/// The cache file's name in the state directory.
pub const CACHE_FILE: &str = "steer.json";

/// The cache's shape; another version is rebuilt.
const VERSION: u32 = 2;

/// `.arx/steer.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Cache {
    pub version: u32,
    /// Length of the journal's complete lines the fold covers.
    pub journal_bytes: u64,
    /// SHA-256 (hex) of their last 64 KiB.
    pub journal_tail: String,
    pub fold: Fold,
}

/// How the fold was had, for a caller that tells (and for the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The cache covered the journal.
    Cached,
    /// The cache was extended by the lines appended since.
    Extended,
    /// The whole journal was read.
    Rebuilt,
}

fn cache_path(state: &Path) -> PathBuf {
    state.join(CACHE_FILE)
}

fn read_cache(state: &Path) -> Option<Cache> {
    let text = std::fs::read(cache_path(state)).ok()?;
    let cache: Cache = serde_json::from_slice(&text).ok()?;
    (cache.version == VERSION).then_some(cache)
}

/// Does `cache` describe the first `cache.journal_bytes` of the journal
/// (whose length is `len`)?
fn covers_prefix(cache: &Cache, journal: &Path, len: u64) -> bool {
    cache.journal_bytes <= len
        && tail_hash(journal, cache.journal_bytes).as_deref() == Some(cache.journal_tail.as_str())
}

/// The end of the last complete line of `bytes`.
fn complete(bytes: &[u8]) -> usize {
    memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1)
}

/// The try records of a piece of journal, in order.
fn tries_of(piece: &[u8]) -> Vec<TryLine> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', piece) {
        let line = &piece[start..end];
        start = end + 1;
        // Only a line holding a ratchet record is walked.
        if memchr::memmem::find(line, b"\"ratchet\"").is_some() {
            out.extend(try_line(line));
        }
    }
    out
}

/// Fold the complete lines of `bytes` after `fold`, on several threads.
fn extend(fold: &mut Fold, bytes: &[u8]) {
    let whole = for_each_chunk(bytes, parse_workers(), tries_of, |tries| {
        for t in &tries {
            fold.add(t);
        }
        Ok::<(), std::convert::Infallible>(())
    });
    let Ok(()) = whole;
}

/// The fold of the journal: the cache when it covers the journal, else the
/// cache extended by the lines appended since, else a reading of the whole
/// journal; saved for next time when `save` is set (a failure to save is
/// told to `warn`: the fold is still computed).
pub fn load(state: &Path, journal: &Path, save: bool, warn: Warn) -> Result<(Fold, Source)> {
    let len = std::fs::metadata(journal).map_or(0, |m| m.len());
    let cached = read_cache(state).filter(|c| covers_prefix(c, journal, len));
    if let Some(c) = &cached {
        // A torn last line is not folded: covered when no complete line
        // was appended since.
        if c.journal_bytes == len {
            return Ok((cached.expect("checked").fold, Source::Cached));
        }
    }
    let text = JournalBytes::open(journal)?;
    let bytes = text.bytes();
    let end = complete(bytes);
    let (mut fold, from, source) = match cached {
        Some(c) if (c.journal_bytes as usize) <= end => {
            (c.fold, c.journal_bytes as usize, Source::Extended)
        }
        _ => (Fold::default(), 0, Source::Rebuilt),
    };
    if from == end && source == Source::Extended {
        return Ok((fold, Source::Cached));
    }
    extend(&mut fold, &bytes[from..end]);
    if save && state.is_dir() {
        let cache = Cache {
            version: VERSION,
            journal_bytes: end as u64,
            journal_tail: tail_key(&bytes[..end]),
            fold,
        };
        if let Err(e) = write_json_atomic(&cache_path(state), &cache) {
            warn(&format!("cannot save the steering cache: {e:#}"));
        }
        return Ok((cache.fold, source));
    }
    Ok((fold, source))
}

/// The cache of the families the imported nights' descriptions take from
/// the backlog, `.arx/steer-families.json`: valid while the backlog's file
/// is the one it was made from (its length and the hash of its end; the
/// backlog is append-only). Derived: git-ignored, never committed.
pub const FAMILIES_FILE: &str = "steer-families.json";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct FamiliesCache {
    version: u32,
    ideas_bytes: u64,
    ideas_tail: String,
    /// The family of each imported description.
    families: std::collections::HashMap<String, String>,
}

/// The family of each of `texts` (the imported nights' descriptions):
/// from the cache where the backlog `ideas` is unchanged, else from
/// `nearest` (made once, when a text is missing), and the cache saved
/// when anything was new and `save` is set (a failure to save is told to
/// `warn`).
pub fn families_of<'t, N: Fn(&str) -> String>(
    state: &Path,
    ideas: &Path,
    texts: impl Iterator<Item = &'t str>,
    nearest: impl FnOnce() -> N,
    save: bool,
    warn: Warn,
) -> std::collections::HashMap<String, String> {
    let len = std::fs::metadata(ideas).map_or(0, |m| m.len());
    let tail = tail_hash(ideas, len).unwrap_or_default();
    let cached = std::fs::read(state.join(FAMILIES_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice::<FamiliesCache>(&b).ok())
        .filter(|c| c.version == VERSION && c.ideas_bytes == len && c.ideas_tail == tail)
        .map(|c| c.families)
        .unwrap_or_default();
    let mut nearest = Some(nearest);
    let mut made: Option<N> = None;
    let mut fresh = false;
    let mut out = std::collections::HashMap::new();
    for text in texts {
        let family = match cached.get(text) {
            Some(f) => f.clone(),
            None => {
                fresh = true;
                let n = made.get_or_insert_with(|| (nearest.take().expect("once"))());
                n(text)
            }
        };
        out.insert(text.to_string(), family);
    }
    if fresh && save && state.is_dir() {
        let cache = FamiliesCache {
            version: VERSION,
            ideas_bytes: len,
            ideas_tail: tail,
            families: out,
        };
        if let Err(e) = write_json_atomic(&state.join(FAMILIES_FILE), &cache) {
            warn(&format!("cannot save the steering cache: {e:#}"));
        }
        return cache.families;
    }
    out
}

/// An idea `arx next --lane NAME` gave a lane, which counts as in flight
/// for the other lanes until it is tried, the lane asks again, or
/// [`CLAIM_HOURS`] pass. `.arx/claim-NAME.json`, one per lane, derived
/// and git-ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub lane: String,
    pub idea: String,
    /// When it was given (RFC 3339).
    pub at: String,
}

/// How long a lane's claim on an idea holds without a try.
pub const CLAIM_HOURS: i64 = 24;

fn claim_path(state: &Path, lane: &str) -> PathBuf {
    state.join(format!("claim-{lane}.json"))
}

/// Record that `lane` was given `idea` at `at` (replacing its last claim).
pub fn claim(state: &Path, lane: &str, idea: &str, at: &str) -> Result<()> {
    let claim = Claim {
        lane: lane.to_string(),
        idea: idea.to_string(),
        at: at.to_string(),
    };
    write_json_atomic(&claim_path(state, lane), &claim)
}

/// The lock every giving of an idea holds (`.arx/claims.lock`): `arx next
/// --lane` from reading the claims to writing its own, `arx try --idea`
/// from reading what is in flight to taking its working tree's lock. So
/// two lanes are never given, or start, one idea at once. Freed when
/// dropped (or when the process ends).
pub struct ClaimsLock {
    _file: std::fs::File,
}

/// Wait for the claims lock of the state directory `state`.
pub fn lock_claims(state: &Path) -> Result<ClaimsLock> {
    use anyhow::Context;
    super::state::ensure_dir(state)?;
    let path = state.join(CLAIMS_LOCK);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let file = super::state::open_no_follow(&mut options, &path)?;
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(ClaimsLock { _file: file })
}

/// The claims lock's file name in the state directory.
pub const CLAIMS_LOCK: &str = "claims.lock";

/// The claims of the lanes other than `lane` made within [`CLAIM_HOURS`]
/// before `now` (unreadable files are ignored: a claim only steers).
pub fn claims(state: &Path, lane: Option<&str>, now: &str) -> Vec<Claim> {
    let Ok(now) = now.parse::<jiff::Timestamp>() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(state) else {
        return Vec::new();
    };
    let mut out: Vec<Claim> = entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with("claim-") && n.ends_with(".json"))
        })
        .filter_map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            if !meta.is_file() || meta.len() > 64 * 1024 {
                return None;
            }
            serde_json::from_slice::<Claim>(&std::fs::read(e.path()).ok()?).ok()
        })
        .filter(|c| Some(c.lane.as_str()) != lane)
        .filter(|c| {
            c.at.parse::<jiff::Timestamp>().is_ok_and(|at| {
                let age = now.as_second() - at.as_second();
                (-3600..CLAIM_HOURS * 3600).contains(&age)
            })
        })
        .collect();
    out.sort_by(|a, b| a.lane.cmp(&b.lane));
    out
}
