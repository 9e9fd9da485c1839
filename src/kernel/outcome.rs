//! How one execution of an experiment ended, and the rule that judges a
//! run's attempts: deterministic for one attempt, a confidence interval
//! over the samples for several.

use std::time::Duration;

use super::contract::{MetricSpec, Metrics, ResultFormat};
use super::failure::FailureClass;
use super::stats::{interval_verdict, Summary};
use super::verdict::{measure, ExperimentResult, VerdictRecord};

/// Exit code recorded for a run that timed out (as the reference runner does).
pub const TIMEOUT_EXIT_CODE: i64 = 124;

/// How a run ended.
#[derive(Debug, Clone, Default)]
pub struct RunOutcome {
    /// Exit code; a signal `n` is recorded as `-n`, a timeout as 124.
    pub exit_code: i64,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub interrupted: bool,
    /// The experiment was ended after its result came in.
    pub stopped_on_result: bool,
    /// The experiment was ended because its progress was hopeless.
    pub pruned: bool,
    /// The command could not be started (the message says why).
    pub spawn_error: Option<String>,
    pub metrics: Metrics,
    pub failure_class: FailureClass,
    pub failure_phrase: Option<&'static str>,
    pub stdout_tail: String,
    pub stderr_tail: String,
    /// A process outlived the experiment and held its output open: the
    /// output was read up to then (the result line, if one came, is kept).
    pub output_held: bool,
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    pub duration: Duration,
    /// The slot it ran in, if slots are set.
    pub slot: Option<String>,
    /// Its job id under the launcher (Slurm), when known.
    pub job_id: Option<String>,
    /// The result format its metrics were read in, when not the default.
    pub format: Option<&'static str>,
    /// Values of the format's shape that were not numbers, as one line.
    pub ignored: Option<String>,
    /// The seed it was handed (`[objective] seeds = "paired"`).
    pub seed: Option<u64>,
    /// Its per-instance scores, when the run was asked for them and its
    /// result line had metrics: read, or why not.
    pub instances: Option<Result<super::instances::Scores, super::instances::Unread>>,
}

impl RunOutcome {
    /// The exit code the verdict sees: an experiment that arx itself ended
    /// after its result came in (`--stop-on-result`) did not fail.
    pub fn effective_exit_code(&self) -> i64 {
        if self.stopped_on_result && !self.metrics.is_empty() {
            0
        } else {
            self.exit_code
        }
    }

    /// Did the run fail? Only a failed run has a failure class (the
    /// reference classifies stderr only when the exit code is not 0): a
    /// successful experiment may warn on stderr.
    pub fn failed(&self) -> bool {
        self.timed_out || self.effective_exit_code() != 0
    }
}

/// The judgement of a run's attempts against its spec.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// `None` without a spec.
    pub verdict: Option<VerdictRecord>,
    /// The metric's value in each successful attempt (repeated runs only).
    pub samples: Vec<f64>,
    pub summary: Option<Summary>,
    pub interval: Option<(f64, f64)>,
    /// For an inconclusive repeated run: about how many more runs may decide it.
    pub more_runs: Option<u64>,
}

/// Judge the attempts of one run: with one attempt planned, the kernel's
/// deterministic verdict of the last attempt; with several, a confidence
/// interval over the metric of the attempts that succeeded (failed attempts
/// give no sample and are named in the detail).
pub fn judge(
    spec: Option<&MetricSpec>,
    repeat: u32,
    confidence: f64,
    outcomes: &[RunOutcome],
) -> Judgement {
    let Some(spec) = spec else {
        return Judgement::default();
    };
    let last = outcomes.last().cloned().unwrap_or_default();
    if repeat <= 1 {
        let result = ExperimentResult {
            exit_code: last.effective_exit_code(),
            metrics: last.metrics,
            failure_class: last.failure_class,
        };
        return Judgement {
            verdict: Some(measure(spec, &result)),
            ..Judgement::default()
        };
    }
    let samples: Vec<f64> = outcomes
        .iter()
        .filter(|o| o.effective_exit_code() == 0)
        .filter_map(|o| o.metrics.get(&spec.metric_key))
        .collect();
    let mut v = interval_verdict(spec, &samples, confidence);
    let failed = outcomes
        .iter()
        .filter(|o| o.effective_exit_code() != 0)
        .count();
    if failed > 0 {
        v.record.detail = format!(
            "{} ({failed} of {} runs failed)",
            v.record.detail,
            outcomes.len()
        );
    }
    Judgement {
        verdict: Some(v.record),
        samples,
        summary: v.summary,
        interval: v.interval,
        more_runs: v.more_runs,
    }
}

