//! The keep-if-better ratchet behind `arx try`: after each run of a
//! candidate, run it again or decide whether it beats the kept commit.
//!
//! Four rules are offered.
//!
//! - `strict` is the naive ratchet: one run, kept when that sample beats the
//!   best sample seen so far. Noise is read as a win whenever one sample is
//!   lucky, and the recorded best is the luckiest sample (the winner's curse).
//! - `mad` adds a MAD "confidence" check: the candidate must also stand at
//!   least two median absolute deviations of the segment's values away from
//!   the baseline.
//! - `sequential`, the default: a group-sequential test, false-keep rate
//!   the `confidence` a user sets (`sequential_rule.rs`).
//! - `confirm` screens and then confirms. The first run (or
//!   the first `repeat` runs) must beat the kept commit's mean by
//!   [`PROMISE`] σ of the pooled run-to-run noise, or the candidate is
//!   discarded at once: most changes cost one run. A promising candidate is
//!   run again up to `max_runs` (one run fewer once the noise is well
//!   measured, see [`SETTLED_DF`]), dropped as soon as its mean falls under
//!   [`FUTILITY`] σ, and kept when a one-sided Student-t bound at
//!   `confidence` on its improvement over all its runs clears `min_effect`.
//!   The kept commit's record, the value later candidates must beat, is the
//!   mean of its confirmation runs only: the screen chose the candidate and
//!   would flatter it.
//!
//! The constants of `confirm` were tuned with `examples/ratchet_sim.rs`,
//! which plays whole loops of 200 runs against streams of candidate changes
//! of known true effect and checks the rule against `strict` at equal
//! compute (see BENCHMARKS.md, "Ratchet decision rules").
//!
//! Pure like the rest of the kernel: samples in, a step out.

use super::instances::{InstanceEvidence, PerInstance};
use super::names::str_enum;
use super::number::fmt_number;
pub use super::paired::Seeds;
use super::paired::{self, Paired};
pub use super::ratchet_noise::segment_noise;
pub use super::ratchet_noise::{estimate, pooled_noise, standing_of, Standing, STANDING_BAND};
use super::ratchet_noise::{mad_of, mean, pooled_with, t_quantile};
use super::stats::Direction;
use super::verdict::Verdict;

pub mod basis;
mod per_instance;
mod robust;
mod words;
pub use basis::Basis;
use words::{better, percent, recorded, runs, shown};
pub mod sequential;
mod sequential_rule;
pub use sequential_rule::{next_step_sequential, SeqTuning, SEQUENTIAL_MAX_RUNS, TOP_UP};

/// Default confidence of a keep: under `sequential`, a change no better
/// than the best is kept 1 − confidence of the time (measured).
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// Default cap on the runs of one candidate (the command's `--max-runs`
/// default): one screening run and up to four confirmation runs. Tuned by
/// `examples/ratchet_sim.rs`.
pub const DEFAULT_MAX_RUNS: u32 = 5;

/// Default minimum runs of a candidate (the command's `--repeat` default).
pub const DEFAULT_REPEAT: u32 = 1;

/// Promise of the screen, in units of the run-to-run noise σ: a candidate
/// whose screening run does not beat the kept commit's mean by `min_effect`
/// plus this much is discarded without another run. Tuned by
/// `examples/ratchet_sim.rs`.
pub const PROMISE: f64 = 0.85;

/// Futility bound, in units of σ: during confirmation, a candidate whose
/// mean (over all its runs) no longer beats the kept commit's mean by
/// `min_effect` plus this much is discarded. Tuned by
/// `examples/ratchet_sim.rs`.
pub const FUTILITY: f64 = 1.0;

/// Degrees of freedom of the pooled noise from which the noise counts as
/// well measured: confirmation then stops one run short of `max_runs` (never
/// under two confirmation runs). While the noise rests on a few runs, its
/// Student-t quantiles are wide and every confirmation run counts. Tuned by
/// `examples/ratchet_sim.rs`.
pub const SETTLED_DF: f64 = 20.0;

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
        /// Screen, then confirmation runs and a one-sided Student-t keep
        /// test on pooled noise.
        Confirm => "confirm",
        /// One run; kept when it beats the best sample so far (the naive
        /// ratchet).
        Strict => "strict",
        /// One run; kept when it beats the best sample and stands at least
        /// two MADs of the segment's values away from the baseline.
        Mad => "mad",
        /// A group-sequential test whose false-keep rate is `1 −
        /// confidence`, the kept commit recorded by runs it was not chosen
        /// on (`sequential_rule.rs`); arx's default.
        #[default]
        Sequential => "sequential",
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
    /// Smallest improvement worth keeping, in metric units (≥ 0; a negative
    /// value counts as 0).
    pub min_effect: f64,
    /// One-sided confidence of the `confirm` keep test, in (0, 1); an
    /// invalid value falls back to [`DEFAULT_CONFIDENCE`].
    pub confidence: f64,
    /// Minimum runs of a candidate (≥ 1; 0 counts as 1). Under `confirm`
    /// they form the screen.
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

/// The constants of the `confirm` rule. [`next_step`] uses
/// [`Tuning::DEFAULT`]; the simulation explores others through
/// [`next_step_tuned`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// See [`PROMISE`].
    pub promise: f64,
    /// See [`FUTILITY`].
    pub futility: f64,
    /// See [`SETTLED_DF`].
    pub settled_df: f64,
}

impl Tuning {
    /// The constants `arx try` uses.
    pub const DEFAULT: Tuning = Tuning {
        promise: PROMISE,
        futility: FUTILITY,
        settled_df: SETTLED_DF,
    };
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::DEFAULT
    }
}

