//! When the held-out check pairs: the spread of a paired difference over
//! the segment, whether the segment shows a seed effect, and whether the
//! pairs are the sharper comparison.

use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use super::{Gap, HeldRuns, Rule};
use crate::kernel::ratchet_noise::t_quantile;

/// The spread `(sd, df)` of one paired difference in a segment: the
/// held-out runs of every commit measured (`runs`, the candidate's
/// included) at the segment's seeds, fitted as commit + seed effects
/// (least squares on the table of commits by seeds); the residual spread
/// is the fresh part of a run's noise, σ_f, and a difference of two runs
/// at the same seed spreads √2 σ_f, with the fit's residual degrees of
/// freedom (runs − commits − seeds + 1). A comparison of two pairs is so
/// weighed with the whole segment's evidence, and the baseline's own
/// fresh noise, which every comparison with it shares, is counted once.
pub fn paired_noise(runs: &[HeldRuns<'_>]) -> Option<(f64, f64)> {
    // The cells (commit, seed index, value).
    let mut seeds: Vec<u64> = Vec::new();
    let mut cells: Vec<(usize, usize, f64)> = Vec::new();
    let mut commits = 0;
    for r in runs {
        let before = cells.len();
        for (v, s) in r.values.iter().zip(r.seeds) {
            let Some(s) = s else { continue };
            let j = seeds.iter().position(|x| x == s).unwrap_or_else(|| {
                seeds.push(*s);
                seeds.len() - 1
            });
            cells.push((commits, j, *v));
        }
        if cells.len() > before {
            commits += 1;
        }
    }
    let df = cells.len() as f64 - commits as f64 - seeds.len() as f64 + 1.0;
    if cells.is_empty() || df < 1.0 {
        return None;
    }
    // Alternating means converge to the additive least-squares fit.
    let (mut a, mut b) = (vec![0.0; commits], vec![0.0; seeds.len()]);
    for _ in 0..200 {
        let mut sum = vec![(0.0, 0.0); commits];
        for &(i, j, v) in &cells {
            sum[i].0 += v - b[j];
            sum[i].1 += 1.0;
        }
        a = sum.iter().map(|(s, n)| s / n).collect();
        let mut sum = vec![(0.0, 0.0); seeds.len()];
        for &(i, j, v) in &cells {
            sum[j].0 += v - a[i];
            sum[j].1 += 1.0;
        }
        b = sum.iter().map(|(s, n)| s / n).collect();
    }
    let ss: f64 = cells
        .iter()
        .map(|&(i, j, v)| (v - a[i] - b[j]).powi(2))
        .sum();
    Some(((2.0 * ss / df).sqrt(), df))
}

/// Do the segment's held-out runs show a seed effect, at the rule's
/// confidence? The F test of the seeds in the fit of commit + seed
/// effects ([`paired_noise`]) against the fit of commits alone (the
/// pooled spread of runs of the same commit): with no seed effect the
/// seeds explain no more of the spread than chance. `true` without a
/// fitted paired spread (nothing to test it with: the comparison's own
/// pairs decide, by [`pairing_helps`]).
pub fn seed_effect_shown(rule: &Rule) -> bool {
    let (Some((pooled, df_commits)), Some((paired, df_fit))) = (rule.pooled, rule.paired) else {
        return true;
    };
    let df_seeds = df_commits - df_fit;
    if df_seeds < 1.0 || df_fit < 1.0 {
        return true;
    }
    // A paired difference spreads √2 σ_f: the fit's residual sum of
    // squares is σ_f² × its df.
    let ss_fit = paired * paired / 2.0 * df_fit;
    let ss_commits = pooled * pooled * df_commits;
    if ss_fit <= 0.0 {
        return ss_commits > 0.0;
    }
    let f = (ss_commits - ss_fit).max(0.0) / df_seeds / (ss_fit / df_fit);
    FisherSnedecor::new(df_seeds, df_fit)
        .map(|d| f > d.inverse_cdf(rule.confidence))
        .unwrap_or(true)
}

/// Is the comparison at the same seeds (`paired`) worth its pairs against
/// the comparison of the means (`unpaired`, every run of the reference)?
/// Pairing removes the seed effect twice over, at the cost of the fresh
/// noise of both runs of each pair and of the reference's runs beyond the
/// pairs: with no seed effect (ρ 0) a paired difference spreads as much
/// as two unpaired runs, and the comparison of the means, which also uses
/// the reference's other runs, is the sharper. The one whose interval at
/// `confidence` is the narrower decides: its half-width
/// t(confidence, df) × se, with each standard error from the segment's
/// own spread (the fitted paired spread and the pooled run spread, never
/// the gap itself), so that the choice does not look at which way the
/// candidate went. The unpaired comparison without a noise estimate
/// never wins.
pub fn pairing_helps(paired: &Gap, unpaired: &Gap, confidence: f64) -> bool {
    let half = |g: &Gap| t_quantile(confidence, g.df) * g.se;
    if !(unpaired.se > 0.0 && unpaired.df > 0.0) {
        return true;
    }
    if !(paired.se > 0.0 && paired.df > 0.0) {
        return paired.se == 0.0 && paired.sd.is_some_and(|sd| sd == 0.0);
    }
    half(paired) <= half(unpaired)
}