/// A verdict whose metric was not reported by output read in a format
/// other than the default: its detail also names the format and what it
/// found in `metrics` (the default format's detail is the reference's,
/// unchanged).
pub fn explain_unreported(
    verdict: &mut VerdictRecord,
    format: &ResultFormat,
    metric: &str,
    metrics: &Metrics,
) {
    if format.is_arx() {
        return;
    }
    let said = format!("metric \"{metric}\" not reported");
    let Some(rest) = verdict.detail.strip_prefix(&said) else {
        return;
    };
    let note = super::objective::unreported_note(format, metric, metrics.iter().map(|(k, _)| k));
    verdict.detail = format!("{said}{note}{rest}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::validate_metric_spec;
    use crate::kernel::verdict::Verdict;

    fn outcome(exit_code: i64, acc: Option<f64>) -> RunOutcome {
        let mut metrics = Metrics::default();
        if let Some(x) = acc {
            metrics.insert("acc".into(), x);
        }
        RunOutcome {
            exit_code,
            metrics,
            ..RunOutcome::default()
        }
    }

    #[test]
    fn an_experiment_ended_after_its_result_did_not_fail() {
        let mut o = outcome(-15, Some(0.9));
        assert_eq!(o.effective_exit_code(), -15);
        o.stopped_on_result = true;
        assert_eq!(o.effective_exit_code(), 0);
        o.metrics = Metrics::default();
        assert_eq!(o.effective_exit_code(), -15);
    }

    #[test]
    fn only_a_failed_run_fails() {
        assert!(!outcome(0, None).failed());
        assert!(outcome(1, None).failed());
        let mut o = outcome(-15, Some(0.9));
        o.stopped_on_result = true;
        assert!(!o.failed());
        let mut o = outcome(0, None);
        o.timed_out = true;
        assert!(o.failed());
    }

    #[test]
    fn no_spec_no_verdict() {
        assert_eq!(
            judge(None, 3, 0.95, &[outcome(0, Some(1.0))]),
            Judgement::default()
        );
    }

    #[test]
    fn one_attempt_is_judged_deterministically() {
        let spec = validate_metric_spec("acc", ">=", 0.8).unwrap();
        let j = judge(Some(&spec), 1, 0.95, &[outcome(0, Some(0.83))]);
        let v = j.verdict.unwrap();
        assert_eq!(v.verdict, Verdict::Supported);
        assert_eq!(v.strategy, "deterministic");
        assert!(j.samples.is_empty() && j.summary.is_none());
    }

    #[test]
    fn repeated_attempts_take_samples_from_the_successful_ones() {
        let spec = validate_metric_spec("acc", ">=", 0.8).unwrap();
        let runs = [
            outcome(0, Some(0.9)),
            outcome(1, Some(0.1)),
            outcome(0, Some(0.92)),
            outcome(0, Some(0.91)),
        ];
        let j = judge(Some(&spec), 4, 0.95, &runs);
        assert_eq!(j.samples, vec![0.9, 0.92, 0.91]);
        let v = j.verdict.unwrap();
        assert_eq!(v.strategy, "confidence_interval");
        assert!(v.detail.ends_with("(1 of 4 runs failed)"), "{}", v.detail);
        assert!(j.interval.is_some());
    }
}
