//! The keep-if-better ratchet behind `arx try`: after each run of a
//! candidate, run it again or decide whether it beats the kept commit.
//!
//! Three rules are offered. `strict` is the naive ratchet: one run, kept when
//! that sample beats the best sample seen so far. `mad` adds a noise check in
//! the manner of a MAD "confidence" score: the candidate must also stand at
//! least two median absolute deviations of the segment's values away from
//! the baseline. `confirm`, the default, compares means with a pooled
//! estimate of the run-to-run noise: a first run that shows no promise is
//! discarded at once, a promising one is run again until a one-sided
//! Student-t bound on its improvement clears the kept commit (keep), its
//! mean falls back under the bar (futility) or the runs run out.
//!
//! The constants of `confirm` were tuned with `examples/ratchet_sim.rs`,
//! which plays whole loops of 200 runs against streams of candidate changes
//! of known true effect and checks the rule against the naive one (false
//! keeps at most a fifth, true improvement at least 60%, an honest estimate
//! of the kept commit's value).
//!
//! Pure like the rest of the kernel: samples in, a step out.

use std::fmt::Write as _;

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::names::str_enum;
use super::number::fmt_number;
use super::stats::{check_confidence, Direction};
use super::verdict::Verdict;

/// Default one-sided confidence of the `confirm` rule's keep test (the
/// command's `--confidence` default).
pub const DEFAULT_CONFIDENCE: f64 = 0.8;

/// Default cap on the runs of one candidate (the command's `--max-runs`
/// default).
pub const DEFAULT_MAX_RUNS: u32 = 4;

/// Default minimum runs of a candidate (the command's `--repeat` default).
pub const DEFAULT_REPEAT: u32 = 1;

/// Promise of a first run, in units of the run-to-run noise σ: a candidate
/// whose first run does not beat the kept commit's mean by `min_effect` plus
/// this much is discarded without another run.
pub const PROMISE: f64 = 0.9;

/// Futility bound, in units of σ: from the second run on, a candidate whose
/// mean does not beat the kept commit's mean by `min_effect` plus this much
/// is discarded.
pub const FUTILITY: f64 = 0.75;

/// Runs a candidate needs before `confirm` may keep it (the kept commit's
/// value is then a mean, not one lucky sample).
pub const MIN_KEEP_RUNS: u32 = 2;

/// The MAD "confidence" a candidate needs under the `mad` rule.
pub const MAD_CONFIDENCE: f64 = 2.0;

/// Values a segment needs before the `mad` rule's confidence is defined.
const MAD_MIN_VALUES: usize = 3;

/// The MAD of a normal sample times this estimates its σ.
const MAD_TO_SIGMA: f64 = 1.482_602_218_505_602;

/// Significant digits of the numbers in a decision's detail.
const SHOWN_DIGITS: usize = 4;

str_enum! {
    /// Decision rules the ratchet offers (`--rule`).
    #[derive(Default)]
    Rule, "rule" {
        /// Means under pooled noise, with a first-run screen, confirmation
        /// runs and a one-sided Student-t keep test (arx's default).
        #[default]
        Confirm => "confirm",
        /// One run; kept when it beats the best sample so far (the naive
        /// ratchet).
        Strict => "strict",
        /// One run; kept when it beats the best sample and stands at least
        /// two MADs of the segment's values away from the baseline.
        Mad => "mad",
    }
}

impl Rule {
    /// The name used on the command line and in the journal.
    pub fn name(self) -> &'static str {
        self.as_str()
    }
}

/// What the command decides with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub direction: Direction,
    /// Smallest improvement worth keeping, in metric units (≥ 0).
    pub min_effect: f64,
    /// One-sided confidence of the `confirm` keep test, in (0, 1).
    pub confidence: f64,
    /// Minimum runs of a candidate (≥ 1).
    pub repeat: u32,
    /// Cap on the runs of one candidate; raised to `repeat` when lower.
    pub max_runs: u32,
}

impl Settings {
    /// The defaults for a metric improving in `direction`.
    pub fn new(direction: Direction) -> Settings {
        Settings {
            direction,
            min_effect: 0.0,
            confidence: DEFAULT_CONFIDENCE,
            repeat: DEFAULT_REPEAT,
            max_runs: DEFAULT_MAX_RUNS,
        }
    }
}

