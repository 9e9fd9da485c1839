//! The run journal's record shape, and the pure rules over a journal:
//! deduplication of merged journals and their verification.
//!
//! Records are keyed by `run_id` (a UUID v7, unique across machines), so
//! journals written on many machines and combined by a union merge can be
//! deduplicated and checked without any coordination. Also here: finding a
//! run by an id prefix, choosing what `arx log` lists and how a run reads in
//! one line, and the `.gitattributes` lines that make git merge journals as
//! a union. Nothing here reads or writes files.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::contract::{MetricSpec, Metrics};
use super::failure::FailureClass;
use super::names::str_enum;
use super::stats::Summary;
use super::verdict::VerdictRecord;

/// Git state of the working tree when a run started.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GitState {
    /// Commit id of HEAD (`None` on an unborn branch).
    pub head: Option<String>,
    /// Branch name (`None` when detached).
    pub branch: Option<String>,
    /// Tracked or untracked (not ignored) changes were present.
    pub dirty: bool,
}

/// One execution of the experiment command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub exit_code: i64,
    pub timed_out: bool,
    pub failure_class: FailureClass,
    pub metrics: Metrics,
    pub duration_ms: u64,
    /// The slot it ran in (`[objective] slots`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// The launcher's job id of this attempt, when known (Slurm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
}

/// One `arx run` invocation (one or more attempts), as journaled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub run_id: String,
    pub started_at: String,
    pub ended_at: String,
    pub duration_ms: u64,
    pub command: Vec<String>,
    #[serde(default)]
    pub shell: bool,
    pub cwd: String,
    #[serde(default)]
    pub host: Option<String>,
    #[serde(default)]
    pub git: Option<GitState>,
    #[serde(default)]
    pub hypothesis: Option<String>,
    #[serde(default)]
    pub approach_hash: Option<String>,
    #[serde(default)]
    pub candidate: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Features of the loop's state (`--state`), for the policy cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Value>,
    /// Fingerprint of `state`, as the policy cache keys it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_fingerprint: Option<String>,
    #[serde(default)]
    pub spec: Option<MetricSpec>,
    /// Metrics of the last attempt.
    pub metrics: Metrics,
    /// The result format the metrics were read in (`pi`, `summary`,
    /// `pattern`); absent for the default `__RESULT__` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_format: Option<String>,
    /// Exit code of the last attempt (124 when it timed out).
    pub exit_code: i64,
    pub timed_out: bool,
    #[serde(default)]
    pub interrupted: bool,
    /// Ended by arx once its result was in (`--stop-on-result`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped_on_result: bool,
    pub failure_class: FailureClass,
    /// The verdict, when a metric spec was given.
    #[serde(default)]
    pub verdict: Option<VerdictRecord>,
    #[serde(default)]
    pub stdout_tail: String,
    #[serde(default)]
    pub stderr_tail: String,
    /// Every attempt, for repeated runs (empty for a single run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// The metric's samples over the attempts, for repeated runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    /// For an inconclusive repeated run: about how many more runs may decide it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_runs: Option<u64>,
    /// What `arx try` did with this run (ratchet records only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratchet: Option<super::ratchet_record::RatchetInfo>,
    /// How the run ended when arx ended it for a reason of its own:
    /// `pruned` (hopeless progress) or `lost` (arx itself died).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RunStatus>,
    /// Why and where a pruned run was stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pruned: Option<super::prune::Pruned>,
    /// The progress curves of the run's metric, bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<super::prune::Progress>,
    /// The slot the (last) experiment ran in (`[objective] slots`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// The launcher's job id of the (last) experiment, when known (Slurm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
}

str_enum! {
    /// How a run ended when arx, not the experiment, ended it.
    RunStatus, "run status" {
        /// Stopped early: its progress was hopeless (`--prune`).
        Pruned => "pruned",
        /// arx died while it ran (found by `arx ps --reap`).
        Lost => "lost",
    }
}

impl RunRecord {
    /// Did the command succeed? An experiment that arx ended after its
    /// result came in (`--stop-on-result`) did.
    pub fn succeeded(&self) -> bool {
        !self.timed_out
            && (self.exit_code == 0 || (self.stopped_on_result && !self.metrics.is_empty()))
    }
}

