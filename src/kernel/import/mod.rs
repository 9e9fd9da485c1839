//! Nights run by other loops, read as ratchet records: the `results.tsv`
//! of karpathy/autoresearch and of codex-autoresearch, and pi-autoresearch's
//! `autoresearch.jsonl`. A file is read twice, a line at a time, so a night
//! of any length is read in bounded memory: a [`Survey`] first learns what
//! the night is (its header, its metric column, which way its keeps moved)
//! and makes a [`Plan`]; the plan's [`Reader`] then reads each line into a
//! row (or a line skipped with why, or a line that is no try: a comment,
//! a config line, a hook, a parallel worker's detail row), and makes rows
//! journal records marked imported. [`parse`] does both on a whole file.
//! Nothing here reads files or asks git: the host passes the lines,
//! resolves the rows' commits and passes the clock.

mod columns;
mod pi;
mod record;
mod tsv;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::journal::RunRecord;
use super::ratchet_record::TryStatus;
use super::stats::Direction;

pub use super::imported::{Imported, Source};
pub use columns::not_a_metric;
use record::record;
pub use record::records;

/// The rule named in an imported record's `ratchet.rule`.
pub const IMPORTED_RULE: &str = "imported";

/// The prefix of an imported night's segment id.
pub const SEGMENT_PREFIX: &str = "import:";

/// The longest line read (1 MiB); a longer one is skipped.
pub const MAX_LINE: usize = 1 << 20;

/// One row of a night.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The line it was read from (1-based).
    pub line: usize,
    /// Its identity, the same on every import of the file (and of the file
    /// grown by more rows): a run id.
    pub id: String,
    pub status: TryStatus,
    /// The objective's metric; none for a crash or a missing value.
    pub value: Option<f64>,
    /// The other numeric columns.
    pub metrics: Vec<(String, f64)>,
    /// The commit as the file writes it (a prefix, as often as not).
    pub commit: Option<String>,
    pub description: Option<String>,
    /// When it ran, when the file says (RFC 3339).
    pub at: Option<String>,
    /// The night it belongs to: an index into [`Plan::nights`].
    pub night: usize,
}

/// A line that is not a row, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    pub line: usize,
    pub reason: String,
}

/// One night of a file (pi's file holds one per configuration line): its
/// segment, the metric and direction it kept, and how each was known.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NightPlan {
    pub segment: String,
    pub metric: String,
    pub direction: Direction,
    /// Where the direction came from: `flag`, `file` (codex's header,
    /// pi's config line), `config` (arx.toml), `keeps` (the night's keeps
    /// moved one way), `none` (no row to tell it by: nothing imported).
    pub direction_from: &'static str,
}

/// What the reader is told beyond the file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--metric`: the column to read (karpathy), or the name to record the
    /// metric under (codex: its `metric` column; pi: the metric value).
    pub metric: Option<String>,
    /// `--direction`: better is lower (`min`) or higher (`max`).
    pub direction: Option<Direction>,
    /// The objective arx.toml names: its metric and direction, used when
    /// the night's metric is that one.
    pub configured: Option<(String, Direction)>,
}

/// A file arx cannot read as the source named: nothing of it is imported.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportError {
    /// Not UTF-8 text.
    Encoding(String),
    /// Text of another kind than the source writes.
    Kind(String),
    /// `--metric` names no column of the file.
    NoSuchMetric { asked: String, numeric: Vec<String> },
    /// No numeric column could be the metric.
    NoMetric { numeric: Vec<String> },
    /// Nothing tells which way the metric improves.
    NoDirection { metric: String },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |n: &[String]| match n.is_empty() {
            true => "none".to_string(),
            false => n.join(", "),
        };
        match self {
            ImportError::Encoding(m) | ImportError::Kind(m) => f.write_str(m),
            ImportError::NoSuchMetric { asked, numeric } => write!(
                f,
                "the file has no column {asked:?}; its numeric columns: {}",
                list(numeric)
            ),
            ImportError::NoMetric { numeric } => write!(
                f,
                "no column reads as the night's metric (a numeric column that is not a commit, time, memory or counter and that varies); numeric columns: {}",
                list(numeric)
            ),
            ImportError::NoDirection { metric } => write!(
                f,
                "nothing tells which way {metric} improves: the file does not say, arx.toml names another metric or none, and the night's keeps do not move one way"
            ),
        }
    }
}

