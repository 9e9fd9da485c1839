//! The engines' view of the journal, and its cache `.arx/precision.json`.
//!
//! The cache holds the [`History`] folded from the journal and the journal's
//! size when it was folded. `arx run` extends it by one observation after
//! appending its record; anything else (a merge, a hand edit, a missing or
//! damaged cache) makes it stale, and it is rebuilt by replaying the
//! journal, so every machine with the same journal gets the same state.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::rounds::write_json_atomic;
use crate::engine::history::{History, Observation};
use crate::engine::precision::Hierarchy;
use crate::kernel::journal::RunRecord;
use crate::kernel::verdict::Verdict;

/// The cache file.
pub fn cache_path(state: &Path) -> PathBuf {
    state.join("precision.json")
}

/// `.arx/precision.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Cache {
    /// Size of the journal (bytes) the history was folded from.
    pub journal_bytes: u64,
    /// Precision was reset after this many runs (`arx precision reset`).
    #[serde(default)]
    pub reset_after: Option<u64>,
    pub history: History,
}

#[derive(Deserialize)]
struct VerdictView {
    verdict: Verdict,
}

/// The fields of a journal record the engines use (the rest is skipped).
#[derive(Deserialize)]
struct View<'a> {
    #[serde(borrow, default)]
    candidate: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tags: Vec<Cow<'a, str>>,
    #[serde(default)]
    exit_code: i64,
    #[serde(default)]
    timed_out: bool,
    #[serde(default)]
    interrupted: bool,
    #[serde(default)]
    stopped_on_result: bool,
    #[serde(default)]
    verdict: Option<VerdictView>,
    #[serde(borrow, default)]
    state_fingerprint: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    started_at: Option<Cow<'a, str>>,
}

fn unix(text: Option<&str>) -> Option<i64> {
    text.and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .map(|t| t.as_second())
}

/// Did a run execute cleanly? Not after a crash, a timeout, a missing
/// dependency or an interruption; and an inconclusive verdict counts as a
/// failure of the execution level (it is not a success or failure of the
/// candidate).
fn executed_cleanly(
    exit_code: i64,
    stopped_on_result: bool,
    timed_out: bool,
    interrupted: bool,
    verdict: Option<Verdict>,
) -> bool {
    (exit_code == 0 || stopped_on_result)
        && !timed_out
        && !interrupted
        && verdict != Some(Verdict::Inconclusive)
}

/// Runs the weekday test looks at: refuted, or not executed cleanly.
fn failing(clean: bool, verdict: Option<Verdict>) -> bool {
    !clean || verdict == Some(Verdict::Refuted)
}

fn observe_view(v: View<'_>) -> Observation {
    let verdict = v.verdict.as_ref().map(|x| x.verdict);
    let clean = executed_cleanly(
        v.exit_code,
        v.stopped_on_result,
        v.timed_out,
        v.interrupted,
        verdict,
    );
    Observation {
        candidate: v.candidate.map(Cow::into_owned),
        tags: v.tags.into_iter().map(Cow::into_owned).collect(),
        executed_cleanly: clean,
        verdict,
        state_fingerprint: v.state_fingerprint.map(Cow::into_owned),
        // Only failing runs are placed in the week (parsing a time costs).
        started_unix: failing(clean, verdict)
            .then(|| unix(v.started_at.as_deref()))
            .flatten(),
    }
}

/// The observation of one journal record.
pub fn observation(record: &RunRecord) -> Observation {
    let verdict = record.verdict.as_ref().map(|v| v.verdict);
    let clean = executed_cleanly(
        record.exit_code,
        record.stopped_on_result,
        record.timed_out,
        record.interrupted,
        verdict,
    );
    Observation {
        candidate: record.candidate.clone(),
        tags: record.tags.clone(),
        executed_cleanly: clean,
        verdict,
        state_fingerprint: record.state_fingerprint.clone(),
        started_unix: failing(clean, verdict)
            .then(|| unix(Some(&record.started_at)))
            .flatten(),
    }
}

