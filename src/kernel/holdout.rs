//! The held-out check at keep (`[objective.holdout]`): a second evaluation
//! run only when a candidate is about to be kept (and at the baseline).
//! Its values are the operator's: they go to a journal outside the
//! repository ([`Entry`], one JSON line each), and everything the try
//! tells says only passed or failed ([`Verdict`]).
//!
//! The rule ([`judge_keep`]) bounds the total, not the step: a candidate
//! is vetoed when it is worse than the segment's **baseline** beyond the
//! noise at the objective's confidence (so that small losses cannot pile
//! up keep after keep), or — when `holdout.margin` is set — worse than
//! the best by more than the margin beyond the noise. (One test by
//! default: the two together would veto up to twice 1 − confidence of the
//! candidates that change nothing held out.) Under paired seeds the held-out
//! runs take the same seeds as the runs they are compared with
//! (`ARX_SEED`, `{seed}`), and a comparison with at least two pairs uses
//! the paired differences' spread when the segment shows a seed effect
//! that makes the pairs the sharper comparison ([`seed_effect_shown`],
//! [`pairing_helps`]); otherwise the noise is the pooled
//! spread of the held-out runs repeated in the segment (the baseline's
//! `baseline_repeat` runs, and any candidate's `repeat` runs).

use serde::{Deserialize, Serialize};

use super::names::str_enum;
use super::ratchet_noise::{mean, pooled_with, t_quantile};
use super::stats::Direction;

mod pairing;
pub use pairing::{paired_noise, pairing_helps, seed_effect_shown};

/// Default held-out runs of the baseline: the reference every candidate
/// is compared with (`examples/holdout_sim`: 5 and 3 bound the harm of
/// 8 keeps each 0.5σ worse held out under paired seeds of ρ 0.9).
pub const DEFAULT_BASELINE_REPEAT: u32 = 5;
/// Default most held-out runs of a candidate (and of the baseline, which
/// grows to match): the sequential check's cap (`[objective.holdout]
/// max_repeat`). 25 a side bound the harm without pairing at a null veto
/// rate within (1 − confidence) + 5 points with room to spare in every
/// pairing setting (`examples/holdout_sim`: at 20, 8.3% unpaired and
/// 9.9% paired with no seed effect, the edge of the target).
pub const DEFAULT_MAX_REPEAT: u32 = 25;
/// How many held-out run sds (σ) worse than the baseline a kept commit
/// may be shown to be at most: the target for the harm a loop's
/// keeps may pile up on the held-out set.
pub const HARM_BOUND_SD: f64 = 1.0;
/// Default held-out runs of a candidate about to be kept: more than one,
/// so that the candidate's own runs show their spread (and, under paired
/// seeds, give paired differences).
pub const DEFAULT_REPEAT: u32 = 3;

/// The held-out check's settings, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Holdout {
    /// One shell command line when `shell`, else argv.
    pub command: Vec<String>,
    pub shell: bool,
    pub metric: String,
    /// The objective's direction unless given.
    pub direction: Direction,
    pub baseline_repeat: u32,
    pub repeat: u32,
    /// The most held-out runs of a candidate (and of the baseline) the
    /// sequential check takes before it decides.
    pub max_repeat: u32,
    /// How much worse than the best (in metric units) a candidate may be
    /// on the held-out metric, beyond the noise; `None`: compared with the
    /// baseline only.
    pub margin: Option<f64>,
}

str_enum! {
    /// What a held-out check came to: all the try tells of it.
    HoldoutVerdict, "held-out verdict" {
        /// Shown within the harm bound of the baseline, and not worse than
        /// the best beyond the margin.
        Passed => "passed",
        /// Worse than the baseline (or the best beyond the margin) beyond
        /// the noise, or not shown within the harm bound.
        Failed => "failed",
        /// The command failed (non-zero exit, timeout, could not start).
        Crashed => "crashed",
        /// The command ran but did not print the metric.
        Missing => "missing",
    }
}

impl HoldoutVerdict {
    pub fn passed(self) -> bool {
        self == HoldoutVerdict::Passed
    }

    /// Why a candidate was not kept, in words without values.
    pub fn why(self) -> &'static str {
        match self {
            HoldoutVerdict::Passed => "passed",
            HoldoutVerdict::Failed => "failed",
            HoldoutVerdict::Crashed => "failed: its command crashed",
            HoldoutVerdict::Missing => "failed: its command printed no metric",
        }
    }
}