impl std::error::Error for ImportError {}

/// A line that is no try, counted in the summary rather than warned about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quiet {
    /// A blank line, the header, a comment.
    Layout,
    /// pi's configuration line.
    Config,
    /// pi's `{"type":"hook"}` lines.
    Hook,
    /// codex's parallel worker rows (`5a`, `5b`): detail of their round,
    /// whose main row is the try.
    Worker,
    /// codex's rows that tested no change (`refine`, `pivot`, `search`,
    /// `split`, `drift`, `blocked` without a measured commit).
    Meta,
}

/// What a line of the file is.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Row(Box<Row>),
    Skipped(Skipped),
    Quiet(Quiet),
}

/// The first pass over a file.
pub struct Survey {
    from: Source,
    options: Options,
    lines: usize,
    inner: SurveyOf,
}

enum SurveyOf {
    Tsv(tsv::Survey),
    Pi(pi::Survey),
}

impl Survey {
    pub fn new(from: Source, options: Options) -> Survey {
        let inner = match from {
            Source::Karpathy | Source::Codex => SurveyOf::Tsv(tsv::Survey::new(from)),
            Source::Pi => SurveyOf::Pi(pi::Survey::default()),
        };
        Survey {
            from,
            options,
            lines: 0,
            inner,
        }
    }

    /// Line `n` (1-based) of the file, without its line end. A file that
    /// is not UTF-8 text, or not of the kind its source writes, is refused
    /// at its first such line.
    pub fn line(&mut self, n: usize, bytes: &[u8]) -> Result<(), ImportError> {
        self.lines = n;
        let text = text_of(n, bytes)?;
        match &mut self.inner {
            SurveyOf::Tsv(s) => s.line(text),
            SurveyOf::Pi(s) => s.line(text),
        }
    }

    /// What the night is, from what was read.
    pub fn finish(self) -> Result<Plan, ImportError> {
        let inner = match self.inner {
            SurveyOf::Tsv(s) => PlanOf::Tsv(s.finish(&self.options)?),
            SurveyOf::Pi(s) => PlanOf::Pi(s.finish(&self.options)?),
        };
        let nights = match &inner {
            PlanOf::Tsv(p) => vec![p.night.clone()],
            PlanOf::Pi(p) => p.nights.clone(),
        };
        Ok(Plan {
            from: self.from,
            nights,
            inner,
        })
    }
}

/// What a night is: the nights of the file and how to read their lines.
pub struct Plan {
    pub from: Source,
    pub nights: Vec<NightPlan>,
    inner: PlanOf,
}

enum PlanOf {
    Tsv(tsv::Plan),
    Pi(pi::Plan),
}

impl Plan {
    /// The second pass.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            plan: self,
            ids: Identities::default(),
            section: 0,
            started: HashSet::new(),
            kept: HashMap::new(),
        }
    }
}

/// The second pass over a file: its lines read into rows, and rows into
/// journal records.
pub struct Reader<'a> {
    plan: &'a Plan,
    ids: Identities,
    /// pi: the configuration line the lines read are under.
    section: usize,
    /// Nights whose first keep (their baseline) was read.
    started: HashSet<usize>,
    /// Per night, the commit its last keep names.
    kept: HashMap<usize, String>,
}

