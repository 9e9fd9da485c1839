//! Calibration and power of the `sequential` rule, decision by decision.
//!
//! - **Calibration**: how often one candidate of no true effect is kept,
//!   on a segment's first decision (against five baseline runs) and later
//!   (against a commit kept for a real gain), with Gaussian noise,
//!   Student-t(3) noise, a candidate whose runs have 3× the run variance,
//!   and under paired seeds at ρ 0, 0.5 and 0.95. Target: within
//!   0.5–1.2 × (1 − confidence), at confidence 0.95 and 0.85, with the
//!   Wilson 95% interval printed.
//! - **Power**: how often a gain of 1σ and of 2σ is kept, first and later,
//!   at confidence 0.95; beside it a ceiling, a truncated sequential
//!   probability ratio test that knows σ, against the same best, at the
//!   same false-keep rate.
//!
//! Every decision of arx's rule goes through `next_step`.

use std::sync::OnceLock;

use arx::kernel::ratchet::{
    next_step, next_step_sequential, Decision, Evidence, Rule, Seeds, SeqTuning, Settings, Step,
};
use arx::kernel::stats::Direction;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{nonbinding, normal};

const BASELINE_RUNS: usize = 5;
/// The most runs a candidate is given here (above the rule's cap).
const MAX_RUNS: usize = 20;
/// The gain of the commit kept before a "later" decision, in σ.
const EARLIER_GAIN: f64 = 1.5;
/// Lower and upper calibration targets, as multiples of 1 − confidence.
const CAL_LOW: f64 = 0.5;
const CAL_HIGH: f64 = 1.2;
/// Power targets at confidence 0.95.
const POWER_1: f64 = 0.40;
const POWER_2: f64 = 0.85;

/// Other constants for the `sequential` rule (`--shape`) and their cap;
/// unset, the rule as `arx try` runs it.
static TUNING: OnceLock<(SeqTuning, u32, Option<nonbinding::Bounds>)> = OnceLock::new();

/// Only these noise conditions (`--calibration-noise`), and the
/// calibration table alone.
static CONDITIONS: OnceLock<Vec<Noise>> = OnceLock::new();

/// "Later" decisions after this many null tries of the segment
/// (`--later-after-nulls`) rather than after a kept gain.
static AFTER_NULLS: OnceLock<usize> = OnceLock::new();

