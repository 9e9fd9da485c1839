//! An imported row as a journal record: a ratchet record marked
//! [`Imported`], one value, no replicates, no slot.

use std::collections::HashMap;

use super::{Imported, Mark, Night, NightPlan, Row, Source, IMPORTED_RULE};
use crate::kernel::contract::Metrics;
use crate::kernel::failure::FailureClass;
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};

/// The journal records of `night`'s rows, in order: `commits[i]` is row
/// i's commit as the repository names it (`None`: not in the repository,
/// recorded without one), `now` the time of rows whose file gives none.
/// Each is a ratchet record marked [`Imported`]: shown by the log, the
/// report and `arx best`, never a measured run of the noise (one value, no
/// replicates, no slot).
pub fn records(night: &Night, commits: &[Option<String>], now: &str) -> Vec<RunRecord> {
    let mut kept: HashMap<usize, String> = HashMap::new();
    night
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let commit = commits.get(i).cloned().flatten();
            let before = kept.get(&row.night).cloned();
            if matches!(row.status, TryStatus::Keep | TryStatus::Baseline) {
                if let Some(c) = &commit {
                    kept.insert(row.night, c.clone());
                }
            }
            let kept_commit = match row.status {
                TryStatus::Baseline => commit.clone(),
                _ => before,
            };
            let plan = &night.nights[row.night];
            let mark = Mark::default();
            record(
                night.from,
                plan,
                row,
                commit,
                kept_commit.unwrap_or_default(),
                now,
                &mark,
            )
        })
        .collect()
}

pub(super) fn record(
    from: Source,
    night: &NightPlan,
    row: &Row,
    commit: Option<String>,
    kept: String,
    now: &str,
    mark: &Mark,
) -> RunRecord {
    let mut metrics = Metrics::new();
    if let Some(v) = row.value {
        metrics.insert(night.metric.clone(), v);
    }
    for (k, v) in &row.metrics {
        metrics.insert(k.clone(), *v);
    }
    let crashed = row.status == TryStatus::Crash;
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
        ratchet: Some(RatchetInfo {
            description: row.description.clone(),
            commit,
            imported: Some(Imported {
                from,
                line: row.line,
                import: mark.import.clone(),
                file: mark.file.clone(),
            }),
            ..RatchetInfo::new(
                night.segment.clone(),
                row.status,
                night.metric.clone(),
                night.direction,
                IMPORTED_RULE.to_string(),
                kept,
            )
        }),
        status: None,
        pruned: None,
        progress: None,
        slot: None,
        job_id: None,
    }
}