/// One held-out measurement as the operator's journal holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub at: String,
    /// The state directory, resolved (one per repository: its lanes
    /// share it), which the entries of one loop are found by.
    pub state: String,
    pub segment: String,
    /// The try's run id (for the baseline: the baseline's).
    pub run_id: String,
    /// `baseline` or `candidate`.
    pub kind: String,
    /// The best's run the candidate was compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_run: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub metric: String,
    pub direction: Direction,
    pub values: Vec<f64>,
    /// The seed of each of `values` (paired seeds); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<Option<u64>>,
    /// The best's values it was compared with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best: Vec<f64>,
    /// The held-out noise (sd of one run) the comparison used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    pub verdict: HoldoutVerdict,
    /// What a failed candidate was worse than: `baseline` or `best`; or
    /// `bound`: not shown within the harm bound of the baseline by
    /// `max_repeat` runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worse_than: Option<String>,
    /// The best had no held-out value to compare with: passed as the
    /// first reference.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_reference: bool,
    pub exit_code: i64,
    #[serde(default)]
    pub stdout_tail: String,
    #[serde(default)]
    pub stderr_tail: String,
}

/// A set of held-out runs as a journal entry holds them: the values and,
/// under paired seeds, the seed of each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldRuns<'e> {
    pub values: &'e [f64],
    pub seeds: &'e [Option<u64>],
}

impl<'e> HeldRuns<'e> {
    pub fn of(e: &'e Entry) -> HeldRuns<'e> {
        HeldRuns {
            values: &e.values,
            seeds: &e.seeds,
        }
    }
}

/// Does `e` belong to the loop of state directory `state`, segment
/// `segment`, and hold values that passed?
fn passed_in(e: &Entry, state: &str, segment: &str) -> bool {
    e.state == state && e.segment == segment && e.verdict.passed() && !e.values.is_empty()
}

/// The held-out runs of the run `run_id` in segment `segment` of the
/// state directory `state` (the last such entry that passed, or a baseline's).
pub fn runs_of<'e>(
    entries: &'e [Entry],
    state: &str,
    segment: &str,
    run_id: &str,
) -> Option<HeldRuns<'e>> {
    entries
        .iter()
        .rev()
        .find(|e| passed_in(e, state, segment) && e.run_id == run_id)
        .map(HeldRuns::of)
}

/// Held-out runs gathered from more than one journal entry: the
/// baseline's first runs and those the sequential check added to them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gathered {
    pub run_id: String,
    pub values: Vec<f64>,
    pub seeds: Vec<Option<u64>>,
}

impl Gathered {
    pub fn runs(&self) -> HeldRuns<'_> {
        HeldRuns {
            values: &self.values,
            seeds: &self.seeds,
        }
    }

    fn of(e: &Entry) -> Gathered {
        Gathered {
            run_id: e.run_id.clone(),
            values: e.values.clone(),
            seeds: e.seeds.clone(),
        }
    }

    /// Add the runs of `e`, a later entry of the same baseline.
    fn extend(&mut self, e: &Entry) {
        // Without seeds, the seeds list stays empty (as an entry's is).
        if !e.seeds.is_empty() || !self.seeds.is_empty() {
            self.seeds.resize(self.values.len(), None);
            self.seeds.extend(e.seeds.iter().copied());
            self.seeds.resize(self.values.len() + e.values.len(), None);
        }
        self.values.extend(e.values.iter().copied());
    }
}

/// Is `e` more runs of the baseline `first` (an entry of kind `baseline`
/// of its run that passed, after the first)?
fn grows(first: &Entry, e: &Entry) -> bool {
    first.kind == "baseline"
        && e.kind == "baseline"
        && e.run_id == first.run_id
        && passed_in(e, &first.state, &first.segment)
}

/// The segment's held-out reference: the baseline's runs (with any the
/// sequential check added), or when the check failed on the baseline,
/// the first candidate's that passed.
pub fn baseline_of(entries: &[Entry], state: &str, segment: &str) -> Option<Gathered> {
    let at = entries.iter().position(|e| passed_in(e, state, segment))?;
    let first = &entries[at];
    let mut g = Gathered::of(first);
    for e in entries[at + 1..].iter().filter(|e| grows(first, e)) {
        g.extend(e);
    }
    Some(g)
}

/// The held-out values of the run `run_id` (see [`runs_of`]).
pub fn values_of<'e>(
    entries: &'e [Entry],
    state: &str,
    segment: &str,
    run_id: &str,
) -> Option<&'e [f64]> {
    runs_of(entries, state, segment, run_id).map(|r| r.values)
}

