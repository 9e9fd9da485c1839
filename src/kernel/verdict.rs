//! The deterministic verdict: an experiment result judged against a metric
//! spec. Pure; the host gathers the result (exit code, failure class, metrics).

use serde::{Deserialize, Serialize};

use super::contract::{compare, MetricSpec, Metrics};
use super::failure::FailureClass;
use super::names::str_enum;
use super::number::fmt_number;

str_enum! {
    /// The outcome of a hypothesis test.
    Verdict, "verdict" {
        Supported => "supported",
        Refuted => "refuted",
        Inconclusive => "inconclusive",
    }
}

str_enum! {
    /// How strong the evidence behind a verdict or record is.
    EvidenceLevel, "evidence level" {
        Deterministic => "deterministic",
        ExitCode => "exit_code",
        Llm => "llm",
        /// Recorded by a person (dead ends added by hand).
        Manual => "manual",
    }
}

/// What an experiment produced, as the verdict needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentResult {
    pub metrics: Metrics,
    pub exit_code: i64,
    pub failure_class: FailureClass,
}

/// The kernel's verdict record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictRecord {
    pub verdict: Verdict,
    pub strategy: String,
    pub evidence_level: EvidenceLevel,
    pub detail: String,
    pub raw_evidence_ref: Option<String>,
}

/// Name of the deterministic strategy.
pub const DETERMINISTIC: &str = "deterministic";

/// Judge `result` against `spec`: a failed run or a missing metric is
/// inconclusive, otherwise the comparison decides.
pub fn measure(spec: &MetricSpec, result: &ExperimentResult) -> VerdictRecord {
    let record = |verdict, detail| VerdictRecord {
        verdict,
        strategy: DETERMINISTIC.to_string(),
        evidence_level: EvidenceLevel::Deterministic,
        detail,
        raw_evidence_ref: None,
    };
    if result.exit_code != 0 {
        return record(
            Verdict::Inconclusive,
            format!("experiment run failed ({})", result.failure_class),
        );
    }
    let Some(value) = result.metrics.get(&spec.metric_key) else {
        return record(
            Verdict::Inconclusive,
            format!("metric \"{}\" not reported", spec.metric_key),
        );
    };
    let passed = compare(value, spec.comparator, spec.target);
    record(
        if passed {
            Verdict::Supported
        } else {
            Verdict::Refuted
        },
        format!(
            "{}={} {} {} → {}",
            spec.metric_key,
            fmt_number(value),
            spec.comparator,
            fmt_number(spec.target),
            if passed { "pass" } else { "fail" }
        ),
    )
}

/// Only a deterministic refutation may promote a dead end.
pub fn should_promote_dead_end(record: &VerdictRecord) -> bool {
    record.verdict == Verdict::Refuted && record.evidence_level == EvidenceLevel::Deterministic
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::{validate_metric_spec, Metrics};

    #[test]
    fn details_read_as_the_reference_prints_an_exact_tie() {
        let spec = validate_metric_spec("acc", ">=", 808_126_711_593_748.0 + 0.75).unwrap();
        let mut metrics = Metrics::default();
        metrics.insert("acc".into(), 808_126_711_593_748.0 + 0.25);
        let v = measure(
            &spec,
            &ExperimentResult {
                exit_code: 0,
                metrics,
                failure_class: Default::default(),
            },
        );
        assert_eq!(
            v.detail,
            "acc=808126711593748.2 >= 808126711593748.8 → fail"
        );
    }
}
