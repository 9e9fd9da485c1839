//! Precision: how far the loop trusts its own predictions, kept as a Beta
//! confidence per level of a three-level hierarchy (execution, planning,
//! abstract), and the journal-driven updates that move it.
//!
//! A prediction error `e` in [0, 1] nudges a level's confidence up by
//! `0.1·(1 − e)` pseudo-successes and down by `0.2·e` pseudo-failures, so
//! confidence is lost twice as fast as it is earned. A large error
//! (`e > 0.7`) also reaches the level one step up, halved. The formulas and
//! settings follow LRS-Agents 0.2.1.
//!
//! Pure: errors and journal facts in, updated state out. It must not read
//! the journal, files, clocks or the environment, or print; the host reads
//! the journal records and calls [`observe_run`] once per run, in journal
//! order.

use serde::{Deserialize, Serialize};

use crate::kernel::names::str_enum;
use crate::kernel::number::fmt_number;
use crate::kernel::verdict::Verdict;

/// Pseudo-successes added by an update with error 0.
pub const GAIN: f64 = 0.1;

/// Pseudo-failures added by an update with error 1.
pub const LOSS: f64 = 0.2;

/// Below this confidence a level should change its approach.
pub const ADAPTATION_THRESHOLD: f64 = 0.4;

/// An error strictly above this also updates the level one step up.
pub const PROPAGATION_THRESHOLD: f64 = 0.7;

/// Factor applied to an error passed one level up.
pub const ATTENUATION: f64 = 0.5;

/// Accept a prediction error only when it is a number in [0, 1].
///
/// Out-of-range and non-finite errors are rejected rather than clamped: an
/// error outside [0, 1] means the caller computed it wrongly, and silently
/// clamping would hide that while still moving the confidence.
pub fn check_error(e: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&e) {
        Ok(e)
    } else {
        Err(format!(
            "prediction error must be a number in [0, 1] (got {})",
            fmt_number(e)
        ))
    }
}

/// A Beta confidence: `alpha` pseudo-successes against `beta`
/// pseudo-failures. Starts at `Beta(1, 1)` (value 0.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Beta {
    pub alpha: f64,
    pub beta: f64,
}

impl Default for Beta {
    fn default() -> Self {
        Beta {
            alpha: 1.0,
            beta: 1.0,
        }
    }
}

impl Beta {
    /// The confidence: the mean `alpha / (alpha + beta)`, not clamped.
    pub fn value(&self) -> f64 {
        self.alpha / (self.alpha + self.beta)
    }

    /// Variance of the Beta distribution:
    /// `alpha·beta / ((alpha + beta)² · (alpha + beta + 1))`.
    pub fn variance(&self) -> f64 {
        let total = self.alpha + self.beta;
        self.alpha * self.beta / (total * total * (total + 1.0))
    }

    /// Learn from prediction error `e`: `alpha += 0.1·(1 − e)`,
    /// `beta += 0.2·e`. An error outside [0, 1] (or NaN) is rejected by
    /// [`check_error`] and leaves the state unchanged.
    pub fn update(&mut self, e: f64) -> Result<(), String> {
        let e = check_error(e)?;
        self.alpha += GAIN * (1.0 - e);
        self.beta += LOSS * e;
        Ok(())
    }

    /// Whether confidence has fallen below [`ADAPTATION_THRESHOLD`] (0.4).
    pub fn should_adapt(&self) -> bool {
        self.value() < ADAPTATION_THRESHOLD
    }

    /// Back to `Beta(1, 1)`.
    pub fn reset(&mut self) {
        *self = Beta::default();
    }
}

str_enum! {
    /// A level of the precision hierarchy, from the most concrete up.
    #[derive(PartialOrd, Ord)]
    Level, "precision level" {
        /// Did the experiment run at all (no crash, timeout or missing dependency)?
        Execution => "execution",
        /// Did the predicted outcome of the hypothesis match its verdict?
        Planning => "planning",
        /// Is the overall strategy still making progress (no plateau)?
        Abstract => "abstract",
    }
}

impl Level {
    /// The level one step up; `None` for [`Level::Abstract`].
    pub fn up(self) -> Option<Level> {
        match self {
            Level::Execution => Some(Level::Planning),
            Level::Planning => Some(Level::Abstract),
            Level::Abstract => None,
        }
    }
}

/// One update applied to one level, as reported by [`Hierarchy::update`]
/// and [`observe_run`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Applied {
    pub level: Level,
    /// The prediction error the level was updated with.
    pub error: f64,
    /// Whether this update was passed up from the level below.
    pub propagated: bool,
}

/// The three-level precision hierarchy: abstract > planning > execution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Hierarchy {
    pub execution: Beta,
    pub planning: Beta,
    #[serde(rename = "abstract")]
    pub abstract_level: Beta,
}