/// The tunable constants of the `confirm` rule. [`next_step`] uses
/// [`Tuning::DEFAULT`]; the simulation explores others through
/// [`next_step_tuned`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// See [`PROMISE`].
    pub promise: f64,
    /// See [`FUTILITY`].
    pub futility: f64,
    /// See [`MIN_KEEP_RUNS`].
    pub min_keep_runs: u32,
    /// Runs of a candidate after it passed the keep test; its estimate is
    /// their mean.
    pub remeasure: u32,
    /// Leave the first (screening) run out of a kept candidate's estimate.
    pub drop_screen: bool,
    /// One-sided confidence the re-measured runs alone must show an
    /// improvement with (0.5: their mean must be better); `None`: kept
    /// whatever they show.
    pub recheck: Option<f64>,
    /// Screen, then a fixed number of confirmation runs with futility stops;
    /// the final test and the estimate use the confirmation runs.
    pub two_stage: bool,
    /// In the two-stage design, the final test also counts the screen.
    pub final_on_all: bool,
}

impl Tuning {
    /// The constants `arx try` uses.
    pub const DEFAULT: Tuning = Tuning {
        promise: PROMISE,
        futility: FUTILITY,
        min_keep_runs: MIN_KEEP_RUNS,
        remeasure: 3,
        drop_screen: false,
        recheck: Some(0.5),
        two_stage: true,
        final_on_all: true,
    };
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::DEFAULT
    }
}

/// The samples a decision looks at.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    /// Samples of the kept commit (the baseline's repeats, or the kept
    /// candidate's runs).
    pub best: &'a [f64],
    /// This candidate's samples so far (successful runs only).
    pub candidate: &'a [f64],
    /// Every group of repeated samples in the segment before this candidate
    /// (each group = the runs of one commit, the kept commit's included),
    /// for the noise estimate. The candidate's own runs are added by the
    /// rule and should not be in here.
    pub replicates: &'a [&'a [f64]],
    /// Every metric value in the segment before this candidate, in journal
    /// order: the first is the baseline's (first) run. For the `mad` rule,
    /// which adds the candidate's runs itself.
    pub segment_values: &'a [f64],
}

/// Run the candidate again, or decide.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    RunAgain,
    Decide(Decision),
}

/// A decision on a candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// `Supported` = keep, `Refuted` = clearly not better, `Inconclusive` =
    /// the noise cannot tell (discarded too).
    pub verdict: Verdict,
    /// Candidate mean − kept mean, signed so that positive = better.
    pub improvement: f64,
    /// The σ estimate of one run the decision used; `None` when blind.
    pub noise: Option<f64>,
    /// No noise information at all: only a strict improvement beyond
    /// `min_effect` counts.
    pub blind: bool,
    /// The decision rests on a noise check; false for every decision of the
    /// `strict` rule and every blind one (the journal marks such keeps
    /// unconfirmed).
    pub confirmed: bool,
    /// The kept commit's estimate, and the `best` of later decisions, is
    /// the mean of `candidate[record_from..]`: runs before it chose the
    /// candidate and would flatter it. 0 unless kept.
    pub record_from: usize,
    /// One line a person reads.
    pub detail: String,
}

impl Decision {
    /// Whether the candidate is kept.
    pub fn keep(&self) -> bool {
        self.verdict == Verdict::Supported
    }
}

/// After a run of a candidate: run it again, or decide, by `rule` with the
/// default tuning.
pub fn next_step(rule: Rule, settings: &Settings, evidence: &Evidence<'_>) -> Step {
    next_step_tuned(rule, settings, &Tuning::DEFAULT, evidence)
}