/// What a merged journal holds and what is wrong with it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct JournalCheck {
    pub records: usize,
    pub unique_runs: usize,
    /// Run ids present more than once with identical content (harmless,
    /// removed by a merge).
    pub duplicates: Vec<String>,
    /// Run ids present more than once with different content.
    pub conflicts: Vec<String>,
    /// Records without a run id.
    pub missing_ids: usize,
}

impl JournalCheck {
    /// A journal is sound when no run id is missing or conflicting.
    pub fn ok(&self) -> bool {
        self.conflicts.is_empty() && self.missing_ids == 0
    }
}

/// Check a journal given as `(run_id, canonical record text)` pairs in file
/// order.
pub fn check_journal<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> JournalCheck {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let mut check = JournalCheck::default();
    for (id, text) in entries {
        check.records += 1;
        if id.is_empty() {
            check.missing_ids += 1;
            continue;
        }
        match seen.get(id) {
            None => {
                seen.insert(id, text);
            }
            Some(prev) if *prev == text => {
                if !check.duplicates.iter().any(|d| d == id) {
                    check.duplicates.push(id.to_string());
                }
            }
            Some(_) => {
                if !check.conflicts.iter().any(|d| d == id) {
                    check.conflicts.push(id.to_string());
                }
            }
        }
    }
    check.unique_runs = seen.len();
    check
}

/// Deduplicate merged records: keep the first record of each run id, in an
/// order stable across machines (by start time, then run id). Records
/// without a run id are all kept (nothing says they are the same run).
pub fn dedupe(records: Vec<RunRecord>) -> Vec<RunRecord> {
    let mut seen = HashSet::new();
    let mut out: Vec<RunRecord> = records
        .into_iter()
        .filter(|r| r.run_id.is_empty() || seen.insert(r.run_id.clone()))
        .collect();
    out.sort_by(|a, b| {
        a.started_at
            .cmp(&b.started_at)
            .then_with(|| a.run_id.cmp(&b.run_id))
    });
    out
}

/// The record as canonical JSON text: what "the same content" means when
/// two records share a run id (key order and number spelling do not count).
pub fn canonical_text(record: &RunRecord) -> String {
    serde_json::to_string(record).unwrap_or_default()
}

/// Journals combined into one.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// One record per run id, by start time then run id.
    pub records: Vec<RunRecord>,
    /// Records left out as copies of an earlier one.
    pub dropped: usize,
    /// Run ids whose records differ; the first one read was kept.
    pub conflicts: Vec<String>,
}

/// Merge records read in order (the local journal first): keep the first
/// record of each run id, and name the run ids whose copies differ.
pub fn merge(records: Vec<RunRecord>) -> Merged {
    let texts: Vec<String> = records.iter().map(canonical_text).collect();
    let check = check_journal(
        records
            .iter()
            .zip(&texts)
            .map(|(r, t)| (r.run_id.as_str(), t.as_str())),
    );
    let total = records.len();
    let records = dedupe(records);
    Merged {
        dropped: total - records.len(),
        conflicts: check.conflicts,
        records,
    }
}

/// How many records repeat an earlier record of the same run id exactly
/// (the copies a union merge leaves, which `merge` drops).
pub fn duplicate_records<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> usize {
    let mut seen = HashSet::new();
    entries
        .into_iter()
        .filter(|(id, text)| !id.is_empty() && !seen.insert((*id, *text)))
        .count()
}

/// A line of a journal file that is not a record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unreadable {
    /// 1-based line number.
    pub line: usize,
    pub reason: String,
}

/// A journal file read line by line, for verification.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JournalScan {
    /// `(run_id, canonical text)` of every record in file order; an empty id
    /// for a JSON object without a run id.
    pub entries: Vec<(String, String)>,
    pub unreadable: Vec<Unreadable>,
    /// The file ends in a partial line (an interrupted write).
    pub torn_tail: bool,
}

impl JournalScan {
    /// The entries as [`check_journal`] takes them.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(i, t)| (i.as_str(), t.as_str()))
    }
}

