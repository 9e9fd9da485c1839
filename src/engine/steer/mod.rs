//! Steering: which family of ideas to try next, learned from the
//! ratchet's own record of tries.
//!
//! The record is a fold of the tries of a segment, in order: per family,
//! how many tries, how many were kept, how many crashed, the size of the
//! kept improvements and the runs spent ([`Record::observe`]). From it,
//! every family gets
//!
//! - a posterior of "a try of this family is kept", shrunk toward the
//!   segment's keep rate: the prior is `Beta(m·s, (1 − m)·s)` with `m` the
//!   segment's keep rate and the strength `s` integrated out over a grid,
//!   each value weighted by how well it explains every family's keeps
//!   (hierarchical Bayes, [`prior`]); when the families do not differ the
//!   weight goes to large strengths and every family is scored alike;
//! - the size of its kept improvements and its cost in runs, each
//!   relative to the segment's and shrunk toward it;
//! - the loop's precision, a [`Hierarchy`] that every try updates with the
//!   error of the family's prediction (kept or not against the posterior
//!   mean before the try) and, for a crash, at the execution level;
//! - and from these the `aif` expected free energy ([`super::efe`]):
//!   `G = −(1 − precision)·I(Y; θ) − pragmatic`, where the information
//!   gain `I` gives a little-tried (or untried) family epistemic value and
//!   the pragmatic value is `p·success·gain + (1 − p)·error +
//!   step_cost·cost`. Lower is better.
//!
//! [`rank`] orders candidate ideas by it; [`repeat`] is the guard that
//! leaves out an idea already discarded at the same parent.
//!
//! Pure: tries in, scores out. The host turns journal records into
//! [`Try`]s (see [`Outcome::from_status`]) and may cache the [`Record`];
//! a simulation or a replay of a night builds the tries itself.

pub mod fold;
pub mod imported;
pub mod pick;
pub mod prior;
pub mod repeat;

use serde::{Deserialize, Serialize};

use super::efe::{info_gain, Preferences};
use super::history::Map;
use super::precision::{observe_run, Hierarchy, Level};
use crate::kernel::names::str_enum;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::verdict::Verdict;

pub use crate::kernel::ratchet_record::UNSORTED;

pub use prior::{Posterior, Prior, MAX_STRENGTH, MIN_STRENGTH, STRENGTHS};

/// While the segment has fewer tries than this, the precision's
/// prediction of each try weighs the prior's strengths afresh; past it,
/// whenever the segment has grown by a [`REWEIGH_SHARE`]th since they were
/// last weighed (a fold of a long journal stays linear; a ranking always
/// weighs them afresh).
pub const EXACT_TRIES: u64 = 1024;
pub const REWEIGH_SHARE: u64 = 64;

/// Pseudo-tries at the segment's value when a family's gain per keep and
/// runs per try are shrunk toward the segment's.
pub const SHRINK_TRIES: f64 = 2.0;

str_enum! {
    /// How a try ended, as steering counts it.
    Outcome, "try outcome" {
        /// Kept: the best moved.
        Kept => "kept",
        /// Measured and not kept (discarded, pruned, checks failed, vetoed
        /// by a guard or the held-out check).
        Discarded => "discarded",
        /// The experiment failed.
        Crashed => "crashed",
    }
}

impl Outcome {
    /// The outcome of a journaled try; `None` for a record that tested no
    /// idea (the baseline, the best measured again, a try interrupted,
    /// set aside unmeasured, refused for a protected path, or already in
    /// the best).
    pub fn from_status(status: TryStatus) -> Option<Outcome> {
        match status {
            TryStatus::Keep => Some(Outcome::Kept),
            TryStatus::Discard
            | TryStatus::Pruned
            | TryStatus::ChecksFailed
            | TryStatus::Guard
            | TryStatus::Holdout => Some(Outcome::Discarded),
            TryStatus::Crash => Some(Outcome::Crashed),
            TryStatus::Baseline
            | TryStatus::Protected
            | TryStatus::Interrupted
            | TryStatus::Stale
            | TryStatus::AlreadyInBest
            | TryStatus::Remeasure => None,
        }
    }
}