/// The samples a decision looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Evidence<'a> {
    /// Recorded samples of the kept commit: the baseline's repeats, or the
    /// kept candidate's runs from its [`Decision::record_from`] on.
    pub best: &'a [f64],
    /// This candidate's samples so far (successful runs only).
    pub candidate: &'a [f64],
    /// Every group of repeated samples in the segment before this candidate
    /// (each group = all runs of one commit, the kept commit's included),
    /// for the noise estimate. The rule adds the candidate's own runs (a
    /// group that is the `candidate` slice itself is not counted twice).
    pub replicates: &'a [&'a [f64]],
    /// Every metric value in the segment before this candidate, in journal
    /// order: the first is the baseline's first run. For the `mad` rule,
    /// which adds the candidate's runs itself.
    pub segment_values: &'a [f64],
    /// The samples' seeds, under paired seeds ([`Seeds::NONE`] otherwise).
    pub seeds: Seeds<'a>,
    /// Per-instance scores (`[objective] instances`): the `confirm` rule
    /// decides on them when every candidate run and a run of the best
    /// scored instances in common; `None` decides on the aggregate.
    pub instances: Option<InstanceEvidence<'a>>,
}

/// Run the candidate again, or decide.
#[allow(clippy::large_enum_variant)] // one per run, matched at once: never worth a box
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
    /// When kept: the kept commit's record (its estimate, and the `best` of
    /// later decisions) is `candidate[record_from..]`. Under `confirm` these
    /// are the confirmation runs; otherwise, and when discarded, 0.
    pub record_from: usize,
    /// When the per-instance test decided: the instances paired.
    pub per_instance: Option<PerInstance>,
    /// One line a person reads.
    pub detail: String,
    /// The decision compared runs of the same seed ([`paired`]).
    pub paired: Option<Paired>,
    /// What it weighed: the line's value, "vs" and change ([`basis`]).
    pub basis: Option<Basis>,
}

impl Decision {
    /// Whether the candidate is kept.
    pub fn keep(&self) -> bool {
        self.verdict == Verdict::Supported
    }
}

/// How `decision` stands, from its improvement (positive = better), its
/// noise σ of one run, and the runs behind each side: the candidate's `k`
/// and the best's `nb`. The band is [`STANDING_BAND`] standard errors of
/// the difference of the two means.
pub fn standing(decision: &Decision, k: usize, nb: usize) -> Standing {
    standing_of(
        decision.improvement,
        decision.noise.filter(|_| !decision.blind),
        decision.keep(),
        k,
        nb,
    )
}

/// After a run of a candidate: run it again, or decide, by `rule`.
///
/// `RunAgain` only while `candidate.len() < max_runs` (raised to `repeat`),
/// and always while `candidate.len() < repeat`. `strict` and `mad` decide
/// as soon as there are `repeat` runs.
/// The candidate's samples so far are better on average than the best's:
/// a candidate still being measured whose best moved is replayed onto the
/// new best at once when it leans better (it would otherwise have to win
/// against the old best, then again against the new one), and finishes
/// against the old best otherwise (a loser needs no replay).
pub fn leans_better(candidate: &[f64], best: &[f64], direction: Direction) -> bool {
    match (mean(candidate), mean(best)) {
        (Some(c), Some(b)) => match direction {
            Direction::Max => c > b,
            Direction::Min => c < b,
        },
        _ => false,
    }
}

pub fn next_step(rule: Rule, settings: &Settings, evidence: &Evidence<'_>) -> Step {
    next_step_tuned(rule, settings, &Tuning::DEFAULT, evidence)
}

/// [`next_step`] with the `confirm` rule's constants given (`strict` and
/// `mad` ignore them).
pub fn next_step_tuned(
    rule: Rule,
    settings: &Settings,
    tuning: &Tuning,
    evidence: &Evidence<'_>,
) -> Step {
    robust::robust(evidence, |evidence| {
        let k = evidence.candidate.len();
        let repeat = settings.repeat.max(1) as usize;
        if k < repeat {
            return Step::RunAgain;
        }
        let Some(best_mean) = mean(evidence.best) else {
            return Step::Decide(Decision {
                verdict: Verdict::Inconclusive,
                improvement: f64::NAN,
                noise: None,
                blind: true,
                confirmed: false,
                record_from: 0,
                paired: None,
                per_instance: None,
                basis: None,
                detail: "discard: the kept commit has no recorded runs to compare with".to_string(),
            });
        };
        let ctx = Ctx {
            settings,
            evidence,
            sign: match settings.direction {
                Direction::Max => 1.0,
                Direction::Min => -1.0,
            },
            best_mean,
            min_effect: settings.min_effect.max(0.0),
        };
        match rule {
            Rule::Strict => ctx.strict(),
            Rule::Mad => ctx.mad(),
            Rule::Confirm => {
                let cap = (settings.max_runs as usize).max(repeat);
                ctx.confirm(tuning, repeat, cap)
            }
            Rule::Sequential => {
                let max_runs = match settings.max_runs {
                    DEFAULT_MAX_RUNS => SEQUENTIAL_MAX_RUNS,
                    n => n,
                };
                ctx.sequential(&SeqTuning::DEFAULT, repeat, (max_runs as usize).max(repeat))
            }
        }
    })
}

/// What every rule needs, computed once.
struct Ctx<'s, 'e> {
    settings: &'s Settings,
    evidence: &'s Evidence<'e>,
    /// +1 when higher is better, −1 when lower is.
    sign: f64,
    best_mean: f64,
    min_effect: f64,
}

impl Ctx<'_, '_> {
    /// Mean of `samples` minus the kept mean, positive = better.
    fn improvement(&self, samples: &[f64]) -> f64 {
        self.sign * (mean(samples).expect("samples") - self.best_mean)
    }