impl Reader<'_> {
    /// Line `n` of the file (as the survey read it).
    pub fn line(&mut self, n: usize, bytes: &[u8]) -> Line {
        let Ok(text) = text_of(n, bytes) else {
            return Line::Skipped(Skipped {
                line: n,
                reason: "not UTF-8 text".to_string(),
            });
        };
        let read = match &self.plan.inner {
            PlanOf::Tsv(p) => p.line(n, text),
            PlanOf::Pi(p) => p.line(text, &mut self.section),
        };
        match read {
            Ok(Some(mut row)) => {
                row.line = n;
                row.id = self.ids.next(self.plan.from, text.trim_end());
                // The first keep of each night is the loop's starting
                // measurement, its baseline.
                if matches!(row.status, TryStatus::Keep | TryStatus::Baseline)
                    && self.started.insert(row.night)
                {
                    row.status = TryStatus::Baseline;
                }
                Line::Row(Box::new(row))
            }
            Ok(None) => Line::Quiet(Quiet::Layout),
            Err(Read::Quiet(q)) => Line::Quiet(q),
            Err(Read::Bad(reason)) => Line::Skipped(Skipped { line: n, reason }),
        }
    }

    /// The journal record of `row` (rows in the file's order): `commit` is
    /// its commit as the repository names it (`None`: not in the
    /// repository), `now` the time of a row whose file gives none, `mark`
    /// the import's own id and the file as named.
    pub fn record(
        &mut self,
        row: &Row,
        commit: Option<String>,
        now: &str,
        mark: &Mark,
    ) -> RunRecord {
        let before = self.kept.get(&row.night).cloned();
        if matches!(row.status, TryStatus::Keep | TryStatus::Baseline) {
            if let Some(c) = &commit {
                self.kept.insert(row.night, c.clone());
            }
        }
        let kept = match row.status {
            TryStatus::Baseline => commit.clone(),
            _ => before,
        };
        let night = &self.plan.nights[row.night];
        record(
            self.plan.from,
            night,
            row,
            commit,
            kept.unwrap_or_default(),
            now,
            mark,
        )
    }
}

/// What an import stamps on each record it adds, so it can be undone.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mark {
    /// The import's id.
    pub import: Option<String>,
    /// The file as the person named it.
    pub file: Option<String>,
}

/// Why a line is not a row.
enum Read {
    Quiet(Quiet),
    Bad(String),
}

impl From<String> for Read {
    fn from(reason: String) -> Read {
        Read::Bad(reason)
    }
}

/// A whole file read: its rows, the lines skipped, the lines that are no
/// try, and the nights it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Night {
    pub from: Source,
    pub nights: Vec<NightPlan>,
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
    pub quiet: Vec<(usize, Quiet)>,
}

impl Night {
    /// The night's metric (its last night's, for pi).
    pub fn metric(&self) -> &str {
        self.nights.last().map_or("", |n| n.metric.as_str())
    }

    pub fn direction(&self) -> Direction {
        self.nights.last().map_or(Direction::Min, |n| n.direction)
    }
}

/// Read `bytes`, a whole file written by `from`, into a night: both passes.
pub fn parse(from: Source, bytes: &[u8], options: &Options) -> Result<Night, ImportError> {
    let lines = || {
        bytes
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l))
    };
    let mut survey = Survey::new(from, options.clone());
    for (n, l) in lines() {
        survey.line(n, l)?;
    }
    let plan = survey.finish()?;
    let mut reader = plan.reader();
    let mut night = Night {
        from,
        nights: plan.nights.clone(),
        rows: Vec::new(),
        skipped: Vec::new(),
        quiet: Vec::new(),
    };
    for (n, l) in lines() {
        match reader.line(n, l) {
            Line::Row(r) => night.rows.push(*r),
            Line::Skipped(s) => night.skipped.push(s),
            Line::Quiet(Quiet::Layout) => {}
            Line::Quiet(q) => night.quiet.push((n, q)),
        }
    }
    Ok(night)
}