/// Read journal bytes line by line: every complete, non-blank line is a
/// record, a JSON object without a run id, or unreadable (with the reason).
pub fn scan_journal(bytes: &[u8]) -> JournalScan {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut scan = JournalScan {
        torn_tail: !bytes[complete..].iter().all(u8::is_ascii_whitespace),
        ..JournalScan::default()
    };
    for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let unreadable = |reason: String| Unreadable {
            line: n + 1,
            reason,
        };
        let value = match serde_json::from_slice::<serde_json::Value>(line) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(_) => {
                scan.unreadable
                    .push(unreadable("not a JSON object".to_string()));
                continue;
            }
            Err(e) => {
                scan.unreadable.push(unreadable(e.to_string()));
                continue;
            }
        };
        let id = match value.get("run_id") {
            Some(serde_json::Value::String(id)) if !id.is_empty() => id.clone(),
            _ => {
                scan.entries.push((String::new(), String::new()));
                continue;
            }
        };
        match serde_json::from_value::<RunRecord>(serde_json::Value::Object(value)) {
            Ok(record) => scan.entries.push((id, canonical_text(&record))),
            Err(e) => scan
                .unreadable
                .push(unreadable(format!("not a run record: {e}"))),
        }
    }
    scan
}

/// Fewest characters of a run id accepted as a prefix by `arx show`.
pub const MIN_PREFIX_LEN: usize = 4;

/// Characters of a run id shown in listings, at least: a UUID v7's first
/// 13 characters hold its millisecond timestamp.
pub const SHORT_ID_LEN: usize = 13;

/// The outcome of looking a run up by id or id prefix.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup<'a> {
    Found(&'a RunRecord),
    /// The prefix matches several runs (their ids, in journal order).
    Ambiguous(Vec<&'a str>),
    /// Shorter than [`MIN_PREFIX_LEN`] and not a whole run id.
    TooShort,
    Missing,
}

/// Find the run whose id is `query`, or the only one starting with it
/// (ASCII case does not matter). Copies of one run count as one run; the
/// first is returned.
pub fn find_run<'a>(records: &'a [RunRecord], query: &str) -> Lookup<'a> {
    let query = query.trim();
    if query.is_empty() {
        return Lookup::TooShort;
    }
    if let Some(r) = records
        .iter()
        .find(|r| r.run_id.eq_ignore_ascii_case(query))
    {
        return Lookup::Found(r);
    }
    if query.chars().count() < MIN_PREFIX_LEN {
        return Lookup::TooShort;
    }
    let mut ids: Vec<&str> = Vec::new();
    let mut first = None;
    for r in records {
        let id = r.run_id.as_str();
        let matches = id
            .get(..query.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(query));
        if matches && !ids.contains(&id) {
            ids.push(id);
            first.get_or_insert(r);
        }
    }
    match (ids.len(), first) {
        (1, Some(r)) => Lookup::Found(r),
        (0, _) | (_, None) => Lookup::Missing,
        _ => Lookup::Ambiguous(ids),
    }
}

/// How many leading characters tell every id apart, but at least `min`
/// (and at most the longest id).
pub fn short_id_len<'a>(ids: impl IntoIterator<Item = &'a str>, min: usize) -> usize {
    let mut ids: Vec<&str> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let longest = ids.iter().map(|i| i.chars().count()).max().unwrap_or(0);
    let needed = ids
        .windows(2)
        .map(|w| {
            w[0].chars()
                .zip(w[1].chars())
                .take_while(|(a, b)| a == b)
                .count()
                + 1
        })
        .max()
        .unwrap_or(0);
    needed.max(min).min(longest.max(min))
}

/// The first `len` characters of an id.
pub fn short_id(id: &str, len: usize) -> &str {
    match id.char_indices().nth(len) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}

/// The runs `arx log` lists: those of `candidate` (all when `None`), the
/// `limit` most recent of them, oldest first.
pub fn select(
    records: Vec<RunRecord>,
    candidate: Option<&str>,
    limit: Option<usize>,
) -> Vec<RunRecord> {
    let mut runs: Vec<RunRecord> = records
        .into_iter()
        .filter(|r| candidate.is_none_or(|c| r.candidate.as_deref() == Some(c)))
        .collect();
    if let Some(n) = limit {
        let skip = runs.len().saturating_sub(n);
        runs.drain(..skip);
    }
    runs
}