    /// The best single recorded sample of the kept commit.
    fn best_sample(&self) -> f64 {
        let sign = self.sign;
        self.evidence
            .best
            .iter()
            .copied()
            .max_by(|a, b| (sign * a).total_cmp(&(sign * b)))
            .expect("best is not empty")
    }

    /// "run 0.93" or "mean 0.93 of 3 runs".
    fn what(&self) -> String {
        let c = self.evidence.candidate;
        let m = shown(mean(c).expect("samples"));
        if c.len() == 1 {
            format!("run {m}")
        } else {
            format!("mean {m} of {}", runs(c.len()))
        }
    }

    /// No noise measured: only a change beyond `min_effect` counts.
    fn blind(&self, d: f64) -> Step {
        let keep = d > self.min_effect;
        Step::Decide(Decision {
            verdict: if keep {
                Verdict::Supported
            } else {
                Verdict::Refuted
            },
            improvement: d,
            noise: None,
            blind: true,
            confirmed: false,
            record_from: 0,
            paired: None,
            per_instance: None,
            basis: self.basis(false),
            detail: format!(
                "{}: {} (needs more than {}); blind to noise: no commit has \
                 repeated runs yet (repeat the baseline to measure the noise)",
                if keep { "keep" } else { "discard" },
                better(d),
                shown(self.min_effect),
            ),
        })
    }

    /// The naive ratchet: the candidate's mean against the best sample.
    fn strict(&self) -> Step {
        let best = self.best_sample();
        let cand = mean(self.evidence.candidate).expect("samples");
        let over = self.sign * (cand - best);
        let keep = over > self.min_effect;
        let blind = pooled_with(self.evidence.replicates, self.evidence.candidate).is_none();
        let detail = format!(
            "{}: {} {} the best sample {} by {} (needs more than {}); strict rule, unconfirmed",
            if keep { "keep" } else { "discard" },
            self.what(),
            if over >= 0.0 { "beats" } else { "trails" },
            shown(best),
            shown(over.abs()),
            shown(self.min_effect),
        );
        Step::Decide(Decision {
            verdict: if keep {
                Verdict::Supported
            } else {
                Verdict::Refuted
            },
            improvement: self.improvement(self.evidence.candidate),
            noise: None,
            blind,
            confirmed: false,
            record_from: 0,
            paired: None,
            per_instance: None,
            basis: self.basis(false),
            detail,
        })
    }

    /// Beat the best sample and stand two MADs of the segment's values from
    /// the baseline (the segment's first value). Without spread (fewer than
    /// three values, or a MAD of zero) it decides blind, like `strict`.
    fn mad(&self) -> Step {
        let best = self.best_sample();
        let cand = mean(self.evidence.candidate).expect("samples");
        let over = self.sign * (cand - best);
        let beats = over > self.min_effect;
        let mut values = self.evidence.segment_values.to_vec();
        values.extend_from_slice(self.evidence.candidate);
        let baseline = values[0];
        let spread = Some(mad_of(&values)).filter(|m| values.len() >= MAD_MIN_VALUES && *m > 0.0);
        let lead = format!(
            "{} {} the best sample {} by {}",
            self.what(),
            if over >= 0.0 { "beats" } else { "trails" },
            shown(best),
            shown(over.abs()),
        );
        let improvement = self.improvement(self.evidence.candidate);
        let Some(spread) = spread else {
            return Step::Decide(Decision {
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
                paired: None,
                per_instance: None,
                basis: self.basis(false),
                detail: format!(
                    "{}: {lead}; blind to noise: the segment's values have no spread yet",
                    if beats { "keep" } else { "discard" },
                ),
            });
        };
        let confidence = (cand - baseline).abs() / spread;
        let keep = beats && confidence >= MAD_CONFIDENCE;
        Step::Decide(Decision {
            verdict: if keep {
                Verdict::Supported
            } else if !beats {
                Verdict::Refuted
            } else {
                Verdict::Inconclusive
            },
            improvement,
            noise: Some(spread * MAD_TO_SIGMA),
            blind: false,
            confirmed: true,
            record_from: 0,
            paired: None,
            per_instance: None,
            basis: self.basis(false),
            detail: format!(
                "{}: {lead}; {} MADs ({}) from the baseline {} (needs {})",
                if keep { "keep" } else { "discard" },
                shown(confidence),
                shown(spread),
                shown(baseline),
                fmt_number(MAD_CONFIDENCE),
            ),
        })
    }

