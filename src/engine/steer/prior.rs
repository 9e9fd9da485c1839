//! The prior the families' keep rates are shrunk toward, and a family's
//! keep rate under it.
//!
//! Each family's keep rate `p_f` is taken to be drawn from
//! `Beta(m·s, (1 − m)·s)`: `m` the segment's keep rate, `s` a strength (a
//! family's own record counts as much as `s` tries of the segment's). The
//! strength is not known, and a point estimate of it serves badly here:
//! with keeps as rare as a few in a hundred tries, the families' keep
//! rates stay within what chance gives for most of a night, so an estimate
//! from their spread sits at its upper bound and every family is scored
//! alike, long after the record already favours some.
//!
//! So the strength is integrated out (a hierarchical Bayes mixture). On a
//! grid of [`STRENGTHS`] values log-spaced from [`MIN_STRENGTH`] to
//! [`MAX_STRENGTH`], each value `s_j` is weighted by a prior
//! `p(ln s) ∝ s^(−1/2)` (the usual weakly informative `p(α, β) ∝ (α +
//! β)^(−5/2)` of a beta-binomial hierarchy, written for `m` and `ln s`)
//! times the beta-binomial marginal likelihood of every tried family's
//! keeps `k_f` in `n_f` tries:
//!
//! `L(s) = Π_f B(k_f + m·s, n_f − k_f + (1 − m)·s) / B(m·s, (1 − m)·s)`
//!
//! (the binomial coefficients do not depend on `s` and drop out), and a
//! family's keep rate is the mixture
//! `Σ_j w_j·Beta(m·s_j + k_f, (1 − m)·s_j + n_f − k_f)` with
//! `w_j ∝ p(ln s_j)·L(s_j)`. When the families' records differ beyond chance the weight moves to small strengths and a family's own
//! record counts; when they agree it moves to large ones and every family
//! is near `m`; while the record cannot tell, both stay in the mixture,
//! so a family with a keep or two already ranks above one with none.
//! [`Prior::posterior`] gives the mixture's mean and the Beta with the same
//! mean and variance (for the information gain of one more try).
//!
//! Cost: `(families + 1) × STRENGTHS` log-beta functions per prior, and
//! `STRENGTHS` terms per family's posterior. Pure.

use serde::{Deserialize, Serialize};
use statrs::function::gamma::ln_gamma;

/// Grid values of the prior's strength.
pub const STRENGTHS: usize = 12;
/// The smallest and largest strength on the grid.
pub const MIN_STRENGTH: f64 = 2.0;
pub const MAX_STRENGTH: f64 = 1024.0;

/// The `j`-th strength of the grid (`MIN_STRENGTH` to `MAX_STRENGTH`,
/// log-spaced).
pub fn strength(j: usize) -> f64 {
    let t = j as f64 / (STRENGTHS - 1) as f64;
    MIN_STRENGTH * (MAX_STRENGTH / MIN_STRENGTH).powf(t)
}

/// The prior weight of the `j`-th strength: `s^(−1/2)`, unnormalized.
fn prior_weight(j: usize) -> f64 {
    strength(j).powf(-0.5)
}

fn ln_beta(a: f64, b: f64) -> f64 {
    ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b)
}

/// The shrinkage prior of the families' keep rates: `Beta(mean·s, (1 −
/// mean)·s)` with the strength `s` weighted over the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prior {
    /// The segment's keep rate (a half keep in one try before any try).
    pub mean: f64,
    /// The posterior weight of each grid strength (summing to 1).
    pub weights: [f64; STRENGTHS],
}

/// A family's keep rate under the prior: the mixture's mean, and the Beta
/// `(a, b)` with the mixture's mean and variance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Posterior {
    pub mean: f64,
    pub a: f64,
    pub b: f64,
}

impl Prior {
    /// The prior before the families' records weigh the strengths: each
    /// grid value at its prior weight.
    pub fn flat(mean: f64) -> Prior {
        let mut weights: [f64; STRENGTHS] = std::array::from_fn(prior_weight);
        let total: f64 = weights.iter().sum();
        for w in &mut weights {
            *w /= total;
        }
        Prior { mean, weights }
    }

    /// The prior of a segment with keep rate `mean` whose tried families
    /// kept `(keeps, tries)`.
    pub fn weigh(mean: f64, families: impl Iterator<Item = (u64, u64)> + Clone) -> Prior {
        let mut log_l = [0.0f64; STRENGTHS];
        for (j, l) in log_l.iter_mut().enumerate() {
            let s = strength(j);
            let (a, b) = (mean * s, (1.0 - mean) * s);
            let base = ln_beta(a, b);
            *l = families
                .clone()
                .filter(|&(_, n)| n > 0)
                .map(|(k, n)| {
                    let k = k.min(n);
                    ln_beta(a + k as f64, b + (n - k) as f64) - base
                })
                .sum();
        }
        let top = log_l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !top.is_finite() {
            return Prior::flat(mean);
        }
        let mut weights: [f64; STRENGTHS] =
            std::array::from_fn(|j| prior_weight(j) * (log_l[j] - top).exp());
        let total: f64 = weights.iter().sum();
        for w in &mut weights {
            *w /= total;
        }
        Prior { mean, weights }
    }

    /// The strength the weights centre on: `exp` of their mean of `ln s`.
    pub fn strength(&self) -> f64 {
        self.weights
            .iter()
            .enumerate()
            .map(|(j, w)| w * strength(j).ln())
            .sum::<f64>()
            .exp()
    }

    /// The keep rate of a family that kept `keeps` of `tries`.
    pub fn posterior(&self, keeps: u64, tries: u64) -> Posterior {
        let keeps = keeps.min(tries);
        let (k, rest) = (keeps as f64, (tries - keeps) as f64);
        let (mut mean, mut second) = (0.0, 0.0);
        for (j, w) in self.weights.iter().enumerate() {
            let s = strength(j);
            let (a, b) = (self.mean * s + k, (1.0 - self.mean) * s + rest);
            let mu = a / (a + b);
            let var = mu * (1.0 - mu) / (a + b + 1.0);
            mean += w * mu;
            second += w * (mu * mu + var);
        }
        // The Beta of the same mean and variance (the variance of a
        // mixture of Betas is below mean·(1 − mean), so `n` is positive).
        let var = (second - mean * mean).max(f64::MIN_POSITIVE);
        let n = (mean * (1.0 - mean) / var - 1.0).max(f64::EPSILON);
        Posterior {
            mean,
            a: mean * n,
            b: (1.0 - mean) * n,
        }
    }
}