impl Hierarchy {
    /// The confidence state of `level`.
    pub fn get(&self, level: Level) -> &Beta {
        match level {
            Level::Execution => &self.execution,
            Level::Planning => &self.planning,
            Level::Abstract => &self.abstract_level,
        }
    }

    fn get_mut(&mut self, level: Level) -> &mut Beta {
        match level {
            Level::Execution => &mut self.execution,
            Level::Planning => &mut self.planning,
            Level::Abstract => &mut self.abstract_level,
        }
    }

    /// The confidence value of `level`.
    pub fn value(&self, level: Level) -> f64 {
        self.get(level).value()
    }

    /// Update `level` with error `e`; when `e > 0.7` (strictly) also update
    /// the level one step up with `0.5·e`. One step only: the attenuated
    /// error is never passed further up, and the abstract level passes
    /// nothing. Returns the updates applied, in order. An error outside
    /// [0, 1] is rejected before anything changes.
    pub fn update(&mut self, level: Level, e: f64) -> Result<Vec<Applied>, String> {
        let e = check_error(e)?;
        self.get_mut(level).update(e)?;
        let mut applied = vec![Applied {
            level,
            error: e,
            propagated: false,
        }];
        if e > PROPAGATION_THRESHOLD {
            if let Some(up) = level.up() {
                let attenuated = ATTENUATION * e;
                self.get_mut(up).update(attenuated)?;
                applied.push(Applied {
                    level: up,
                    error: attenuated,
                    propagated: true,
                });
            }
        }
        Ok(applied)
    }

    /// Levels whose confidence is below the adaptation threshold, bottom up.
    pub fn adapting(&self) -> Vec<Level> {
        Level::ALL
            .iter()
            .copied()
            .filter(|l| self.get(*l).should_adapt())
            .collect()
    }

    /// Every level back to `Beta(1, 1)`.
    pub fn reset(&mut self) {
        *self = Hierarchy::default();
    }
}

/// The numeric outcome of a verdict for the planning error: 1 for
/// supported, 0 for refuted, `None` for inconclusive (no evidence either
/// way about the prediction).
pub fn verdict_outcome(verdict: Verdict) -> Option<f64> {
    match verdict {
        Verdict::Supported => Some(1.0),
        Verdict::Refuted => Some(0.0),
        Verdict::Inconclusive => None,
    }
}

