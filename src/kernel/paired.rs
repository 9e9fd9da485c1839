//! Paired seeds (`[objective] seeds = "paired"`): every run of a try is
//! handed a seed, a candidate's runs the seeds of the best's runs (its
//! recorded runs first, in an order of the try's own, [`try_order`], then
//! the screening run its record leaves out), so that the two share data
//! order and initialisation (common random numbers). Their difference then carries less noise than either
//! value, by a factor the data tells: with the run noise σ² and the
//! variance s² of the differences at the same seed, the pairing's
//! correlation is ρ = 1 − s² / 2σ².
//!
//! A step decides paired only when the pairing is *established*: the
//! variance of the mean paired difference is smaller than that of the
//! unpaired comparison (the candidate's runs against the mean of the
//! best's recorded runs) at the objective's confidence, by an F bound on
//! s² / 2σ² ([`established`]). At ρ ≈ 0 that fires at the test's error
//! rate, not at every chance correlation of a few pairs.
//!
//! The `confirm` rule asks here at three points:
//! - [`stage`]: the screen and the futility bound compare the mean paired
//!   difference with the noise of one difference, pooled over the
//!   segment's earlier tries and this one's pairs, when established;
//! - [`lean`]: before any noise of a difference is measured (the
//!   segment's first paired tries), the screen asks only that the first
//!   run be better than the best's at the same seed;
//! - [`keep_test`]: the keep test is a one-sided paired Student-t test on
//!   the candidate's differences, at the noise of its own differences or
//!   of those pooled with the segment's earlier tries, whichever is larger
//!   (so a change that keeps less of the pairing than most is tested at
//!   its own noise); used from [`MIN_PAIRS`] pairs on, when established.
//!   Otherwise the rule decides unpaired, as without seeds.
//!
//! Once the segment's differences measure their noise on
//! [`SETTLED_DF`] degrees of freedom and the pairing is established,
//! two confirmation runs are enough ([`settled`]).
//!
//! The constants were chosen with `examples/ratchet_sim` (its paired
//! section). Pure: seeds and samples in, numbers out.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use super::ratchet_noise::{mean, pooled_with, t_quantile};

mod moderated;

/// Pairs a keep test needs before it decides paired: with fewer, the
/// differences' own variance is too loose a measure (the Student-t
/// quantile on 1 df is wide) and the rule decides unpaired. Tuned by
/// `examples/ratchet_sim`.
pub const MIN_PAIRS: usize = 3;

/// Degrees of freedom of the noise of a difference a paired look needs.
pub const MIN_VIEW_DF: f64 = 2.0;

/// Degrees of freedom of the segment's paired differences from which
/// their noise counts as measured: an established pairing then needs two
/// confirmation runs. Tuned by `examples/ratchet_sim`.
pub const SETTLED_DF: f64 = 6.0;

/// Degrees of freedom of the segment's differences past which a pairing
/// that its estimate favours but its bound has not shown worth a try's
/// screen is no longer measured by it ([`worth_measuring`]); one shown
/// worth the screen's pairs always is.
pub const PLAUSIBLE_DF: f64 = 30.0;

/// Seeds stay below 2³¹: every framework's seed (a C `int`, numpy's
/// `RandomState`, scikit-learn's `random_state`) takes them.
const SEED_MASK: u64 = 0x7fff_ffff;

/// The seeds of a decision's samples, and the paired differences of the
/// segment's earlier tries. [`Seeds::NONE`]: no seeds, unpaired.
#[derive(Debug, Clone, Copy, Default)]
pub struct Seeds<'a> {
    /// The best's runs as the candidate's runs pair with them (with
    /// slots, each moved onto the candidate's slot): its recorded runs,
    /// then the runs its record leaves out (a kept commit's screening
    /// run), in the order their seeds are handed out.
    pub best: &'a [f64],
    /// The seed of each of `best`.
    pub best_seeds: &'a [Option<u64>],
    /// The seed of each of the candidate's samples.
    pub candidate: &'a [Option<u64>],
    /// The paired differences (candidate − best at the same seed) of each
    /// earlier try of the segment with two pairs or more.
    pub history: &'a [&'a [f64]],
}

impl Seeds<'_> {
    /// No seeds: every decision unpaired.
    pub const NONE: Seeds<'static> = Seeds {
        best: &[],
        best_seeds: &[],
        candidate: &[],
        history: &[],
    };
}

/// How a decision was paired: over how many seeds, and the correlation it
/// estimated. Journaled with the try.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    pub pairs: usize,
    pub rho: f64,
}

/// The `k`-th seed (from 0) of the segment `segment`'s fixed sequence.
pub fn sequence(segment: &str, k: usize) -> u64 {
    let digest = Sha256::digest(format!("arx-seed/{segment}/{k}").as_bytes());
    let mut word = [0u8; 8];
    word.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(word) & SEED_MASK
}

/// The seed of the next run of a try: the seed of the best's run of the
/// same rank (`best`, the seeds of the best's runs in the order the try
/// takes them, [`try_order`]; `used`, this try's runs so far); beyond the
/// best's runs, the first seed of the segment's sequence this try has not
/// used yet. A baseline passes no
/// `best`: it runs the sequence itself.
pub fn next_seed(segment: &str, best: &[Option<u64>], used: &[u64]) -> u64 {
    if let Some(Some(s)) = best.get(used.len()) {
        if !used.contains(s) {
            return *s;
        }
    }
    (0..)
        .map(|k| sequence(segment, k))
        .find(|s| !used.contains(s))
        .expect("the sequence has seeds")
}

