//! Steering: which family of ideas to try next, learned from the
//! ratchet's own record of tries.
//!
//! The record is a fold of the tries of a segment, in order: per family,
//! how many tries, how many were kept, how many crashed, the size of the
//! kept improvements and the runs spent ([`Record::observe`]). From it,
//! every family gets
//!
//! - a Beta posterior of "a try of this family is kept", shrunk toward the
//!   segment's keep rate: the prior is `Beta(m·s, (1 − m)·s)` with `m` the
//!   segment's keep rate and `s` a strength estimated from how much the
//!   families' keep rates differ beyond what chance gives (empirical
//!   Bayes, [`Prior`]); when they do not differ, `s` is large and every
//!   family is scored alike;
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
pub mod pick;
pub mod repeat;

use serde::{Deserialize, Serialize};

use super::efe::{info_gain, Preferences};
use super::history::Map;
use super::precision::{observe_run, Hierarchy, Level};
use crate::kernel::names::str_enum;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::verdict::Verdict;

pub use crate::kernel::ratchet_record::UNSORTED;

/// The prior strength while fewer than [`MIN_FAMILIES`] families have
/// been tried (nothing to estimate their spread from): a family's own
/// record counts as much as this many tries of the segment's.
pub const DEFAULT_STRENGTH: f64 = 8.0;

/// Bounds of the estimated prior strength.
pub const MIN_STRENGTH: f64 = 2.0;
pub const MAX_STRENGTH: f64 = 1000.0;

/// Families tried before their spread is estimated.
pub const MIN_FAMILIES: usize = 3;

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
    /// `Σ keeps²/tries` over the families (for the spread of their keep
    /// rates, kept current as tries come).
    pub keeps_sq: f64,
}

/// The shrinkage prior of the families' keep rates: `Beta(mean·strength,
/// (1 − mean)·strength)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prior {
    /// The segment's keep rate (a half keep in one try before any try).
    pub mean: f64,
    pub strength: f64,
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
        let predicted = self.posterior(t.family).0;
        let verdict = match t.outcome {
            Outcome::Kept => Some(Verdict::Supported),
            Outcome::Discarded => Some(Verdict::Refuted),
            Outcome::Crashed => None,
        };
        let clean = t.outcome != Outcome::Crashed;
        // The prediction is a posterior mean in (0, 1): never rejected.
        let _ = observe_run(&mut self.precision, clean, verdict, predicted, false);
        self.total.add(t);
        let family = if t.family.is_empty() {
            UNSORTED
        } else {
            t.family
        };
        let f = match self.families.get_index_of(family) {
            Some(i) => &mut self.families[i],
            None => {
                let i = self
                    .families
                    .insert_full(family.to_string(), Tally::default())
                    .0;
                &mut self.families[i]
            }
        };
        let sq = |f: &Tally| {
            if f.tries == 0 {
                0.0
            } else {
                (f.keeps * f.keeps) as f64 / f.tries as f64
            }
        };
        let before = sq(f);
        f.add(t);
        self.keeps_sq += sq(f) - before;
    }

    /// The prior the families are shrunk toward. Its strength comes from
    /// the spread of the families' keep rates beyond the binomial noise
    /// their numbers of tries give (a method-of-moments estimate of the
    /// between-family variance `τ²`, and `s = m(1 − m)/τ² − 1`), within
    /// [`MIN_STRENGTH`, `MAX_STRENGTH`]; [`DEFAULT_STRENGTH`] while fewer
    /// than [`MIN_FAMILIES`] families have been tried.
    pub fn prior(&self) -> Prior {
        let n = self.total.tries as f64;
        let mean = (self.total.keeps as f64 + 0.5) / (n + 1.0);
        let families = self.families.len();
        if families < MIN_FAMILIES {
            return Prior {
                mean,
                strength: DEFAULT_STRENGTH,
            };
        }
        // Σ n_f (p_f − m)² = Σ k_f²/n_f − K²/N.
        let keeps = self.total.keeps as f64;
        let spread = (self.keeps_sq - keeps * keeps / n).max(0.0);
        let chance = (families - 1) as f64 * mean * (1.0 - mean);
        let tau2 = (spread - chance) / n;
        let strength = if tau2 > 0.0 {
            (mean * (1.0 - mean) / tau2 - 1.0).clamp(MIN_STRENGTH, MAX_STRENGTH)
        } else {
            MAX_STRENGTH
        };
        Prior { mean, strength }
    }

    /// The posterior of a family's keep rate under the current prior:
    /// `(mean, a, b)`.
    pub fn posterior(&self, family: &str) -> (f64, f64, f64) {
        let prior = self.prior();
        let f = self.families.get(family).cloned().unwrap_or_default();
        let a = prior.mean * prior.strength + f.keeps as f64;
        let b = (1.0 - prior.mean) * prior.strength + (f.tries - f.keeps) as f64;
        (a / (a + b), a, b)
    }

    /// The planning precision the epistemic weight comes from.
    pub fn precision(&self) -> f64 {
        self.precision.value(Level::Planning)
    }

    /// Score one family (tried or not).
    pub fn score(&self, family: &str, prefs: &Preferences) -> Score {
        let (keep_rate, a, b) = self.posterior(family);
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
    let mut cache: Map<&str, Score> = Map::default();
    let scores: Vec<Score> = families
        .iter()
        .map(|f| {
            let f = if f.is_empty() { UNSORTED } else { f };
            cache
                .entry(f)
                .or_insert_with(|| record.score(f, prefs))
                .clone()
        })
        .collect();
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&i, &j| scores[i].g.total_cmp(&scores[j].g).then(i.cmp(&j)));
    (scores, order)
}

#[cfg(test)]
mod tests;