    /// Screen `screen` runs, confirm up to `cap`.
    fn confirm(&self, tuning: &Tuning, screen: usize, cap: usize) -> Step {
        let cand = self.evidence.candidate;
        let k = cand.len();
        let d = self.improvement(cand);
        let me = self.min_effect;
        let (sigma, df, confidence) = match self.aggregate_noise(d, cap) {
            Ok(noise) => noise,
            Err(step) => return *step,
        };
        let nb = self.evidence.best.len();
        let q = t_quantile(confidence, df);
        let se = sigma * (1.0 / k as f64 + 1.0 / nb as f64).sqrt();
        let (mut d, mut lower, mut upper) = (d, d - q * se, d + q * se);
        let mut noise = format!("noise σ {} on {} df", shown(sigma), shown(df));
        // A well-measured noise saves the last confirmation run (at least
        // two are always left).
        let cap = if cap >= screen + 3 && df >= tuning.settled_df {
            cap - 1
        } else {
            cap
        };
        // So does a well-measured, established pairing: two confirmation
        // runs.
        let (ev, mut bar_sd) = (self.evidence, sigma);
        let scale = paired::Scale {
            sign: self.sign,
            sigma,
            df,
            best_runs: nb,
            confidence,
        };
        let cap = match paired::settled(&ev.seeds, &scale) {
            true => cap.min(screen + 2),
            false => cap,
        };
        // Under paired seeds, a step compares runs of the same seed when
        // the pairing is established (`kernel::paired`).
        let view = if k >= cap {
            let test = paired::keep_test(&ev.seeds, cand, &scale);
            if let Some((_, lo, hi)) = test {
                (lower, upper) = (lo, hi);
            }
            test.map(|(v, _, _)| v)
        } else {
            paired::stage(&ev.seeds, cand, &scale)
        };
        if let Some(v) = &view {
            (d, bar_sd) = (v.d, v.sd);
            noise = format!("{}, difference σ {}; {noise}", v.note(), shown(v.sd));
        }
        // Paired, but no difference's noise measured yet: the screen asks
        // only that the candidate be better at the same seeds.
        let lean = (k == screen && view.is_none())
            .then(|| paired::lean(&ev.seeds, cand, self.sign))
            .flatten();
        d = lean.unwrap_or(d);
        let decide = |keep: bool, record_from: usize, detail: String| {
            Step::Decide(Decision {
                verdict: if keep {
                    Verdict::Supported
                } else if upper < me {
                    Verdict::Refuted
                } else {
                    Verdict::Inconclusive
                },
                improvement: d,
                noise: Some(sigma),
                blind: false,
                confirmed: true,
                record_from,
                per_instance: None,
                detail,
                paired: view.map(|v| v.paired),
                basis: self.basis(view.is_some() || lean.is_some()),
            })
        };
        if k >= cap {
            // The keep test, on every run of the candidate; the record
            // leaves out the screen, which chose the candidate.
            let keep = lower > me;
            let from = if cap > screen { screen } else { 0 };
            let record = if keep && from > 0 {
                recorded(&cand[from..])
            } else {
                String::new()
            };
            let detail = format!(
                "{}: {} over {} vs {} of the kept commit; {} one-sided bound {} {} {}{record}; {noise}",
                if keep { "keep" } else { "discard" },
                better(d),
                runs(k),
                runs(nb),
                percent(confidence),
                shown(lower),
                if keep { "clears" } else { "does not clear" },
                shown(me),
            );
            return decide(keep, if keep { from } else { 0 }, detail);
        }
        if lean.is_some() {
            if d > me {
                return Step::RunAgain;
            }
            let detail = format!(
                "discard: {} {} at the same seeds; {noise}",
                self.what(),
                better(d)
            );
            return decide(false, 0, detail);
        }
        let (bar, stage) = if k == screen {
            (tuning.promise, "promise")
        } else {
            (tuning.futility, "futility bound")
        };
        let needed = me + bar * bar_sd;
        if d < needed {
            return decide(
                false,
                0,
                format!(
                    "discard: {} {}, short of the {stage} {} ({}σ); {noise}",
                    self.what(),
                    better(d),
                    shown(needed),
                    fmt_number(bar),
                ),
            );
        }
        Step::RunAgain
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Five baseline runs with mean 0 and sd 1 (sum of squares 4, 4 df).
    pub(super) const BASELINE: [f64; 5] = [-1.0, -1.0, 0.0, 1.0, 1.0];

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * (1.0 + b.abs())
    }

    /// Higher is better, at the confidence `confirm` was tuned at (0.85;
    /// the default, 0.95, is the `sequential` rule's).
    fn max_settings() -> Settings {
        Settings {
            confidence: 0.85,
            ..Settings::new(Direction::Max)
        }
    }

    /// Decide `candidate` against the baseline (as the kept commit and the
    /// only replicate group).
    pub(super) fn step(rule: Rule, settings: &Settings, candidate: &[f64]) -> Step {
        let replicates: [&[f64]; 1] = [&BASELINE];
        next_step(
            rule,
            settings,
            &Evidence {
                best: &BASELINE,
                candidate,
                replicates: &replicates,
                segment_values: &BASELINE,
                seeds: Seeds::NONE,
                instances: None,
            },
        )
    }

    pub(super) fn decided(s: Step) -> Decision {
        match s {
            Step::Decide(d) => d,
            Step::RunAgain => panic!("expected a decision, got RunAgain"),
        }
    }

    #[test]
    fn a_chance_correlation_of_a_few_pairs_does_not_decide_paired() {
        // The best: five runs, mean 0, sd 1 (the run noise, 4 df), seeds 1..5.
        let best = [-1.0, -1.0, 0.0, 1.0, 1.0];
        let best_seeds: Vec<Option<u64>> = (1..=5).map(Some).collect();
        // One earlier try's differences, variance 1.3: ρ estimated at
        // 1 − 1.3 / 2 = 0.35 on 2 df, which independent runs give about
        // half the time.
        let a = 1.3f64.sqrt();
        let history: [&[f64]; 1] = [&[-a, 0.0, a]];
        let replicates: [&[f64]; 1] = [&best];
        // The candidate's screening run, 0.5: 1.5 better than the best's
        // run at its seed, but only 0.5 better than the best's mean, short
        // of the screen's 0.85σ.
        let candidate = [0.5];
        let evidence = Evidence {
            best: &best,
            candidate: &candidate,
            replicates: &replicates,
            segment_values: &best,
            seeds: Seeds {
                best: &best,
                best_seeds: &best_seeds,
                candidate: &best_seeds[..1],
                history: &history,
            },
            instances: None,
        };
        let step = next_step(Rule::Confirm, &Settings::new(Direction::Max), &evidence);
        let Step::Decide(d) = step else {
            panic!("a chance correlation decided paired: {step:?}");
        };
        assert!(!d.keep() && d.paired.is_none(), "{d:?}");
        assert!((d.improvement - 0.5).abs() < 1e-12, "{d:?}");
    }

