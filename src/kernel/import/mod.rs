//! Nights run by other loops, read as ratchet records: the `results.tsv`
//! of karpathy/autoresearch and of codex-autoresearch, and pi-autoresearch's
//! `autoresearch.jsonl`. [`parse`] reads a file's bytes into rows (every
//! line accounted for: a row, or skipped with its line and why) and
//! [`records`] makes them journal records, marked imported. Nothing here
//! reads files or asks git: the host resolves the rows' commits and passes
//! the clock.

mod pi;
mod tsv;

use std::fmt;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::contract::Metrics;
use super::failure::FailureClass;
use super::journal::RunRecord;
use super::ratchet_record::{RatchetInfo, TryStatus};
use super::stats::Direction;

pub use super::imported::{Imported, Source};

/// The rule named in an imported record's `ratchet.rule`.
pub const IMPORTED_RULE: &str = "imported";

/// The prefix of an imported night's segment id.
pub const SEGMENT_PREFIX: &str = "import:";

/// One row of a night.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The line it was read from (1-based).
    pub line: usize,
    /// Its identity, the same on every import of the file (and of the file
    /// grown by more rows): a run id.
    pub id: String,
    pub status: TryStatus,
    /// The objective's metric; none for a crash.
    pub value: Option<f64>,
    /// The other numeric columns.
    pub metrics: Vec<(String, f64)>,
    /// The commit as the file writes it (a prefix, as often as not).
    pub commit: Option<String>,
    pub description: Option<String>,
    /// When it ran, when the file says (RFC 3339).
    pub at: Option<String>,
    /// The segment id of the night it belongs to.
    pub segment: String,
}

/// A line that is not a row, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    pub line: usize,
    pub reason: String,
}

/// A file read: its rows, the lines skipped, and the objective it kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Night {
    pub from: Source,
    pub metric: String,
    pub direction: Direction,
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
}

/// What the reader is told beyond the file: the metric's name and
/// direction when the person gave them.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The name to record the objective's metric under (karpathy: its
    /// column; codex: `metric`; pi: the config line's `metricName`).
    pub metric: Option<String>,
    /// Better is lower (`min`, the default: loss, bits per byte) or higher.
    pub direction: Option<Direction>,
}

/// A file arx cannot read as the source named: nothing of it is imported.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportError {
    /// Not UTF-8 text.
    Encoding(String),
    /// Text of another kind than the source writes.
    Kind(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Encoding(m) | ImportError::Kind(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ImportError {}

/// Read `bytes`, a file written by `from`, into a night. The whole file
/// is refused ([`ImportError`]) when it is not UTF-8 text or not of the
/// kind `from` writes; a malformed row is skipped and named.
pub fn parse(from: Source, bytes: &[u8], options: &Options) -> Result<Night, ImportError> {
    let text = text_of(bytes)?;
    let mut night = match from {
        Source::Karpathy | Source::Codex => tsv::parse(from, text, options)?,
        Source::Pi => pi::parse(text, options)?,
    };
    first_keeps_are_baselines(&mut night.rows);
    Ok(night)
}

/// The file as text: UTF-8, a byte-order mark dropped; UTF-16 and binary
/// files named as such.
fn text_of(bytes: &[u8]) -> Result<&str, ImportError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ImportError::Encoding(
            "the file is UTF-16 text; arx reads UTF-8".to_string(),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let line_of = |at: usize| bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(ImportError::Encoding(format!(
            "the file holds a NUL byte (line {}): not text",
            line_of(at)
        )));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        ImportError::Encoding(format!(
            "the file is not UTF-8 (line {})",
            line_of(e.valid_up_to())
        ))
    })
}

/// The first keep of each night is the loop's starting measurement, its
/// baseline: recorded as one, so the night's change is told against it.
fn first_keeps_are_baselines(rows: &mut [Row]) {
    let mut started: Vec<String> = Vec::new();
    for row in rows {
        if started.contains(&row.segment) {
            continue;
        }
        match row.status {
            TryStatus::Keep | TryStatus::Baseline => {
                row.status = TryStatus::Baseline;
                started.push(row.segment.clone());
            }
            _ => {}
        }
    }
}

/// Names a status of another loop, as arx's: `None` for one arx has no
/// word for.
fn status_of(text: &str) -> Option<TryStatus> {
    Some(match text.trim().to_ascii_lowercase().as_str() {
        "keep" | "kept" => TryStatus::Keep,
        "discard" | "discarded" => TryStatus::Discard,
        "crash" | "crashed" => TryStatus::Crash,
        "checks_failed" => TryStatus::ChecksFailed,
        "baseline" => TryStatus::Baseline,
        _ => return None,
    })
}