/// [`next_step`] with the `confirm` rule's constants given (the strict and
/// mad rules ignore them).
pub fn next_step_tuned(
    rule: Rule,
    settings: &Settings,
    tuning: &Tuning,
    evidence: &Evidence<'_>,
) -> Step {
    let k = evidence.candidate.len();
    let repeat = settings.repeat.max(1) as usize;
    if k < repeat {
        return Step::RunAgain;
    }
    let Some(best_mean) = mean(evidence.best) else {
        return decide(Decision {
            verdict: Verdict::Inconclusive,
            improvement: f64::NAN,
            noise: None,
            blind: true,
            confirmed: false,
            record_from: 0,
            detail: "no samples of the kept commit to compare with".to_string(),
        });
    };
    let cand_mean = mean(evidence.candidate).expect("k >= repeat >= 1");
    let sign = match settings.direction {
        Direction::Max => 1.0,
        Direction::Min => -1.0,
    };
    let improvement = sign * (cand_mean - best_mean);
    let min_effect = settings.min_effect.max(0.0);
    match rule {
        Rule::Strict => strict(settings, evidence, sign, improvement, cand_mean, k),
        Rule::Mad => mad(settings, evidence, sign, improvement, cand_mean, k),
        Rule::Confirm if tuning.two_stage => {
            let cap = (settings.max_runs as usize).max(repeat);
            two_stage(
                settings,
                tuning,
                evidence,
                sign,
                improvement,
                k,
                repeat,
                cap,
            )
        }
        Rule::Confirm => {
            let cap = (settings.max_runs as usize).max(repeat);
            confirm(
                settings,
                tuning,
                evidence,
                sign,
                improvement,
                min_effect,
                k,
                cap,
            )
        }
    }
}

fn decide(d: Decision) -> Step {
    Step::Decide(d)
}

/// The best single sample of the kept commit, in the metric's direction.
fn best_sample(samples: &[f64], sign: f64) -> f64 {
    samples
        .iter()
        .copied()
        .max_by(|a, b| (sign * a).total_cmp(&(sign * b)))
        .expect("non-empty")
}

fn strict(
    settings: &Settings,
    evidence: &Evidence<'_>,
    sign: f64,
    improvement: f64,
    cand_mean: f64,
    k: usize,
) -> Step {
    let min_effect = settings.min_effect.max(0.0);
    let best = best_sample(evidence.best, sign);
    let over_best = sign * (cand_mean - best);
    let keep = over_best > min_effect;
    let blind = pooled_with(evidence.replicates, &[]).is_none();
    let what = if k == 1 {
        format!("run {}", shown(cand_mean))
    } else {
        format!("mean {} of {k} runs", shown(cand_mean))
    };
    let detail = format!(
        "{}: {what} {} the best sample {} by {} (needs more than {}; strict rule, unconfirmed)",
        if keep { "keep" } else { "discard" },
        if over_best >= 0.0 { "beats" } else { "trails" },
        shown(best),
        shown(over_best.abs()),
        shown(min_effect),
    );
    decide(Decision {
        verdict: if keep {
            Verdict::Supported
        } else {
            Verdict::Refuted
        },
        improvement,
        noise: None,
        blind,
        confirmed: false,
        record_from: 0,
        detail,
    })
}

fn mad(
    settings: &Settings,
    evidence: &Evidence<'_>,
    sign: f64,
    improvement: f64,
    cand_mean: f64,
    k: usize,
) -> Step {
    let min_effect = settings.min_effect.max(0.0);
    let best = best_sample(evidence.best, sign);
    let over_best = sign * (cand_mean - best);
    let beats = over_best > min_effect;
    let mut values = evidence.segment_values.to_vec();
    values.extend_from_slice(evidence.candidate);
    let baseline = values[0];
    let spread = if values.len() >= MAD_MIN_VALUES {
        Some(mad_of(&values)).filter(|m| *m > 0.0)
    } else {
        None
    };
    let what = if k == 1 {
        format!("run {}", shown(cand_mean))
    } else {
        format!("mean {} of {k} runs", shown(cand_mean))
    };
    let Some(spread) = spread else {
        let detail = format!(
            "{}: {what} {} the best sample {} by {} (blind to noise: the segment's values have no spread yet)",
            if beats { "keep" } else { "discard" },
            if over_best >= 0.0 { "beats" } else { "trails" },
            shown(best),
            shown(over_best.abs()),
        );
        return decide(Decision {
            verdict: if beats {
                Verdict::Supported
            } else {
                Verdict::Refuted
            },
            improvement,
            noise: None,
            blind: true,
            confirmed: false,
            record_from: 0,
            detail,
        });
    };
    let confidence = (cand_mean - baseline).abs() / spread;
    let keep = beats && confidence >= MAD_CONFIDENCE;
    let verdict = if keep {
        Verdict::Supported
    } else if !beats {
        Verdict::Refuted
    } else {
        Verdict::Inconclusive
    };
    let detail = format!(
        "{}: {what} {} the best sample {} by {}; {} MADs ({}) from the baseline {} (needs {})",
        if keep { "keep" } else { "discard" },
        if over_best >= 0.0 { "beats" } else { "trails" },
        shown(best),
        shown(over_best.abs()),
        shown(confidence),
        shown(spread),
        shown(baseline),
        fmt_number(MAD_CONFIDENCE),
    );
    decide(Decision {
        verdict,
        improvement,
        noise: Some(spread * MAD_TO_SIGMA),
        blind: false,
        confirmed: true,
        record_from: 0,
        detail,
    })
}