    #[test]
    fn rules_are_named_and_sequential_is_the_default() {
        assert_eq!(Rule::default(), Rule::Sequential);
        for rule in Rule::ALL {
            assert_eq!(rule.name().parse::<Rule>(), Ok(*rule));
            assert_eq!(rule.to_string(), rule.name());
        }
        assert_eq!(
            ["confirm", "strict", "mad", "sequential"],
            [
                Rule::Confirm.name(),
                Rule::Strict.name(),
                Rule::Mad.name(),
                Rule::Sequential.name()
            ]
        );
        assert_eq!(
            "naive".parse::<Rule>().unwrap_err(),
            r#"unknown rule "naive" (expected confirm, strict, mad or sequential)"#
        );
    }

    #[test]
    fn every_rule_runs_again_until_repeat() {
        let mut settings = max_settings();
        settings.repeat = 3;
        for rule in Rule::ALL {
            assert_eq!(step(*rule, &settings, &[]), Step::RunAgain, "{rule}");
            assert_eq!(step(*rule, &settings, &[9.0]), Step::RunAgain, "{rule}");
            assert_eq!(
                step(*rule, &settings, &[9.0, 9.0]),
                Step::RunAgain,
                "{rule}"
            );
        }
        // Then strict and mad decide; confirm has screened three runs and
        // confirms a promising candidate, discards another.
        assert!(matches!(
            step(Rule::Strict, &settings, &[9.0; 3]),
            Step::Decide(_)
        ));
        assert!(matches!(
            step(Rule::Mad, &settings, &[9.0; 3]),
            Step::Decide(_)
        ));
        assert_eq!(step(Rule::Confirm, &settings, &[9.0; 3]), Step::RunAgain);
        assert!(!decided(step(Rule::Confirm, &settings, &[0.1, 0.0, -0.1])).keep());
        // `repeat` above `max_runs` wins: three runs, then the keep test.
        settings.max_runs = 1;
        assert_eq!(step(Rule::Confirm, &settings, &[9.0, 9.0]), Step::RunAgain);
        let d = decided(step(Rule::Confirm, &settings, &[9.0, 8.9, 9.1]));
        assert!(d.keep());
        assert_eq!(d.record_from, 0);
    }

