//! The apply gate and the round decision: [`should_apply`],
//! [`screen_round`], [`gate_round`] and the reference's facade
//! [`decide_round`].

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{
    patch_hash, validate_round_patch, AutonomyMode, AutonomyState, RoundPatch, RoundStatus,
};
use crate::kernel::names::str_enum;

str_enum! {
    /// The gate that holds a round back from being applied.
    ApplyGate, "apply gate" {
        /// The kill switch is on.
        KillSwitch => "kill_switch",
        /// At least one eval check failed.
        EvalFailed => "eval_failed",
        /// Review mode: a person must approve.
        HarnessReview => "harness_review",
        /// The patch's confidence is below `min_confidence`.
        LowConfidence => "low_confidence",
    }
}

str_enum! {
    /// Why [`decide_round`] reached its status; lets the host act without
    /// parsing the detail text.
    RoundReason, "round reason" {
        /// The kill switch is on (status skipped).
        KillSwitch => "kill_switch",
        /// The patch failed validation (status rejected).
        Invalid => "invalid",
        /// The patch hash was seen before (status skipped).
        Duplicate => "duplicate",
        /// An eval check failed (status rejected).
        EvalFailed => "eval_failed",
        /// Review mode holds the round (status evaluated).
        HarnessReview => "harness_review",
        /// Confidence below the bar holds the round (status evaluated).
        LowConfidence => "low_confidence",
        /// Eval passed and autonomy approved (status applied).
        Approved => "approved",
    }
}

/// One eval check the host ran on the patched tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalCheck {
    /// What was run (e.g. `lint`).
    pub name: String,
    /// Its exit code; 0 passes.
    pub exit_code: i64,
    /// Free text (an excerpt of the output).
    #[serde(default)]
    pub detail: String,
}

/// The eval of a round: `eval.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EvalReport {
    /// The checks, in the order they ran.
    pub checks: Vec<EvalCheck>,
}

impl EvalReport {
    /// Did every check exit 0? An empty report passes.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.exit_code == 0)
    }
}

/// Whether a round may be applied, and which gate holds it when not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ApplyCheck {
    /// True when the patch may be applied.
    pub proceed: bool,
    /// The first gate that holds it back.
    pub pending_gate: Option<ApplyGate>,
}

/// The outcome of a round: its status, a one-line detail and the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundDecision {
    /// The round's status.
    pub status: RoundStatus,
    /// Why, for people (the reference's detail text).
    pub detail: String,
    /// Why, for programs.
    pub reason: RoundReason,
}

impl RoundDecision {
    /// Rejected for validation errors; the detail joins them with `"; "`.
    pub fn invalid(errors: &[String]) -> Self {
        RoundDecision {
            status: RoundStatus::Rejected,
            detail: errors.join("; "),
            reason: RoundReason::Invalid,
        }
    }

    /// Should the patch hash be remembered (`hashes.jsonl`) so the same
    /// patch is not proposed again? Only for applied rounds and rounds
    /// rejected by a failed eval: never for a round stopped before its eval
    /// ([`screen_round`]) or held for review.
    pub fn records_hash(&self) -> bool {
        matches!(self.reason, RoundReason::Approved | RoundReason::EvalFailed)
    }
}

/// The apply gate, first hold wins: kill switch, then a failed eval, then
/// review mode, then confidence below `min_confidence`.
pub fn should_apply(eval: &EvalReport, autonomy: &AutonomyState, confidence: f64) -> ApplyCheck {
    let pending_gate = if autonomy.kill_switch {
        Some(ApplyGate::KillSwitch)
    } else if !eval.passed() {
        Some(ApplyGate::EvalFailed)
    } else if autonomy.mode == AutonomyMode::Review {
        Some(ApplyGate::HarnessReview)
    } else if confidence < autonomy.min_confidence {
        Some(ApplyGate::LowConfidence)
    } else {
        None
    };
    ApplyCheck {
        proceed: pending_gate.is_none(),
        pending_gate,
    }
}

/// The decisions that come before the eval: the kill switch (skipped), any
/// validation errors (rejected, joined with `"; "`), a patch hash already
/// seen (skipped). `None` means the round goes on to the eval and
/// [`gate_round`].
///
/// `errors` is whatever the host's validation found: [`validate_round_patch`]
/// plus, as arx does, [`strict_patch_errors`](super::strict_patch_errors) and its filesystem checks.
pub fn screen_round(
    patch: &RoundPatch,
    autonomy: &AutonomyState,
    errors: &[String],
    seen_hashes: &HashSet<String>,
) -> Option<RoundDecision> {
    if autonomy.kill_switch {
        return Some(RoundDecision {
            status: RoundStatus::Skipped,
            detail: "kill switch is on".to_string(),
            reason: RoundReason::KillSwitch,
        });
    }
    if !errors.is_empty() {
        return Some(RoundDecision::invalid(errors));
    }
    let hash = patch_hash(patch);
    seen_hashes.contains(&hash).then(|| RoundDecision {
        status: RoundStatus::Skipped,
        detail: format!("duplicate of a prior round (patch_hash {hash})"),
        reason: RoundReason::Duplicate,
    })
}

