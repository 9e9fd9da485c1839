//! The ratchet's estimates from replicate samples: the pooled run-to-run
//! noise, the kept commit's value with its interval, the MAD and the
//! Student-t quantile the keep rules test with, and where a decided
//! change stands against that noise.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::stats::check_confidence;

/// Pooled within-group standard deviation of the replicate groups (groups
/// with fewer than 2 samples add nothing) and its degrees of freedom; `None`
/// without any.
pub fn pooled_noise(groups: &[&[f64]]) -> Option<(f64, f64)> {
    pooled_with(groups, &[])
}

/// [`pooled_noise`] of `groups` and one more group.
pub(super) fn pooled_with(groups: &[&[f64]], extra: &[f64]) -> Option<(f64, f64)> {
    let mut ss = 0.0;
    let mut df = 0usize;
    // A group that is `extra` itself (the same slice) counts once.
    let others = groups.iter().copied().filter(|g| !std::ptr::eq(*g, extra));
    for g in others.chain(std::iter::once(extra)) {
        if g.len() < 2 {
            continue;
        }
        let m = mean(g).expect("non-empty");
        ss += g.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
        df += g.len() - 1;
    }
    (df > 0).then(|| ((ss / df as f64).sqrt(), df as f64))
}

/// The honest estimate of the kept commit's value: the mean of its
/// (recorded) samples with a two-sided Student-t confidence interval, on
/// the pooled noise `(σ, df)` when given, else on the samples' own sd.
/// `None` without samples, with one sample and no noise, or with a
/// confidence outside (0, 1).
pub fn estimate(
    samples: &[f64],
    noise: Option<(f64, f64)>,
    confidence: f64,
) -> Option<(f64, (f64, f64))> {
    check_confidence(confidence).ok()?;
    let m = mean(samples)?;
    let (sigma, df) = match noise {
        Some((s, df)) if df > 0.0 && s.is_finite() => (s, df),
        _ => pooled_with(&[], samples)?,
    };
    let h = t_quantile((1.0 + confidence) / 2.0, df) * sigma / (samples.len() as f64).sqrt();
    Some((m, (m - h, m + h)))
}

/// Where a decided try stands against the best, for the line a person
/// reads: the change against the noise of its estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Kept: better beyond the noise.
    Better,
    /// Better by more than the noise band, but the rule did not confirm it.
    BetterUnconfirmed,
    /// Within the noise band, either way.
    WithinNoise,
    /// Worse by more than the noise band.
    Worse,
    /// No noise measured: no band to say.
    Blind,
}

/// Standard errors either side of zero a change must clear to be called
/// better or worse (about 95% two-sided).
pub const STANDING_BAND: f64 = 2.0;

/// [`standing`] from its parts: the improvement (positive = better), the
/// noise σ of one run (`None` when blind), whether it was kept, and the
/// runs behind each side.
pub fn standing_of(d: f64, noise: Option<f64>, kept: bool, k: usize, nb: usize) -> Standing {
    let Some(sigma) = noise.filter(|s| s.is_finite()) else {
        return Standing::Blind;
    };
    if kept {
        return Standing::Better;
    }
    let se = sigma * (1.0 / k.max(1) as f64 + 1.0 / nb.max(1) as f64).sqrt();
    let band = STANDING_BAND * se;
    if d < -band {
        Standing::Worse
    } else if d > band {
        Standing::BetterUnconfirmed
    } else {
        Standing::WithinNoise
    }
}

/// The mean; exact for a constant sample.
pub(super) fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if lo == hi {
        return Some(lo);
    }
    Some((xs.iter().sum::<f64>() / xs.len() as f64).clamp(lo, hi))
}

/// Median absolute deviation from the median.
pub(super) fn mad_of(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let med = median_of_sorted(&v);
    let mut dev: Vec<f64> = v.iter().map(|x| (x - med).abs()).collect();
    dev.sort_by(f64::total_cmp);
    median_of_sorted(&dev)
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The `p` quantile of Student's t with `df` degrees of freedom.
pub(super) fn t_quantile(p: f64, df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(p))
        .unwrap_or(f64::NAN)
}