    #[test]
    fn run_again_only_below_max_runs() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for max_runs in 1..=6u32 {
            let mut settings = max_settings();
            settings.max_runs = max_runs;
            for _ in 0..200 {
                // Promising candidates of every size: each would run again
                // if the cap allowed.
                let c: Vec<f64> = (0..max_runs).map(|_| 1.2 + rng.random::<f64>()).collect();
                let d = decided(step(Rule::Confirm, &settings, &c));
                assert!(d.improvement > 0.0);
            }
        }
    }

    #[test]
    fn strict_decides_on_the_first_run_against_the_best_sample() {
        let s = max_settings();
        // The best sample is 1: a run of 1 does not beat it, 1.01 does.
        let d = decided(step(Rule::Strict, &s, &[1.0]));
        assert_eq!(d.verdict, Verdict::Refuted);
        let d = decided(step(Rule::Strict, &s, &[1.01]));
        assert_eq!(d.verdict, Verdict::Supported);
        assert!(!d.confirmed && !d.blind && d.noise.is_none());
        assert!(close(d.improvement, 1.01));
        assert_eq!(d.record_from, 0);
        assert!(
            d.detail
                .starts_with("keep: run 1.01 beats the best sample 1"),
            "{}",
            d.detail
        );
        // Beyond min_effect only.
        let s = Settings {
            min_effect: 0.05,
            ..max_settings()
        };
        assert_eq!(
            decided(step(Rule::Strict, &s, &[1.04])).verdict,
            Verdict::Refuted
        );
        assert_eq!(
            decided(step(Rule::Strict, &s, &[1.06])).verdict,
            Verdict::Supported
        );
        // Lower is better: the best sample is −1.
        let s = Settings::new(Direction::Min);
        assert_eq!(
            decided(step(Rule::Strict, &s, &[-0.9])).verdict,
            Verdict::Refuted
        );
        let d = decided(step(Rule::Strict, &s, &[-1.1]));
        assert_eq!(d.verdict, Verdict::Supported);
        assert!(close(d.improvement, 1.1));
    }

    #[test]
    fn strict_is_blind_without_replicates() {
        let d = decided(next_step(
            Rule::Strict,
            &max_settings(),
            &Evidence {
                best: &[2.0],
                candidate: &[2.5],
                replicates: &[&[2.0]],
                segment_values: &[2.0],
                seeds: Seeds::NONE,
                instances: None,
            },
        ));
        assert!(d.keep() && d.blind && !d.confirmed);
    }

    #[test]
    fn confirm_decides_blind_without_any_replicate() {
        let singles: [&[f64]; 2] = [&[2.0], &[1.5]];
        let ev = |candidate| Evidence {
            best: &[2.0],
            candidate,
            replicates: &singles,
            segment_values: &[2.0, 1.5],
            seeds: Seeds::NONE,
            instances: None,
        };
        let s = max_settings();
        let d = decided(next_step(Rule::Confirm, &s, &ev(&[2.5])));
        assert_eq!(d.verdict, Verdict::Supported);
        assert!(d.blind && !d.confirmed && d.noise.is_none());
        assert!(d.detail.contains("blind to noise"), "{}", d.detail);
        let d = decided(next_step(Rule::Confirm, &s, &ev(&[2.0])));
        assert_eq!(d.verdict, Verdict::Refuted);
        assert!(d.blind);
        let s = Settings {
            min_effect: 0.5,
            ..max_settings()
        };
        assert!(!decided(next_step(Rule::Confirm, &s, &ev(&[2.5]))).keep());
        assert!(decided(next_step(Rule::Confirm, &s, &ev(&[2.6]))).keep());
        // Lower is better.
        let s = Settings::new(Direction::Min);
        assert!(decided(next_step(Rule::Confirm, &s, &ev(&[1.9]))).keep());
        assert!(!decided(next_step(Rule::Confirm, &s, &ev(&[2.1]))).keep());
    }

    #[test]
    fn repeated_candidate_runs_measure_the_noise() {
        let mut s = max_settings();
        s.repeat = 2;
        let d = next_step(
            Rule::Confirm,
            &s,
            &Evidence {
                best: &[2.0],
                candidate: &[2.4, 2.6],
                replicates: &[&[2.0]],
                segment_values: &[2.0],
                seeds: Seeds::NONE,
                instances: None,
            },
        );
        // σ = 0.1414 from the candidate's own runs: promising, so confirm.
        assert_eq!(d, Step::RunAgain);
    }

    #[test]
    fn the_candidate_counts_once_in_the_noise() {
        let candidate = [2.4, 2.6, 2.5];
        let with_it: [&[f64]; 2] = [&BASELINE, &candidate];
        let without: [&[f64]; 1] = [&BASELINE];
        let ev = |replicates| Evidence {
            best: &BASELINE,
            candidate: &candidate,
            replicates,
            segment_values: &BASELINE,
            seeds: Seeds::NONE,
            instances: None,
        };
        let s = max_settings();
        let a = decided(next_step(
            Rule::Confirm,
            &Settings { max_runs: 3, ..s },
            &ev(&with_it),
        ));
        let b = decided(next_step(
            Rule::Confirm,
            &Settings { max_runs: 3, ..s },
            &ev(&without),
        ));
        assert_eq!(a, b);
        // σ = sqrt((4 + 0.02) / 6).
        assert!(close(a.noise.unwrap(), (4.02f64 / 6.0).sqrt()));
    }

    #[test]
    fn confirm_screens_a_first_run_without_promise() {
        let s = max_settings();
        // σ = 1 (the baseline's) on 4 df: the promise is 0.85.
        let d = decided(step(Rule::Confirm, &s, &[0.84]));
        assert_eq!(d.verdict, Verdict::Inconclusive);
        assert!(d.confirmed && !d.blind);
        assert_eq!(d.noise, Some(1.0));
        assert_eq!(d.record_from, 0);
        assert!(
            d.detail
                .starts_with("discard: run 0.84 better by 0.84, short of the promise 0.85 (0.85σ)"),
            "{}",
            d.detail
        );
        assert_eq!(step(Rule::Confirm, &s, &[0.86]), Step::RunAgain);
        // Clearly worse: refuted.
        assert_eq!(
            decided(step(Rule::Confirm, &s, &[-6.0])).verdict,
            Verdict::Refuted
        );
        // min_effect raises the bar.
        let s = Settings {
            min_effect: 0.5,
            ..max_settings()
        };
        assert!(matches!(step(Rule::Confirm, &s, &[1.3]), Step::Decide(_)));
        assert_eq!(step(Rule::Confirm, &s, &[1.4]), Step::RunAgain);
        // Lower is better.
        let s = Settings::new(Direction::Min);
        assert_eq!(step(Rule::Confirm, &s, &[-0.86]), Step::RunAgain);
        assert!(matches!(step(Rule::Confirm, &s, &[-0.84]), Step::Decide(_)));
    }

    #[test]
    fn confirm_drops_a_futile_candidate() {
        let s = max_settings();
        // Mean 0.7 after two runs; the futility bound is 1σ, and σ pooled
        // with the candidate's runs is sqrt(4.18 / 5) = 0.914.
        let d = decided(step(Rule::Confirm, &s, &[1.0, 0.4]));
        assert_eq!(d.verdict, Verdict::Inconclusive);
        assert!(
            d.detail.starts_with("discard: mean 0.7 of 2 runs better by 0.7, short of the futility bound 0.9143 (1σ)"),
            "{}",
            d.detail
        );
        // σ = sqrt(4 / 5) = 0.894 and then sqrt(4 / 6) = 0.816: still going.
        assert_eq!(step(Rule::Confirm, &s, &[1.0, 1.0]), Step::RunAgain);
        assert_eq!(step(Rule::Confirm, &s, &[1.0, 1.0, 1.0]), Step::RunAgain);
    }

    #[test]
    fn confirm_keeps_on_the_bound_and_records_the_confirmation_runs() {
        let s = max_settings();
        assert_eq!(
            step(Rule::Confirm, &s, &[2.5, 2.0, 2.2, 1.8]),
            Step::RunAgain
        );
        let d = decided(step(Rule::Confirm, &s, &[2.5, 2.0, 2.2, 1.8, 2.0]));
        assert_eq!(d.verdict, Verdict::Supported);
        assert!(d.confirmed && !d.blind);
        assert_eq!(d.record_from, 1);
        assert!(close(d.improvement, 2.1));
        assert_eq!(
            d.detail,
            "keep: better by 2.1 over 5 runs vs 5 runs of the kept commit; 85% one-sided \
             bound 1.587 clears 0; recorded as the mean of its 4 confirmation runs, 2; \
             noise σ 0.7314 on 8 df"
        );
        // Past the screen and the futility bounds, but the bound does not
        // clear min_effect at the last run: discarded, not refuted.
        let s = Settings {
            min_effect: 0.5,
            ..max_settings()
        };
        for n in 1..5 {
            let c = &[1.5, 1.5, 1.4, 1.5][..n];
            assert_eq!(step(Rule::Confirm, &s, c), Step::RunAgain, "{c:?}");
        }
        let d = decided(step(Rule::Confirm, &s, &[1.5, 1.5, 1.4, 1.5, -0.5]));
        assert_eq!(d.verdict, Verdict::Inconclusive);
        assert_eq!(d.record_from, 0);
        assert!(
            d.detail.contains("bound 0.4184 does not clear 0.5"),
            "{}",
            d.detail
        );
        // With a single run allowed, the screen is the whole test:
        // t_{0.85, 4} · sqrt(1 + 1/5) = 1.30.
        let s = Settings {
            max_runs: 1,
            ..max_settings()
        };
        let d = decided(step(Rule::Confirm, &s, &[1.4]));
        assert!(d.keep());
        assert_eq!(d.record_from, 0);
        assert!(!decided(step(Rule::Confirm, &s, &[1.2])).keep());
    }

    #[test]
    fn a_well_measured_noise_saves_the_last_confirmation_run() {
        // 29 more df from a commit run thirty times (σ about 1).
        let many: Vec<f64> = (0..30)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let replicates: [&[f64]; 2] = [&BASELINE, &many];
        let ev = |candidate| Evidence {
            best: &BASELINE,
            candidate,
            replicates: &replicates,
            segment_values: &BASELINE,
            seeds: Seeds::NONE,
            instances: None,
        };
        let c = [2.5, 2.0, 2.2, 1.8];
        let d = decided(next_step(Rule::Confirm, &max_settings(), &ev(&c)));
        assert!(d.keep());
        assert_eq!(d.record_from, 1);
        // With the baseline alone (4 df), the fifth run is asked for.
        assert_eq!(step(Rule::Confirm, &max_settings(), &c), Step::RunAgain);
        // Never below two confirmation runs: with three runs at most, all
        // three are used.
        let s = Settings {
            max_runs: 3,
            ..max_settings()
        };
        assert_eq!(next_step(Rule::Confirm, &s, &ev(&c[..2])), Step::RunAgain);
        assert!(decided(next_step(Rule::Confirm, &s, &ev(&c[..3]))).keep());
    }

    #[test]
    fn confirm_is_symmetric_in_direction() {
        let mirror = |xs: &[f64]| xs.iter().map(|x| -x).collect::<Vec<f64>>();
        let candidates: [&[f64]; 5] = [
            &[0.5],
            &[1.2],
            &[1.2, 0.3],
            &[2.5, 2.0, 2.2, 1.8],
            &[1.0, 1.4, 0.8, 0.9],
        ];
        for c in candidates {
            let up = step(Rule::Confirm, &max_settings(), c);
            let base = mirror(&BASELINE);
            let cand = mirror(c);
            let replicates: [&[f64]; 1] = [&base];
            let down = next_step(
                Rule::Confirm,
                &Settings::new(Direction::Min),
                &Evidence {
                    best: &base,
                    candidate: &cand,
                    replicates: &replicates,
                    segment_values: &base,
                    seeds: Seeds::NONE,
                    instances: None,
                },
            );
            match (up, down) {
                (Step::RunAgain, Step::RunAgain) => {}
                (Step::Decide(a), Step::Decide(b)) => {
                    assert_eq!(a.verdict, b.verdict, "{c:?}");
                    assert!(close(a.improvement, b.improvement), "{c:?}");
                }
                (a, b) => panic!("{c:?}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn mad_needs_two_mads_from_the_baseline() {
        let s = max_settings();
        let ev = |segment_values| Evidence {
            best: &BASELINE,
            candidate: &[1.1],
            replicates: &[],
            segment_values,
            seeds: Seeds::NONE,
            instances: None,
        };
        // With the run: median 0.5, MAD 0.55; 1.1 beats the best sample 1
        // and stands (1.1 + 1) / 0.55 = 3.8 MADs from the baseline −1.
        let d = decided(next_step(Rule::Mad, &s, &ev(&BASELINE)));
        assert_eq!(d.verdict, Verdict::Supported);
        assert!(d.confirmed && !d.blind);
        assert!(close(d.noise.unwrap(), 0.55 * MAD_TO_SIGMA));
        assert_eq!(
            d.detail,
            "keep: run 1.1 beats the best sample 1 by 0.1; 3.818 MADs (0.55) from the baseline -1 (needs 2)"
        );
        // Better, but only 0.55 MADs from a baseline of 0.8: inconclusive.
        let d = decided(next_step(Rule::Mad, &s, &ev(&[0.8, -2.0, 0.0, 1.0, 2.0])));
        assert_eq!(d.verdict, Verdict::Inconclusive);
        // Not better than the best sample: refuted.
        let d = decided(next_step(
            Rule::Mad,
            &s,
            &Evidence {
                candidate: &[0.9],
                ..ev(&BASELINE)
            },
        ));
        assert_eq!(d.verdict, Verdict::Refuted);
        // No spread yet: blind, like strict.
        let d = decided(next_step(
            Rule::Mad,
            &s,
            &Evidence {
                best: &[1.0],
                candidate: &[1.5],
                replicates: &[],
                segment_values: &[1.0],
                seeds: Seeds::NONE,
                instances: None,
            },
        ));
        assert!(d.keep() && d.blind && !d.confirmed);
    }

    #[test]
    fn no_recorded_runs_of_the_kept_commit_is_inconclusive() {
        for rule in Rule::ALL {
            let d = decided(next_step(
                *rule,
                &max_settings(),
                &Evidence {
                    best: &[],
                    candidate: &[1.0],
                    replicates: &[],
                    segment_values: &[],
                    seeds: Seeds::NONE,
                    instances: None,
                },
            ));
            assert_eq!(d.verdict, Verdict::Inconclusive, "{rule}");
        }
    }

    #[test]
    fn pooled_noise_of_hand_checked_groups() {
        assert_eq!(pooled_noise(&[]), None);
        assert_eq!(pooled_noise(&[&[1.0], &[5.0]]), None);
        // Sums of squares 2 (df 2) and 2 (df 1); the single run adds nothing.
        let (s, df) = pooled_noise(&[&[1.0, 2.0, 3.0], &[4.0, 6.0], &[7.0]]).unwrap();
        assert!(close(s, (4.0f64 / 3.0).sqrt()));
        assert_eq!(df, 3.0);
        assert_eq!(pooled_noise(&[&[2.0, 2.0]]), Some((0.0, 1.0)));
    }

    #[test]
    fn estimate_is_the_mean_with_a_t_interval() {
        // t_{0.975, 10} = 2.2281388519649385.
        let (m, (lo, hi)) = estimate(&[1.0, 2.0, 3.0], Some((2.0, 10.0)), 0.95).unwrap();
        assert_eq!(m, 2.0);
        let h = 2.2281388519649385 * 2.0 / 3f64.sqrt();
        assert!(close(lo, 2.0 - h) && close(hi, 2.0 + h), "{lo} {hi}");
        // Without noise: the samples' own interval.
        let own = estimate(&[1.0, 2.0, 3.0, 4.0, 5.0], None, 0.95).unwrap();
        let reference = crate::kernel::stats::mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.95);
        assert_eq!(own.0, 3.0);
        assert!(close(own.1 .0, reference.unwrap().0) && close(own.1 .1, reference.unwrap().1));
        // One run is an interval only with pooled noise.
        assert!(estimate(&[4.0], Some((1.0, 4.0)), 0.95).is_some());
        assert_eq!(estimate(&[4.0], None, 0.95), None);
        assert_eq!(estimate(&[], Some((1.0, 4.0)), 0.95), None);
        assert_eq!(estimate(&[1.0, 2.0], Some((1.0, 4.0)), 1.0), None);
    }

    /// Play one candidate of no true effect against five baseline runs,
    /// N(0, 1) noise, until the rule decides; whether it was kept.
    fn null_kept(rule: Rule, rng: &mut ChaCha8Rng) -> bool {
        let mut normal = || {
            // Box–Muller.
            let u1: f64 = 1.0 - rng.random::<f64>();
            let u2: f64 = rng.random::<f64>();
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        };
        let baseline: Vec<f64> = (0..5).map(|_| normal()).collect();
        let settings = max_settings();
        let mut candidate = Vec::new();
        loop {
            candidate.push(normal());
            let replicates: [&[f64]; 1] = [&baseline];
            let evidence = Evidence {
                best: &baseline,
                candidate: &candidate,
                replicates: &replicates,
                segment_values: &baseline,
                seeds: Seeds::NONE,
                instances: None,
            };
            if let Step::Decide(d) = next_step(rule, &settings, &evidence) {
                return d.keep();
            }
        }
    }

    #[test]
    fn a_null_change_is_kept_in_at_most_five_percent_of_decisions() {
        const TRIALS: usize = 20_000;
        let rate = |rule| {
            let mut rng = ChaCha8Rng::seed_from_u64(0x6e75_6c6c);
            (0..TRIALS).filter(|_| null_kept(rule, &mut rng)).count() as f64 / TRIALS as f64
        };
        let confirm = rate(Rule::Confirm);
        assert!(confirm <= 0.05, "confirm keeps {confirm} of null changes");
        // The naive rule keeps a null whenever its run beats the best of
        // five: one time in six.
        let strict = rate(Rule::Strict);
        assert!((0.15..0.19).contains(&strict), "strict keeps {strict}");
    }

    #[test]
    fn a_decided_try_stands_worse_within_noise_or_better_as_its_numbers_say() {
        let decision = |improvement: f64, noise: Option<f64>, verdict: Verdict| Decision {
            verdict,
            improvement,
            noise,
            blind: noise.is_none(),
            confirmed: noise.is_some(),
            record_from: 0,
            paired: None,
            per_instance: None,
            basis: None,
            detail: String::new(),
        };
        // σ 0.01, 3 runs against 5: se ≈ 0.0073, band ≈ 0.0146.
        let s = |d, v| standing(&decision(d, Some(0.01), v), 3, 5);
        assert_eq!(s(-0.34, Verdict::Refuted), Standing::Worse, "40σ worse");
        assert_eq!(s(-0.02, Verdict::Refuted), Standing::Worse);
        assert_eq!(s(-0.01, Verdict::Inconclusive), Standing::WithinNoise);
        assert_eq!(s(0.0, Verdict::Refuted), Standing::WithinNoise);
        assert_eq!(s(0.01, Verdict::Inconclusive), Standing::WithinNoise);
        assert_eq!(s(0.02, Verdict::Inconclusive), Standing::BetterUnconfirmed);
        assert_eq!(s(0.02, Verdict::Supported), Standing::Better);
        assert_eq!(
            standing(&decision(0.5, None, Verdict::Supported), 1, 1),
            Standing::Blind
        );
    }
}

#[cfg(test)]
mod lean_tests {
    use super::*;

    #[test]
    fn a_candidate_leans_better_by_its_mean_in_the_metrics_direction() {
        assert!(leans_better(&[2.0, 4.0], &[2.9], Direction::Max));
        assert!(!leans_better(&[2.0, 4.0], &[3.0], Direction::Max));
        assert!(leans_better(&[2.0], &[2.5, 2.7], Direction::Min));
        assert!(!leans_better(&[3.0], &[2.5], Direction::Min));
        assert!(!leans_better(&[], &[2.5], Direction::Min));
        assert!(!leans_better(&[1.0], &[], Direction::Min));
    }
}

#[cfg(test)]
mod pairing_check;