/// Play only these conditions: `gauss`, `t3`, `wide`, `rhoR` (paired).
pub fn set_conditions(names: &str) -> Result<(), String> {
    let only = names
        .split(',')
        .map(|n| match n {
            "gauss" => Ok(Noise::Gauss),
            "t3" => Ok(Noise::StudentT3),
            "wide" => Ok(Noise::Wide),
            _ => n
                .strip_prefix("rho")
                .and_then(|r| r.parse().ok())
                .filter(|r: &f64| (0.0..1.0).contains(r))
                .map(Noise::Paired)
                .ok_or_else(|| format!("unknown noise {n:?}")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let _ = CONDITIONS.set(only);
    Ok(())
}

/// Later decisions after `n` null tries of the segment.
pub fn set_after_nulls(n: usize) {
    let _ = AFTER_NULLS.set(n);
}

/// Play the `sequential` rule with other constants in this section.
/// (and a non-binding futility on top, `--nonbinding`).
pub fn set_tuning(tuning: SeqTuning, max_runs: u32, bounds: Option<nonbinding::Bounds>) {
    let _ = TUNING.set((tuning, max_runs, bounds));
}

/// Only the power rows (`--power-only`): the calibration cells skipped.
static POWER_ONLY: OnceLock<bool> = OnceLock::new();

/// Play only the power rows of this section.
pub fn set_power_only() {
    let _ = POWER_ONLY.set(true);
}

/// One look of `rule`: `next_step`, or the `--shape` constants.
fn step(rule: Rule, settings: &Settings, evidence: &Evidence<'_>) -> Step {
    match (rule, TUNING.get()) {
        (Rule::Sequential, Some((tuning, max_runs, bounds))) => {
            let settings = Settings {
                max_runs: *max_runs,
                ..*settings
            };
            match bounds {
                Some(b) => nonbinding::step(&settings, tuning, *b, evidence),
                None => next_step_sequential(&settings, tuning, evidence),
            }
        }
        _ => next_step(rule, settings, evidence),
    }
}

/// The noise of one condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Noise {
    Gauss,
    StudentT3,
    /// The tested candidate's runs have 3× the run variance.
    Wide,
    /// Paired seeds at this correlation.
    Paired(f64),
}

impl Noise {
    fn label(self) -> String {
        match self {
            Noise::Gauss => "Gaussian".into(),
            Noise::StudentT3 => "Student-t(3)".into(),
            Noise::Wide => "candidate at 3× the run variance".into(),
            Noise::Paired(r) => format!("paired seeds, ρ {r}"),
        }
    }
}

/// A draw of unit variance of the noise's shape.
fn draw(rng: &mut ChaCha8Rng, noise: Noise) -> f64 {
    match noise {
        Noise::StudentT3 => {
            let z = normal(rng);
            let chi: f64 = (0..3).map(|_| normal(rng).powi(2)).sum();
            z / (chi / 3.0).sqrt() / 3f64.sqrt()
        }
        _ => normal(rng),
    }
}

/// One scenario played: the best (values and seeds), the segment's
/// replicate groups and paired history, then one candidate of true value
/// `truth + effect` run until the rule decides.
struct Scenario {
    /// The best's record.
    best: Vec<f64>,
    /// Every run of the best as paired seeds hand them out (the record
    /// first, then the screening runs it leaves out), and their seeds.
    paired_best: Vec<f64>,
    best_seeds: Vec<Option<u64>>,
    groups: Vec<Vec<f64>>,
    history: Vec<Vec<f64>>,
    /// The shared part of each seed's noise (paired).
    seed_effects: Vec<f64>,
    /// The best's true value (higher = better; runs measure −value).
    truth: f64,
}

impl Scenario {
    fn run(&self, rng: &mut ChaCha8Rng, value: f64, seed: Option<u64>, noise: Noise) -> f64 {
        let e = match (noise, seed) {
            (Noise::Paired(r), Some(s)) => {
                r.sqrt() * self.seed_effects[s as usize] + (1.0 - r).sqrt() * normal(rng)
            }
            _ => draw(rng, noise),
        };
        -value + e
    }

    /// The candidate's runs and the rule's decision.
    fn decide(
        &self,
        rng: &mut ChaCha8Rng,
        settings: &Settings,
        effect: f64,
        noise: Noise,
        wide: bool,
        rule: Rule,
    ) -> (Decision, Vec<f64>, Vec<Option<u64>>, Vec<f64>) {
        let value = self.truth + effect;
        let paired = matches!(noise, Noise::Paired(_));
        let (mut c, mut seeds): (Vec<f64>, Vec<Option<u64>>) = (Vec::new(), Vec::new());
        let replicates: Vec<&[f64]> = self.groups.iter().map(Vec::as_slice).collect();
        let history: Vec<&[f64]> = self.history.iter().map(Vec::as_slice).collect();
        loop {
            let seed = paired.then(|| {
                self.best_seeds
                    .get(c.len())
                    .copied()
                    .flatten()
                    .unwrap_or(1000 + c.len() as u64)
            });
            let mut x = self.run(rng, value, seed, noise);
            if wide {
                x = -value + (x + value) * 3f64.sqrt();
            }
            c.push(x);
            seeds.push(seed);
            // As `arx try` feeds the rule: the candidate's own runs are a
            // replicate group too (the very slice it decides on).
            let mut groups = replicates.clone();
            if c.len() > 1 {
                groups.push(&c);
            }
            let evidence = Evidence {
                best: &self.best,
                candidate: &c,
                replicates: &groups,
                segment_values: &[],
                seeds: if paired {
                    Seeds {
                        best: &self.paired_best,
                        best_seeds: &self.best_seeds,
                        candidate: &seeds,
                        history: &history,
                    }
                } else {
                    Seeds::NONE
                },
                instances: None,
            };
            match step(rule, settings, &evidence) {
                Step::RunAgain if c.len() < MAX_RUNS => continue,
                Step::RunAgain => panic!("the rule ran past its cap"),
                Step::Decide(d) => {
                    let diffs = if paired {
                        arx::kernel::paired::differences(
                            &self.paired_best,
                            &self.best_seeds,
                            &c,
                            &seeds,
                        )
                    } else {
                        Vec::new()
                    };
                    return (d, c, seeds, diffs);
                }
            }
        }
    }
}

/// A segment's start: five baseline runs of true value 0 (the paired
/// seeds 0–4), and the noise's seed effects.
fn baseline(rng: &mut ChaCha8Rng, noise: Noise) -> Scenario {
    let seed_effects: Vec<f64> = (0..1100).map(|_| normal(rng)).collect();
    let mut s = Scenario {
        best: Vec::new(),
        paired_best: Vec::new(),
        best_seeds: (0..BASELINE_RUNS as u64).map(Some).collect(),
        groups: Vec::new(),
        history: Vec::new(),
        seed_effects,
        truth: 0.0,
    };
    let base: Vec<f64> = (0..BASELINE_RUNS as u64)
        .map(|k| s.run(rng, 0.0, Some(k), noise))
        .collect();
    s.best = base.clone();
    s.paired_best = base.clone();
    s.groups.push(base);
    s
}

/// The segment after a real gain of [`EARLIER_GAIN`] was kept (gain
/// candidates tried until one is; their runs join the segment's record).
fn after_a_keep(
    rng: &mut ChaCha8Rng,
    settings: &Settings,
    noise: Noise,
    rule: Rule,
) -> Option<Scenario> {
    let mut s = baseline(rng, noise);
    for _ in 0..40 {
        let (d, runs, seeds, diffs) = s.decide(rng, settings, EARLIER_GAIN, noise, false, rule);
        if diffs.len() >= 2 {
            s.history.push(diffs);
        }
        s.groups.push(runs.clone());
        if d.keep() {
            // The record: the runs after the screen; paired seeds hand out
            // the record's seeds first, then the screening runs'.
            let from = d.record_from;
            let order: Vec<usize> = (from..runs.len()).chain(0..from).collect();
            s.best = runs[from..].to_vec();
            s.paired_best = order.iter().map(|&i| runs[i]).collect();
            s.best_seeds = order.iter().map(|&i| seeds[i]).collect();
            s.truth = EARLIER_GAIN;
            return Some(s);
        }
    }
    None
}

/// The segment after `n` null tries (`bench/calibration_cli.py`'s
/// "later"): their runs in the segment's record and their differences in
/// its pairing history; a keep among them becomes the best, recorded as
/// arx records it.
fn after_nulls(
    rng: &mut ChaCha8Rng,
    settings: &Settings,
    noise: Noise,
    rule: Rule,
    n: usize,
) -> Scenario {
    let mut s = baseline(rng, noise);
    for _ in 0..n {
        let wide = noise == Noise::Wide;
        let (d, runs, seeds, diffs) = s.decide(rng, settings, 0.0, noise, wide, rule);
        if diffs.len() >= 2 {
            s.history.push(diffs);
        }
        s.groups.push(runs.clone());
        if d.keep() {
            let from = d.record_from;
            let order: Vec<usize> = (from..runs.len()).chain(0..from).collect();
            s.best = runs[from..].to_vec();
            s.paired_best = order.iter().map(|&i| runs[i]).collect();
            s.best_seeds = order.iter().map(|&i| seeds[i]).collect();
        }
    }
    s
}

/// Wilson's 95% interval of `k` successes in `n`.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054;
    let p = k / n;
    let den = 1.0 + z * z / n;
    let mid = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((mid - half).max(0.0), (mid + half).min(1.0))
}

/// Keeps of a change of `effect` (σ) over `trials` decisions, and the
/// candidate runs they took.
fn rate(
    seed: u64,
    salt: u64,
    trials: u64,
    settings: &Settings,
    noise: Noise,
    later: bool,
    effect: f64,
) -> (u64, u64, f64) {
    rate_of(
        Rule::Sequential,
        seed,
        salt,
        trials,
        settings,
        noise,
        later,
        effect,
    )
}

/// [`rate`] under another rule.
#[allow(clippy::too_many_arguments)]
fn rate_of(
    rule: Rule,
    seed: u64,
    salt: u64,
    trials: u64,
    settings: &Settings,
    noise: Noise,
    later: bool,
    effect: f64,
) -> (u64, u64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let (mut kept, mut n, mut runs) = (0u64, 0u64, 0usize);
    while n < trials {
        let s = if let (true, Some(&nulls)) = (later, AFTER_NULLS.get()) {
            after_nulls(&mut rng, settings, noise, rule, nulls)
        } else if later {
            match after_a_keep(&mut rng, settings, noise, rule) {
                Some(s) => s,
                None => continue,
            }
        } else {
            baseline(&mut rng, noise)
        };
        let (d, c, _, _) = s.decide(
            &mut rng,
            settings,
            effect,
            noise,
            noise == Noise::Wide,
            rule,
        );
        n += 1;
        runs += c.len();
        kept += u64::from(d.keep());
    }
    (kept, n, runs as f64 / n as f64)
}

/// The truncated SPRT that knows σ: H0 Δ = 0 against H1 Δ = 1σ on the
/// candidate's runs minus the best's mean, discarding at log-ratio
/// `−lower`, keeping at `upper`, at most `cap` runs (kept at the last only
/// above `upper`). Returns the keep rate and runs at `effect`.
fn sprt(
    rng: &mut ChaCha8Rng,
    trials: u64,
    lower: f64,
    upper: f64,
    cap: usize,
    effect: f64,
) -> (f64, f64) {
    let (mut kept, mut runs) = (0u64, 0usize);
    for _ in 0..trials {
        let best: f64 = (0..BASELINE_RUNS).map(|_| normal(rng)).sum::<f64>() / BASELINE_RUNS as f64;
        let mut llr = 0.0;
        for _ in 0..cap {
            let x = effect + normal(rng) - best;
            runs += 1;
            llr += x - 0.5;
            if llr >= upper {
                kept += 1;
                break;
            }
            if llr <= -lower {
                break;
            }
        }
    }
    (kept as f64 / trials as f64, runs as f64 / trials as f64)
}

/// The SPRT's upper bound for a false-keep rate `alpha` at `lower`.
fn sprt_tuned(seed: u64, alpha: f64, lower: f64, cap: usize) -> f64 {
    let (mut lo, mut hi) = (0.0, 8.0);
    for _ in 0..18 {
        let mid = 0.5 * (lo + hi);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        if sprt(&mut rng, 20_000, lower, mid, cap, 0.0).0 > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The calibration table's introduction and header.
fn calibration_header(trials: u64) {
    println!(
        "{trials} decisions per cell. *First*: a candidate against the baseline's \
         {BASELINE_RUNS} runs. *Later*: against a commit kept for a real gain of \
         {EARLIER_GAIN}σ (gain candidates tried until one was kept, their runs in the \
         segment's record). A null candidate has the best's true value. Target: \
         false keeps within {CAL_LOW}–{CAL_HIGH} × (1 − confidence); the Wilson 95% \
         interval beside each rate.\n"
    );
    println!(
        "| noise | confidence | decision | null kept | Wilson 95% | × (1 − confidence) | runs | |\n\
         |---|---:|---|---:|---|---:|---:|---|"
    );
}

/// The section; `true` when every target is met.
pub fn section(seed: u64, trials: u64) -> bool {
    println!("## Calibration and power of one decision\n");
    let power_only = POWER_ONLY.get() == Some(&true);
    if !power_only {
        calibration_header(trials);
    }

    let mut pass = true;
    let conditions: Vec<Noise> = match CONDITIONS.get() {
        _ if power_only => Vec::new(),
        Some(only) => only.clone(),
        None => vec![
            Noise::Gauss,
            Noise::StudentT3,
            Noise::Wide,
            Noise::Paired(0.0),
            Noise::Paired(0.5),
            Noise::Paired(0.95),
        ],
    };
    let mut salt = 0u64;
    for &noise in &conditions {
        for confidence in [0.95, 0.85] {
            for later in [false, true] {
                salt += 1;
                let mut settings = Settings::new(Direction::Min);
                settings.confidence = confidence;
                let (k, n, runs) = rate(seed, salt, trials, &settings, noise, later, 0.0);
                // Rounded: 1 − 0.95 is 0.05000000000000004, and a rate of
                // exactly 0.5 × read 0.4999… × (a FAIL).
                let alpha = ((1.0 - confidence) * 1e12).round() / 1e12;
                let p = k as f64 / n as f64;
                let (lo, hi) = wilson(k, n);
                let ratio = p / alpha;
                let ok = (CAL_LOW..=CAL_HIGH).contains(&ratio);
                pass &= ok;
                println!(
                    "| {} | {confidence} | {} | {:.2}% | {:.2}–{:.2}% | {ratio:.2} | {runs:.2} | {} |",
                    noise.label(),
                    if later { "later" } else { "first" },
                    100.0 * p,
                    100.0 * lo,
                    100.0 * hi,
                    super::verdict(ok),
                );
            }
        }
    }
    println!();
    if CONDITIONS.get().is_some() {
        return pass;
    }
    if !conditions.is_empty() {
        confirm_rows(seed, trials);
    }
    println!(
        "Power at confidence 0.95, Gaussian noise, unpaired ({trials} decisions per cell); \
         the ceiling is a truncated SPRT that knows σ (H1: 1σ, at most the rule's cap of \
         runs), against the same {BASELINE_RUNS}-run best, its upper bound tuned to the \
         same 5% false-keep rate and its lower bound to about the same runs on a null \
         change.\n"
    );
    println!(
        "| gain | decision | kept | Wilson 95% | runs | SPRT ceiling | share of it | |\n\
         |---:|---|---:|---|---:|---:|---:|---|"
    );
    let settings = Settings {
        confidence: 0.95,
        ..Settings::new(Direction::Min)
    };
    let cap = TUNING
        .get()
        .map_or(arx::kernel::ratchet::SEQUENTIAL_MAX_RUNS, |t| t.1) as usize;
    // The ceiling's lower bound: the one whose null runs come closest to
    // the rule's.
    let (_, _, null_runs) = rate(seed, 900, trials, &settings, Noise::Gauss, false, 0.0);
    let mut best_lower = (f64::INFINITY, 1.0, 3.0);
    for lower in [0.25, 0.5, 0.75, 1.0, 1.5, 2.0] {
        let upper = sprt_tuned(seed ^ 0x51, 0.05, lower, cap);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x52);
        let (_, runs) = sprt(&mut rng, 20_000, lower, upper, cap, 0.0);
        if (runs - null_runs).abs() < best_lower.0 {
            best_lower = ((runs - null_runs).abs(), lower, upper);
        }
    }
    let (_, lower, upper) = best_lower;
    for effect in [1.0, 2.0] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x53);
        let (ceiling, _) = sprt(&mut rng, 40_000, lower, upper, cap, effect);
        for later in [false, true] {
            let (k, n, runs) = rate(
                seed,
                1000 + effect as u64 * 2 + u64::from(later),
                trials,
                &settings,
                Noise::Gauss,
                later,
                effect,
            );
            let p = k as f64 / n as f64;
            let (lo, hi) = wilson(k, n);
            let target = if effect == 1.0 { POWER_1 } else { POWER_2 };
            let ok = p >= target;
            pass &= ok;
            println!(
                "| {effect}σ | {} | {:.1}% | {:.1}–{:.1}% | {runs:.2} | {:.1}% | {:.2} | {} (≥ {:.0}%) |",
                if later { "later" } else { "first" },
                100.0 * p,
                100.0 * lo,
                100.0 * hi,
                100.0 * ceiling,
                p / ceiling,
                super::verdict(ok),
                100.0 * target,
            );
        }
    }
    println!(
        "\nThe ceiling's bounds: discard at log-ratio −{lower}, keep at {upper:.2}; a null \
         change costs it about as many runs as the rule ({null_runs:.2}).\n"
    );
    pass
}

/// The `confirm` rule on the same null cells (Gaussian, unpaired): the
/// measurement the default rule was chosen by.
fn confirm_rows(seed: u64, trials: u64) {
    println!(
        "The `confirm` rule, the same null candidate (Gaussian noise, unpaired):\n\n\
         | confidence | decision | null kept | Wilson 95% | × (1 − confidence) | runs |\n\
         |---:|---|---:|---|---:|---:|"
    );
    for confidence in [0.95, 0.85] {
        for later in [false, true] {
            let mut settings = Settings::new(Direction::Min);
            settings.confidence = confidence;
            let salt = 500 + u64::from(later) + if confidence > 0.9 { 0 } else { 2 };
            let (k, n, runs) = rate_of(
                Rule::Confirm,
                seed,
                salt,
                trials,
                &settings,
                Noise::Gauss,
                later,
                0.0,
            );
            let p = k as f64 / n as f64;
            let (lo, hi) = wilson(k, n);
            println!(
                "| {confidence} | {} | {:.2}% | {:.2}–{:.2}% | {:.2} | {runs:.2} |",
                if later { "later" } else { "first" },
                100.0 * p,
                100.0 * lo,
                100.0 * hi,
                p / (1.0 - confidence),
            );
        }
    }
    println!();
}