/// One try as steering sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Try<'a> {
    /// Its family ([`UNSORTED`] when it has none).
    pub family: &'a str,
    pub outcome: Outcome,
    /// For a keep: the improvement over the best, in the metric's units,
    /// positive = better (ignored otherwise, and when not positive).
    pub gain: Option<f64>,
    /// Experiment runs the try took (0 is counted as 1).
    pub runs: u64,
}

/// What the record holds of a family (or of the whole segment).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub tries: u64,
    pub keeps: u64,
    pub crashes: u64,
    /// Sum of the positive gains of the keeps.
    pub gain: f64,
    /// Keeps with a positive gain.
    pub gains: u64,
    pub runs: u64,
}

impl Tally {
    fn add(&mut self, t: &Try<'_>) {
        self.tries += 1;
        self.runs += t.runs.max(1);
        match t.outcome {
            Outcome::Kept => {
                self.keeps += 1;
                if let Some(g) = t.gain.filter(|g| g.is_finite() && *g > 0.0) {
                    self.gain += g;
                    self.gains += 1;
                }
            }
            Outcome::Crashed => self.crashes += 1,
            Outcome::Discarded => {}
        }
    }

    /// Keeps over tries; `None` before any try.
    pub fn keep_rate(&self) -> Option<f64> {
        (self.tries > 0).then(|| self.keeps as f64 / self.tries as f64)
    }
}

/// The fold of a segment's tries, in order. Serializable, so a host can
/// cache it and extend it with the tries appended since.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// By family, in the order first tried.
    pub families: Map<String, Tally>,
    /// Every try of the segment.
    pub total: Tally,
    /// The loop's precision, updated by every try.
    pub precision: Hierarchy,
    /// The prior's weights over its strengths as last weighed, for the
    /// precision's predictions ([`EXACT_TRIES`]), and the segment's tries
    /// then.
    pub weights: [f64; STRENGTHS],
    pub weighed_at: u64,
}