/// The order in which a try takes the best's seeds (`best`, as
/// [`Seeds::best`] has them): the seeds of its `recorded` runs shuffled
/// by a permutation drawn from the try's key (`key`: `arx try` gives the
/// segment, the best's commit and the tries before it in the segment),
/// then the rest (the runs its record leaves out) as they were.
///
/// Every try of a segment pairs with the same few runs of the best. Were
/// each handed them in the same order, a try's first looks would always
/// see the same seeds: on a real model the gains' differences at each
/// seed move together (a correlation of 0.79–0.83 between edits), so the
/// seeds that make one gain look bad at the screen made every gain of the
/// segment look bad there, and one unlucky best run at the first seed,
/// against the best's mean, moved every try's first unpaired look the
/// same way. In an order of its own, each try's early looks see other
/// seeds, and their luck is spread over the segment's tries rather than
/// shared by all. The pairing stays whole (each candidate run pairs with
/// the best's run at the same seed) and costs no run; new seeds would
/// cost a run of the best for each. The order depends on the key alone,
/// never on a run's value, so it cannot bias a decision, and the same
/// journal gives the same order (lanes trying at once at the same place
/// share one).
pub fn try_order(best: &[Option<u64>], recorded: usize, key: &str) -> Vec<Option<u64>> {
    let mut out = best.to_vec();
    let n = recorded.min(out.len());
    for i in (1..n).rev() {
        let digest = Sha256::digest(format!("arx-seed-order/{key}/{i}").as_bytes());
        let mut word = [0u8; 8];
        word.copy_from_slice(&digest[..8]);
        let j = (u64::from_le_bytes(word) % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// The differences candidate − best of the runs with the same seed, in
/// the candidate's order (each of the best's runs pairs once).
pub fn differences(
    best: &[f64],
    best_seeds: &[Option<u64>],
    candidate: &[f64],
    candidate_seeds: &[Option<u64>],
) -> Vec<f64> {
    matched(best, best_seeds, candidate, candidate_seeds)
        .into_iter()
        .map(|(c, b)| c - b)
        .collect()
}

/// The pairs (candidate's run, best's run) of the same seed, in the
/// candidate's order (each of the best's runs pairs once).
pub fn matched(
    best: &[f64],
    best_seeds: &[Option<u64>],
    candidate: &[f64],
    candidate_seeds: &[Option<u64>],
) -> Vec<(f64, f64)> {
    let mut taken = vec![false; best.len()];
    let mut out = Vec::new();
    for (c, seed) in candidate.iter().zip(candidate_seeds) {
        let Some(seed) = seed else { continue };
        let hit = (0..best.len().min(best_seeds.len()))
            .find(|&i| !taken[i] && best_seeds[i] == Some(*seed));
        if let Some(i) = hit {
            taken[i] = true;
            out.push((*c, best[i]));
        }
    }
    out
}

/// A try's own ρ: the correlation of its runs with the best's runs at
/// the same seeds, from [`MIN_PAIRS`] pairs on (`None` with fewer, or
/// when either side does not vary).
pub fn own_rho(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.len() < MIN_PAIRS {
        return None;
    }
    let n = pairs.len() as f64;
    let (mc, mb) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut scc, mut sbb, mut scb) = (0.0, 0.0, 0.0);
    for (c, b) in pairs {
        scc += (c - mc) * (c - mc);
        sbb += (b - mb) * (b - mb);
        scb += (c - mc) * (b - mb);
    }
    let r = scb / (scc * sbb).sqrt();
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// The pairing's correlation from the variance of one difference and the
/// run noise σ: ρ = 1 − s² / 2σ² (`None` without run noise).
pub fn rho(diff_sd: f64, sigma: f64) -> Option<f64> {
    (sigma > 0.0 && sigma.is_finite()).then(|| 1.0 - diff_sd * diff_sd / (2.0 * sigma * sigma))
}

/// What a paired step weighs the pairing against: the direction, the
/// pooled run noise, the unpaired comparison and the confidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// +1 when higher is better, −1 when lower is.
    pub sign: f64,
    /// The pooled run-to-run noise σ…
    pub sigma: f64,
    /// …and its degrees of freedom.
    pub df: f64,
    /// The best's recorded runs, which the unpaired comparison averages.
    pub best_runs: usize,
    /// The objective's one-sided confidence.
    pub confidence: f64,
}

/// The pairing's ρ when it is established: the variance of the mean of
/// `pairs` differences (one difference's noise `sd` on `df` degrees of
/// freedom) is smaller than the unpaired comparison's, `pairs` runs
/// against the mean of the best's `best_runs`, at the confidence of
/// `scale`. With r = s² / 2σ², paired wins when 2r / pairs < 1 / pairs +
/// 1 / best_runs, that is ρ = 1 − r above (1 − pairs / best_runs) / 2;
/// the test takes r at its upper bound, r̂ over the lower quantile of
/// F(df, σ's df). `None`: not established (or no run noise).
pub fn established(sd: f64, df: f64, scale: &Scale, pairs: usize) -> Option<f64> {
    let rho = rho(sd, scale.sigma)?;
    let alpha = 1.0 - scale.confidence;
    let f = FisherSnedecor::new(df, scale.df).ok()?.inverse_cdf(alpha);
    if !(f > 0.0 && f.is_finite()) {
        return None;
    }
    let upper = (1.0 - rho) / f;
    (1.0 - upper > break_even(scale, pairs)).then_some(rho)
}

/// The ρ above which `pairs` paired differences measure a change more
/// closely than `pairs` runs against the mean of the best's runs.
fn break_even(scale: &Scale, pairs: usize) -> f64 {
    if scale.best_runs == 0 {
        0.0
    } else {
        (0.5 * (1.0 - pairs as f64 / scale.best_runs as f64)).max(0.0)
    }
}

/// A paired step's numbers: the mean paired difference (positive =
/// better), the noise of one difference, the pairs and the correlation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedView {
    pub d: f64,
    pub sd: f64,
    pub df: f64,
    pub paired: Paired,
}

impl PairedView {
    /// "paired over 3 seeds, ρ 0.82".
    pub fn note(&self) -> String {
        note(&self.paired)
    }
}

/// "paired over 3 seeds, ρ 0.82".
pub fn note(p: &Paired) -> String {
    format!(
        "paired over {} seed{}, \u{3c1} {:.2}",
        p.pairs,
        if p.pairs == 1 { "" } else { "s" },
        p.rho
    )
}

/// "paired over 3 seeds, ρ 0.82" with a try's own ρ, "ρ –" without one
/// (fewer than [`MIN_PAIRS`] pairs).
pub fn told(pairs: usize, rho: Option<f64>) -> String {
    format!(
        "paired over {} seed{}, \u{3c1} {}",
        pairs,
        if pairs == 1 { "" } else { "s" },
        rho.map_or("\u{2013}".to_string(), |r| format!("{r:.2}"))
    )
}

/// The differences of the decision's samples, signed so that positive is
/// better (`sign`: +1 when higher is better).
fn signed(seeds: &Seeds<'_>, candidate: &[f64], sign: f64) -> Vec<f64> {
    differences(seeds.best, seeds.best_seeds, candidate, seeds.candidate)
        .into_iter()
        .map(|d| sign * d)
        .collect()
}

/// The screen's and the futility bound's paired view: the mean difference
/// over the pairs so far, against the noise of one difference pooled over
/// the segment's earlier tries and this one; `None` (unpaired) without a
/// pair, without that noise, or when the pairing is not [`established`].
pub fn stage(seeds: &Seeds<'_>, candidate: &[f64], scale: &Scale) -> Option<PairedView> {
    let diffs = signed(seeds, candidate, scale.sign);
    let d = mean(&diffs)?;
    let (sd, df) = pooled_with(seeds.history, &diffs)?;
    let rho = established(sd, df, scale, diffs.len())?;
    Some(PairedView {
        d,
        sd,
        df,
        paired: Paired {
            pairs: diffs.len(),
            rho,
        },
    })
}

/// The mean paired difference (positive = better) when there are pairs
/// but no noise of a difference measured yet (no earlier try of the
/// segment with two pairs, and one pair here): the screen then asks only
/// that the candidate be better at the same seeds, and a second run
/// measures that noise.
pub fn lean(seeds: &Seeds<'_>, candidate: &[f64], sign: f64) -> Option<f64> {
    let diffs = signed(seeds, candidate, sign);
    if pooled_with(seeds.history, &diffs).is_some() {
        return None;
    }
    mean(&diffs)
}

/// The noise of a difference is well measured by the segment's earlier
/// tries ([`SETTLED_DF`] degrees of freedom or more) and the pairing is
/// established on it (for as many pairs as the best has recorded runs):
/// two confirmation runs are enough.
pub fn settled(seeds: &Seeds<'_>, scale: &Scale) -> bool {
    !seeds.best_seeds.is_empty()
        && pooled_with(seeds.history, &[]).is_some_and(|(sd, df)| {
            df >= SETTLED_DF && established(sd, df, scale, scale.best_runs).is_some()
        })
}

/// Degrees of freedom of the segment's earlier differences from which
/// they judge whether the pairing is established for a try ([`view`]):
/// as many as a paired look needs. With fewer (a segment's first paired
/// try), only the try's own pairs could judge it.
pub const JUDGED_DF: f64 = MIN_VIEW_DF;

/// The one-sided level of the F test that says a try's own differences
/// are noisier than the segment's earlier ones ([`view`]), a preliminary
/// test before pooling them. Taking the larger of the own and the pooled
/// noise always is about this test at level 0.5: a try like the others
/// is then tested at its own noise, on its few degrees of freedom, half
/// the time, and a null change at ρ 0.5 was kept 2.3% of the time at
/// confidence 0.95 on a segment's second decision. At 0.25 (the level
/// long advised for a preliminary test), a try whose differences are 2.5
/// to 6 times noisier than the segment's was kept 1.15 × the rate asked;
/// at 0.4, 3.0% and 0.99–1.03 ×. Measured with the kernel's tests.
pub const OWN_NOISE_LEVEL: f64 = 0.4;

/// A paired look's view: the mean difference at the same seeds against
/// the noise of one difference, pooled over the segment's earlier tries
/// and this one's pairs — or, from [`MIN_PAIRS`] pairs on, the
/// candidate's own differences when an F test at [`OWN_NOISE_LEVEL`]
/// shows them noisier than the earlier tries' (a change that keeps less
/// of the pairing than most is tested at its own noise); otherwise, when
/// the earlier tries' own spreads differ beyond chance, the try's own
/// noise moderated by theirs ([`moderated`]: the smaller a try's own
/// spread, the smaller its noise, on the degrees of freedom that model
/// gives). `None`
/// (unpaired) without a pair, without that noise, or when the pairing is
/// not [`established`] on the pooled noise: whether pairing helps is the
/// segment's question, answered on all its pairs; a paired test on the
/// candidate's own differences is valid whatever the pairing, and only
/// its standard error takes their noise (judging the pairing on a
/// candidate's two degrees of freedom would switch a try to unpaired
/// half-way through, and lose a gain clear at the same seed).
///
/// While the earlier differences have fewer than [`JUDGED_DF`] degrees
/// of freedom (a segment's first paired try), the look is paired without
/// that test: the try's own pairs are all that could judge the pairing,
/// and the paired test uses their spread. Chosen on it, the route picks
/// the paired test exactly when the pairs happen to spread little, when
/// its t is large: at ρ 0 such tries were kept 41% of the time at
/// confidence 0.95, and the first decision 1.2–1.3 × the rate asked. A
/// paired t test on the try's own differences is exact whatever ρ is, so
/// a first try is tested as its seeds were handed out, paired; ρ is then
/// the estimate, not a bound.
pub fn view(seeds: &Seeds<'_>, candidate: &[f64], scale: &Scale) -> Option<PairedView> {
    let diffs = signed(seeds, candidate, scale.sign);
    let d = mean(&diffs)?;
    let pooled = pooled_with(seeds.history, &diffs)?;
    // One degree of freedom is a coin toss of a variance: a chance ρ
    // near 1 would decide on a noise far too small.
    if pooled.1 < MIN_VIEW_DF {
        return None;
    }
    let earlier = pooled_with(seeds.history, &[]).filter(|e| e.1 >= JUDGED_DF);
    let rho = match earlier {
        Some(_) => established(pooled.0, pooled.1, scale, diffs.len())?,
        None => rho(pooled.0, scale.sigma).map_or(0.0, |r| r.clamp(-1.0, 1.0)),
    };
    let own = (diffs.len() >= MIN_PAIRS)
        .then(|| pooled_with(&[], &diffs))
        .flatten();
    // The earlier tries' spread, as the try is measured against it: their
    // prior when they differ beyond chance, else their pool.
    let prior = earlier.and(moderated::prior(seeds.history));
    let (sd, df) = match (own, earlier, prior) {
        (Some(own), _, Some(prior)) if noisier(own, prior) => own,
        (Some(own), _, Some(prior)) => moderated::moderated(own, prior),
        (Some(own), Some(earlier), None) if noisier(own, earlier) => own,
        _ => pooled,
    };
    Some(PairedView {
        d,
        sd,
        df,
        paired: Paired {
            pairs: diffs.len(),
            rho,
        },
    })
}

/// A one-sided F test at [`OWN_NOISE_LEVEL`]: the noise `(sd, df)` of a
/// try's own differences is larger than that of the segment's earlier
/// ones.
fn noisier(own: (f64, f64), earlier: (f64, f64)) -> bool {
    if earlier.0 <= 0.0 {
        return own.0 > 0.0;
    }
    let ratio = (own.0 * own.0) / (earlier.0 * earlier.0);
    FisherSnedecor::new(own.1, earlier.1)
        .ok()
        .map(|f| f.inverse_cdf(1.0 - OWN_NOISE_LEVEL))
        .is_some_and(|crit| crit.is_finite() && ratio > crit)
}

/// The quantile of F at which a look judged unpaired under paired seeds
/// reads ρ from the segment's earlier differences ([`shared`]):
/// ρ = 1 − r̂ / F, at F's median about the estimate, shrunk as the
/// differences have fewer degrees of freedom. A look judged unpaired took
/// the candidate's runs and the best's as independent, though the runs
/// at the same seed share that seed's effect: its standard error
/// overstated the noise of the change, and a null second try at ρ 0.5
/// was kept 0.47 × the rate asked through the CLI (0.53 × in the
/// simulation). Counted at the median, the simulation reads 0.74 × there
/// and every calibration cell stays within its bounds. At 0.7 (ρ read
/// above its estimate) it read 0.92 ×, but a try after a kept gain at
/// ρ 0 was kept 1.27 × the rate asked: the kept try's differences, which
/// were chosen for being clear, spread less than a difference does, and
/// their ρ reads high. Measured with `examples/ratchet_sim`.
pub const SHARED_RHO_LEVEL: f64 = 0.5;

/// The covariance of the candidate's mean and the best's, as a share of
/// σ_c σ_b, when their runs share seeds: each of the `m` candidate runs
/// at a seed of one of the best's recorded runs (the first
/// `scale.best_runs` of [`Seeds::best`]) carries ρ of it, so
/// Cov = m ρ σ_c σ_b / (k n_b) over `k` candidate runs. ρ is the
/// segment's earlier differences' estimate at [`SHARED_RHO_LEVEL`],
/// never below 0 (a negative one would only widen the error). 0 without
/// seeds, shared seeds or earlier differences.
pub fn shared(seeds: &Seeds<'_>, candidate: &[f64], scale: &Scale) -> f64 {
    let nb = scale.best_runs.min(seeds.best_seeds.len());
    let k = candidate.len().min(seeds.candidate.len());
    if k == 0 || nb == 0 {
        return 0.0;
    }
    let mut taken = vec![false; nb];
    let mut m = 0usize;
    for seed in seeds.candidate[..k].iter().flatten() {
        if let Some(i) = (0..nb).find(|&i| !taken[i] && seeds.best_seeds[i] == Some(*seed)) {
            taken[i] = true;
            m += 1;
        }
    }
    if m == 0 {
        return 0.0;
    }
    // A try whose own differences an F test shows noisier than the
    // earlier tries' keeps less of the pairing than they do: its runs
    // share less with the best's than their ρ says, so none is counted.
    let diffs = signed(seeds, candidate, scale.sign);
    let earlier = pooled_with(seeds.history, &[]);
    let own = (diffs.len() >= MIN_PAIRS)
        .then(|| pooled_with(&[], &diffs))
        .flatten();
    if let (Some(own), Some(earlier)) = (own, earlier) {
        if noisier(own, earlier) {
            return 0.0;
        }
    }
    m as f64 * shared_rho(seeds.history, scale) / (k * nb) as f64
}

/// ρ from the segment's earlier differences at [`SHARED_RHO_LEVEL`]:
/// 1 − r̂ / F, with r̂ = s² / 2σ² and F that level's quantile of
/// F(df, σ's df); in [0, 1), 0 without them.
fn shared_rho(history: &[&[f64]], scale: &Scale) -> f64 {
    // As a paired look, no ρ from one degree of freedom.
    let Some((sd, df)) = pooled_with(history, &[]).filter(|e| e.1 >= JUDGED_DF) else {
        return 0.0;
    };
    let Some(r) = rho(sd, scale.sigma) else {
        return 0.0;
    };
    let f = FisherSnedecor::new(df, scale.df)
        .ok()
        .map(|f| f.inverse_cdf(SHARED_RHO_LEVEL))
        .filter(|f| *f > 0.0 && f.is_finite());
    match f {
        Some(f) => (1.0 - (1.0 - r) / f).clamp(0.0, 0.99),
        None => 0.0,
    }
}

/// The candidate runs under paired seeds, the pairing is not established
/// on the segment's earlier tries, and their differences measure its noise
/// on fewer than [`SETTLED_DF`] degrees of freedom: the try should spend
/// more paired runs (the `sequential` rule screens on four),
/// whose pairs measure that noise, rather than end unpaired after one
/// (which would leave the pairing forever unmeasured).
pub fn must_measure(seeds: &Seeds<'_>, candidate: &[f64], scale: &Scale) -> bool {
    if !paired_run(seeds, candidate) {
        return false;
    }
    match pooled_with(seeds.history, &[]) {
        None => true,
        Some((sd, df)) => df < SETTLED_DF && established(sd, df, scale, 1).is_none(),
    }
}

/// Whether a try should spend `pairs` paired runs (the screen) rather
/// than end unpaired after one, while the segment's differences cannot
/// show the pairing worth one pair:
/// - their bound shows it worth `pairs` pairs (ρ above that break-even at
///   the objective's confidence): always. One run at the best's first
///   seed, against the best's mean, carries ρ times that run's deviation
///   from the mean into every try of the segment, while the screen's
///   pairs are shown to measure a change more closely;
/// - their estimate (not yet their bound) puts ρ above that break-even,
///   on fewer than [`PLAUSIBLE_DF`] degrees of freedom: until the bound
///   shows it, or until [`PLAUSIBLE_DF`] of them leave it unshown (then
///   it is not worth the runs).
///
/// Ending after one run adds no difference with a spread, so the pairing
/// would stay unshown for the rest of the segment and every gain clear
/// only at the same seed would be lost at the screen.
pub fn worth_measuring(seeds: &Seeds<'_>, candidate: &[f64], scale: &Scale, pairs: usize) -> bool {
    if !paired_run(seeds, candidate) {
        return false;
    }
    pooled_with(seeds.history, &[]).is_some_and(|(sd, df)| {
        let plausible =
            df < PLAUSIBLE_DF && rho(sd, scale.sigma).is_some_and(|r| r > break_even(scale, pairs));
        established(sd, df, scale, 1).is_none()
            && (plausible || established(sd, df, scale, pairs).is_some())
    })
}

/// The candidate's last run pairs with a run of the best, which has two
/// or more seeded runs.
fn paired_run(seeds: &Seeds<'_>, candidate: &[f64]) -> bool {
    let paired = seeds
        .candidate
        .get(candidate.len().saturating_sub(1))
        .copied()
        .flatten()
        .is_some_and(|s| seeds.best_seeds.contains(&Some(s)));
    paired && seeds.best_seeds.len() >= 2
}

/// The keep test's paired view and its one-sided bounds at `confidence`:
/// a Student-t interval on the candidate's own differences, from
/// [`MIN_PAIRS`] pairs on, when the pairing is [`established`].
pub fn keep_test(
    seeds: &Seeds<'_>,
    candidate: &[f64],
    scale: &Scale,
) -> Option<(PairedView, f64, f64)> {
    let diffs = signed(seeds, candidate, scale.sign);
    if diffs.len() < MIN_PAIRS {
        return None;
    }
    let d = mean(&diffs)?;
    // The candidate's own differences, or those pooled with the segment's
    // earlier tries (more degrees of freedom) when these are not less
    // noisy than its own: a change that keeps less of the pairing than
    // most is tested at its own noise.
    let own = pooled_with(&[], &diffs)?;
    let (sd, df) = match pooled_with(seeds.history, &diffs) {
        Some(all) if all.0 >= own.0 => all,
        _ => own,
    };
    let rho = established(sd, df, scale, diffs.len())?;
    let half = t_quantile(scale.confidence, df) * sd / (diffs.len() as f64).sqrt();
    let view = PairedView {
        d,
        sd,
        df,
        paired: Paired {
            pairs: diffs.len(),
            rho,
        },
    };
    Some((view, d - half, d + half))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_fixed_per_segment_and_fits_an_int() {
        assert_eq!(sequence("a", 0), sequence("a", 0));
        assert_ne!(sequence("a", 0), sequence("a", 1));
        assert_ne!(sequence("a", 0), sequence("b", 0));
        assert!((0..100).all(|k| sequence("a", k) < 1 << 31));
    }

    #[test]
    fn a_run_takes_the_best_runs_seed_of_its_rank_then_the_sequence() {
        let s = |k| sequence("x", k);
        // A baseline runs the sequence.
        assert_eq!(next_seed("x", &[], &[]), s(0));
        assert_eq!(next_seed("x", &[], &[s(0)]), s(1));
        // A candidate reuses the best's seeds in order…
        let best = [Some(s(1)), Some(s(2))];
        assert_eq!(next_seed("x", &best, &[]), s(1));
        assert_eq!(next_seed("x", &best, &[s(1)]), s(2));
        // …then the first seed of the sequence it has not used.
        assert_eq!(next_seed("x", &best, &[s(1), s(2)]), s(0));
        assert_eq!(next_seed("x", &best, &[s(1), s(2), s(0)]), s(3));
        // A best run without a seed: the sequence.
        assert_eq!(next_seed("x", &[None], &[]), s(0));
    }

    #[test]
    fn a_try_takes_the_bests_recorded_seeds_in_an_order_drawn_from_its_id() {
        // Five recorded runs and a screening run the record leaves out.
        let best: Vec<Option<u64>> = (10..16).map(Some).collect();
        let mut orders = std::collections::HashSet::new();
        let mut first = [0usize; 5];
        for t in 0..3000 {
            let key = format!("0190-try-{t}");
            let order = try_order(&best, 5, &key);
            assert_eq!(order, try_order(&best, 5, &key), "fixed by the id");
            assert_eq!(order[5], Some(15), "the screened run stays last");
            let mut recorded = order[..5].to_vec();
            recorded.sort_unstable();
            assert_eq!(recorded, best[..5], "each recorded seed once");
            first[(order[0].unwrap() - 10) as usize] += 1;
            // The try's runs take the seeds in that order.
            let mut used = Vec::new();
            for seed in order.iter().flatten() {
                assert_eq!(next_seed("x", &order, &used), *seed);
                used.push(*seed);
            }
            orders.insert(order);
        }
        assert_eq!(orders.len(), 120, "every order of five");
        assert!(
            first.iter().all(|&c| (500..700).contains(&c)),
            "each seed first about as often: {first:?}"
        );
        // No seeds, or fewer recorded than asked: nothing to shuffle past.
        assert!(try_order(&[], 5, "a").is_empty());
        assert_eq!(try_order(&[Some(1)], 5, "a"), [Some(1)]);
    }

    #[test]
    fn a_look_judged_unpaired_counts_the_seeds_it_shares_with_the_best() {
        let scale = Scale {
            sign: 1.0,
            sigma: 1.0,
            df: 12.0,
            best_runs: 5,
            confidence: 0.95,
        };
        let best = [0.0; 6];
        let best_seeds: Vec<Option<u64>> = (0..6).map(Some).collect();
        // Earlier differences with a variance of 1 on 19 df: ρ about 0.5.
        let earlier: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let history = [earlier.as_slice()];
        let at = |candidate: &[Option<u64>], history: &[&[f64]]| {
            let seeds = Seeds {
                best: &best,
                best_seeds: &best_seeds,
                candidate,
                history,
            };
            shared(&seeds, &vec![0.0; candidate.len()], &scale)
        };
        // Two runs at the best's recorded seeds, one at a new seed: m 2
        // of k 3 against n_b 5, ρ estimated 0.47, read at F's median on
        // (19, 12) df.
        let c = [Some(3), Some(1), Some(40)];
        let share = at(&c, &history);
        let f = FisherSnedecor::new(19.0, 12.0)
            .unwrap()
            .inverse_cdf(SHARED_RHO_LEVEL);
        let expected = 1.0 - (20.0 / 19.0 / 2.0) / f;
        let rho = share * 15.0 / 2.0;
        assert!((rho - expected).abs() < 1e-9 && rho > 0.4, "ρ {rho}");
        // The screened run (seed 5) is not among the best's recorded runs.
        assert_eq!(at(&[Some(5)], &history), 0.0);
        // No earlier differences, or no seeds: nothing counted.
        assert_eq!(at(&c, &[]), 0.0);
        assert_eq!(at(&[None, None], &history), 0.0);
        // Differences noisier than two independent runs: ρ not below 0.
        let loose: Vec<f64> = earlier.iter().map(|d| 3.0 * d).collect();
        assert_eq!(at(&c, &[loose.as_slice()]), 0.0);
    }

    #[test]
    fn differences_pair_runs_of_the_same_seed_once() {
        let d = differences(
            &[1.0, 2.0, 3.0],
            &[Some(7), Some(8), Some(9)],
            &[2.5, 1.5, 0.0, 4.0],
            &[Some(8), Some(7), None, Some(5)],
        );
        assert_eq!(d, vec![0.5, 0.5]);
        // Seeds shorter than the samples: the rest has none.
        assert!(differences(&[1.0], &[], &[1.0], &[Some(1)]).is_empty());
        // A seed twice on the candidate's side pairs once.
        assert_eq!(
            differences(&[1.0], &[Some(1)], &[2.0, 3.0], &[Some(1), Some(1)]),
            vec![1.0]
        );
    }

    #[test]
    fn rho_follows_the_variance_of_the_differences() {
        // Independent runs: a difference has twice the run variance.
        assert!((rho(2f64.sqrt(), 1.0).unwrap()).abs() < 1e-12);
        assert!((rho(0.2, 1.0).unwrap() - 0.98).abs() < 1e-12);
        assert_eq!(rho(1.0, 0.0), None);
    }

    /// A scale: lower is better, run noise `sigma` on 30 df, a best of 4
    /// recorded runs, 85%.
    fn scale(sigma: f64) -> Scale {
        Scale {
            sign: -1.0,
            sigma,
            df: 30.0,
            best_runs: 4,
            confidence: 0.85,
        }
    }

    #[test]
    fn a_pairing_is_established_only_when_it_beats_the_unpaired_comparison() {
        // ρ 0.9 measured on 20 df: established, for one pair against 4
        // runs of the best (break-even ρ 0.375) as for four.
        let sd = (2.0f64 * 0.1).sqrt();
        let r = established(sd, 20.0, &scale(1.0), 1).unwrap();
        assert!((r - 0.9).abs() < 1e-12);
        assert!(established(sd, 20.0, &scale(1.0), 4).is_some());
        // The same ρ on 1 df: not yet (its upper bound on s² / 2σ² is
        // loose).
        assert!(established(sd, 1.0, &scale(1.0), 4).is_none());
        // ρ 0.5 on 20 df: worth it for as many pairs as the best has runs
        // (break-even 0), not for one pair against its 4 runs
        // (break-even 0.375).
        let half = 1.0;
        assert!(established(half, 20.0, &scale(1.0), 4).is_some());
        assert!(established(half, 20.0, &scale(1.0), 1).is_none());
        // A chance ρ of 0.3 on 2 df (what a threshold on the estimate
        // took for pairing): not established.
        let chance = (2.0f64 * 0.7).sqrt();
        assert!(established(chance, 2.0, &scale(1.0), 4).is_none());
        // No run noise: nothing to weigh against.
        assert!(established(sd, 20.0, &scale(0.0), 4).is_none());
    }

    #[test]
    fn the_keep_test_needs_enough_pairs_and_a_positive_rho() {
        let seeds: Vec<Option<u64>> = (0..4).map(Some).collect();
        let best = [10.0, 12.0, 9.0, 11.0];
        // Lower is better (sign −1): the candidate is 0.1 lower at each seed,
        // give or take 0.01.
        let cand = [9.9, 11.91, 8.89, 10.9];
        let ev = Seeds {
            best: &best,
            best_seeds: &seeds,
            candidate: &seeds,
            history: &[],
        };
        let (view, lower, upper) = keep_test(&ev, &cand, &scale(1.2)).unwrap();
        assert_eq!(view.paired.pairs, 4);
        assert!((view.d - 0.1).abs() < 0.01, "{view:?}");
        assert!(lower > 0.09 && upper < 0.11, "{lower} {upper}");
        assert!(view.paired.rho > 0.99);
        assert_eq!(view.note(), "paired over 4 seeds, \u{3c1} 1.00");
        // Two pairs: too few.
        assert!(keep_test(&ev, &cand[..2], &scale(1.2)).is_none());
        // Differences as noisy as unpaired runs: ρ ≤ 0, unpaired.
        let wild = [12.0, 10.0, 11.0, 9.0];
        assert!(keep_test(&ev, &wild, &scale(1.0)).is_none());
        // Without seeds: never paired.
        assert!(keep_test(&Seeds::NONE, &cand, &scale(1.2)).is_none());
    }

    #[test]
    fn a_well_measured_pairing_settles() {
        let seeds = [Some(1)];
        let settled_df = SETTLED_DF as usize;
        let group: Vec<f64> = (0..=settled_df)
            .map(|i| if i % 2 == 0 { 0.1 } else { -0.1 })
            .collect();
        let history: [&[f64]; 1] = [&group];
        let ev = Seeds {
            best: &[1.0],
            best_seeds: &seeds,
            candidate: &seeds,
            history: &history,
        };
        assert!(settled(&ev, &scale(1.0)));
        // One degree of freedom fewer: not yet.
        let short: [&[f64]; 1] = [&group[1..]];
        assert!(!settled(
            &Seeds {
                history: &short,
                ..ev
            },
            &scale(1.0)
        ));
        // The pairing does not help (ρ about −1): not settled.
        assert!(!settled(&ev, &scale(0.07)));
        assert!(!settled(&Seeds::NONE, &scale(1.0)));
    }

    #[test]
    fn a_tries_own_differences_set_the_noise_only_when_shown_noisier() {
        let seeds: Vec<Option<u64>> = (1..=5).map(Some).collect();
        let history: [&[f64]; 2] = [
            &[0.1, -0.1, 0.1, -0.1, 0.0, 0.0],
            &[0.1, -0.1, 0.1, -0.1, 0.0, 0.0],
        ];
        let ev = Seeds {
            best: &[0.0; 5],
            best_seeds: &seeds,
            candidate: &seeds,
            history: &history,
        };
        let up = Scale {
            sign: 1.0,
            ..scale(1.0)
        };
        // Its own noise 0.09 on 4 df against the earlier 0.0894 on 10: no
        // F test shows that larger, so the pooled noise (0.0896 on 14 df)
        // is used, not the larger of the two.
        let v = view(&ev, &[0.09, -0.09, 0.09, -0.09, 0.0], &up).unwrap();
        assert!((v.sd - (0.1124f64 / 14.0).sqrt()).abs() < 1e-12, "{v:?}");
        assert_eq!(v.df, 14.0);
        // Five times the earlier noise: its own.
        let v = view(&ev, &[0.5, -0.5, 0.5, -0.5, 0.0], &up).unwrap();
        assert!((v.sd - 0.5).abs() < 1e-12 && v.df == 4.0, "{v:?}");
    }

    #[test]
    fn a_first_try_is_paired_on_its_own_pairs_and_a_later_one_when_established() {
        // Four pairs of noise r = s² / 2σ² = 0.15 at confidence 0.85,
        // the pairing well within its bound: paired, with or without
        // earlier differences.
        let seeds: Vec<Option<u64>> = (1..=4).map(Some).collect();
        let own = [0.1, -0.1, 0.1, -0.1];
        let earlier: [&[f64]; 1] = [&own];
        let ev = Seeds {
            best: &[0.0; 4],
            best_seeds: &seeds,
            candidate: &seeds,
            history: &earlier,
        };
        let up = Scale {
            sign: 1.0,
            ..scale(((0.04f64 / 3.0) / 0.3).sqrt())
        };
        assert!(view(&ev, &own, &up).is_some());
        let first = Seeds { history: &[], ..ev };
        assert!(view(&first, &own, &up).is_some());
        // r = 2 (ρ −1): earlier differences that show it judge the later
        // try unpaired. A first try has nothing else to judge its pairing
        // by than the pairs its paired test would use: its own pairs do
        // not choose the test, it is paired, ρ its estimate.
        let loose = Scale {
            sigma: ((0.04f64 / 3.0) / 4.0).sqrt(),
            ..up
        };
        assert!(view(&ev, &own, &loose).is_none());
        let v = view(&first, &own, &loose).expect("paired on its own pairs");
        assert!((v.paired.rho + 1.0).abs() < 1e-9, "{v:?}");
        assert!((v.sd - (0.04f64 / 3.0).sqrt()).abs() < 1e-12 && v.df == 3.0);
    }

    #[test]
    fn a_stage_pools_the_segments_earlier_differences() {
        let seeds = [Some(1), Some(2)];
        let history: [&[f64]; 1] = [&[0.1, -0.1, 0.0]];
        let ev = Seeds {
            best: &[5.0, 6.0],
            best_seeds: &seeds,
            candidate: &seeds[..1],
            history: &history,
        };
        // One pair: its own differences say nothing of the noise yet; the
        // earlier try's do (sd 0.1).
        let up = Scale {
            sign: 1.0,
            ..scale(1.0)
        };
        let v = stage(&ev, &[5.5], &up).unwrap();
        assert_eq!(v.paired.pairs, 1);
        assert!((v.d - 0.5).abs() < 1e-12 && (v.sd - 0.1).abs() < 1e-12);
        // No history and one pair: unpaired.
        let bare = Seeds { history: &[], ..ev };
        assert!(stage(&bare, &[5.5], &up).is_none());
        // …the screen then leans on the difference at the same seed.
        assert_eq!(lean(&bare, &[5.5], 1.0), Some(0.5));
        assert_eq!(lean(&bare, &[5.5], -1.0), Some(-0.5));
        assert_eq!(lean(&ev, &[5.5], 1.0), None);
        assert_eq!(lean(&Seeds::NONE, &[5.5], 1.0), None);
    }
    #[test]
    fn a_pairing_shown_worth_the_screen_is_measured_past_the_plausible_df() {
        // Ten earlier tries of five pairs: 40 degrees of freedom, each
        // group's differences spread so that one difference's noise is
        // `sd`.
        let groups = |sd: f64| -> Vec<Vec<f64>> {
            let c = sd * (0.4f64).sqrt();
            (0..10)
                .map(|_| [-2.0, -1.0, 0.0, 1.0, 2.0].map(|x| x * c).to_vec())
                .collect()
        };
        let s = Scale {
            sign: -1.0,
            sigma: 1.0,
            df: 40.0,
            best_runs: 5,
            confidence: 0.95,
        };
        let seeds: Vec<Option<u64>> = (1..=5).map(Some).collect();
        let best = [0.0; 5];
        let measured = |sd: f64| {
            let g = groups(sd);
            let history: Vec<&[f64]> = g.iter().map(|d| d.as_slice()).collect();
            let ev = Seeds {
                best: &best,
                best_seeds: &seeds,
                candidate: &seeds[..1],
                history: &history,
            };
            worth_measuring(&ev, &[0.0], &s, 4)
        };
        // ρ 0.5 on 40 df: shown worth four pairs against the best's five
        // runs, not worth one. Its screen is spent, past 30 df as before.
        assert!(established(1.0, 40.0, &s, 4).is_some());
        assert!(established(1.0, 40.0, &s, 1).is_none());
        assert!(measured(1.0));
        // ρ 0.3: above the break-even of four pairs (0.1) but not shown
        // above it: past 30 df the screen is no longer spent on it.
        let sd = (2.0f64 * 0.7).sqrt();
        assert!(established(sd, 40.0, &s, 4).is_none());
        assert!(!measured(sd));
        // ρ 0.95: shown worth one pair, the screen needs no more.
        assert!(!measured((2.0f64 * 0.05).sqrt()));
    }
}
