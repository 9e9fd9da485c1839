//! What a kept candidate's runs say about it once the design has chosen
//! it. The mean of the runs a look kept on is the luckiest of its kind
//! (the design stops as soon as the mean is high enough): kept at a true
//! change δ, its expected mean is above δ. The design's stopping rule is
//! known, so that expectation is computed exactly for a known σ
//! ([`kept_mean`]), and a kept mean is corrected by solving for the change
//! whose expected kept mean it is ([`kept_estimate`], the conditional
//! moment estimate). Played by `--corrected-record` as a record of a keep
//! from its own runs; not a rule of arx (see BENCHMARKS.md, "The levers
//! tried next").

use arx::kernel::ratchet::sequential::{cdf, grid, info, next_density, pdf, Design, SPAN};

/// The expected mean of the candidate's runs when the design keeps it, at
/// a true change `delta` beyond `min_effect` (σ of one run), both
/// measured from the kept commit's *observed* mean (the decision
/// conditions on it); `None` when the design cannot keep at `delta`.
pub fn kept_mean(design: &Design, delta: f64) -> Option<f64> {
    let nb = design.best_runs;
    let k0 = design.screen;
    let cap = design.cap();
    let thresholds = |k: usize| {
        let (keep, fut) = design.z_bounds(k);
        let s = 1.0 / info(k, nb).sqrt();
        let kf = k as f64;
        (kf * keep * s, kf * fut * s)
    };
    // E[S ; S ≥ h] for S ~ N(m, sd²).
    let upper = |m: f64, sd: f64, h: f64| {
        if h == f64::INFINITY {
            return (0.0, 0.0);
        }
        let z = (h - m) / sd;
        let p = 1.0 - cdf(z);
        (p, m * p + sd * pdf(z))
    };
    let (hi, lo) = thresholds(k0);
    let (m, sd) = (k0 as f64 * delta, (k0 as f64).sqrt());
    let (p, s) = upper(m, sd, hi);
    let (mut keep, mut mean) = (p, s / k0 as f64);
    if k0 < cap {
        let (mut xs, mut ws) = grid(lo.max(m - SPAN * sd), hi.min(m + SPAN * sd));
        let mut fs: Vec<f64> = xs.iter().map(|x| pdf((x - m) / sd) / sd).collect();
        for k in k0 + 1..=cap {
            let (hi, lo) = thresholds(k);
            for ((x, f), w) in xs.iter().zip(&fs).zip(&ws) {
                let (p, s) = upper(x + delta, 1.0, hi);
                keep += f * w * p;
                mean += f * w * s / k as f64;
            }
            if k == cap {
                break;
            }
            (xs, ws, fs) = next_density((&xs, &fs, &ws), (lo, hi), k, delta);
            if fs.is_empty() {
                break;
            }
        }
    }
    (keep > 1e-12).then(|| mean / keep)
}

/// The most a kept mean is corrected, in σ of one run: near the keep
/// bound the expected kept mean flattens (a change far below it is kept
/// only just over the bound), and the solved change would run away.
pub const MAX_CORRECTION: f64 = 1.5;

/// The change (σ of one run, beyond `min_effect`, from the kept commit's
/// observed mean) whose expected kept mean is `observed`, the kept
/// candidate's mean on the same scale: the kept mean with the design's
/// selection taken out. Never above `observed`, and at most
/// [`MAX_CORRECTION`] under it.
pub fn kept_estimate(design: &Design, observed: f64) -> f64 {
    let (mut lo, mut hi) = (observed - MAX_CORRECTION, observed);
    match kept_mean(design, lo) {
        Some(m) if m >= observed => return lo,
        _ => {}
    }
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        match kept_mean(design, mid) {
            Some(m) if m >= observed => hi = mid,
            _ => lo = mid,
        }
    }
    0.5 * (lo + hi)
}

/// The kept mean less the design's selection bias *at the kept mean*
/// (one step of the bias-adjusted estimate): less than the conditional
/// estimate takes out, since the bias is smaller at the kept mean than at
/// the truth under it.
pub fn kept_estimate_one_step(design: &Design, observed: f64) -> f64 {
    match kept_mean(design, observed) {
        Some(m) => observed - (m - observed).clamp(0.0, MAX_CORRECTION),
        None => observed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arx::kernel::ratchet::sequential::design;
    use rand::{Rng, SeedableRng};

    fn gauss(rng: &mut rand_chacha::ChaCha8Rng) -> f64 {
        let u: f64 = rng.random::<f64>().max(1e-300);
        let v: f64 = rng.random();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// The walk of [`kept_mean`] by Monte Carlo: the mean of the runs of
    /// the candidates the design keeps, against a best whose observed
    /// mean is 0.
    fn simulated(d: &Design, delta: f64, trials: usize) -> f64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut sum, mut kept) = (0.0, 0u32);
        for _ in 0..trials {
            let mut s = 0.0;
            for k in 1..=d.cap() {
                s += delta + gauss(&mut rng);
                if k < d.screen {
                    continue;
                }
                let z = s / k as f64 * info(k, d.best_runs).sqrt();
                let (keep, fut) = d.z_bounds(k);
                if z >= keep {
                    sum += s / k as f64;
                    kept += 1;
                    break;
                }
                if z < fut {
                    break;
                }
            }
        }
        sum / kept as f64
    }

    #[test]
    fn the_kept_mean_matches_a_monte_carlo_of_the_design() {
        let d = design(1, 8, 5, 0.05);
        for delta in [0.0, 0.5, 1.0] {
            let want = simulated(&d, delta, 200_000);
            let got = kept_mean(&d, delta).expect("the design keeps");
            assert!((got - want).abs() < 0.01, "δ {delta}: {got} vs {want}");
            // Chosen on: a kept mean is above the truth.
            assert!(got > delta + 0.1, "δ {delta}: {got}");
        }
    }

    #[test]
    fn the_estimate_takes_the_selection_out_of_a_kept_mean() {
        let d = design(1, 8, 5, 0.05);
        for delta in [0.3, 1.0, 2.0] {
            let m = kept_mean(&d, delta).expect("the design keeps");
            let back = kept_estimate(&d, m);
            assert!((back - delta).abs() < 1e-3, "{delta} → {m} → {back}");
        }
        // Never more than the cap under the observed mean.
        let low = kept_estimate(&d, 0.5);
        assert!((0.5 - MAX_CORRECTION..0.5).contains(&low));
    }
}