/// What the keep test makes of a candidate's first runs.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Keep(String),
    Discard(String),
    Continue,
}

/// The keep test of `confirm` on the candidate's first `samples`: keep when
/// the one-sided bound on the improvement clears `min_effect`, discard a
/// first run without promise, a later mean under the futility bound, or
/// any candidate at `cap` runs; otherwise run again.
#[allow(clippy::too_many_arguments)]
fn keep_test(
    settings: &Settings,
    tuning: &Tuning,
    best: &[f64],
    samples: &[f64],
    replicates: &[&[f64]],
    sign: f64,
    cap: usize,
) -> (Phase, f64, f64, Option<(f64, f64)>) {
    let min_effect = settings.min_effect.max(0.0);
    let k = samples.len();
    let nb = best.len();
    let improvement =
        sign * (mean(samples).expect("k >= 1") - mean(best).expect("best is not empty"));
    let Some((sigma, df)) = pooled_with(replicates, samples) else {
        return (Phase::Continue, improvement, f64::NAN, None);
    };
    let confidence = check_confidence(settings.confidence).unwrap_or(DEFAULT_CONFIDENCE);
    let se = sigma * (1.0 / k as f64 + 1.0 / nb as f64).sqrt();
    let q = t_quantile(confidence, df);
    let (lower, upper) = (improvement - q * se, improvement + q * se);
    let mut detail = format!(
        "{} by {} ({} one-sided bound {}, noise σ {} on {} df, {} vs {})",
        if improvement >= 0.0 {
            "better"
        } else {
            "worse"
        },
        shown(improvement.abs()),
        percent(confidence),
        shown(lower),
        shown(sigma),
        shown(df),
        runs(k),
        runs(nb),
    );
    let may_keep = k >= (tuning.min_keep_runs.max(1) as usize).min(cap);
    let phase = if may_keep && lower > min_effect {
        Phase::Keep(detail)
    } else if k == 1 && improvement < min_effect + tuning.promise * sigma {
        let _ = write!(
            detail,
            "; no promise: a first run must be better by {}",
            shown(min_effect + tuning.promise * sigma)
        );
        Phase::Discard(detail)
    } else if k >= 2 && improvement < min_effect + tuning.futility * sigma {
        let _ = write!(
            detail,
            "; futile: the mean must stay better by {}",
            shown(min_effect + tuning.futility * sigma)
        );
        Phase::Discard(detail)
    } else if k >= cap {
        let _ = write!(
            detail,
            "; the bound must exceed {} within {}",
            shown(min_effect),
            runs(cap)
        );
        Phase::Discard(detail)
    } else {
        Phase::Continue
    };
    (phase, improvement, upper, Some((sigma, df)))
}

fn runs(n: usize) -> String {
    format!("{n} run{}", if n == 1 { "" } else { "s" })
}

