//! The run journal's record shape, and the pure rules over a journal:
//! deduplication of merged journals and their verification.
//!
//! Records are keyed by `run_id` (a UUID v7, unique across machines), so
//! journals written on many machines and combined by a union merge can be
//! deduplicated and checked without any coordination. Nothing here reads or
//! writes files.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::contract::{MetricSpec, Metrics};
use super::failure::FailureClass;
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
    #[serde(default)]
    pub spec: Option<MetricSpec>,
    /// Metrics of the last attempt.
    pub metrics: Metrics,
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
/// order stable across machines (by start time, then run id).
pub fn dedupe(records: Vec<RunRecord>) -> Vec<RunRecord> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<RunRecord> = records
        .into_iter()
        .filter(|r| seen.insert(r.run_id.clone()))
        .collect();
    out.sort_by(|a, b| {
        a.started_at
            .cmp(&b.started_at)
            .then_with(|| a.run_id.cmp(&b.run_id))
    });
    out
}