/// Feed one journal run to the hierarchy. Updates, in this fixed order,
/// each through [`Hierarchy::update`] (so a large error also reaches the
/// level above, halved):
///
/// 1. execution, always: error 1.0 when the run did not execute cleanly
///    (crash, timeout, missing dependency; the host decides from the
///    failure class), else 0.0;
/// 2. planning, only for a supported or refuted verdict: error
///    `|outcome − predicted_success|` with outcome 1 (supported) or 0
///    (refuted); no verdict or an inconclusive one leaves planning alone;
/// 3. abstract, only when a plateau began with this run: error 1.0.
///    Runs without a plateau do not update the abstract level: an ordinary
///    run is no evidence that the strategy is sound, and rewarding every
///    run would bury the rare plateau signal.
///
/// `predicted_success` (the probability the hypothesis was given of being
/// supported) must be in [0, 1]; it is checked before anything changes, so
/// an error leaves the hierarchy as it was. Returns the updates applied,
/// in order.
pub fn observe_run(
    hierarchy: &mut Hierarchy,
    executed_cleanly: bool,
    verdict: Option<Verdict>,
    predicted_success: f64,
    plateau_began: bool,
) -> Result<Vec<Applied>, String> {
    if !(0.0..=1.0).contains(&predicted_success) {
        return Err(format!(
            "predicted success must be a probability in [0, 1] (got {})",
            fmt_number(predicted_success)
        ));
    }
    let mut applied = Vec::new();
    let execution_error = if executed_cleanly { 0.0 } else { 1.0 };
    applied.extend(hierarchy.update(Level::Execution, execution_error)?);
    if let Some(outcome) = verdict.and_then(verdict_outcome) {
        let planning_error = (outcome - predicted_success).abs();
        applied.extend(hierarchy.update(Level::Planning, planning_error)?);
    }
    if plateau_began {
        applied.extend(hierarchy.update(Level::Abstract, 1.0)?);
    }
    Ok(applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= TOL
    }

    #[test]
    fn beta_starts_even() {
        let b = Beta::default();
        assert_eq!((b.alpha, b.beta), (1.0, 1.0));
        assert_eq!(b.value(), 0.5);
        assert!(close(b.variance(), 1.0 / 12.0));
        assert!(!b.should_adapt());
    }

    #[test]
    fn beta_update_check_values() {
        let mut b = Beta::default();
        b.update(0.1).unwrap();
        assert_eq!(b.alpha, 1.09);
        assert_eq!(b.beta, 1.02);
        assert!(close(b.value(), 0.5165876777251185));
        assert!(close(b.variance(), 0.08029737908285774));
        b.reset();
        assert_eq!(b, Beta::default());
    }

    #[test]
    fn beta_update_extremes() {
        let mut b = Beta::default();
        b.update(0.0).unwrap();
        assert_eq!((b.alpha, b.beta), (1.1, 1.0));
        let mut b = Beta::default();
        b.update(1.0).unwrap();
        assert_eq!((b.alpha, b.beta), (1.0, 1.2));
    }

    #[test]
    fn beta_rejects_errors_outside_unit_interval() {
        for e in [-0.1, 1.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut b = Beta::default();
            let err = b.update(e).unwrap_err();
            assert!(err.contains("[0, 1]"), "{err}");
            assert_eq!(b, Beta::default());
        }
    }

    #[test]
    fn should_adapt_below_threshold() {
        let mut b = Beta::default();
        let mut n = 0;
        while !b.should_adapt() {
            b.update(1.0).unwrap();
            n += 1;
        }
        // 1 / (2 + 0.2n) < 0.4 first at n = 3 (1/2.6 = 0.3846).
        assert_eq!(n, 3);
        // Exactly at the threshold does not adapt: 2 / 5 = 0.4.
        let at = Beta {
            alpha: 2.0,
            beta: 3.0,
        };
        assert_eq!(at.value(), 0.4);
        assert!(!at.should_adapt());
    }

    #[test]
    fn level_parses_displays_and_serializes() {
        for &level in Level::ALL {
            assert_eq!(level.as_str().parse::<Level>(), Ok(level));
            assert_eq!(
                serde_json::to_string(&level).unwrap(),
                format!("\"{level}\"")
            );
        }
        assert!("Execution".parse::<Level>().is_err());
        assert!("strategy".parse::<Level>().unwrap_err().contains("unknown"));
        assert_eq!(Level::Execution.up(), Some(Level::Planning));
        assert_eq!(Level::Planning.up(), Some(Level::Abstract));
        assert_eq!(Level::Abstract.up(), None);
    }

    #[test]
    fn hierarchy_execution_error_propagates_one_step() {
        let mut h = Hierarchy::default();
        let applied = h.update(Level::Execution, 0.95).unwrap();
        assert_eq!(h.execution.alpha, 1.005);
        assert_eq!(h.execution.beta, 1.19);
        assert!(close(h.value(Level::Execution), 0.45785876993166286));
        assert_eq!(h.planning.alpha, 1.0525);
        assert_eq!(h.planning.beta, 1.095);
        assert!(close(h.value(Level::Planning), 0.490104772991851));
        assert_eq!(h.value(Level::Abstract), 0.5);
        assert_eq!(h.abstract_level, Beta::default());
        assert_eq!(
            applied,
            vec![
                Applied {
                    level: Level::Execution,
                    error: 0.95,
                    propagated: false
                },
                Applied {
                    level: Level::Planning,
                    error: 0.475,
                    propagated: true
                },
            ]
        );
    }

    #[test]
    fn hierarchy_planning_error_reaches_abstract() {
        let mut h = Hierarchy::default();
        h.update(Level::Planning, 0.8).unwrap();
        assert!(close(h.value(Level::Planning), 0.4678899082568807));
        assert!(close(h.value(Level::Abstract), 0.4953271028037383));
        assert_eq!(h.execution, Beta::default());
    }

    #[test]
    fn hierarchy_threshold_is_strict() {
        let mut h = Hierarchy::default();
        let applied = h.update(Level::Execution, 0.7).unwrap();
        assert!(close(h.value(Level::Execution), 0.4746543778801844));
        assert_eq!(h.planning, Beta::default());
        assert_eq!(h.abstract_level, Beta::default());
        assert_eq!(applied.len(), 1);
    }

    #[test]
    fn hierarchy_never_chains_and_abstract_never_propagates() {
        // A maximal execution error reaches planning with 0.5, which does
        // not pass the threshold, and in any case is never passed on.
        let mut h = Hierarchy::default();
        h.update(Level::Execution, 1.0).unwrap();
        assert_eq!(h.abstract_level, Beta::default());
        let mut h = Hierarchy::default();
        let applied = h.update(Level::Abstract, 1.0).unwrap();
        assert_eq!(applied.len(), 1);
        assert_eq!(h.execution, Beta::default());
        assert_eq!(h.planning, Beta::default());
        assert_eq!(h.abstract_level.beta, 1.2);
    }

    #[test]
    fn hierarchy_rejects_bad_error_without_change() {
        let mut h = Hierarchy::default();
        assert!(h.update(Level::Execution, 1.01).is_err());
        assert!(h.update(Level::Planning, f64::NAN).is_err());
        assert_eq!(h, Hierarchy::default());
    }

    #[test]
    fn hierarchy_adapting_and_reset() {
        let mut h = Hierarchy::default();
        for _ in 0..3 {
            h.update(Level::Planning, 1.0).unwrap();
        }
        // Abstract got three halved errors: 1.15 / 2.45 = 0.469, not adapting.
        assert_eq!(h.adapting(), vec![Level::Planning]);
        h.reset();
        assert_eq!(h, Hierarchy::default());
        assert!(h.adapting().is_empty());
    }

    #[test]
    fn hierarchy_serializes_with_level_names() {
        let mut h = Hierarchy::default();
        h.update(Level::Execution, 0.1).unwrap();
        let j = serde_json::to_value(h).unwrap();
        assert_eq!(j["execution"]["alpha"], 1.09);
        assert_eq!(j["abstract"]["beta"], 1.0);
        let back: Hierarchy = serde_json::from_value(j).unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn observe_clean_supported_run() {
        let mut h = Hierarchy::default();
        let applied = observe_run(&mut h, true, Some(Verdict::Supported), 0.8, false).unwrap();
        let levels: Vec<_> = applied.iter().map(|a| (a.level, a.error)).collect();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0], (Level::Execution, 0.0));
        assert_eq!(levels[1].0, Level::Planning);
        assert!(close(levels[1].1, 0.2));
        assert_eq!(h.execution.alpha, 1.1);
        assert!(h.value(Level::Planning) > 0.5);
        assert_eq!(h.abstract_level, Beta::default());
    }

    #[test]
    fn observe_crash_propagates_to_planning() {
        let mut h = Hierarchy::default();
        let applied = observe_run(&mut h, false, None, 0.5, false).unwrap();
        assert_eq!(
            applied,
            vec![
                Applied {
                    level: Level::Execution,
                    error: 1.0,
                    propagated: false
                },
                Applied {
                    level: Level::Planning,
                    error: 0.5,
                    propagated: true
                },
            ]
        );
        assert_eq!(h.execution.beta, 1.2);
    }

    #[test]
    fn observe_refuted_confident_prediction_reaches_abstract() {
        let mut h = Hierarchy::default();
        let applied = observe_run(&mut h, true, Some(Verdict::Refuted), 0.9, false).unwrap();
        let levels: Vec<_> = applied.iter().map(|a| a.level).collect();
        assert_eq!(
            levels,
            vec![Level::Execution, Level::Planning, Level::Abstract]
        );
        assert_eq!(applied[1].error, 0.9);
        assert!(close(applied[2].error, 0.45));
    }

    #[test]
    fn observe_inconclusive_leaves_planning_alone() {
        let mut h = Hierarchy::default();
        observe_run(&mut h, true, Some(Verdict::Inconclusive), 0.9, false).unwrap();
        assert_eq!(h.planning, Beta::default());
        observe_run(&mut h, true, None, 0.9, false).unwrap();
        assert_eq!(h.planning, Beta::default());
        assert_eq!(h.execution.alpha, 1.2000000000000002);
    }

    #[test]
    fn observe_plateau_updates_abstract_last() {
        let mut h = Hierarchy::default();
        let applied = observe_run(&mut h, true, Some(Verdict::Supported), 1.0, true).unwrap();
        assert_eq!(applied.last().unwrap().level, Level::Abstract);
        assert_eq!(applied.last().unwrap().error, 1.0);
        assert_eq!(h.abstract_level.beta, 1.2);
        // No plateau: abstract untouched.
        let mut h = Hierarchy::default();
        observe_run(&mut h, true, Some(Verdict::Supported), 1.0, false).unwrap();
        assert_eq!(h.abstract_level, Beta::default());
    }

    #[test]
    fn observe_rejects_bad_prediction_without_change() {
        for p in [-0.5, 1.5, f64::NAN] {
            let mut h = Hierarchy::default();
            let err = observe_run(&mut h, false, Some(Verdict::Refuted), p, true).unwrap_err();
            assert!(err.contains("predicted success"), "{err}");
            assert_eq!(h, Hierarchy::default());
        }
    }

    #[test]
    fn observe_is_deterministic_over_a_journal() {
        let journal = [
            (true, Some(Verdict::Supported), 0.6, false),
            (false, None, 0.6, false),
            (true, Some(Verdict::Refuted), 0.7, false),
            (true, Some(Verdict::Inconclusive), 0.5, true),
        ];
        let replay = || {
            let mut h = Hierarchy::default();
            for (clean, v, p, plateau) in journal {
                observe_run(&mut h, clean, v, p, plateau).unwrap();
            }
            h
        };
        assert_eq!(replay(), replay());
    }

    #[test]
    fn levels_are_spelled_alike() {
        crate::kernel::names::spelled_alike(Level::ALL);
    }
}
