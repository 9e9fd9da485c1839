//! The autonomy settings that steer a round, read from the configuration.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::PatchKind;
use crate::kernel::names::str_enum;

str_enum! {
    /// Whether a passing round is merged without a person.
    AutonomyMode, "autonomy mode" {
        /// A person reviews every round before it is merged (the default).
        Review => "review",
        /// Rounds that pass the eval and clear the confidence bar are merged.
        Auto => "auto",
    }
}

/// The harness settings that steer a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AutonomyState {
    /// Review or auto.
    pub mode: AutonomyMode,
    /// When on, no round runs at all.
    pub kill_switch: bool,
    /// Auto mode applies a patch only at or above this confidence.
    pub min_confidence: f64,
    /// Hours between counted rounds.
    pub min_interval_hours: u64,
    /// Which kinds of file a patch may change.
    pub allowed_targets: Vec<PatchKind>,
    /// Fewer findings than this and the round is skipped.
    pub min_evidence: usize,
    /// At most this many findings go into a round.
    pub max_evidence: usize,
}

impl Default for AutonomyState {
    /// The reference defaults: review mode, kill switch off, confidence 0.7,
    /// 24 hours, every target, 3 to 25 findings.
    fn default() -> Self {
        AutonomyState {
            mode: AutonomyMode::Review,
            kill_switch: false,
            min_confidence: 0.7,
            min_interval_hours: 24,
            allowed_targets: PatchKind::ALL.to_vec(),
            min_evidence: 3,
            max_evidence: 25,
        }
    }
}

impl AutonomyState {
    /// The same settings in auto mode (`--auto`). The kill switch is kept:
    /// forcing auto never lets a round past it.
    pub fn forced_auto(self) -> Self {
        AutonomyState {
            mode: AutonomyMode::Auto,
            ..self
        }
    }
}

/// The harness settings from a GRD-shaped configuration object, tolerant as
/// the reference is: a `harness` value that is not an object is ignored;
/// `autonomy` is auto only when it is the string `"auto"`; `kill_switch` is
/// on only when literally `true`; `min_confidence` must be a number (not a
/// boolean) in [0, 1]; `min_interval_hours` a non-negative integer (`2.5`,
/// `-2`, `true` fall back to the default); `allowed_targets` keeps the known
/// kinds of a list, in order, and an empty or invalid list means all kinds.
/// Beyond the reference's fields: `min_evidence` must be a non-negative
/// integer and `max_evidence` a positive one, else 3 and 25.
///
/// One unavoidable difference: an integer above `u64::MAX` (about 1.8e19
/// hours) arrives from JSON as a float and falls back to the default,
/// where the reference would keep it.
///
/// `force_auto` (`--auto`, the reference's `no_gates`) forces auto mode and
/// never touches the kill switch.
pub fn resolve_autonomy(config: &Value, force_auto: bool) -> AutonomyState {
    let defaults = AutonomyState::default();
    let empty = Map::new();
    let h = config
        .get("harness")
        .and_then(Value::as_object)
        .unwrap_or(&empty);

    let mut allowed_targets: Vec<PatchKind> = match h.get("allowed_targets") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|t| t.as_str()?.parse().ok())
            .collect(),
        _ => Vec::new(),
    };
    if allowed_targets.is_empty() {
        allowed_targets = defaults.allowed_targets;
    }
    let count = |key: &str, min: u64| {
        h.get(key)
            .and_then(Value::as_u64)
            .filter(|n| *n >= min)
            .and_then(|n| usize::try_from(n).ok())
    };

    let state = AutonomyState {
        mode: if h.get("autonomy").and_then(Value::as_str) == Some("auto") {
            AutonomyMode::Auto
        } else {
            AutonomyMode::Review
        },
        kill_switch: h.get("kill_switch") == Some(&Value::Bool(true)),
        min_confidence: h
            .get("min_confidence")
            .and_then(Value::as_f64)
            .filter(|c| (0.0..=1.0).contains(c))
            .unwrap_or(defaults.min_confidence),
        min_interval_hours: h
            .get("min_interval_hours")
            .and_then(Value::as_u64)
            .unwrap_or(defaults.min_interval_hours),
        allowed_targets,
        min_evidence: count("min_evidence", 0).unwrap_or(defaults.min_evidence),
        max_evidence: count("max_evidence", 1).unwrap_or(defaults.max_evidence),
    };
    if force_auto {
        state.forced_auto()
    } else {
        state
    }
}

#[cfg(test)]
mod tests {
    use super::super::{should_apply, EvalReport};
    use super::*;
    use serde_json::json;

    #[test]
    fn forced_auto_keeps_the_kill_switch() {
        let cfg = json!({"harness": {"kill_switch": true}});
        let state = resolve_autonomy(&cfg, true);
        assert_eq!(state.mode, AutonomyMode::Auto);
        assert!(state.kill_switch);
        assert!(!should_apply(&EvalReport::default(), &state, 1.0).proceed);
    }

    #[test]
    fn evidence_bounds_from_config() {
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": 0, "max_evidence": 5}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (0, 5));
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": -1, "max_evidence": 0}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (3, 25));
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": 2.0, "max_evidence": "9"}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (3, 25));
    }
}