/// A run's outcome in a few characters: "not run" for a protected try,
/// else a try's value as its line told it, or the spec's metric (`acc=0.83`;
/// the mean and sample count of a repeated run), else how the
/// command ended (`exit=1`, `timeout`, `interrupted`).
pub fn outcome(record: &RunRecord) -> String {
    if let Some(t) = &record.ratchet {
        if t.status == super::ratchet_record::TryStatus::Protected {
            return "not run".to_string();
        }
        // A try: the value it was told with (a keep's confirmation runs).
        if let Some(e) = super::effect::of_try(t, &record.samples) {
            return format!(
                "{}={} (n={})",
                t.metric,
                super::number::fmt_sig(e.value, 6),
                e.n
            );
        }
    }
    let key = match (&record.spec, &record.ratchet) {
        (Some(spec), _) => Some(spec.metric_key.as_str()),
        (None, Some(t)) => Some(t.metric.as_str()),
        (None, None) => None,
    };
    if let Some(key) = key {
        if let Some(s) = &record.summary {
            return format!("{key}={} (n={})", super::number::fmt_sig(s.mean, 6), s.n);
        }
        if let Some(v) = record.metrics.get(key) {
            return format!("{key}={}", super::number::fmt_sig(v, 6));
        }
    }
    if record.timed_out {
        "timeout".to_string()
    } else if record.interrupted {
        "interrupted".to_string()
    } else {
        format!("exit={}", record.exit_code)
    }
}

/// The run's command as one line to read (and, without `--shell`, to paste
/// into a POSIX shell): arguments that need it are single-quoted, control
/// characters of a `--shell` command string become spaces.
pub fn command_line(record: &RunRecord) -> String {
    if record.shell {
        return crate::kernel::text::visible(&record.command.join(" ")).into_owned();
    }
    record
        .command
        .iter()
        .map(|arg| shell_quote(arg))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        return arg.to_string();
    }
    let quoted = arg.replace('\'', r"'\''");
    format!("'{}'", crate::kernel::text::visible(&quoted))
}

