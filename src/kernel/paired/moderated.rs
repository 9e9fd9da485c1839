//! The noise of a try's paired differences when the segment's tries
//! differ in it: an empirical-Bayes ("moderated") variance.
//!
//! How much of the pairing a change keeps varies from change to change
//! (on a real model the spread of a difference varied about tenfold from
//! edit to edit). Pooled over the segment, a try whose own differences
//! spread far less than the others' is judged at the others' spread: a
//! change better at all 8 seeds, t 3.2 on its own spread, read about 0.7
//! on the pooled one and was discarded. Its own spread alone, on its own
//! few degrees of freedom, is exact whatever the others did but weak.
//!
//! Between the two: each try's variance of a difference is taken as drawn
//! from a scaled inverse χ² with ν₀ degrees of freedom about s₀², fitted
//! from the earlier tries' own variances by the moments of their logs
//! (Smyth's method for the moderated t of many small experiments). A try
//! is then judged at (ν₀ s₀² + d s²) / (ν₀ + d) on ν₀ + d degrees of
//! freedom, whose t is exact under that model. When the earlier tries
//! spread no more than chance would make them (ν₀ infinite), or there are
//! too few to tell, the look pools them as before; the more they differ,
//! the more a try's own spread counts, the larger or the smaller. The
//! prior comes from the other tries alone, so a try's own differences do
//! not choose how they are judged.

use statrs::function::gamma::digamma;

use crate::kernel::ratchet_noise::pooled_with;

/// Earlier tries with their own variance of a difference (on two degrees
/// of freedom or more) that a prior needs: with fewer, the spread between
/// their variances is not measured at all.
pub const PRIOR_TRIES: usize = 3;

/// The prior of a try's variance of a difference, `(s₀, ν₀)`, from the
/// segment's earlier tries (`history`, each try's differences): `None`
/// with fewer than [`PRIOR_TRIES`] tries of two degrees of freedom or
/// more, or when their variances spread no more than sampling alone
/// makes them (ν₀ infinite: pool). ν₀ is capped at the earlier tries'
/// degrees of freedom, all the information they hold.
pub fn prior(history: &[&[f64]]) -> Option<(f64, f64)> {
    let tries: Vec<(f64, f64)> = history
        .iter()
        .filter_map(|g| pooled_with(&[], g))
        .filter(|(s, df)| *s > 0.0 && s.is_finite() && *df >= 2.0)
        .collect();
    if tries.len() < PRIOR_TRIES {
        return None;
    }
    let g = tries.len() as f64;
    // e = log s² − ψ(d/2) + log(d/2): unbiased for log σ² whatever d.
    let e: Vec<f64> = tries
        .iter()
        .map(|(s, d)| 2.0 * s.ln() - digamma(d / 2.0) + (d / 2.0).ln())
        .collect();
    let mean_e = e.iter().sum::<f64>() / g;
    let var_e = e.iter().map(|x| (x - mean_e).powi(2)).sum::<f64>() / (g - 1.0);
    let sampling = tries.iter().map(|(_, d)| trigamma(d / 2.0)).sum::<f64>() / g;
    let excess = var_e - sampling;
    if excess <= 0.0 || !excess.is_finite() {
        return None;
    }
    let total_df: f64 = tries.iter().map(|(_, d)| d).sum();
    let nu0 = (2.0 * trigamma_inverse(excess)).min(total_df);
    let s0_sq = (mean_e + digamma(nu0 / 2.0) - (nu0 / 2.0).ln()).exp();
    (s0_sq > 0.0 && s0_sq.is_finite()).then(|| (s0_sq.sqrt(), nu0))
}

/// A try's own noise of a difference `(s, d)` moderated by the prior
/// `(s₀, ν₀)`: `(√((ν₀ s₀² + d s²) / (ν₀ + d)), ν₀ + d)`.
pub fn moderated(own: (f64, f64), prior: (f64, f64)) -> (f64, f64) {
    let ((s, d), (s0, nu0)) = (own, prior);
    (((nu0 * s0 * s0 + d * s * s) / (nu0 + d)).sqrt(), nu0 + d)
}

