//! Pruning a run from its progress: the rules (`median`, `patient:N`,
//! `threshold:X`), the bounded progress curve kept in the journal, and the
//! pruner that a running attempt feeds one progress value at a time.
//!
//! The rules follow Optuna's pruners. `median` is its MedianPruner with the
//! default settings: no pruning until [`STARTUP_RUNS`] earlier runs
//! completed, from step [`WARMUP_STEPS`] on, at every reported step
//! (interval 1), and only at a step where at least [`MIN_PEERS`]
//! completed runs have a value; the run is pruned when its best value so
//! far is worse than the median of those values. `patient:N` wraps a rule
//! (PatientPruner): it prunes only once N consecutive checks said so.
//! `threshold:X` prunes when a value crosses the bound X in the wrong
//! direction, or is NaN or infinite. Values in, decisions out.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::stats::Direction;

/// Completed runs needed before `median` prunes anything.
pub const STARTUP_RUNS: usize = 5;
/// Steps before which `median` never prunes.
pub const WARMUP_STEPS: f64 = 0.0;
/// Peers with a value at a step needed for `median` to judge it.
pub const MIN_PEERS: usize = 1;
/// The progress key that holds the step, unless told otherwise.
pub const DEFAULT_STEP_KEY: &str = "step";
/// Most points of a progress curve in the journal: evenly spaced reports
/// (every k-th, k doubling as the run goes on) and the last one.
pub const MAX_CURVE_POINTS: usize = 128;

/// The rule a check applies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Base {
    Median,
    Threshold(f64),
}

/// A pruning rule: a base rule and its patience (1: none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PruneRule {
    pub base: Base,
    /// Consecutive checks that must say "prune" (`patient:N`); 1 otherwise.
    pub patience: u32,
}

impl fmt::Display for PruneRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.patience > 1 {
            write!(f, "patient:{}", self.patience)?;
            if self.base == Base::Median {
                return Ok(());
            }
            f.write_str(":")?;
        }
        match self.base {
            Base::Median => f.write_str("median"),
            Base::Threshold(x) => write!(f, "threshold:{}", super::number::fmt_number(x)),
        }
    }
}

fn parse_base(text: &str) -> Result<Base, String> {
    match text.split_once(':') {
        None if text == "median" => Ok(Base::Median),
        Some(("threshold", x)) => {
            let x: f64 = x
                .trim()
                .parse()
                .map_err(|_| format!("threshold:{x}: the bound must be a number"))?;
            if !x.is_finite() {
                return Err(format!("threshold:{x}: the bound must be finite"));
            }
            Ok(Base::Threshold(x))
        }
        None if text == "threshold" => Err("threshold needs a bound: threshold:X".into()),
        _ => Err(format!(
            "unknown rule {text:?}: use median, patient:N[:RULE] or threshold:X"
        )),
    }
}

impl FromStr for PruneRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if let Some(rest) = s.strip_prefix("patient:") {
            let (n, inner) = match rest.split_once(':') {
                Some((n, inner)) => (n, Some(inner)),
                None => (rest, None),
            };
            let patience: u32 =
                n.trim().parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                    format!("patient:{n}: the patience must be a whole number >= 1")
                })?;
            if inner.is_some_and(|i| i.starts_with("patient")) {
                return Err("patient:N wraps median or threshold:X, not another patient".into());
            }
            let base = match inner {
                None => Base::Median,
                Some(i) => parse_base(i)?,
            };
            return Ok(PruneRule { base, patience });
        }
        if s == "patient" {
            return Err("patient needs a patience: patient:N".into());
        }
        Ok(PruneRule {
            base: parse_base(s)?,
            patience: 1,
        })
    }
}

/// A progress curve as the journal keeps it: `(step, value)` pairs with
/// increasing steps, at most [`MAX_CURVE_POINTS`].
pub type Points = Vec<(f64, f64)>;

/// The progress curves of one record: the metric and step key they follow
/// and one curve per attempt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub metric: String,
    pub step_key: String,
    /// One curve per attempt, in order.
    pub curves: Vec<Points>,
}

/// Records a curve as it streams in, in bounded memory: every k-th report
/// is kept, k doubling whenever the kept points would pass the bound, and
/// the last report is added at the end. Reports whose step does not
/// increase, and non-finite values, are not kept (the pruner still sees
/// them).
#[derive(Debug, Clone)]
pub struct CurveRecorder {
    kept: Points,
    stride: u64,
    seen: u64,
    last: Option<(f64, f64)>,
    /// Whether `last` is the newest point in `kept`.
    last_kept: bool,
}

impl Default for CurveRecorder {
    fn default() -> Self {
        CurveRecorder {
            kept: Vec::new(),
            stride: 1,
            seen: 0,
            last: None,
            last_kept: false,
        }
    }
}