/// Line `n` as text: UTF-8, a byte-order mark dropped from the first, a
/// carriage return from its end; UTF-16 and binary files named as such.
fn text_of(n: usize, bytes: &[u8]) -> Result<&str, ImportError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if n == 1 && (bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF])) {
        return Err(ImportError::Encoding(
            "the file is UTF-16 text; arx reads UTF-8".to_string(),
        ));
    }
    let bytes = match n {
        1 => bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes),
        _ => bytes,
    };
    if bytes.contains(&0) {
        return Err(ImportError::Encoding(format!(
            "the file holds a NUL byte (line {n}): not text"
        )));
    }
    std::str::from_utf8(bytes)
        .map_err(|_| ImportError::Encoding(format!("the file is not UTF-8 (line {n})")))
}

/// Names a status of another loop, as arx's: `None` for one arx has no
/// word for. codex's `no-op` (no change was made) is a try not kept.
fn status_of(text: &str) -> Option<TryStatus> {
    Some(match text.trim().to_ascii_lowercase().as_str() {
        "keep" | "kept" => TryStatus::Keep,
        "discard" | "discarded" | "no-op" | "noop" => TryStatus::Discard,
        "crash" | "crashed" => TryStatus::Crash,
        "checks_failed" => TryStatus::ChecksFailed,
        "baseline" => TryStatus::Baseline,
        _ => return None,
    })
}

/// Identities of rows: the first 16 bytes of a SHA-256 of the source, the
/// row's text and how many equal rows came before it, written as a UUID.
/// Only a short hash of each row's text is remembered (the count of an
/// equal row needs the text only once it is seen twice), so a long night
/// is numbered in little memory.
#[derive(Default)]
struct Identities {
    once: HashSet<u64>,
    again: HashMap<String, usize>,
}

impl Identities {
    fn next(&mut self, from: Source, text: &str) -> String {
        let short = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            h.finish()
        };
        let n = if self.once.insert(short) {
            0
        } else {
            let seen = self.again.entry(text.to_string()).or_insert(0);
            // Its hash seen before: the text's first time was number 0
            // (held by its hash only), so this is its next.
            *seen += 1;
            *seen
        };
        identity(from, text, n)
    }
}

fn identity(from: Source, text: &str, n: usize) -> String {
    let mut h = Sha256::new();
    h.update(from.as_str().as_bytes());
    h.update([0]);
    h.update(text.as_bytes());
    h.update([0]);
    h.update(n.to_string().as_bytes());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    // Version 8 (custom), variant RFC 4122.
    b[6] = (b[6] & 0x0F) | 0x80;
    b[8] = (b[8] & 0x3F) | 0x80;
    uuid::Uuid::from_bytes(b).to_string()
}

/// The segment id of a night: `import:<source>:<metric>`, and pi's own
/// segment number after it.
fn segment_id(from: Source, metric: &str, part: Option<&str>) -> String {
    match part {
        Some(p) => format!("{SEGMENT_PREFIX}{from}:{metric}:{p}"),
        None => format!("{SEGMENT_PREFIX}{from}:{metric}"),
    }
}

/// A metric's name as a file writes it, its control characters (which
/// would drive a terminal that shows it) replaced.
fn name_of(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
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

/// The direction of a night's metric, by the first that tells: the flag,
/// the file itself, arx.toml (when it names this metric), the night's
/// keeps.
fn direction_of(
    options: &Options,
    metric: &str,
    declared: Option<Direction>,
    keeps: &columns::Moves,
) -> Result<(Direction, &'static str), ImportError> {
    if let Some(d) = options.direction {
        return Ok((d, "flag"));
    }
    if let Some(d) = declared {
        return Ok((d, "file"));
    }
    if let Some((m, d)) = &options.configured {
        if m == metric {
            return Ok((*d, "config"));
        }
    }
    keeps
        .direction()
        .map(|d| (d, "keeps"))
        .ok_or_else(|| ImportError::NoDirection {
            metric: metric.to_string(),
        })
}

#[cfg(test)]
mod tests;
