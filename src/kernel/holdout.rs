//! The held-out check at keep (`[objective.holdout]`): a second evaluation
//! run only when a candidate is about to be kept (and at the baseline),
//! whose metric must not be worse than the best's beyond its noise. Its
//! values are the operator's: they go to a journal outside the repository
//! ([`Entry`], one JSON line each), and everything the try tells says only
//! passed or failed ([`Verdict`]). The noise is the pooled spread of the
//! held-out runs repeated in the same segment (the baseline's
//! `baseline_repeat` runs, and any candidate's `repeat` runs).

use serde::{Deserialize, Serialize};

use super::names::str_enum;
use super::ratchet_noise::pooled_with;
use super::stats::Direction;

/// Default held-out runs of the baseline (its noise).
pub const DEFAULT_BASELINE_REPEAT: u32 = 3;
/// Default held-out runs of a candidate about to be kept.
pub const DEFAULT_REPEAT: u32 = 1;

/// The held-out check's settings, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Holdout {
    /// One shell command line when `shell`, else argv.
    pub command: Vec<String>,
    pub shell: bool,
    pub metric: String,
    /// The objective's direction unless given.
    pub direction: Direction,
    pub baseline_repeat: u32,
    pub repeat: u32,
}

str_enum! {
    /// What a held-out check came to: all the try tells of it.
    HoldoutVerdict, "held-out verdict" {
        /// Not worse than the best's beyond its noise.
        Passed => "passed",
        /// Worse than the best's beyond its noise.
        Failed => "failed",
        /// The command failed (non-zero exit, timeout, could not start).
        Crashed => "crashed",
        /// The command ran but did not print the metric.
        Missing => "missing",
    }
}

impl HoldoutVerdict {
    pub fn passed(self) -> bool {
        self == HoldoutVerdict::Passed
    }

    /// Why a candidate was not kept, in words without values.
    pub fn why(self) -> &'static str {
        match self {
            HoldoutVerdict::Passed => "passed",
            HoldoutVerdict::Failed => "failed",
            HoldoutVerdict::Crashed => "failed: its command crashed",
            HoldoutVerdict::Missing => "failed: its command printed no metric",
        }
    }
}

/// One held-out measurement as the operator's journal holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub at: String,
    /// The state directory, resolved (one per repository: its lanes
    /// share it), which the entries of one loop are found by.
    pub state: String,
    pub segment: String,
    /// The try's run id (for the baseline: the baseline's).
    pub run_id: String,
    /// `baseline` or `candidate`.
    pub kind: String,
    /// The best's run the candidate was compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_run: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub metric: String,
    pub direction: Direction,
    pub values: Vec<f64>,
    /// The best's values it was compared with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best: Vec<f64>,
    /// The held-out noise (sd of one run) the comparison used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    pub verdict: HoldoutVerdict,
    /// The best had no held-out value to compare with: passed as the
    /// first reference.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_reference: bool,
    pub exit_code: i64,
    #[serde(default)]
    pub stdout_tail: String,
    #[serde(default)]
    pub stderr_tail: String,
}

/// The held-out values of the run `run_id` in segment `segment` of the
/// state directory `state` (the last such entry that passed, or a baseline's).
pub fn values_of<'e>(
    entries: &'e [Entry],
    state: &str,
    segment: &str,
    run_id: &str,
) -> Option<&'e [f64]> {
    entries
        .iter()
        .rev()
        .find(|e| {
            e.state == state
                && e.segment == segment
                && e.run_id == run_id
                && e.verdict.passed()
                && !e.values.is_empty()
        })
        .map(|e| e.values.as_slice())
}

/// The held-out noise of a segment: the pooled sd (and its degrees of
/// freedom) of its repeated held-out measurements, `extra` included.
pub fn noise(entries: &[Entry], state: &str, segment: &str, extra: &[f64]) -> Option<(f64, f64)> {
    let groups: Vec<&[f64]> = entries
        .iter()
        .filter(|e| e.state == state && e.segment == segment && e.values.len() > 1)
        .map(|e| e.values.as_slice())
        .collect();
    pooled_with(&groups, extra)
}

/// The verdict on a candidate's held-out `values` against the best's:
/// failed when worse beyond the noise at `confidence`.
pub fn judge(
    values: &[f64],
    best: &[f64],
    direction: Direction,
    noise: Option<(f64, f64)>,
    confidence: f64,
) -> HoldoutVerdict {
    let lower = direction == Direction::Min;
    match super::guard::worse_beyond_noise(values, best, lower, noise, confidence) {
        Some(true) => HoldoutVerdict::Failed,
        Some(false) => HoldoutVerdict::Passed,
        None => HoldoutVerdict::Missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(run_id: &str, values: &[f64], verdict: HoldoutVerdict) -> Entry {
        Entry {
            at: "2026-11-27T00:00:00Z".into(),
            state: "/r".into(),
            segment: "s".into(),
            run_id: run_id.into(),
            kind: "candidate".into(),
            best_run: None,
            description: None,
            metric: "test_loss".into(),
            direction: Direction::Min,
            values: values.to_vec(),
            best: Vec::new(),
            noise: None,
            verdict,
            no_reference: false,
            exit_code: 0,
            stdout_tail: String::new(),
            stderr_tail: String::new(),
        }
    }

    #[test]
    fn the_best_is_its_last_passed_entry_and_the_noise_pools_repeats() {
        let entries = vec![
            entry("b", &[1.0, 1.2, 1.1], HoldoutVerdict::Passed),
            entry("c", &[0.9], HoldoutVerdict::Failed),
            entry("c", &[0.95], HoldoutVerdict::Passed),
        ];
        assert_eq!(values_of(&entries, "/r", "s", "c"), Some(&[0.95][..]));
        assert_eq!(
            values_of(&entries, "/r", "s", "b").map(<[f64]>::len),
            Some(3)
        );
        assert_eq!(values_of(&entries, "/other", "s", "b"), None);
        let (sd, df) = noise(&entries, "/r", "s", &[]).unwrap();
        assert!((sd - 0.1).abs() < 1e-9 && df == 2.0, "{sd} {df}");
        assert_eq!(noise(&entries, "/r", "t", &[]), None);
    }

    #[test]
    fn a_candidate_fails_only_when_worse_beyond_the_noise() {
        let best = [1.0, 1.2, 1.1];
        let n = Some((0.1, 2.0));
        assert_eq!(
            judge(&[1.2], &best, Direction::Min, n, 0.95),
            HoldoutVerdict::Passed
        );
        assert_eq!(
            judge(&[2.0], &best, Direction::Min, n, 0.95),
            HoldoutVerdict::Failed
        );
        assert_eq!(
            judge(&[2.0], &best, Direction::Max, n, 0.95),
            HoldoutVerdict::Passed
        );
        assert_eq!(
            judge(&[1.11], &best, Direction::Min, None, 0.95),
            HoldoutVerdict::Failed
        );
        assert_eq!(
            judge(&[], &best, Direction::Min, n, 0.95),
            HoldoutVerdict::Missing
        );
    }
}
