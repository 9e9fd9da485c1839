//! The ratchet's estimates from replicate samples: the pooled run-to-run
//! noise (robust to a broken commit's runs), the kept commit's value with
//! its interval, the MAD and the Student-t quantile the keep rules test
//! with, and where a decided change stands against that noise.

use statrs::distribution::{ContinuousCDF, FisherSnedecor, StudentsT};

use super::stats::check_confidence;

/// Pooled within-group standard deviation of the replicate groups (groups
/// with fewer than 2 samples add nothing) and its degrees of freedom; `None`
/// without any.
pub fn pooled_noise(groups: &[&[f64]]) -> Option<(f64, f64)> {
    pooled_with(groups, &[])
}

/// The level of the test that leaves a replicate group out of the
/// segment's pooled noise: its variance is beyond the other groups' by an
/// F test at this level (one-sided). Strict, so that it removes a broken
/// or unstable commit's runs, not the upper tail of ordinary noise: under
/// Gaussian noise about one group in 10,000 is left out and the pooled
/// variance loses under 0.2%; under Student-t(3) noise, whose variance
/// rests on rare large runs, 1% of groups and 3–15% of the variance (5 to
/// 30 groups). A diverged run stands far beyond it (on a real model,
/// p = 5·10⁻⁶ among the runs and 10⁻⁸ among the paired differences).
pub const OUTLYING_VARIANCE_LEVEL: f64 = 1e-4;

/// The groups of `groups` the segment's noise is pooled from: all but
/// those whose variance is beyond the others' ([`OUTLYING_VARIANCE_LEVEL`]),
/// left out one at a time, the most outlying first, each tested against
/// the groups still in (a second broken commit is judged once the first
/// is out; in a short segment two may still hide each other). A
/// group `protected` says is never left out (the best's runs, which every
/// unpaired comparison carries), nor tested against a pool without
/// degrees of freedom or without spread (no ratio to judge).
///
/// A change that breaks or destabilises the experiment (a width that
/// diverges on some seeds) says nothing about the run-to-run noise of the
/// changes after it, which are each tested at their own variance where
/// it is larger ([`pooled_with`]'s callers): pooled with the rest, one
/// such try doubled the noise every later try was judged with.
pub(super) fn robust_groups<'a>(
    groups: &[&'a [f64]],
    protected: impl Fn(&[f64]) -> bool,
) -> Vec<&'a [f64]> {
    let stats: Vec<(f64, usize)> = groups.iter().map(|g| sum_of_squares(g)).collect();
    let mut out = vec![false; groups.len()];
    loop {
        let (ss, df) = stats
            .iter()
            .zip(&out)
            .filter(|(_, o)| !**o)
            .fold((0.0, 0usize), |(s, d), ((gs, gd), _)| (s + gs, d + gd));
        let worst = (0..groups.len())
            .filter(|&i| !out[i] && !protected(groups[i]))
            .filter_map(|i| {
                outlying_p(stats[i], (ss - stats[i].0, df - stats[i].1)).map(|p| (i, p))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match worst {
            Some((i, p)) if p < OUTLYING_VARIANCE_LEVEL => out[i] = true,
            _ => break,
        }
    }
    groups
        .iter()
        .zip(&out)
        .filter(|(_, o)| !**o)
        .map(|(g, _)| *g)
        .collect()
}

/// The sum of squares about the mean of one group and its degrees of
/// freedom (0 for fewer than 2 samples).
fn sum_of_squares(g: &[f64]) -> (f64, usize) {
    if g.len() < 2 {
        return (0.0, 0);
    }
    let m = mean(g).expect("non-empty");
    (g.iter().map(|x| (x - m) * (x - m)).sum(), g.len() - 1)
}

/// The one-sided p-value of a group's variance `(ss, df)` against the
/// rest's: `None` when either has no degrees of freedom, the rest has no
/// spread, or the group's variance is not above it.
fn outlying_p((ss, df): (f64, usize), (rest_ss, rest_df): (f64, usize)) -> Option<f64> {
    if df == 0 || rest_df == 0 || rest_ss <= 0.0 {
        return None;
    }
    let f = (ss / df as f64) / (rest_ss / rest_df as f64);
    if f.is_nan() || f <= 1.0 {
        return None;
    }
    let dist = FisherSnedecor::new(df as f64, rest_df as f64).ok()?;
    Some(dist.sf(f))
}

/// The segment's pooled noise as the keep rules use it: [`pooled_noise`]
/// of its [`robust_groups`], the group that ends with the best's recorded
/// runs `best` (two or more) never left out.
pub fn segment_noise(groups: &[&[f64]], best: &[f64]) -> Option<(f64, f64)> {
    let kept = robust_groups(groups, |g| is_best_group(g, best));
    pooled_noise(&kept)
}

/// `g` holds the best's recorded runs `best` (two or more) at its end:
/// the best commit's group (its record is its runs after the screen).
pub(super) fn is_best_group(g: &[f64], best: &[f64]) -> bool {
    best.len() >= 2 && g.ends_with(best)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_broken_tries_are_both_left_out_and_the_best_never_is() {
        let quiet: Vec<Vec<f64>> = (0..30)
            .map(|i| {
                vec![
                    1.0 + 0.01 * f64::from(i % 3),
                    1.02 - 0.01 * f64::from(i % 2),
                ]
            })
            .collect();
        let (a, b): (&[f64], &[f64]) = (&[1.0, 3.0], &[1.0, 3.2]);
        let mut groups: Vec<&[f64]> = quiet.iter().map(Vec::as_slice).collect();
        groups.extend([a, b]);
        let kept = robust_groups(&groups, |_| false);
        assert_eq!(kept.len(), 30);
        // Protected (the best's runs): kept, however it spreads.
        let kept = robust_groups(&groups, |g| std::ptr::eq(g, a));
        assert_eq!(kept.len(), 31);
        assert!(kept.iter().any(|g| std::ptr::eq(*g, a)));
        // Against a pool without spread, nothing is judged.
        let flat: [&[f64]; 3] = [&[1.0, 1.0], &[2.0, 2.0], &[1.0, 5.0]];
        assert_eq!(robust_groups(&flat, |_| false).len(), 3);
    }
}