#[allow(clippy::too_many_arguments)]
fn confirm(
    settings: &Settings,
    tuning: &Tuning,
    evidence: &Evidence<'_>,
    sign: f64,
    improvement: f64,
    min_effect: f64,
    k: usize,
    cap: usize,
) -> Step {
    if pooled_with(evidence.replicates, evidence.candidate).is_none() {
        let keep = improvement > min_effect;
        let detail =
            format!(
            "{}: {} by {} (needs more than {}); blind to noise: no commit has repeated runs yet, \
             repeat the baseline to measure it",
            if keep { "keep" } else { "discard" },
            if improvement >= 0.0 { "better" } else { "worse" },
            shown(improvement.abs()),
            shown(min_effect),
        );
        return decide(Decision {
            verdict: if keep {
                Verdict::Supported
            } else {
                Verdict::Refuted
            },
            improvement,
            noise: None,
            blind: true,
            confirmed: false,
            record_from: 0,
            detail,
        });
    }
    let remeasure = (tuning.remeasure as usize).min(cap.saturating_sub(1));
    let test_cap = cap - remeasure;
    let test = |n: usize| {
        keep_test(
            settings,
            tuning,
            evidence.best,
            &evidence.candidate[..n],
            evidence.replicates,
            sign,
            test_cap,
        )
    };
    // The first decisive outcome of the keep test over the runs so far.
    let last = k.min(test_cap);
    let (mut outcome, mut at, mut upper) = (Phase::Continue, last, f64::NAN);
    for n in 1..=last {
        let (phase, _, up, _) = test(n);
        if phase != Phase::Continue {
            (outcome, at, upper) = (phase, n, up);
            break;
        }
    }
    let (sigma, _) = pooled_with(evidence.replicates, evidence.candidate).expect("checked");
    let decision = |verdict, record_from, detail| {
        decide(Decision {
            verdict,
            improvement,
            noise: Some(sigma),
            blind: false,
            confirmed: true,
            record_from,
            detail,
        })
    };
    match outcome {
        Phase::Continue => Step::RunAgain,
        Phase::Keep(_) if k < at + remeasure => Step::RunAgain,
        Phase::Keep(detail) => {
            if remeasure > 0 {
                let fresh = &evidence.candidate[at..];
                let d2 =
                    sign * (mean(fresh).expect("re-measured") - mean(evidence.best).expect("best"));
                let holds = match tuning.recheck {
                    None => true,
                    Some(c2) => {
                        let (_, df) =
                            pooled_with(evidence.replicates, evidence.candidate).expect("checked");
                        let se2 = sigma
                            * (1.0 / fresh.len() as f64 + 1.0 / evidence.best.len() as f64).sqrt();
                        d2 - t_quantile(c2, df) * se2 > min_effect
                    }
                };
                let detail = format!(
                    "{}: {detail}; re-measured over {}: better by {}",
                    if holds { "keep" } else { "discard" },
                    runs(k - at),
                    shown(d2)
                );
                if holds {
                    decision(Verdict::Supported, at, detail)
                } else {
                    decision(Verdict::Inconclusive, 0, detail)
                }
            } else {
                let from = usize::from(tuning.drop_screen && k > 1);
                decision(Verdict::Supported, from, format!("keep: {detail}"))
            }
        }
        Phase::Discard(detail) => {
            let verdict = if upper < min_effect {
                Verdict::Refuted
            } else {
                Verdict::Inconclusive
            };
            decision(verdict, 0, format!("discard: {detail}"))
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn two_stage(
    settings: &Settings,
    tuning: &Tuning,
    evidence: &Evidence<'_>,
    sign: f64,
    improvement: f64,
    k: usize,
    screen: usize,
    cap: usize,
) -> Step {
    let min_effect = settings.min_effect.max(0.0);
    let Some((sigma, df)) = pooled_with(evidence.replicates, evidence.candidate) else {
        return confirm(
            settings,
            tuning,
            evidence,
            sign,
            improvement,
            min_effect,
            k,
            cap,
        );
    };
    let best_mean = mean(evidence.best).expect("best");
    let nb = evidence.best.len();
    let decision = |verdict, record_from, detail: String| {
        decide(Decision {
            verdict,
            improvement,
            noise: Some(sigma),
            blind: false,
            confirmed: true,
            record_from,
            detail,
        })
    };
    let confidence = check_confidence(settings.confidence).unwrap_or(DEFAULT_CONFIDENCE);
    let q = t_quantile(confidence, df);
    let bound = |samples: &[f64]| {
        let d = sign * (mean(samples).expect("samples") - best_mean);
        let se = sigma * (1.0 / samples.len() as f64 + 1.0 / nb as f64).sqrt();
        (d, d - q * se, d + q * se)
    };
    if k >= cap {
        // The final test.
        let confirming = if cap > screen && !tuning.final_on_all {
            &evidence.candidate[screen..]
        } else {
            evidence.candidate
        };
        let (d, lower, upper) = bound(confirming);
        let keep = lower > min_effect;
        let verdict = if keep {
            Verdict::Supported
        } else if upper < min_effect {
            Verdict::Refuted
        } else {
            Verdict::Inconclusive
        };
        let from = if cap > screen && tuning.drop_screen {
            screen
        } else {
            0
        };
        let detail = format!(
            "{}: better by {} (bound {}), noise σ {}",
            if keep { "keep" } else { "discard" },
            shown(d),
            shown(lower),
            shown(sigma)
        );
        return decision(verdict, if keep { from } else { 0 }, detail);
    }
    if k == screen {
        if improvement < min_effect + tuning.promise * sigma {
            let (_, _, upper) = bound(evidence.candidate);
            let verdict = if upper < min_effect {
                Verdict::Refuted
            } else {
                Verdict::Inconclusive
            };
            return decision(
                verdict,
                0,
                format!("discard: no promise, better by {}", shown(improvement)),
            );
        }
        return Step::RunAgain;
    }
    if improvement < min_effect + tuning.futility * sigma {
        let (_, _, upper) = bound(evidence.candidate);
        let verdict = if upper < min_effect {
            Verdict::Refuted
        } else {
            Verdict::Inconclusive
        };
        return decision(
            verdict,
            0,
            format!("discard: futile, better by {}", shown(improvement)),
        );
    }
    Step::RunAgain
}

/// Pooled within-group standard deviation of the replicate groups (groups
/// with fewer than 2 samples add nothing) and its degrees of freedom; `None`
/// without any.
pub fn pooled_noise(groups: &[&[f64]]) -> Option<(f64, f64)> {
    pooled_with(groups, &[])
}

/// [`pooled_noise`] of `groups` and one more group.
fn pooled_with(groups: &[&[f64]], extra: &[f64]) -> Option<(f64, f64)> {
    let mut ss = 0.0;
    let mut df = 0usize;
    for g in groups.iter().copied().chain(std::iter::once(extra)) {
        if g.len() < 2 {
            continue;
        }
        let m = mean(g).expect("non-empty");
        ss += g.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
        df += g.len() - 1;
    }
    (df > 0).then(|| ((ss / df as f64).sqrt(), df as f64))
}

/// The honest estimate of the kept commit's value: the mean of its samples
/// with a two-sided Student-t confidence interval, on the pooled noise
/// `(σ, df)` when given, else on the samples' own sd. `None` without
/// samples, with one sample and no noise, or with a confidence outside
/// (0, 1).
pub fn estimate(
    samples: &[f64],
    noise: Option<(f64, f64)>,
    confidence: f64,
) -> Option<(f64, (f64, f64))> {
    check_confidence(confidence).ok()?;
    let m = mean(samples)?;
    let n = samples.len();
    let (sigma, df) = match noise {
        Some((s, df)) if df > 0.0 => (s, df),
        _ => {
            let own = pooled_with(&[], samples)?;
            (own.0, own.1)
        }
    };
    let h = t_quantile((1.0 + confidence) / 2.0, df) * sigma / (n as f64).sqrt();
    Some((m, (m - h, m + h)))
}

fn mean(xs: &[f64]) -> Option<f64> {
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
fn mad_of(values: &[f64]) -> f64 {
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
fn t_quantile(p: f64, df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(p))
        .unwrap_or(f64::NAN)
}

/// `x` to four significant digits, in the kernel's number format.
fn shown(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return fmt_number(x);
    }
    let rounded = format!("{:.*e}", SHOWN_DIGITS - 1, x).parse().unwrap_or(x);
    fmt_number(rounded)
}

/// `0.95` → `95%`.
fn percent(confidence: f64) -> String {
    format!("{}%", shown(confidence * 100.0))
}