/// Every set of held-out runs measured in the segment (passed or not),
/// a baseline's runs gathered into one set.
pub fn segment_runs(entries: &[Entry], state: &str, segment: &str) -> Vec<Gathered> {
    let mut out: Vec<Gathered> = Vec::new();
    let mut baselines: Vec<(usize, &Entry)> = Vec::new();
    for e in entries
        .iter()
        .filter(|e| e.state == state && e.segment == segment && !e.values.is_empty())
    {
        if let Some(&(i, _)) = baselines.iter().find(|(_, first)| grows(first, e)) {
            out[i].extend(e);
            continue;
        }
        if e.kind == "baseline" && e.verdict.passed() {
            baselines.push((out.len(), e));
        }
        out.push(Gathered::of(e));
    }
    out
}

/// The held-out noise of a segment: the pooled sd (and its degrees of
/// freedom) of its repeated held-out measurements, `extra` included.
pub fn noise(entries: &[Entry], state: &str, segment: &str, extra: &[f64]) -> Option<(f64, f64)> {
    let runs = segment_runs(entries, state, segment);
    let groups: Vec<&[f64]> = runs
        .iter()
        .filter(|g| g.values.len() > 1)
        .map(|g| g.values.as_slice())
        .collect();
    pooled_with(&groups, extra)
}

/// Runs that should vary and do not: at least two different seeds, every
/// value the same (a held-out command that ignores `ARX_SEED`/`{seed}`).
pub fn flat_over_seeds(runs: HeldRuns<'_>) -> bool {
    let mut seeds: Vec<u64> = runs.seeds.iter().flatten().copied().collect();
    seeds.sort_unstable();
    seeds.dedup();
    seeds.len() >= 2 && runs.values.windows(2).all(|w| w[0] == w[1])
}

/// What the held-out rule weighs a candidate with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    pub direction: Direction,
    /// The segment's pooled held-out noise `(sd, df)`, the candidate's
    /// runs included.
    pub pooled: Option<(f64, f64)>,
    /// Under paired seeds, the pooled spread `(sd, df)` of one paired
    /// difference ([`paired_noise`]): a comparison with at least two pairs
    /// uses it rather than its own few differences' spread.
    pub paired: Option<(f64, f64)>,
    /// How much worse than the best a candidate may be (metric units);
    /// `None`: the best is not compared with, only the baseline.
    pub margin: Option<f64>,
    pub confidence: f64,
    /// The harm bound ([`harm_bound`], metric units): a candidate passes
    /// only when shown, at `confidence`, less than this much worse than
    /// the baseline; `None`: not asked (it passes unless shown worse).
    pub bound: Option<f64>,
}

/// What a comparison came to: how much worse the candidate is (positive:
/// worse, in metric units), the standard error of that and its degrees
/// of freedom (0: no noise known), and the sd of one run (or of one
/// paired difference) it used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gap {
    pub worse: f64,
    pub se: f64,
    pub df: f64,
    pub sd: Option<f64>,
    pub paired: bool,
}

/// How much worse `c` is than `r`: on the differences at the same seeds
/// when there are at least two and the segment shows the pairing worth
/// it (a seed effect, [`seed_effect_shown`], and the narrower interval,
/// [`pairing_helps`]), else the means with the pooled noise. `None`
/// when either has no values.
pub fn gap(c: HeldRuns<'_>, r: HeldRuns<'_>, rule: &Rule) -> Option<Gap> {
    let sign = match rule.direction {
        Direction::Min => 1.0,
        Direction::Max => -1.0,
    };
    let unpaired = unpaired_gap(c, r, rule, sign);
    let diffs = super::paired::differences(r.values, r.seeds, c.values, c.seeds);
    if diffs.len() < 2 {
        return unpaired;
    }
    let n = diffs.len() as f64;
    let (m, own) = mean_sd(&diffs);
    let (sd, df) = rule.paired.unwrap_or((own, n - 1.0));
    let paired = Gap {
        worse: sign * m,
        se: sd / n.sqrt(),
        df,
        sd: Some(sd),
        paired: true,
    };
    let shown = seed_effect_shown(rule);
    match unpaired {
        Some(u) if !shown || !pairing_helps(&paired, &u, rule.confidence) => Some(u),
        _ => Some(paired),
    }
}