fn parse_lines(range: &[u8]) -> Vec<Observation> {
    range
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(|l| serde_json::from_slice::<View<'_>>(l).ok())
        .map(observe_view)
        .collect()
}

/// Line-aligned chunks of the complete lines of `bytes`.
fn chunks(bytes: &[u8], target: usize) -> Vec<&[u8]> {
    let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < end {
        let guess = (start + target).min(end);
        let stop = if guess >= end {
            end
        } else {
            memchr::memchr(b'\n', &bytes[guess..end]).map_or(end, |i| guess + i + 1)
        };
        out.push(&bytes[start..stop]);
        start = stop;
    }
    out
}

/// Feed the observations of a journal's complete lines to `each`, in
/// journal order, while other cores parse the lines ahead. Unreadable
/// lines are skipped.
pub fn for_each_observation(
    bytes: &[u8],
    mut each: impl FnMut(Observation) -> Result<()>,
) -> Result<()> {
    const CHUNK: usize = 4 << 20;
    let parts = chunks(bytes, CHUNK);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    if parts.len() <= 1 || workers == 1 {
        for part in parts {
            for o in parse_lines(part) {
                each(o)?;
            }
        }
        return Ok(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Vec<Observation>)>(workers * 2);
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, parts) = (&next, &parts);
            s.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(part) = parts.get(k) else { break };
                if tx.send((k, parse_lines(part))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut want = 0;
        for (k, obs) in rx {
            waiting.insert(k, obs);
            while let Some(obs) = waiting.remove(&want) {
                for o in obs {
                    each(o)?;
                }
                want += 1;
            }
        }
        Ok(())
    })
}

/// Parse the complete lines of a journal into observations, in order.
pub fn observations(bytes: &[u8]) -> Vec<Observation> {
    let mut all = Vec::new();
    let _ = for_each_observation(bytes, |o| {
        all.push(o);
        Ok(())
    });
    all
}

fn journal_bytes(journal: &Path) -> u64 {
    std::fs::metadata(journal).map_or(0, |m| m.len())
}

/// Fold the whole journal (honouring a precision reset).
pub fn rebuild(journal: &Path, reset_after: Option<u64>) -> Result<Cache> {
    let file = match std::fs::File::open(journal) {
        Ok(f) => Some(f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", journal.display())),
    };
    // SAFETY: the journal is only read while mapped; writers append under a
    // lock and never truncate (a merge replaces the file by renaming a new
    // one over it, which leaves this mapping intact).
    let map = match &file {
        Some(f) if f.metadata().map_or(0, |m| m.len()) > 0 => Some(unsafe {
            memmap2::Mmap::map(f).with_context(|| format!("cannot read {}", journal.display()))?
        }),
        _ => None,
    };
    let bytes: &[u8] = map.as_deref().unwrap_or(&[]);
    let mut history = History::default();
    for_each_observation(bytes, |obs| {
        if reset_after == Some(history.runs) {
            history.precision = Hierarchy::default();
        }
        history.observe(&obs).map_err(anyhow::Error::msg)
    })?;
    if reset_after == Some(history.runs) {
        history.precision = Hierarchy::default();
    }
    Ok(Cache {
        journal_bytes: bytes.len() as u64,
        reset_after,
        history,
    })
}

fn read_cache(state: &Path) -> Option<Cache> {
    let text = std::fs::read(cache_path(state)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// The current history: the cache when it matches the journal, else a
/// rebuild (saved for next time when `save` is true).
pub fn load(state: &Path, journal: &Path, save: bool) -> Result<Cache> {
    let size = journal_bytes(journal);
    let cached = read_cache(state);
    if let Some(c) = &cached {
        if c.journal_bytes == size {
            return Ok(c.clone());
        }
    }
    let cache = rebuild(journal, cached.and_then(|c| c.reset_after))?;
    if save && state.is_dir() {
        write_json_atomic(&cache_path(state), &cache)?;
    }
    Ok(cache)
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
        Some(mut c) if c.journal_bytes == before => {
            c.history
                .observe(&observation(record))
                .map_err(anyhow::Error::msg)?;
            c.journal_bytes = after;
            c
        }
        other => rebuild(journal, other.and_then(|c| c.reset_after))?,
    };
    write_json_atomic(&cache_path(state), &cache)
}

/// Forget learned precision from now on (kept across rebuilds).
pub fn reset(state: &Path, journal: &Path) -> Result<Cache> {
    let mut cache = load(state, journal, false)?;
    cache.reset_after = Some(cache.history.runs);
    cache.history.precision = Hierarchy::default();
    write_json_atomic(&cache_path(state), &cache)?;
    Ok(cache)
}
