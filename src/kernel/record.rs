//! Building a journal record from a run's attempts: one constructor for
//! what every run has (where and when, the command, the last attempt) and
//! one setter per label, so a record is never a row of `None`s patched
//! field by field.

use super::contract::MetricSpec;
use super::journal::{Attempt, GitState, RunRecord};
use super::outcome::{Judgement, RunOutcome};
use super::stats::Summary;
use super::verdict::VerdictRecord;

/// Where and when an invocation ran, as the host observed it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOrigin {
    pub run_id: String,
    /// RFC 3339 with milliseconds.
    pub started_at: String,
    pub ended_at: String,
    pub duration_ms: u64,
    pub cwd: String,
    pub host: Option<String>,
    pub git: Option<GitState>,
}

/// A [`RunRecord`] under construction.
#[derive(Debug, Clone)]
pub struct RunRecordBuilder {
    record: RunRecord,
}

impl RunRecord {
    /// The record of the attempts of one command: the last attempt's
    /// result, interrupted if any attempt was, and every attempt when
    /// `keep_attempts` (repeated runs). Labels, spec and verdict are added
    /// with the builder's setters.
    pub fn builder(
        origin: RunOrigin,
        command: Vec<String>,
        shell: bool,
        outcomes: &[RunOutcome],
        keep_attempts: bool,
    ) -> RunRecordBuilder {
        let last = outcomes.last().cloned().unwrap_or_default();
        RunRecordBuilder {
            record: RunRecord {
                run_id: origin.run_id,
                started_at: origin.started_at,
                ended_at: origin.ended_at,
                duration_ms: origin.duration_ms,
                command,
                shell,
                cwd: origin.cwd,
                host: origin.host,
                git: origin.git,
                hypothesis: None,
                approach_hash: None,
                candidate: None,
                tags: Vec::new(),
                state: None,
                state_fingerprint: None,
                spec: None,
                metrics: last.metrics,
                result_format: last.format.map(String::from),
                exit_code: last.exit_code,
                timed_out: last.timed_out,
                interrupted: outcomes.iter().any(|o| o.interrupted),
                stopped_on_result: last.stopped_on_result,
                failure_class: last.failure_class,
                verdict: None,
                stdout_tail: last.stdout_tail,
                stderr_tail: last.stderr_tail,
                attempts: if keep_attempts {
                    outcomes.iter().map(attempt).collect()
                } else {
                    Vec::new()
                },
                samples: Vec::new(),
                summary: None,
                interval: None,
                more_runs: None,
                ratchet: None,
                status: None,
                pruned: None,
                progress: None,
                slot: last.slot,
                job_id: last.job_id,
            },
        }
    }
}

fn attempt(o: &RunOutcome) -> Attempt {
    Attempt {
        exit_code: o.exit_code,
        timed_out: o.timed_out,
        failure_class: o.failure_class,
        metrics: o.metrics.clone(),
        duration_ms: o.duration.as_millis() as u64,
        slot: o.slot.clone(),
        job_id: o.job_id.clone(),
    }
}

impl RunRecordBuilder {
    pub fn hypothesis(mut self, hypothesis: Option<String>, approach_hash: Option<String>) -> Self {
        self.record.hypothesis = hypothesis;
        self.record.approach_hash = approach_hash;
        self
    }

    pub fn candidate(mut self, candidate: Option<String>) -> Self {
        self.record.candidate = candidate;
        self
    }

    pub fn tags(mut self, tags: Vec<String>) -> Self {
        self.record.tags = tags;
        self
    }

    /// The loop's state features and their policy-cache fingerprint.
    pub fn loop_state(mut self, state: Option<(serde_json::Value, String)>) -> Self {
        if let Some((features, fingerprint)) = state {
            self.record.state = Some(features);
            self.record.state_fingerprint = Some(fingerprint);
        }
        self
    }