/// A duration for people: `850ms`, `12.3s`, `4m05s`, `2h03m`.
pub fn fmt_duration(ms: u64) -> String {
    let s = ms / 1000;
    match ms {
        0..=999 => format!("{ms}ms"),
        1000..=59_999 => format!("{s}.{}s", (ms % 1000) / 100),
        60_000..=3_599_999 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// A path as a `.gitattributes` pattern (glob characters escaped), or
/// `None` when it cannot be written as one (whitespace, quotes, a leading
/// `#` or `!`).
pub fn gitattributes_pattern(path: &str) -> Option<String> {
    if path.is_empty()
        || path.starts_with(['#', '!'])
        || path.chars().any(|c| c.is_whitespace() || c == '"')
    {
        return None;
    }
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    Some(out)
}

/// The `.gitattributes` lines (`<pattern> merge=union`) that `existing`
/// lacks for `patterns`; a line for the same pattern (with or without a
/// leading `/`) that already sets `merge=union` counts.
pub fn union_merge_lines(existing: &str, patterns: &[String]) -> Vec<String> {
    let present = |pattern: &str| {
        existing.lines().any(|line| {
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else {
                return false;
            };
            first.trim_start_matches('/') == pattern.trim_start_matches('/')
                && words.any(|w| w == "merge=union")
        })
    };
    patterns
        .iter()
        .filter(|p| !present(p))
        .map(|p| format!("{p} merge=union"))
        .collect()
}

/// Lines of a state directory's `.gitignore` for its derived files
/// (`names`, plus the temporary files of atomic writes), with the ones
/// `existing` already has left out.
pub fn derived_ignore_lines(existing: &str, names: &[&str]) -> Vec<String> {
    let present = |pattern: &str| existing.lines().any(|line| line.trim() == pattern);
    names
        .iter()
        .map(|n| format!("/{n}"))
        .chain(std::iter::once("/.*.tmp-*".to_string()))
        .filter(|p| !present(p))
        .collect()
}

/// The curves of `records` that completed, as peers for [`super::prune::Pruner`]: runs
/// on `metric` and `step_key` that were neither pruned nor lost nor
/// interrupted, and of those the attempts that succeeded.
pub fn completed_curves<'a>(
    records: impl IntoIterator<Item = &'a RunRecord>,
    metric: &str,
    step_key: &str,
) -> Vec<super::prune::Points> {
    let mut out = Vec::new();
    for r in records {
        let Some(p) = &r.progress else { continue };
        if p.metric != metric || p.step_key != step_key || r.status.is_some() || r.interrupted {
            continue;
        }
        if r.attempts.is_empty() {
            if r.succeeded() && p.curves.len() == 1 && !p.curves[0].is_empty() {
                out.push(p.curves[0].clone());
            }
            continue;
        }
        for (a, c) in r.attempts.iter().zip(&p.curves) {
            if a.exit_code == 0 && !a.timed_out && !c.is_empty() {
                out.push(c.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::Comparator;

    #[test]
    fn derived_ignore_lines_add_only_what_is_missing() {
        assert_eq!(
            derived_ignore_lines("", &["a.json"]),
            ["/a.json", "/.*.tmp-*"]
        );
        assert_eq!(
            derived_ignore_lines("# x\n/a.json\n", &["a.json", "b.json"]),
            ["/b.json", "/.*.tmp-*"]
        );
    }
    use crate::kernel::stats::Summary;

    /// A plain single run (built from JSON, so new optional fields keep
    /// their defaults).
    fn rec(id: &str, started: &str) -> RunRecord {
        serde_json::from_value(serde_json::json!({
            "run_id": id,
            "started_at": started,
            "ended_at": started,
            "duration_ms": 1200,
            "command": ["python", "train.py"],
            "cwd": "/repo",
            "host": "box",
            "metrics": {"acc": 0.83},
            "exit_code": 0,
            "timed_out": false,
            "failure_class": "none",
        }))
        .expect("a valid run record")
    }

    const T1: &str = "2026-01-01T00:00:01.000Z";
    const T2: &str = "2026-01-01T00:00:02.000Z";

    #[test]
    fn merge_keeps_the_first_copy_and_names_conflicts() {
        let mut changed = rec("b", T1);
        changed.exit_code = 1;
        let m = merge(vec![
            rec("b", T1),
            rec("a", T2),
            rec("b", T1),
            changed,
            rec("c", T1),
        ]);
        let ids: Vec<&str> = m.records.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(ids, ["b", "c", "a"]);
        assert_eq!(m.dropped, 2);
        assert_eq!(m.conflicts, ["b"]);
        assert_eq!(m.records[0].exit_code, 0);
    }

    #[test]
    fn dedupe_keeps_every_record_without_an_id() {
        let out = dedupe(vec![rec("", T2), rec("", T1), rec("x", T1), rec("x", T1)]);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].started_at, T1);
    }

    #[test]
    fn duplicate_records_counts_exact_copies_only() {
        let entries = [
            ("a", "1"),
            ("a", "1"),
            ("a", "2"),
            ("a", "1"),
            ("", ""),
            ("", ""),
        ];
        assert_eq!(duplicate_records(entries), 2);
    }

    #[test]
    fn scan_sorts_lines_into_records_missing_ids_and_unreadable() {
        let good = serde_json::to_string(&rec("r1", T1)).unwrap();
        let text = format!(
            "{good}\n\n{{\"note\": 1}}\n[1]\nnot json\n{{\"run_id\": \"r2\"}}\n{good}\n{{\"run_id\": \"r3\", \"sta"
        );
        let scan = scan_journal(text.as_bytes());
        assert!(scan.torn_tail);
        let ids: Vec<&str> = scan.entries.iter().map(|(i, _)| i.as_str()).collect();
        assert_eq!(ids, ["r1", "", "r1"]);
        assert_eq!(scan.entries[0].1, good);
        let lines: Vec<usize> = scan.unreadable.iter().map(|u| u.line).collect();
        assert_eq!(lines, [4, 5, 6]);
        assert!(scan.unreadable[2].reason.contains("not a run record"));
        let check = check_journal(scan.pairs());
        assert_eq!(check.duplicates, ["r1"]);
        assert_eq!(check.missing_ids, 1);
        assert!(!scan_journal(b"").torn_tail);
        assert!(!scan_journal(b"\n  ").torn_tail);
    }

    #[test]
    fn canonical_text_ignores_key_order_and_number_spelling() {
        let a = rec("r", T1);
        let serde_json::Value::Object(map) = serde_json::to_value(&a).unwrap() else {
            unreachable!("a record is an object")
        };
        let reversed: serde_json::Map<String, serde_json::Value> = map.into_iter().rev().collect();
        let text = serde_json::Value::Object(reversed)
            .to_string()
            .replace("0.83", "8.30e-1");
        assert!(!text.starts_with(r#"{"run_id"#));
        let b: RunRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(canonical_text(&a), canonical_text(&b));
        let mut c = a.clone();
        c.exit_code = 1;
        assert_ne!(canonical_text(&a), canonical_text(&c));
    }

    #[test]
    fn find_run_by_id_or_unique_prefix() {
        let runs = [
            rec("0193a7c2-aaaa-7000-8000-000000000001", T1),
            rec("0193a7c2-bbbb-7000-8000-000000000002", T1),
            rec("0193a7c2-bbbb-7000-8000-000000000002", T2),
            rec("abc", T1),
        ];
        assert!(
            matches!(find_run(&runs, "0193A7C2-AAAA"), Lookup::Found(r) if r.run_id.ends_with('1'))
        );
        // Copies of one run are one run; the first is returned.
        assert!(matches!(find_run(&runs, "0193a7c2-b"), Lookup::Found(r) if r.started_at == T1));
        assert_eq!(
            find_run(&runs, "0193"),
            Lookup::Ambiguous(vec![
                "0193a7c2-aaaa-7000-8000-000000000001",
                "0193a7c2-bbbb-7000-8000-000000000002"
            ])
        );
        assert_eq!(find_run(&runs, "019"), Lookup::TooShort);
        assert_eq!(find_run(&runs, " "), Lookup::TooShort);
        assert!(matches!(find_run(&runs, "abc"), Lookup::Found(_)));
        assert_eq!(find_run(&runs, "ffff"), Lookup::Missing);
        // A prefix longer than every id, or cutting a multi-byte character.
        assert_eq!(find_run(&runs, &"0".repeat(60)), Lookup::Missing);
        assert_eq!(find_run(&[rec("ééé", T1)], "éééé"), Lookup::Missing);
    }

    #[test]
    fn short_ids_are_long_enough_to_differ() {
        assert_eq!(short_id_len(["0193a7c2-aaaa-1", "0193a7c2-bbbb-2"], 4), 10);
        assert_eq!(short_id_len(["0193a7c2-aaaa-1", "0193a7c2-bbbb-2"], 13), 13);
        assert_eq!(short_id_len(["abc-1", "abc-2"], 4), 5);
        assert_eq!(short_id_len(["x", "x"], 13), 13);
        assert_eq!(short_id_len([], 13), 13);
        assert_eq!(short_id("0193a7c2-aaaa-1", 13), "0193a7c2-aaaa");
        assert_eq!(short_id("abc", 13), "abc");
        assert_eq!(short_id("ééé", 2), "éé");
    }

    #[test]
    fn select_filters_then_keeps_the_most_recent() {
        let mut runs: Vec<RunRecord> = (0..5).map(|i| rec(&i.to_string(), T1)).collect();
        runs[1].candidate = Some("x".into());
        runs[3].candidate = Some("x".into());
        let ids = |v: Vec<RunRecord>| v.into_iter().map(|r| r.run_id).collect::<Vec<_>>();
        assert_eq!(ids(select(runs.clone(), None, Some(2))), ["3", "4"]);
        assert_eq!(ids(select(runs.clone(), Some("x"), None)), ["1", "3"]);
        assert_eq!(ids(select(runs.clone(), Some("x"), Some(1))), ["3"]);
        assert!(select(runs.clone(), None, Some(0)).is_empty());
        assert_eq!(select(runs, None, Some(99)).len(), 5);
    }

    #[test]
    fn outcome_prefers_the_spec_metric() {
        let mut r = rec("r", T1);
        assert_eq!(outcome(&r), "exit=0");
        r.spec = Some(MetricSpec {
            metric_key: "acc".into(),
            comparator: Comparator::Ge,
            target: 0.8,
        });
        assert_eq!(outcome(&r), "acc=0.83");
        r.summary = Some(Summary {
            n: 3,
            mean: 0.8312345678,
            sd: 0.01,
            median: 0.83,
            min: 0.82,
            max: 0.84,
            outliers: vec![],
        });
        assert_eq!(outcome(&r), "acc=0.831235 (n=3)");
        r.summary = None;
        r.metrics = Metrics::new();
        r.exit_code = 124;
        assert_eq!(outcome(&r), "exit=124");
        r.timed_out = true;
        assert_eq!(outcome(&r), "timeout");
        r.timed_out = false;
        r.interrupted = true;
        assert_eq!(outcome(&r), "interrupted");
    }

    #[test]
    fn command_lines_quote_what_needs_it() {
        let mut r = rec("r", T1);
        r.command = vec![
            "python".into(),
            "train.py".into(),
            "--lr=1e-3".into(),
            "two words".into(),
            "it's".into(),
            "".into(),
        ];
        assert_eq!(
            command_line(&r),
            r"python train.py --lr=1e-3 'two words' 'it'\''s' ''"
        );
        r.command = vec!["a\nb".into()];
        assert_eq!(command_line(&r), r"'a\nb'");
        r.shell = true;
        r.command = vec!["for i in 1 2; do\n echo $i; done".into()];
        assert_eq!(command_line(&r), r"for i in 1 2; do\n echo $i; done");
    }

    #[test]
    fn durations_read_at_a_glance() {
        assert_eq!(fmt_duration(0), "0ms");
        assert_eq!(fmt_duration(850), "850ms");
        assert_eq!(fmt_duration(12_345), "12.3s");
        assert_eq!(fmt_duration(59_999), "59.9s");
        assert_eq!(fmt_duration(245_000), "4m05s");
        assert_eq!(fmt_duration(7_380_000), "2h03m");
        assert_eq!(
            fmt_duration(u64::MAX),
            format!(
                "{}h{:02}m",
                u64::MAX / 1000 / 3600,
                (u64::MAX / 1000 % 3600) / 60
            )
        );
    }

    #[test]
    fn gitattributes_patterns_and_missing_lines() {
        assert_eq!(
            gitattributes_pattern(".arx/journal.jsonl").as_deref(),
            Some(".arx/journal.jsonl")
        );
        assert_eq!(
            gitattributes_pattern("st[1]/*.jsonl").as_deref(),
            Some("st\\[1]/\\*.jsonl")
        );
        assert_eq!(gitattributes_pattern("my state/journal.jsonl"), None);
        assert_eq!(gitattributes_pattern("#x/journal.jsonl"), None);
        assert_eq!(gitattributes_pattern(""), None);

        let patterns = vec![
            ".arx/journal.jsonl".to_string(),
            ".arx/dead-ends.jsonl".to_string(),
            ".arx/knowhow.jsonl".to_string(),
        ];
        let existing = "*.png binary\r\n/.arx/journal.jsonl  merge=union\n.arx/dead-ends.jsonl -diff\n# .arx/knowhow.jsonl merge=union\n";
        assert_eq!(
            union_merge_lines(existing, &patterns),
            [
                ".arx/dead-ends.jsonl merge=union",
                ".arx/knowhow.jsonl merge=union"
            ]
        );
        assert!(union_merge_lines(
            ".arx/journal.jsonl merge=union\n.arx/dead-ends.jsonl merge=union\n.arx/knowhow.jsonl -text merge=union",
            &patterns
        )
        .is_empty());
        assert_eq!(union_merge_lines("", &patterns).len(), 3);
    }
}
