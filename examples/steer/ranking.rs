//! The ranking the steering examples measure: `arx::engine::steer`, the
//! ranking `arx next` uses, behind the small interface the examples share
//! (a record of tries by family; a score per family from it, higher =
//! tried first).
//!
//! Per family a Beta posterior of "a try of this family is kept", shrunk
//! toward the segment's keep rate, the size of its kept improvements, its
//! cost in runs and the loop's precision, combined as expected free energy
//! so that an untried family has epistemic value (see the engine's page).

#![allow(dead_code)] // each example uses part of it

use std::collections::HashMap;

use arx::engine::efe::{info_gain, Preferences};
use arx::engine::steer::{self, Try};

pub use arx::engine::steer::Outcome;

/// The record of a segment's tries so far.
#[derive(Debug, Clone, Default)]
pub struct Record {
    inner: steer::Record,
}

impl Record {
    /// Add one try of `family`; `gain` is a keep's improvement (positive =
    /// better), `runs` the experiment runs it took.
    pub fn observe(&mut self, family: &str, outcome: Outcome, gain: Option<f64>, runs: u64) {
        self.inner.observe(&Try {
            family,
            outcome,
            gain,
            runs,
        });
    }

    /// The segment's running keep rate (half a keep in one try before any).
    pub fn keep_rate(&self) -> f64 {
        self.inner.mean()
    }

    /// The record as scored now: the prior weighed once for the families
    /// scored from it.
    pub fn view(&self) -> View<'_> {
        View {
            record: &self.inner,
            prior: self.inner.prior(),
        }
    }

    /// The posterior mean of a family's keep rate.
    pub fn posterior(&self, family: &str) -> f64 {
        self.view().posterior(family)
    }

    /// The ranking's score of a family: minus its expected free energy
    /// (`arx next` tries the lowest G first). Higher = first.
    pub fn score(&self, family: &str) -> f64 {
        self.view().score(family)
    }
}

/// A record with its prior weighed.
pub struct View<'a> {
    record: &'a steer::Record,
    prior: steer::Prior,
}

impl View<'_> {
    /// The posterior mean of a family's keep rate.
    pub fn posterior(&self, family: &str) -> f64 {
        self.record.posterior_under(&self.prior, family).mean
    }

    /// Minus the family's expected free energy; higher = first.
    pub fn score(&self, family: &str) -> f64 {
        -self
            .record
            .score_under(&self.prior, family, &Preferences::default())
            .g
    }
}

/// For comparison: the same expected free energy with the prior's
/// strength fixed (a family's own record counts as much as this many
/// tries of the segment's) instead of estimated from the families' spread,
/// and a precision of 0.5.
pub const FIXED_STRENGTH: f64 = 8.0;

/// A record scored with [`FIXED_STRENGTH`].
#[derive(Debug, Clone, Default)]
pub struct FixedRecord {
    families: HashMap<String, (u64, u64)>,
    tries: u64,
    keeps: u64,
}

impl FixedRecord {
    pub fn observe(&mut self, family: &str, outcome: Outcome) {
        let kept = u64::from(outcome == Outcome::Kept);
        let f = self.families.entry(family.to_string()).or_default();
        f.0 += 1;
        f.1 += kept;
        self.tries += 1;
        self.keeps += kept;
    }

    /// Minus the expected free energy; higher = first.
    pub fn score(&self, family: &str) -> f64 {
        let m = (self.keeps as f64 + 0.5) / (self.tries as f64 + 1.0);
        let (n, k) = self.families.get(family).copied().unwrap_or_default();
        let a = m * FIXED_STRENGTH + k as f64;
        let b = (1.0 - m) * FIXED_STRENGTH + (n - k) as f64;
        let p = a / (a + b);
        0.5 * info_gain(a, b) + p - (1.0 - p)
    }
}