/// Identities of rows: the first 16 bytes of a SHA-256 of the source, the
/// row's text and how many equal rows came before it, written as a UUID.
#[derive(Default)]
struct Identities {
    seen: std::collections::HashMap<String, usize>,
}

impl Identities {
    fn next(&mut self, from: Source, text: &str) -> String {
        let n = self.seen.entry(text.to_string()).or_insert(0);
        let mut h = Sha256::new();
        h.update(from.as_str().as_bytes());
        h.update([0]);
        h.update(text.as_bytes());
        h.update([0]);
        h.update(n.to_string().as_bytes());
        *n += 1;
        let d = h.finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(&d[..16]);
        // Version 8 (custom), variant RFC 4122.
        b[6] = (b[6] & 0x0F) | 0x80;
        b[8] = (b[8] & 0x3F) | 0x80;
        uuid::Uuid::from_bytes(b).to_string()
    }
}

/// The segment id of a night: `import:<source>:<metric>`, and pi's own
/// segment number after it.
fn segment_id(from: Source, metric: &str, part: Option<&str>) -> String {
    match part {
        Some(p) => format!("{SEGMENT_PREFIX}{from}:{metric}:{p}"),
        None => format!("{SEGMENT_PREFIX}{from}:{metric}"),
    }
}

/// A number of a cell: finite, or nothing.
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A commit as a file writes it: hex digits (4 to 64), lowercased.
fn commit_text(text: &str) -> Option<String> {
    let t = text.trim();
    ((4..=64).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| t.to_ascii_lowercase())
}

/// The journal records of `night`'s rows, in order: `commits[i]` is row
/// i's commit as the repository names it (`None`: not in the repository,
/// recorded without one), `now` the time of rows whose file gives none.
/// Each is a ratchet record marked [`Imported`]: shown by the log, the
/// report and `arx best`, never a measured run of the noise (one value, no
/// replicates, no slot).
pub fn records(night: &Night, commits: &[Option<String>], now: &str) -> Vec<RunRecord> {
    let mut kept: std::collections::HashMap<&str, String> = Default::default();
    night
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let commit = commits.get(i).cloned().flatten();
            let before = kept.get(row.segment.as_str()).cloned();
            if matches!(row.status, TryStatus::Keep | TryStatus::Baseline) {
                if let Some(c) = &commit {
                    kept.insert(&row.segment, c.clone());
                }
            }
            let kept_commit = match row.status {
                TryStatus::Baseline => commit.clone(),
                _ => before,
            };
            record(night, row, commit, kept_commit.unwrap_or_default(), now)
        })
        .collect()
}

fn record(night: &Night, row: &Row, commit: Option<String>, kept: String, now: &str) -> RunRecord {
    let mut metrics = Metrics::new();
    if let Some(v) = row.value {
        metrics.insert(night.metric.clone(), v);
    }
    for (k, v) in &row.metrics {
        metrics.insert(k.clone(), *v);
    }
    let crashed = row.value.is_none();
    let at = row.at.clone().unwrap_or_else(|| now.to_string());
    RunRecord {
        run_id: row.id.clone(),
        started_at: at.clone(),
        ended_at: at,
        duration_ms: 0,
        command: Vec::new(),
        shell: false,
        cwd: String::new(),
        host: None,
        git: None,
        hypothesis: None,
        approach_hash: None,
        candidate: None,
        tags: Vec::new(),
        state: None,
        state_fingerprint: None,
        spec: None,
        result_format: None,
        metrics,
        exit_code: i64::from(crashed),
        timed_out: false,
        interrupted: false,
        stopped_on_result: false,
        failure_class: if crashed {
            FailureClass::H4
        } else {
            FailureClass::None
        },
        verdict: None,
        stdout_tail: String::new(),
        stderr_tail: String::new(),
        attempts: Vec::new(),
        samples: Vec::new(),
        summary: None,
        interval: None,
        more_runs: None,
        ratchet: Some(info(night, row, commit, kept)),
        status: None,
        pruned: None,
        progress: None,
        slot: None,
        job_id: None,
    }
}

fn info(night: &Night, row: &Row, commit: Option<String>, kept: String) -> RatchetInfo {
    RatchetInfo {
        description: row.description.clone(),
        commit,
        imported: Some(Imported {
            from: night.from,
            line: row.line,
        }),
        ..RatchetInfo::new(
            row.segment.clone(),
            row.status,
            night.metric.clone(),
            night.direction,
            IMPORTED_RULE.to_string(),
            kept,
        )
    }
}

#[cfg(test)]
mod tests;