impl Record {
    /// The record of `tries`, in order.
    pub fn of<'a>(tries: impl IntoIterator<Item = Try<'a>>) -> Record {
        let mut r = Record::default();
        for t in tries {
            r.observe(&t);
        }
        r
    }

    /// Add one try: the precision learns from how well the family's keep
    /// rate predicted it, then the counts take it.
    pub fn observe(&mut self, t: &Try<'_>) {
        let family = if t.family.is_empty() {
            UNSORTED
        } else {
            t.family
        };
        let tries = self.total.tries;
        if tries < EXACT_TRIES || tries >= self.weighed_at + self.weighed_at / REWEIGH_SHARE {
            self.weights = self.prior().weights;
            self.weighed_at = tries;
        }
        let prior = Prior {
            mean: self.mean(),
            weights: self.weights,
        };
        let predicted = self.posterior_under(&prior, family).mean;
        let verdict = match t.outcome {
            Outcome::Kept => Some(Verdict::Supported),
            Outcome::Discarded => Some(Verdict::Refuted),
            Outcome::Crashed => None,
        };
        let clean = t.outcome != Outcome::Crashed;
        // The prediction is a posterior mean in (0, 1): never rejected.
        let _ = observe_run(&mut self.precision, clean, verdict, predicted, false);
        self.total.add(t);
        match self.families.get_index_of(family) {
            Some(i) => self.families[i].add(t),
            None => {
                let mut f = Tally::default();
                f.add(t);
                self.families.insert(family.to_string(), f);
            }
        }
    }

    /// The segment's keep rate: a half keep in one try before any try.
    pub fn mean(&self) -> f64 {
        (self.total.keeps as f64 + 0.5) / (self.total.tries as f64 + 1.0)
    }

    /// The prior the families are shrunk toward: the segment's keep rate,
    /// and its strength weighed by every tried family's keeps
    /// ([`prior`]).
    pub fn prior(&self) -> Prior {
        Prior::weigh(
            self.mean(),
            self.families.values().map(|f| (f.keeps, f.tries)),
        )
    }

    /// A family's keep rate (tried or not) under `prior`.
    pub fn posterior_under(&self, prior: &Prior, family: &str) -> Posterior {
        let f = self.families.get(family);
        prior.posterior(f.map_or(0, |f| f.keeps), f.map_or(0, |f| f.tries))
    }

    /// A family's keep rate under the current prior: `(mean, a, b)`, the
    /// Beta `(a, b)` of the posterior's mean and variance.
    pub fn posterior(&self, family: &str) -> (f64, f64, f64) {
        let p = self.posterior_under(&self.prior(), family);
        (p.mean, p.a, p.b)
    }

    /// The planning precision the epistemic weight comes from.
    pub fn precision(&self) -> f64 {
        self.precision.value(Level::Planning)
    }

    /// Score one family (tried or not).
    pub fn score(&self, family: &str, prefs: &Preferences) -> Score {
        self.score_under(&self.prior(), family, prefs)
    }

    /// Score one family under `prior` (the record's [`Record::prior`]).
    pub fn score_under(&self, prior: &Prior, family: &str, prefs: &Preferences) -> Score {
        let Posterior {
            mean: keep_rate,
            a,
            b,
        } = self.posterior_under(prior, family);
        let f = self.families.get(family).cloned().unwrap_or_default();
        let t = &self.total;
        // The segment's gain per keep and runs per try, and the family's
        // shrunk toward them, as ratios (1 = the segment's).
        let seg_gain = (t.gains > 0).then(|| t.gain / t.gains as f64);
        let gain = seg_gain.map_or(1.0, |g0| {
            (f.gain + SHRINK_TRIES * g0) / (f.gains as f64 + SHRINK_TRIES) / g0
        });
        let seg_runs = if t.tries > 0 {
            t.runs as f64 / t.tries as f64
        } else {
            1.0
        };
        let cost =
            (f.runs as f64 + SHRINK_TRIES * seg_runs) / (f.tries as f64 + SHRINK_TRIES) / seg_runs;
        let precision = self.precision();
        let epistemic = info_gain(a, b);
        let pragmatic = keep_rate * prefs.success * gain
            + (1.0 - keep_rate) * prefs.error
            + prefs.step_cost * cost;
        let g = -(1.0 - precision) * epistemic - pragmatic;
        Score {
            family: family.to_string(),
            tries: f.tries,
            keeps: f.keeps,
            crashes: f.crashes,
            keep_rate,
            a,
            b,
            gain,
            cost,
            precision,
            epistemic,
            pragmatic,
            g,
        }
    }
}

/// A family's score: the numbers it is ranked by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub family: String,
    /// Its tries, keeps and crashes in the segment.
    pub tries: u64,
    pub keeps: u64,
    pub crashes: u64,
    /// Posterior mean of its keep rate, shrunk toward the segment's.
    pub keep_rate: f64,
    /// The Beta posterior `(a, b)`.
    pub a: f64,
    pub b: f64,
    /// Gain per keep relative to the segment's (1 = the same).
    pub gain: f64,
    /// Runs per try relative to the segment's (1 = the same).
    pub cost: f64,
    /// The loop's planning precision.
    pub precision: f64,
    /// Information gain about its keep rate from one more try (nats).
    pub epistemic: f64,
    pub pragmatic: f64,
    /// Expected free energy; lower is better.
    pub g: f64,
}

/// The scores of candidate ideas, given by their families, and the order
/// to try them in: lowest G first, the earlier candidate first on ties.
/// Each family is scored once.
pub fn rank(record: &Record, families: &[&str], prefs: &Preferences) -> (Vec<Score>, Vec<usize>) {
    let prior = record.prior();
    let mut cache: Map<&str, Score> = Map::default();
    let scores: Vec<Score> = families
        .iter()
        .map(|f| {
            let f = if f.is_empty() { UNSORTED } else { f };
            cache
                .entry(f)
                .or_insert_with(|| record.score_under(&prior, f, prefs))
                .clone()
        })
        .collect();
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&i, &j| scores[i].g.total_cmp(&scores[j].g).then(i.cmp(&j)));
    (scores, order)
}

#[cfg(test)]
mod tests;