impl CurveRecorder {
    pub fn push(&mut self, step: f64, value: f64) {
        if !step.is_finite() || !value.is_finite() {
            return;
        }
        if self.last.is_some_and(|(s, _)| step <= s) {
            return;
        }
        self.last = Some((step, value));
        self.last_kept = false;
        if self.seen.is_multiple_of(self.stride) {
            self.kept.push((step, value));
            self.last_kept = true;
            if self.kept.len() > MAX_CURVE_POINTS - 1 {
                let mut i = 0;
                self.kept.retain(|_| {
                    i += 1;
                    (i - 1) % 2 == 0
                });
                self.stride *= 2;
                self.last_kept = self.kept.last() == self.last.as_ref();
            }
        }
        self.seen += 1;
    }

    /// The curve: the evenly kept points and the last report.
    pub fn finish(&self) -> Points {
        let mut points = self.kept.clone();
        if let Some(last) = self.last {
            if !self.last_kept {
                points.push(last);
            }
        }
        points
    }
}

/// A peer's value at `step`: exact at a kept point, linear between two,
/// none outside the curve.
pub fn value_at(points: &[(f64, f64)], step: f64) -> Option<f64> {
    let i = points.partition_point(|&(s, _)| s < step);
    let &(s1, v1) = points.get(i)?;
    if s1 == step {
        return Some(v1);
    }
    let &(s0, v0) = points.get(i.checked_sub(1)?)?;
    Some(v0 + (v1 - v0) * (step - s0) / (s1 - s0))
}

/// The median of `values` (the mean of the two middle ones for an even
/// count); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// Why a run was pruned, as the journal records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pruned {
    /// The rule, as given (`median`, `patient:3`, `threshold:10`).
    pub rule: String,
    pub metric: String,
    /// The step of the report that decided.
    pub step: f64,
    /// The run's value the rule looked at (its best so far for `median`,
    /// the reported one for `threshold`); `null` when not a number.
    pub value: Option<f64>,
    /// The peers' median at that step (`median`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<f64>,
    /// Completed runs with a value at that step (`median`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peers: Option<usize>,
    /// The bound crossed (`threshold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<f64>,
}

impl Pruned {
    /// One line for people.
    pub fn describe(&self) -> String {
        let step = super::number::fmt_number(self.step);
        let value = self
            .value
            .map_or("NaN".to_string(), super::number::fmt_number);
        match (self.median, self.bound) {
            (Some(m), _) => format!(
                "at step {step}, best {} {value} worse than the median {} of {} earlier runs ({})",
                self.metric,
                super::number::fmt_number(m),
                self.peers.unwrap_or(0),
                self.rule
            ),
            (None, Some(b)) => format!(
                "at step {step}, {} {value} crossed the bound {} ({})",
                self.metric,
                super::number::fmt_number(b),
                self.rule
            ),
            (None, None) => format!("at step {step}, {} {value} ({})", self.metric, self.rule),
        }
    }
}

/// The pruner of one running attempt: fed its progress values in order,
/// it says when to stop.
#[derive(Debug, Clone)]
pub struct Pruner {
    rule: PruneRule,
    label: String,
    metric: String,
    direction: Direction,
    /// Curves of earlier completed runs.
    peers: Vec<Points>,
    best: Option<f64>,
    streak: u32,
}

impl Pruner {
    /// `peers`: the curves of earlier runs that completed (not pruned, not
    /// failed), on the same metric and step key.
    pub fn new(rule: PruneRule, metric: &str, direction: Direction, peers: Vec<Points>) -> Self {
        Pruner {
            label: rule.to_string(),
            rule,
            metric: metric.to_string(),
            direction,
            peers,
            best: None,
            streak: 0,
        }
    }

    fn worse(&self, a: f64, b: f64) -> bool {
        match self.direction {
            Direction::Min => a > b,
            Direction::Max => a < b,
        }
    }

    /// One progress report; `Some` when the run is to be pruned now.
    pub fn observe(&mut self, step: f64, value: f64) -> Option<Pruned> {
        if !value.is_nan() {
            self.best = Some(match self.best {
                Some(b) if !self.worse(b, value) => b,
                _ => value,
            });
        }
        let verdict = self.check(step, value);
        match verdict {
            Some(p) => {
                self.streak += 1;
                (self.streak >= self.rule.patience).then_some(p)
            }
            None => {
                self.streak = 0;
                None
            }
        }
    }