/// The comparison of the means, with the segment's pooled noise.
fn unpaired_gap(c: HeldRuns<'_>, r: HeldRuns<'_>, rule: &Rule, sign: f64) -> Option<Gap> {
    let worse = sign * (mean(c.values)? - mean(r.values)?);
    let (nc, nr) = (c.values.len() as f64, r.values.len() as f64);
    Some(match rule.pooled {
        Some((sd, df)) if sd > 0.0 && df > 0.0 && sd.is_finite() => Gap {
            worse,
            se: sd * (1.0 / nc + 1.0 / nr).sqrt(),
            df,
            sd: Some(sd),
            paired: false,
        },
        pooled => Gap {
            worse,
            se: 0.0,
            df: 0.0,
            sd: pooled.map(|(sd, _)| sd),
            paired: false,
        },
    })
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let ss = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
    (m, (ss / (n - 1.0)).max(0.0).sqrt())
}

/// Is the gap worse than `margin` beyond its noise at `confidence`? With
/// no noise known (or a spread of 0), any amount beyond the margin is.
pub fn beyond(g: &Gap, margin: f64, confidence: f64) -> bool {
    let excess = g.worse - margin;
    if g.se > 0.0 && g.df > 0.0 {
        excess / g.se > t_quantile(confidence, g.df)
    } else {
        excess > 0.0
    }
}

/// How far short of the bound the candidate was shown to be: `true` when
/// the upper confidence bound of how much worse than the reference it is
/// lies below `bound` (with no noise known, when it is not more than
/// `bound` worse).
pub fn within(g: &Gap, bound: f64, confidence: f64) -> bool {
    if g.se > 0.0 && g.df > 0.0 {
        g.worse + t_quantile(confidence, g.df) * g.se < bound
    } else {
        g.worse <= bound
    }
}

/// The harm bound of the held-out check, in metric units: [`HARM_BOUND_SD`]
/// times the segment's held-out run noise (the pooled sd of its repeated
/// held-out runs, `pooled`); 0 without one (nothing known of the noise:
/// not worse, as a deterministic evaluation is judged).
pub fn harm_bound(pooled: Option<(f64, f64)>) -> f64 {
    match pooled {
        Some((sd, df)) if df > 0.0 && sd.is_finite() => HARM_BOUND_SD * sd.max(0.0),
        _ => 0.0,
    }
}

/// The candidate's run count at the check's next look, after `n` runs,
/// with at most `max` (`None`: `n` was the last look). The looks come at
/// about half again as many runs each time (3, 5, 8, 12, 18, 25): few
/// looks, so that the test of "worse than the baseline" at each of them
/// adds little to the vetoes of a candidate that changes nothing.
pub fn next_look(n: u32, max: u32) -> Option<u32> {
    (n < max).then(|| (n + n.div_ceil(2)).max(n + 1).min(max))
}

/// The verdict of [`judge_keep`]: what the candidate was worse than when
/// it failed, and the noise (sd) of the comparison that decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    pub verdict: HoldoutVerdict,
    pub worse_than: Option<&'static str>,
    pub noise: Option<f64>,
}

/// The verdict on a candidate's held-out runs: failed when worse than the
/// segment's baseline beyond the noise, or (with a margin) worse than the
/// best by more than the margin beyond the noise, at the rule's
/// confidence; with a harm bound ([`Rule::bound`]), failed too when not
/// shown within it of the baseline; passed otherwise (also with nothing
/// to compare with). Missing without values. The last look of
/// [`judge_look`].
pub fn judge_keep(
    candidate: HeldRuns<'_>,
    best: Option<HeldRuns<'_>>,
    baseline: Option<HeldRuns<'_>>,
    rule: &Rule,
) -> Judged {
    judge_look(candidate, best, baseline, rule, true).unwrap_or(Judged {
        verdict: HoldoutVerdict::Failed,
        worse_than: Some("bound"),
        noise: None,
    })
}