    pub fn spec(mut self, spec: Option<MetricSpec>) -> Self {
        self.record.spec = spec;
        self
    }

    /// The verdict and the statistics behind it.
    pub fn judgement(mut self, j: Judgement) -> Self {
        self.record.verdict = j.verdict;
        self.record.samples = j.samples;
        self.record.summary = j.summary;
        self.record.interval = j.interval;
        self.record.more_runs = j.more_runs;
        self
    }

    pub fn verdict(mut self, verdict: Option<VerdictRecord>) -> Self {
        self.record.verdict = verdict;
        self
    }

    /// Samples and their summary, without an interval (one side of a comparison).
    pub fn samples(mut self, samples: Vec<f64>, summary: Option<Summary>) -> Self {
        self.record.samples = samples;
        self.record.summary = summary;
        self
    }

    /// What `arx try` did with the run.
    pub fn ratchet(mut self, info: super::segment::RatchetInfo) -> Self {
        self.record.ratchet = Some(info);
        self
    }

    /// A run arx stopped because its progress was hopeless.
    pub fn pruned(mut self, pruned: Option<super::prune::Pruned>) -> Self {
        if pruned.is_some() {
            self.record.status = Some(super::journal::RunStatus::Pruned);
        }
        self.record.pruned = pruned;
        self
    }

    /// The progress curves of the run's metric.
    pub fn progress(mut self, progress: Option<super::prune::Progress>) -> Self {
        self.record.progress = progress.filter(|p| p.curves.iter().any(|c| !c.is_empty()));
        self
    }

    pub fn build(self) -> RunRecord {
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::Metrics;
    use std::time::Duration;

    fn origin() -> RunOrigin {
        RunOrigin {
            run_id: "r1".into(),
            started_at: "2026-01-01T00:00:00.000Z".into(),
            ended_at: "2026-01-01T00:00:01.000Z".into(),
            duration_ms: 1000,
            cwd: "/w".into(),
            host: Some("h".into()),
            git: None,
        }
    }

    fn outcome(exit_code: i64, interrupted: bool) -> RunOutcome {
        RunOutcome {
            exit_code,
            interrupted,
            metrics: Metrics::from_pairs(vec![("acc".into(), exit_code as f64)]),
            duration: Duration::from_millis(7),
            stdout_tail: format!("out {exit_code}"),
            ..RunOutcome::default()
        }
    }

    #[test]
    fn the_record_carries_the_last_attempt_and_any_interruption() {
        let runs = [outcome(0, true), outcome(3, false)];
        let r = RunRecord::builder(origin(), vec!["x".into()], false, &runs, false).build();
        assert_eq!(r.exit_code, 3);
        assert_eq!(r.stdout_tail, "out 3");
        assert_eq!(r.metrics.get("acc"), Some(3.0));
        assert!(r.interrupted);
        assert!(r.attempts.is_empty());
        assert_eq!(r.run_id, "r1");
        assert_eq!(r.host.as_deref(), Some("h"));
    }

    #[test]
    fn repeated_runs_keep_every_attempt_and_labels_are_set() {
        let runs = [outcome(0, false), outcome(1, false)];
        let r = RunRecord::builder(origin(), vec!["x".into()], true, &runs, true)
            .candidate(Some("c".into()))
            .tags(vec!["t".into()])
            .hypothesis(Some("h".into()), Some("abc".into()))
            .loop_state(Some((serde_json::json!({"k": 1}), "fp".into())))
            .build();
        assert_eq!(r.attempts.len(), 2);
        assert_eq!(r.attempts[1].exit_code, 1);
        assert_eq!(r.attempts[0].duration_ms, 7);
        assert_eq!(r.candidate.as_deref(), Some("c"));
        assert_eq!(r.approach_hash.as_deref(), Some("abc"));
        assert_eq!(r.state_fingerprint.as_deref(), Some("fp"));
        assert!(r.shell);
    }
}