    /// What the base rule says at this report.
    fn check(&self, step: f64, value: f64) -> Option<Pruned> {
        let pruned = |value: Option<f64>, median, peers, bound| Pruned {
            rule: self.label.clone(),
            metric: self.metric.clone(),
            step,
            value: value.filter(|v: &f64| !v.is_nan()),
            median,
            peers,
            bound,
        };
        match self.rule.base {
            Base::Threshold(x) => {
                let crossed = !value.is_finite() || self.worse(value, x);
                crossed.then(|| pruned(Some(value), None, None, Some(x)))
            }
            Base::Median => {
                if self.peers.len() < STARTUP_RUNS || step < WARMUP_STEPS {
                    return None;
                }
                let Some(best) = self.best else {
                    // Every value so far is NaN.
                    return Some(pruned(None, None, Some(0), None));
                };
                let mut at: Vec<f64> = self
                    .peers
                    .iter()
                    .filter_map(|p| value_at(p, step))
                    .filter(|v| !v.is_nan())
                    .collect();
                if at.len() < MIN_PEERS {
                    return None;
                }
                let n = at.len();
                let m = median(&mut at)?;
                self.worse(best, m)
                    .then(|| pruned(Some(best), Some(m), Some(n), None))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(f: impl Fn(f64) -> f64, steps: u32) -> Points {
        (1..=steps)
            .map(|s| (f64::from(s), f(f64::from(s))))
            .collect()
    }

    #[test]
    fn rules_parse_and_print_as_given() {
        for text in [
            "median",
            "patient:3",
            "threshold:10",
            "patient:2:threshold:-1.5",
        ] {
            let r: PruneRule = text.parse().unwrap();
            assert_eq!(r.to_string(), text);
        }
        assert_eq!(
            "patient:4:median".parse::<PruneRule>().unwrap(),
            PruneRule {
                base: Base::Median,
                patience: 4
            }
        );
        for bad in [
            "",
            "mean",
            "patient",
            "patient:0",
            "patient:x",
            "threshold",
            "threshold:abc",
            "threshold:inf",
            "patient:2:patient:3",
        ] {
            assert!(bad.parse::<PruneRule>().is_err(), "{bad}");
        }
    }

    #[test]
    fn median_waits_for_the_startup_runs() {
        let rule: PruneRule = "median".parse().unwrap();
        let good = curve(|s| 1.0 / s, 10);
        for n in 0..STARTUP_RUNS {
            let mut p = Pruner::new(rule, "loss", Direction::Min, vec![good.clone(); n]);
            for s in 1..=10 {
                assert!(p.observe(f64::from(s), 100.0).is_none(), "{n} peers");
            }
        }
        let mut p = Pruner::new(rule, "loss", Direction::Min, vec![good; STARTUP_RUNS]);
        let d = p.observe(1.0, 100.0).expect("pruned at the first step");
        assert_eq!(d.step, 1.0);
        assert_eq!(d.median, Some(1.0));
        assert_eq!(d.peers, Some(5));
        assert_eq!(d.value, Some(100.0));
    }

    #[test]
    fn median_prunes_at_the_first_step_worse_than_the_peers() {
        // Peers at 1/s; this run follows them until step 6, then stalls.
        let peers: Vec<Points> = (0..6)
            .map(|i| curve(|s| 1.0 / s + 0.01 * f64::from(i), 20))
            .collect();
        let mut p = Pruner::new("median".parse().unwrap(), "loss", Direction::Min, peers);
        let mut pruned_at = None;
        for s in 1..=20 {
            let s = f64::from(s);
            let v = if s <= 6.0 { 1.0 / s } else { 1.0 / 6.0 };
            if let Some(d) = p.observe(s, v) {
                pruned_at = Some(d.step);
                break;
            }
        }
        // At step 7 the median is 1/7 + 0.025 = 0.1679 > 1/6; at 8 it is 0.15.
        assert_eq!(pruned_at, Some(8.0));
    }

    #[test]
    fn median_never_prunes_an_improving_curve_at_or_better_than_the_median() {
        let peers: Vec<Points> = (0..8)
            .map(|i| curve(|s| 2.0 / s.sqrt() + 0.1 * f64::from(i), 50))
            .collect();
        for (dir, sign) in [(Direction::Min, 1.0), (Direction::Max, -1.0)] {
            let peers: Vec<Points> = peers
                .iter()
                .map(|c| c.iter().map(|&(s, v)| (s, sign * v)).collect())
                .collect();
            let mut p = Pruner::new("median".parse().unwrap(), "m", dir, peers);
            for s in 1..=50 {
                let s = f64::from(s);
                assert!(p.observe(s, sign * 2.0 / s.sqrt()).is_none(), "{dir:?} {s}");
            }
        }
    }

    #[test]
    fn median_needs_a_peer_at_the_step_and_ignores_steps_beyond_them() {
        let peers = vec![curve(|_| 1.0, 5); 5];
        let mut p = Pruner::new("median".parse().unwrap(), "m", Direction::Min, peers);
        // Worse than every peer but past their last step: nobody to compare with.
        assert!(p.observe(6.0, 9.0).is_none());
        assert!(p.observe(0.5, 9.0).is_none());
    }

    #[test]
    fn median_uses_the_runs_best_value_so_far() {
        let peers = vec![curve(|_| 1.0, 5); 5];
        let mut p = Pruner::new("median".parse().unwrap(), "m", Direction::Min, peers);
        assert!(p.observe(1.0, 0.5).is_none());
        // A worse report later does not prune: the best so far is 0.5.
        assert!(p.observe(2.0, 3.0).is_none());
    }

    #[test]
    fn patience_needs_consecutive_checks() {
        let peers = vec![curve(|_| 1.0, 10); 5];
        let mut p = Pruner::new("patient:3".parse().unwrap(), "m", Direction::Max, peers);
        // Below the median of 1.0 twice, then above (the streak resets) ...
        assert!(p.observe(1.0, 0.5).is_none());
        assert!(p.observe(2.0, 0.5).is_none());
        let mut q = p.clone();
        assert!(p.observe(3.0, 2.0).is_none());
        assert!(p.observe(4.0, 0.1).is_none());
        // ... or a third time in a row.
        let d = q.observe(3.0, 0.5).expect("three checks in a row");
        assert_eq!(d.step, 3.0);
        assert_eq!(d.rule, "patient:3");
    }

    #[test]
    fn threshold_prunes_on_nan_infinity_and_the_bound() {
        let rule: PruneRule = "threshold:10".parse().unwrap();
        let mut p = Pruner::new(rule, "loss", Direction::Min, Vec::new());
        assert!(p.observe(1.0, 9.0).is_none());
        let d = p.clone().observe(2.0, f64::NAN).expect("NaN");
        assert_eq!(d.value, None);
        assert_eq!(d.bound, Some(10.0));
        assert!(p.clone().observe(2.0, f64::INFINITY).is_some());
        assert!(p.clone().observe(2.0, f64::NEG_INFINITY).is_some());
        assert!(p.clone().observe(2.0, 10.5).is_some());
        assert!(p.observe(2.0, 10.0).is_none());
        let mut q = Pruner::new(rule, "acc", Direction::Max, Vec::new());
        assert!(q.observe(1.0, 10.5).is_none());
        assert!(q.observe(2.0, 9.5).is_some());
    }

    #[test]
    fn median_prunes_a_run_whose_every_value_is_nan() {
        let peers = vec![curve(|_| 1.0, 5); 5];
        let mut p = Pruner::new("median".parse().unwrap(), "m", Direction::Min, peers);
        assert!(p.observe(1.0, f64::NAN).is_some());
    }

    #[test]
    fn curves_stay_bounded_and_even_and_keep_the_last_report() {
        for n in [0u32, 1, 5, 127, 128, 129, 1000, 100_000] {
            let mut r = CurveRecorder::default();
            for s in 0..n {
                r.push(f64::from(s), f64::from(s) * 2.0);
            }
            let c = r.finish();
            assert!(c.len() <= MAX_CURVE_POINTS, "{n}: {}", c.len());
            if n > 0 {
                assert_eq!(c.last(), Some(&(f64::from(n - 1), f64::from(n - 1) * 2.0)));
                assert_eq!(c[0], (0.0, 0.0));
            }
            if n as usize >= MAX_CURVE_POINTS {
                assert!(c.len() >= MAX_CURVE_POINTS / 2, "{n}: {}", c.len());
                // Evenly spaced but for the last point.
                let gap = c[1].0 - c[0].0;
                for w in c[..c.len() - 1].windows(2) {
                    assert_eq!(w[1].0 - w[0].0, gap, "{n}");
                }
            } else {
                assert_eq!(c.len(), n as usize);
            }
        }
    }

    #[test]
    fn curves_skip_repeated_steps_and_non_finite_values() {
        let mut r = CurveRecorder::default();
        r.push(1.0, 1.0);
        r.push(1.0, 2.0);
        r.push(0.5, 2.0);
        r.push(2.0, f64::NAN);
        r.push(3.0, 3.0);
        assert_eq!(r.finish(), vec![(1.0, 1.0), (3.0, 3.0)]);
    }

    #[test]
    fn peer_values_interpolate_between_kept_points() {
        let c = vec![(0.0, 1.0), (10.0, 3.0), (20.0, 3.0)];
        assert_eq!(value_at(&c, 0.0), Some(1.0));
        assert_eq!(value_at(&c, 5.0), Some(2.0));
        assert_eq!(value_at(&c, 20.0), Some(3.0));
        assert_eq!(value_at(&c, 21.0), None);
        assert_eq!(value_at(&c, -1.0), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
    }
}