/// One look of the sequential held-out check: the verdict, or `None`
/// when the runs so far show the candidate neither worse than the
/// baseline (or the best beyond the margin) nor within the harm bound of
/// the baseline, and this is not the `last` look (more runs decide).
/// The burden of proof is on the candidate: at the last look, one not
/// shown within the bound fails (`worse_than`: `bound`).
pub fn judge_look(
    candidate: HeldRuns<'_>,
    best: Option<HeldRuns<'_>>,
    baseline: Option<HeldRuns<'_>>,
    rule: &Rule,
    last: bool,
) -> Option<Judged> {
    if candidate.values.is_empty() {
        return Some(Judged {
            verdict: HoldoutVerdict::Missing,
            worse_than: None,
            noise: None,
        });
    }
    // An interim look spends half the error of each side (see
    // [`interim`]); the last, all of it.
    let confidence = if last {
        rule.confidence
    } else {
        interim(rule.confidence)
    };
    // Not yet shown within the harm bound of the baseline: the sd of that
    // comparison.
    let unproven = match (rule.bound, baseline) {
        (Some(bound), Some(b)) => gap(candidate, b, rule)
            .filter(|g| !within(g, bound, confidence))
            .map(|g| g.sd),
        _ => None,
    };
    let mut noise = None;
    // Without a baseline to compare with (the check failed on it), the
    // best is the reference, with a margin of 0 unless one is set.
    let best_margin = match (rule.margin, baseline) {
        (Some(m), _) => Some(m),
        (None, None) => Some(0.0),
        (None, Some(_)) => None,
    };
    let against = [
        ("baseline", baseline, Some(0.0)),
        ("best", best, best_margin),
    ];
    for (against, reference, margin) in against {
        let Some(margin) = margin else {
            continue;
        };
        let Some(g) = reference.and_then(|r| gap(candidate, r, rule)) else {
            continue;
        };
        noise = noise.or(g.sd);
        if beyond(&g, margin, confidence) {
            return Some(Judged {
                verdict: HoldoutVerdict::Failed,
                worse_than: Some(against),
                noise: g.sd,
            });
        }
    }
    match unproven {
        Some(_) if !last => None,
        Some(sd) => Some(Judged {
            verdict: HoldoutVerdict::Failed,
            worse_than: Some("bound"),
            noise: sd,
        }),
        None => Some(Judged {
            verdict: HoldoutVerdict::Passed,
            worse_than: None,
            noise,
        }),
    }
}