/// The decision after the eval, from [`should_apply`]: applied when it
/// proceeds, rejected when the eval failed, else evaluated and awaiting
/// review (`harness_review` or `low_confidence`; `kill_switch` too, though
/// [`screen_round`] stops a round at the kill switch first).
pub fn gate_round(eval: &EvalReport, autonomy: &AutonomyState, confidence: f64) -> RoundDecision {
    let check = should_apply(eval, autonomy, confidence);
    match check.pending_gate {
        None => RoundDecision {
            status: RoundStatus::Applied,
            detail: "eval passed; autonomy approved".to_string(),
            reason: RoundReason::Approved,
        },
        Some(ApplyGate::EvalFailed) => RoundDecision {
            status: RoundStatus::Rejected,
            detail: "eval failed".to_string(),
            reason: RoundReason::EvalFailed,
        },
        Some(gate) => RoundDecision {
            status: RoundStatus::Evaluated,
            detail: format!("awaiting review ({gate})"),
            reason: match gate {
                ApplyGate::LowConfidence => RoundReason::LowConfidence,
                ApplyGate::KillSwitch => RoundReason::KillSwitch,
                _ => RoundReason::HarnessReview,
            },
        },
    }
}

/// The whole round decision, as the reference's facade: kill switch ->
/// skipped; validation errors ([`validate_round_patch`] with the autonomy's
/// allowed targets) -> rejected; hash already seen -> skipped; eval failed
/// -> rejected; review mode -> evaluated, "awaiting review
/// (harness_review)"; confidence below the bar -> evaluated, "awaiting
/// review (low_confidence)"; else applied.
pub fn decide_round(
    patch: &RoundPatch,
    autonomy: &AutonomyState,
    seen_hashes: &HashSet<String>,
    eval: &EvalReport,
    deny_paths: &[String],
    config_path: &str,
    current_harness: Option<&Map<String, Value>>,
) -> RoundDecision {
    let errors = validate_round_patch(
        patch,
        &autonomy.allowed_targets,
        deny_paths,
        config_path,
        current_harness,
    );
    screen_round(patch, autonomy, &errors, seen_hashes)
        .unwrap_or_else(|| gate_round(eval, autonomy, patch.confidence))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{md, patch};
    use super::*;

    #[test]
    fn hash_recording() {
        let eval_ok = EvalReport::default();
        let eval_bad = EvalReport {
            checks: vec![EvalCheck {
                name: "lint".into(),
                exit_code: 2,
                detail: String::new(),
            }],
        };
        let auto = AutonomyState::default().forced_auto();
        assert!(gate_round(&eval_ok, &auto, 0.9).records_hash());
        assert!(gate_round(&eval_bad, &auto, 0.9).records_hash());
        assert!(!gate_round(&eval_ok, &auto, 0.1).records_hash());
        assert!(!RoundDecision::invalid(&["x".into()]).records_hash());
    }

    /// Exactly the applied rounds and the rounds rejected by a failed eval
    /// record their hash, whatever the settings.
    #[test]
    fn hash_recorded_for_applied_and_eval_failed_rounds() {
        let failing = EvalReport {
            checks: vec![EvalCheck {
                name: "test".into(),
                exit_code: 1,
                detail: String::new(),
            }],
        };
        for eval in [EvalReport::default(), failing] {
            for mode in AutonomyMode::ALL.iter().copied() {
                for kill_switch in [false, true] {
                    for confidence in [0.0, 0.69, 0.7, 1.0] {
                        let autonomy = AutonomyState {
                            mode,
                            kill_switch,
                            ..AutonomyState::default()
                        };
                        let d = gate_round(&eval, &autonomy, confidence);
                        let applied_or_failed = d.status == RoundStatus::Applied
                            || (d.status == RoundStatus::Rejected && !eval.passed());
                        assert_eq!(d.records_hash(), applied_or_failed, "{d:?}");
                    }
                }
            }
        }
        // Rounds stopped before the eval: kill switch, invalid, duplicate.
        let p = patch(vec![md("a.md")]);
        let seen: HashSet<String> = [patch_hash(&p)].into_iter().collect();
        let on = AutonomyState {
            kill_switch: true,
            ..AutonomyState::default()
        };
        let off = AutonomyState::default();
        let errors = ["x".to_string()];
        for (autonomy, errors) in [(&on, &[][..]), (&off, &errors[..]), (&off, &[][..])] {
            let d = screen_round(&p, autonomy, errors, &seen).expect("screened out");
            assert!(!d.records_hash(), "{d:?}");
        }
    }
}