/// ψ′(x), x > 0: the recurrence up to 6, then the asymptotic series.
fn trigamma(x: f64) -> f64 {
    let (mut x, mut acc) = (x, 0.0);
    while x < 6.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let x2 = 1.0 / (x * x);
    acc + 1.0 / x
        + x2 / 2.0
        + x2 / x * (1.0 / 6.0 - x2 * (1.0 / 30.0 - x2 * (1.0 / 42.0 - x2 / 30.0)))
}

/// The x > 0 with ψ′(x) = y (y > 0), by bisection on the log scale
/// (ψ′ falls from ∞ to 0).
fn trigamma_inverse(y: f64) -> f64 {
    let (mut lo, mut hi) = (1e-8_f64, 1e8_f64);
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if trigamma(mid) > y {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo * hi).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn trigamma_and_its_inverse_agree_with_known_values() {
        // ψ′(1) = π²/6, ψ′(1/2) = π²/2.
        let pi2 = std::f64::consts::PI.powi(2);
        assert!((trigamma(1.0) - pi2 / 6.0).abs() < 1e-9);
        assert!((trigamma(0.5) - pi2 / 2.0).abs() < 1e-9);
        assert!((trigamma(20.0) - 0.051_270_822_935_2).abs() < 1e-9);
        for x in [0.3, 1.0, 4.5, 50.0] {
            assert!((trigamma_inverse(trigamma(x)) - x).abs() < 1e-6 * x);
        }
    }

    /// Tries of `pairs` differences each, whose variances spread by a
    /// factor drawn log-uniformly up to `spread`.
    fn tries(rng: &mut ChaCha8Rng, n: usize, pairs: usize, spread: f64) -> Vec<Vec<f64>> {
        (0..n)
            .map(|_| {
                let sd = spread.powf(rng.random::<f64>()).sqrt();
                (0..pairs)
                    .map(|_| {
                        let (u1, u2): (f64, f64) = (1.0 - rng.random::<f64>(), rng.random());
                        sd * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn tries_alike_pool_and_tries_far_apart_weigh_their_own() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x6d6f_6465);
        let (mut pooled, mut tenfold) = (0, Vec::new());
        for _ in 0..400 {
            let alike = tries(&mut rng, 8, 5, 1.0);
            let alike: Vec<&[f64]> = alike.iter().map(Vec::as_slice).collect();
            match prior(&alike) {
                None => pooled += 1,
                Some((_, nu0)) => assert!(nu0 > 0.0),
            }
            let apart = tries(&mut rng, 8, 5, 10.0);
            let apart: Vec<&[f64]> = apart.iter().map(Vec::as_slice).collect();
            tenfold.push(prior(&apart).map_or(f64::INFINITY, |p| p.1));
        }
        // Alike, most segments pool (a finite ν₀ by chance, capped at
        // their 32 df, is a mild moderation).
        assert!(pooled > 200, "{pooled} of 400 pooled");
        tenfold.sort_by(f64::total_cmp);
        assert!(tenfold[200] < 12.0, "median ν₀ {}", tenfold[200]);
        // Too few tries, or too few pairs each: no prior.
        let two = tries(&mut rng, 2, 5, 10.0);
        let two: Vec<&[f64]> = two.iter().map(Vec::as_slice).collect();
        assert_eq!(prior(&two), None);
        let pairs = tries(&mut rng, 6, 2, 10.0);
        let pairs: Vec<&[f64]> = pairs.iter().map(Vec::as_slice).collect();
        assert_eq!(prior(&pairs), None);
    }

    #[test]
    fn a_moderated_noise_lies_between_the_prior_and_the_own() {
        let (s, df) = moderated((1.0, 7.0), (3.0, 7.0));
        assert!((s - 5.0_f64.sqrt()).abs() < 1e-12);
        assert_eq!(df, 14.0);
    }
}