/// The confidence of an interim look of the sequential check, both to
/// pass (within the harm bound) and to stop for "worse than the baseline":
/// `(1 + confidence) / 2`, half the error of each side, so that the looks
/// before the last, together, add about as much error as the last look
/// alone (`examples/holdout_sim`: at the same confidence every look, the
/// vetoes of a candidate that changes nothing rose to 10.5% unpaired, and
/// 1.5σ-worse candidates passed at the first look in 5% of loops).
pub fn interim(confidence: f64) -> f64 {
    (1.0 + confidence) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(run_id: &str, values: &[f64], verdict: HoldoutVerdict) -> Entry {
        Entry {
            at: "2026-11-27T00:00:00Z".into(),
            state: "/r".into(),
            segment: "s".into(),
            run_id: run_id.into(),
            kind: "candidate".into(),
            best_run: None,
            description: None,
            metric: "test_loss".into(),
            direction: Direction::Min,
            values: values.to_vec(),
            seeds: Vec::new(),
            best: Vec::new(),
            noise: None,
            verdict,
            worse_than: None,
            no_reference: false,
            exit_code: 0,
            stdout_tail: String::new(),
            stderr_tail: String::new(),
        }
    }

    #[test]
    fn the_best_is_its_last_passed_entry_and_the_noise_pools_repeats() {
        let entries = vec![
            entry("b", &[1.0, 1.2, 1.1], HoldoutVerdict::Passed),
            entry("c", &[0.9], HoldoutVerdict::Failed),
            entry("c", &[0.95], HoldoutVerdict::Passed),
        ];
        assert_eq!(values_of(&entries, "/r", "s", "c"), Some(&[0.95][..]));
        assert_eq!(
            values_of(&entries, "/r", "s", "b").map(<[f64]>::len),
            Some(3)
        );
        assert_eq!(values_of(&entries, "/other", "s", "b"), None);
        let (sd, df) = noise(&entries, "/r", "s", &[]).unwrap();
        assert!((sd - 0.1).abs() < 1e-9 && df == 2.0, "{sd} {df}");
        assert_eq!(noise(&entries, "/r", "t", &[]), None);
    }

    fn runs<'a>(values: &'a [f64], seeds: &'a [Option<u64>]) -> HeldRuns<'a> {
        HeldRuns { values, seeds }
    }

    fn rule(pooled: Option<(f64, f64)>, margin: f64) -> Rule {
        Rule {
            direction: Direction::Min,
            pooled,
            paired: None,
            margin: Some(margin),
            confidence: 0.95,
            bound: None,
        }
    }

    #[test]
    fn a_candidate_fails_only_when_worse_beyond_the_noise() {
        let best = runs(&[1.0, 1.2, 1.1], &[]);
        let n = Some((0.1, 2.0));
        let judge = |c: &[f64], r: &Rule| judge_keep(runs(c, &[]), Some(best), None, r).verdict;
        assert_eq!(judge(&[1.2], &rule(n, 0.0)), HoldoutVerdict::Passed);
        assert_eq!(judge(&[2.0], &rule(n, 0.0)), HoldoutVerdict::Failed);
        let max = Rule {
            direction: Direction::Max,
            ..rule(n, 0.0)
        };
        assert_eq!(judge(&[2.0], &max), HoldoutVerdict::Passed);
        assert_eq!(judge(&[1.11], &rule(None, 0.0)), HoldoutVerdict::Failed);
        assert_eq!(judge(&[], &rule(n, 0.0)), HoldoutVerdict::Missing);
    }

    #[test]
    fn small_losses_cannot_pile_up_past_the_baseline() {
        // Each keep a little worse than the last, each within the noise of
        // the best: the third is worse than the baseline beyond it.
        let baseline = runs(&[1.0, 1.02, 0.98], &[]);
        let best = runs(&[1.1, 1.12], &[]);
        let n = Some((0.02, 3.0));
        let j = judge_keep(
            runs(&[1.15, 1.17], &[]),
            Some(best),
            Some(baseline),
            &rule(n, 0.1),
        );
        assert_eq!(
            (j.verdict, j.worse_than),
            (HoldoutVerdict::Failed, Some("baseline"))
        );
        // Against the best alone (as before), it passed within the margin.
        let j = judge_keep(runs(&[1.15, 1.17], &[]), Some(best), None, &rule(n, 0.1));
        assert_eq!(j.verdict, HoldoutVerdict::Passed);
    }

    #[test]
    fn the_margin_is_how_much_worse_than_the_best_a_candidate_may_be() {
        let best = runs(&[1.0, 1.02, 0.98], &[]);
        let n = Some((0.02, 10.0));
        let cand = [1.1, 1.1];
        let j = |margin| judge_keep(runs(&cand, &[]), Some(best), None, &rule(n, margin));
        assert_eq!(j(0.0).worse_than, Some("best"));
        assert_eq!(j(0.05).verdict, HoldoutVerdict::Failed);
        assert_eq!(j(0.2).verdict, HoldoutVerdict::Passed);
    }

    #[test]
    fn runs_at_the_same_seeds_are_compared_by_their_differences() {
        // Seed effects of ±0.5 hide a loss of 0.05 from the unpaired
        // comparison; the differences at the same seeds show it.
        let seeds = [Some(1), Some(2), Some(3)];
        let best = runs(&[1.0, 1.5, 0.5], &seeds);
        let cand_values = [1.05, 1.56, 0.54];
        let pooled = Some((0.5, 4.0));
        let paired = judge_keep(
            runs(&cand_values, &seeds),
            Some(best),
            None,
            &rule(pooled, 0.0),
        );
        assert_eq!(paired.verdict, HoldoutVerdict::Failed);
        let unpaired = judge_keep(
            runs(&cand_values, &[]),
            Some(best),
            None,
            &rule(pooled, 0.0),
        );
        assert_eq!(unpaired.verdict, HoldoutVerdict::Passed);
        let g = gap(runs(&cand_values, &seeds), best, &rule(pooled, 0.0)).unwrap();
        assert!(
            g.paired && (g.worse - 0.05).abs() < 1e-9 && g.df == 2.0,
            "{g:?}"
        );
        // One pair is not enough: the means, with the pooled noise.
        let g = gap(runs(&[1.05], &seeds[..1]), best, &rule(pooled, 0.0)).unwrap();
        assert!(!g.paired && g.df == 4.0, "{g:?}");
    }

    #[test]
    fn the_spread_of_a_paired_difference_pools_the_segment() {
        let s = [Some(1), Some(2), Some(3)];
        // Seed effects 0, 1, 2; commits 0, 0.2, −0.1; fresh noise ±0.05.
        let baseline = runs(&[1.05, 1.95, 3.0], &s);
        let a = [1.2, 2.25, 3.15];
        let b = [0.85, 1.9, 2.95];
        let one = [5.0];
        let all = [baseline, runs(&a, &s), runs(&b, &s), runs(&[], &[])];
        let (sd, df) = paired_noise(&all).unwrap();
        assert_eq!(df, 9.0 - 3.0 - 3.0 + 1.0);
        assert!(sd > 0.03 && sd < 0.15, "{sd}");
        // Without seeds, or too few runs: none.
        assert_eq!(paired_noise(&[runs(&one, &[]), runs(&one, &[])]), None);
        assert_eq!(
            paired_noise(&[runs(&one, &s[..1]), runs(&one, &s[..1])]),
            None
        );
        // Two pairs weighed with the pooled spread and its df.
        let r = Rule {
            paired: Some((sd, df)),
            ..rule(None, 0.0)
        };
        let g = gap(runs(&[1.55, 2.45], &s[..2]), baseline, &r).unwrap();
        assert!(
            g.paired && g.df == 4.0 && (g.worse - 0.5).abs() < 1e-9,
            "{g:?}"
        );
        assert!(beyond(&g, 0.0, 0.95));
    }

    #[test]
    fn values_that_ignore_their_seeds_are_flat() {
        let s = [Some(1), Some(2), Some(3)];
        assert!(flat_over_seeds(runs(&[0.11, 0.11, 0.11], &s)));
        assert!(!flat_over_seeds(runs(&[0.11, 0.12, 0.11], &s)));
        assert!(!flat_over_seeds(runs(&[0.11, 0.11], &[])));
        assert!(!flat_over_seeds(runs(&[0.11, 0.11], &[Some(1), Some(1)])));
    }

    #[test]
    fn the_baseline_reference_is_the_first_passed_entry() {
        let entries = vec![
            entry("b", &[1.0], HoldoutVerdict::Missing),
            entry("c", &[0.9, 0.8], HoldoutVerdict::Passed),
            entry("d", &[0.7], HoldoutVerdict::Passed),
        ];
        let b = baseline_of(&entries, "/r", "s").unwrap();
        assert_eq!(b.values, &[0.9, 0.8][..]);
    }

    #[test]
    fn a_candidate_must_be_shown_within_the_harm_bound_of_the_baseline() {
        let baseline = runs(&[1.0, 1.02, 0.98, 1.01, 0.99], &[]);
        let bounded = |pooled| Rule {
            bound: Some(harm_bound(pooled)),
            margin: None,
            ..rule(pooled, 0.0)
        };
        let look = |c: &[f64], pooled, last| {
            judge_look(runs(c, &[]), None, Some(baseline), &bounded(pooled), last)
        };
        // Half a σ worse on 3 runs: neither shown worse nor shown within
        // σ; more runs, and at the last look it fails.
        let few = [1.01, 1.03, 0.99];
        let n = Some((0.02, 6.0));
        assert_eq!(look(&few, n, false), None);
        let j = look(&few, n, true).unwrap();
        assert_eq!(
            (j.verdict, j.worse_than),
            (HoldoutVerdict::Failed, Some("bound"))
        );
        // The one-look rule before passed it.
        let before = judge_keep(runs(&few, &[]), None, Some(baseline), &rule(n, 0.0));
        assert!(before.verdict.passed());
        // As good as the baseline, on many runs a side: shown within σ.
        let many = [1.0, 1.02, 0.98, 1.01, 0.99, 1.0, 1.0, 1.01, 0.99, 1.0];
        let n = Some((0.012, 18.0));
        let j = judge_look(
            runs(&many, &[]),
            None,
            Some(runs(&many, &[])),
            &bounded(n),
            false,
        );
        assert_eq!(j.unwrap().verdict, HoldoutVerdict::Passed);
        // Against the 5 runs of the baseline, not yet: its runs grow.
        assert_eq!(look(&many, n, false), None);
        // Far worse: shown worse at once.
        let j = look(&[1.2, 1.22, 1.18], Some((0.02, 6.0)), false).unwrap();
        assert_eq!(j.worse_than, Some("baseline"));
        // No noise known: decided on the values, as before.
        assert_eq!(
            look(&[1.0], None, false).unwrap().verdict,
            HoldoutVerdict::Passed
        );
        assert_eq!(harm_bound(None), 0.0);
        assert_eq!(harm_bound(Some((0.5, 3.0))), 0.5 * HARM_BOUND_SD);
    }

    #[test]
    fn pairs_that_show_no_seed_effect_are_compared_by_their_means() {
        // Paired seeds with no seed effect (ρ 0): the segment's fitted
        // spread of a paired difference is √2 run sds. A candidate as good
        // as the baseline on 5 runs, the baseline on 16.
        let s: Vec<Option<u64>> = (1..=16).map(Some).collect();
        let base = [
            0.5, -0.5, 1.0, -1.0, 0.0, 1.2, -1.2, 0.3, -0.3, 0.8, -0.8, 0.1, -0.1, 1.5, -1.5, 0.0,
        ];
        let cand = [-0.6, 0.9, 0.2, -1.3, 0.8];
        let pooled = Some((1.0, 30.0));
        let at = |paired_sd: f64| Rule {
            paired: Some((paired_sd, 10.0)),
            bound: Some(harm_bound(pooled)),
            margin: None,
            ..rule(pooled, 0.0)
        };
        let (c, b) = (runs(&cand, &s[..5]), runs(&base, &s));
        // The 5 pairs alone (se 0.63 on 10 df) cannot show it within 1σ;
        // the means, with all 16 of the baseline's runs (se 0.51 on 30
        // df), can: it passes at the last look, where the pairs failed it.
        let g = gap(c, b, &at(2f64.sqrt())).unwrap();
        assert!(!g.paired && g.df == 30.0 && g.worse.abs() < 1e-9, "{g:?}");
        let j = judge_look(c, None, Some(b), &at(2f64.sqrt()), true).unwrap();
        assert_eq!((j.verdict, j.worse_than), (HoldoutVerdict::Passed, None));
        // The seeds explain no more of the segment's spread than chance
        // (F 1.3 on 20 and 10 df): no seed effect shown, the means decide
        // even where the pairs' interval would be a little narrower.
        assert!(!seed_effect_shown(&at(1.3)));
        assert!(!gap(c, runs(&base[..5], &s[..5]), &at(1.3)).unwrap().paired);
        // A seed effect the segment shows (a paired spread of 0.3 run
        // sds): the pairs decide.
        assert!(seed_effect_shown(&at(0.3)));
        let g = gap(c, b, &at(0.3)).unwrap();
        assert!(g.paired && g.df == 10.0, "{g:?}");
        // Where the two are alike, the pairing's fewer degrees of freedom
        // weigh against it.
        let u = Gap {
            worse: 0.0,
            se: 0.5,
            df: 30.0,
            sd: Some(1.0),
            paired: false,
        };
        let p = |se, df| Gap {
            se,
            df,
            paired: true,
            ..u
        };
        assert!(pairing_helps(&p(0.49, 30.0), &u, 0.95));
        assert!(!pairing_helps(&p(0.49, 4.0), &u, 0.95));
        // No noise known for the means: the pairs decide.
        assert!(pairing_helps(
            &p(0.49, 4.0),
            &Gap {
                se: 0.0,
                df: 0.0,
                ..u
            },
            0.95
        ));
    }

    #[test]
    fn the_looks_come_at_half_again_as_many_runs_up_to_the_cap() {
        let mut looks = vec![3];
        while let Some(n) = next_look(*looks.last().unwrap(), 20) {
            looks.push(n);
        }
        assert_eq!(looks, [3, 5, 8, 12, 18, 20]);
        assert_eq!(next_look(18, DEFAULT_MAX_REPEAT), Some(25));
        assert_eq!(next_look(1, 20), Some(2));
        assert_eq!(next_look(3, 3), None);
        assert!(interim(0.95) > 0.95);
    }

    #[test]
    fn more_runs_of_the_baseline_join_its_reference_and_the_noise() {
        let mut base = entry("b", &[1.0, 1.2], HoldoutVerdict::Passed);
        base.kind = "baseline".into();
        let mut more = entry("b", &[1.1, 1.3], HoldoutVerdict::Passed);
        more.kind = "baseline".into();
        let mut crashed = entry("b", &[5.0], HoldoutVerdict::Crashed);
        crashed.kind = "baseline".into();
        let entries = vec![
            base,
            entry("c", &[0.9, 1.0], HoldoutVerdict::Passed),
            crashed,
            more,
        ];
        let b = baseline_of(&entries, "/r", "s").unwrap();
        assert_eq!(
            (b.run_id.as_str(), &b.values[..]),
            ("b", &[1.0, 1.2, 1.1, 1.3][..])
        );
        let all = segment_runs(&entries, "/r", "s");
        assert_eq!(all.len(), 3, "{all:?}");
        assert_eq!(all[0].values.len(), 4);
        // The noise pools the baseline's four runs as one group.
        let (_, df) = noise(&entries, "/r", "s", &[]).unwrap();
        assert_eq!(df, 3.0 + 1.0);
    }
}
