//! Keep-if-better simulation for `arx try`: plays whole autoresearch loops
//! (measure the baseline, then try candidate changes one after another,
//! each run as often as the rule asks) against streams of changes whose
//! true effects are known, and compares the ratchet's decision rules at
//! equal compute.
//!
//! ```sh
//! cargo run --release --example ratchet_sim
//! cargo run --release --example ratchet_sim -- --trials 4000 --seed 7
//! cargo run --release --example ratchet_sim -- --frontier   # a grid of the confirm rule's constants
//! cargo run --release --example ratchet_sim -- --lane-trials 400   # more loops for the lanes section
//! cargo run --release --example ratchet_sim -- --paired-only       # only the paired-seeds section
//! ```
//!
//! A section plays paired seeds: every run handed a seed as `arx try`
//! hands it, and a candidate's run correlated with the best's at the same
//! seed (see `paired.rs`).
//!
//! The last section plays lanes: 4 candidates at once on 4 slots that are
//! not identical, against 1 lane on 1 slot at equal wall time (see
//! `lanes.rs`).
//!
//! Every decision goes through `arx::kernel::ratchet::next_step` (rows with
//! other constants through `next_step_tuned`), the code `arx try` runs.
//! The metric is a loss (lower is better, `Direction::Min`): a run of a
//! commit whose true value is `v` (in σ units, higher = better) measures
//! `−v + ε`, ε ~ N(0, 1). Everything is seeded: the same seed prints the
//! same tables.

use std::time::Instant;

mod calibration;
mod instances;
mod kept;
mod lanes;
mod nonbinding;
mod paired;
mod spent;

use arx::kernel::ratchet::sequential::{self, Shape};
use arx::kernel::ratchet::{
    estimate, next_step, next_step_sequential, next_step_tuned, pooled_noise, Decision, Evidence,
    Rule, Seeds, SeqTuning, Settings, Step, Tuning, DEFAULT_CONFIDENCE, DEFAULT_MAX_RUNS,
    SEQUENTIAL_MAX_RUNS, SETTLED_DF,
};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Runs per loop, the baseline's included.
const BUDGET: usize = 200;
/// Runs of the starting commit (true value 0).
const BASELINE_RUNS: usize = 5;
/// Most candidates a loop can try (each costs at least one run).
const MAX_CANDIDATES: usize = BUDGET - BASELINE_RUNS;
/// Noise draws prepared per candidate (the most runs any row may ask for).
const MAX_DRAWS: usize = 16;
/// Decisions per cell of the calibration section (`--calibration-trials`).
const CALIBRATION_TRIALS: u64 = 4000;
/// Loops per stream (overridable with `--trials`).
const TRIALS: u64 = 1000;
/// Loops per stream of the `--frontier` grid (overridable with
/// `--frontier-trials`).
const FRONTIER_TRIALS: u64 = 250;
/// Loops per stream and setting of the lanes section (overridable with
/// `--lane-trials`).
const LANE_TRIALS: u64 = 200;
/// Loops of the per-instance section (overridable with
/// `--instance-trials`).
const INSTANCE_TRIALS: u64 = 400;
/// Base seed (overridable with `--seed`): "arxtry01".
const SEED: u64 = 0x6172_7874_7279_3031;
/// Targets of the default rule against `strict`, in every stream: false
/// keeps (null changes and regressions kept) at most this share of strict's…
const FALSE_KEEP_RATIO: f64 = 0.2;
/// …true improvement at least this share of strict's…
const GAIN_RATIO: f64 = 0.6;
/// …and an honest recorded best: the 95% interval `estimate` puts around it
/// holds the kept commit's true value in at least this share of the loops.
const COVERAGE: f64 = 0.9;
/// Confidence of the interval around the recorded best.
const INTERVAL: f64 = 0.95;
/// One more target, outside the loop: a single decision on a change of no
/// true effect, against a baseline of five runs, keeps it at most this
/// often…
const SINGLE_NULL_KEEPS: f64 = 0.05;
/// …over this many seeded decisions.
const SINGLE_TRIALS: u64 = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Improvement,
    Regression,
    Null,
}

#[derive(Debug, Clone, Copy)]
struct Change {
    kind: Kind,
    effect: f64,
}

struct Stream {
    key: &'static str,
    title: &'static str,
    improvements: f64,
    improvement_range: (f64, f64),
    regressions: f64,
    /// Mean and sd of a "null" change's effect.
    null: (f64, f64),
}

/// Regressions in every stream: effect −U(0.5, 3)σ.
const REGRESSION_RANGE: (f64, f64) = (0.5, 3.0);

fn streams() -> [Stream; 3] {
    [
        Stream {
            key: "rich",
            title: "20% improvements U(0.5, 3)σ, 10% regressions −U(0.5, 3)σ, 70% null (0)",
            improvements: 0.2,
            improvement_range: (0.5, 3.0),
            regressions: 0.1,
            null: (0.0, 0.0),
        },
        Stream {
            key: "sparse",
            title: "5% improvements U(1, 3)σ, 30% regressions −U(0.5, 3)σ, 65% null (0)",
            improvements: 0.05,
            improvement_range: (1.0, 3.0),
            regressions: 0.3,
            null: (0.0, 0.0),
        },
        Stream {
            key: "junk",
            title: "as rich, but the 70% \"null\" changes have effect N(−0.15σ, 0.3σ)",
            improvements: 0.2,
            improvement_range: (0.5, 3.0),
            regressions: 0.1,
            null: (-0.15, 0.3),
        },
    ]
}

/// One standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Everything random in one loop, drawn in advance so that every rule meets
/// the same changes in the same order with the same noise: the j-th run of
/// the i-th candidate has noise `noise[i][j]` under every rule.
struct World {
    baseline: Vec<f64>,
    changes: Vec<Change>,
    noise: Vec<[f64; MAX_DRAWS]>,
    /// The loop's seed: a new segment's baseline (`--segment-tries`) is
    /// drawn from it.
    seed: u64,
}

fn world(stream: &Stream, seed: u64) -> World {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let baseline = (0..BASELINE_RUNS).map(|_| normal(&mut rng)).collect();
    let uniform = |rng: &mut ChaCha8Rng, (lo, hi): (f64, f64)| lo + (hi - lo) * rng.random::<f64>();
    let changes = (0..MAX_CANDIDATES)
        .map(|_| {
            let u: f64 = rng.random();
            if u < stream.improvements {
                Change {
                    kind: Kind::Improvement,
                    effect: uniform(&mut rng, stream.improvement_range),
                }
            } else if u < stream.improvements + stream.regressions {
                Change {
                    kind: Kind::Regression,
                    effect: -uniform(&mut rng, REGRESSION_RANGE),
                }
            } else {
                Change {
                    kind: Kind::Null,
                    effect: stream.null.0 + stream.null.1 * normal(&mut rng),
                }
            }
        })
        .collect();
    let noise = (0..MAX_CANDIDATES)
        .map(|_| std::array::from_fn(|_| normal(&mut rng)))
        .collect();
    World {
        baseline,
        changes,
        noise,
        seed,
    }
}

/// The noise of the baseline runs of the loop's segment `s` (≥ 1) under
/// `--segment-tries`: its own draws, apart from every candidate's.
fn segment_baseline(world: &World, s: usize) -> Vec<f64> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(world.seed ^ (s as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    (0..BASELINE_RUNS).map(|_| normal(&mut rng)).collect()
}

/// `--segment-tries N`: a new segment every N tries, its baseline
/// measured again on `BASELINE_RUNS` runs, as `bench/targets_cli.py`
/// plays its stream through the CLI (`arx try --new-segment`).
static SEGMENT_TRIES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// A rule with its settings, as the loop runs it.
#[derive(Debug, Clone)]
struct Variant {
    label: String,
    rule: Rule,
    settings: Settings,
    /// `None`: `next_step` (the defaults); otherwise `next_step_tuned`.
    tuning: Option<Tuning>,
    /// Record every run of a kept candidate, not only its
    /// `Decision::record_from` tail.
    record_all: bool,
    /// The `sequential` rule with these constants.
    seq: Option<SeqTuning>,
    /// A non-binding futility on top of it (`nonbinding.rs`).
    nonbinding: Option<nonbinding::Bounds>,
    /// Record a keep by all its runs, their mean corrected for the
    /// design's selection (`kept.rs`), not by runs after it:
    /// 1 the conditional estimate, 2 one step of it, 3 halfway between.
    corrected: u8,
}

impl Variant {
    fn of(rule: Rule) -> Variant {
        Variant {
            label: match rule {
                Rule::Confirm => format!("`confirm` at {DEFAULT_CONFIDENCE}"),
                rule => format!("`{rule}`"),
            },
            rule,
            settings: Settings::new(Direction::Min),
            tuning: None,
            record_all: false,
            seq: None,
            nonbinding: None,
            corrected: 0,
        }
    }

    /// The `sequential` rule at `confidence`, with these constants and
    /// cap.
    fn sequential(tuning: SeqTuning, confidence: f64, max_runs: u32) -> Variant {
        let mut v = Variant::of(Rule::Sequential);
        v.settings.confidence = confidence;
        v.settings.max_runs = max_runs;
        v.seq = Some(tuning);
        v.label = format!(
            "`sequential` at {confidence} (screen {}, futility {}{}, keeps from run {}, {max_runs} runs, \
             record of {} runs)",
            tuning.shape.screen_futility,
            tuning.shape.futility,
            if tuning.shape.futility_effect > 0.0 {
                format!(" or a gain under {}σ", tuning.shape.futility_effect)
            } else {
                String::new()
            },
            tuning.shape.first_keep,
            tuning.top_up,
        );
        v
    }

    /// With a non-binding futility (`--nonbinding`) on top, if given.
    fn with_nonbinding(mut self, bounds: Option<nonbinding::Bounds>) -> Variant {
        if let Some((first, later)) = bounds {
            self.label = format!(
                "{}, non-binding futility {first} / {later}",
                self.label.trim_end_matches(')')
            ) + ")";
        }
        self.nonbinding = bounds;
        self
    }

    /// `confirm` with other constants.
    fn confirm(promise: f64, futility: f64, confidence: f64, max_runs: u32) -> Variant {
        let mut v = Variant::of(Rule::Confirm);
        v.settings.confidence = confidence;
        v.settings.max_runs = max_runs;
        v.tuning = Some(Tuning {
            promise,
            futility,
            settled_df: SETTLED_DF,
        });
        v.label = format!("promise {promise}, futility {futility}, {confidence}, {max_runs} runs");
        v
    }

    fn decide(&self, evidence: &Evidence<'_>) -> Step {
        if let Some(t) = &self.seq {
            return match self.nonbinding {
                Some(bounds) => nonbinding::step(&self.settings, t, bounds, evidence),
                None => next_step_sequential(&self.settings, t, evidence),
            };
        }
        match &self.tuning {
            None => next_step(self.rule, &self.settings, evidence),
            Some(t) => next_step_tuned(self.rule, &self.settings, t, evidence),
        }
    }
}

/// `confirm` at confidence 0.85: arx's default rule when the stream
/// target was set, "the current rule" it is measured against.
fn confirm_when_filed() -> Variant {
    let mut v = Variant::of(Rule::Confirm);
    v.settings.confidence = 0.85;
    v.label = "`confirm` at 0.85 (the default when the stream target was set)".to_string();
    v
}

/// The stream target of every `sequential` row: true improvement per run
/// at least 1.2× that of `confirm` at 0.85 (the rule the target was set
/// against), false keeps at most 1/5 of the naive rule's; `confirm` at
/// 0.95 and the naive rule's improvement per run printed beside it.
fn stream_target(rows: &[Summary]) -> bool {
    let find = |p: &dyn Fn(&str) -> bool| rows.iter().find(|r| p(&r.label));
    let when_filed = find(&|l| l.starts_with("`confirm` at 0.85")).expect("confirm at 0.85");
    let strict = find(&|l| l == "`strict`").expect("strict");
    let confirm = find(&|l| l.starts_with("`confirm` at 0.95"));
    let per_run = |r: &Summary| r.gain.0 / r.runs;
    let mut pass = true;
    for seq in rows.iter().filter(|r| r.label.starts_with("`sequential`")) {
        let ratio = per_run(seq) / per_run(when_filed);
        let false_ratio = seq.false_keeps / strict.false_keeps;
        let ok = ratio >= 1.2 && false_ratio <= FALSE_KEEP_RATIO;
        pass &= ok;
        println!(
            "- {} {}: true improvement per run {:.4}σ, {ratio:.3}× `confirm` at 0.85's {:.4}σ \
             (target ≥ 1.2×){}; false keeps {:.2} vs the naive rule's {:.2} (ratio \
             {false_ratio:.3}, target ≤ 0.2); the naive rule's true improvement per run {:.4}σ",
            verdict(ok),
            seq.label,
            per_run(seq),
            per_run(when_filed),
            confirm.map_or(String::new(), |c| format!(
                ", {:.3}× `confirm` at 0.95's {:.4}σ",
                per_run(seq) / per_run(c),
                per_run(c)
            )),
            seq.false_keeps,
            strict.false_keeps,
            per_run(strict),
        );
    }
    pass
}

/// What one loop produced.
#[derive(Debug, Default, Clone, Copy)]
struct Outcome {
    /// True value of the final kept commit (the baseline is 0).
    gain: f64,
    nulls_kept: f64,
    regressions_kept: f64,
    improvements_kept: f64,
    tried: f64,
    /// Runs spent, the baseline's included.
    runs: f64,
    /// Runs spent on baselines (the first and those of `--segment-tries`).
    baseline_runs: f64,
    /// Recorded best minus the final kept commit's true value (σ).
    bias: f64,
    /// Sum over the keeps of (recorded value − true value) when kept.
    keep_bias_sum: f64,
    /// 1 when the 95% interval around the recorded best holds the true value.
    covered: f64,
    /// Where the loop's runs went.
    spent: spent::Spent,
}

/// The recorded value of a kept commit, in "better" units (the metric is a
/// loss): the best single sample for the naive rules, the mean otherwise;
/// and the samples `estimate` puts its interval around.
fn recorded(rule: Rule, record: &[f64]) -> (f64, Vec<f64>) {
    match rule {
        Rule::Strict | Rule::Mad => {
            let best = record.iter().copied().fold(f64::INFINITY, f64::min);
            (-best, vec![best])
        }
        Rule::Confirm | Rule::Sequential => (
            -record.iter().sum::<f64>() / record.len() as f64,
            record.to_vec(),
        ),
    }
}

fn play(world: &World, v: &Variant) -> Outcome {
    let mut groups: Vec<Vec<f64>> = vec![world.baseline.clone()];
    let mut values: Vec<f64> = world.baseline.clone();
    let (mut kept, mut kept_from, mut kept_value) = (0usize, 0usize, 0.0);
    let mut used = BASELINE_RUNS;
    let mut out = Outcome {
        baseline_runs: BASELINE_RUNS as f64,
        ..Outcome::default()
    };
    'changes: for (i, change) in world.changes.iter().enumerate() {
        if used >= BUDGET {
            break;
        }
        if let Some(&n) = SEGMENT_TRIES.get() {
            if i > 0 && i % n == 0 {
                // A new segment: the best measured again, the noise
                // pooled afresh.
                let baseline: Vec<f64> = segment_baseline(world, i / n)
                    .iter()
                    .map(|e| -kept_value + e)
                    .collect();
                used += baseline.len();
                out.baseline_runs += baseline.len() as f64;
                (groups, values) = (vec![baseline.clone()], baseline);
                (kept, kept_from) = (0, 0);
                if used >= BUDGET {
                    break;
                }
            }
        }
        out.tried += 1.0;
        let value = kept_value + change.effect;
        let mut samples: Vec<f64> = Vec::new();
        let decision = loop {
            if used >= BUDGET || samples.len() >= MAX_DRAWS {
                // The budget ran out before a decision: not kept.
                break 'changes;
            }
            samples.push(-value + world.noise[i][samples.len()]);
            used += 1;
            let replicates: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let evidence = Evidence {
                best: &groups[kept][kept_from..],
                candidate: &samples,
                replicates: &replicates,
                segment_values: &values,
                seeds: Seeds::NONE,
                instances: None,
            };
            match v.decide(&evidence) {
                Step::RunAgain => continue,
                Step::Decide(d) => break d,
            }
        };
        out.spent.add(change, samples.len(), &decision);
        values.extend_from_slice(&samples);
        groups.push(samples);
        if decision.keep() {
            if v.corrected > 0 {
                let shift = correction(v, &decision, groups[kept].len() - kept_from);
                if let Some(last) = groups.last_mut() {
                    last.iter_mut().for_each(|x| *x += shift);
                }
            }
            kept = groups.len() - 1;
            kept_from = if v.record_all {
                0
            } else {
                decision.record_from
            };
            kept_value = value;
            out.keep_bias_sum += recorded(v.rule, &groups[kept][kept_from..]).0 - value;
            match change.kind {
                Kind::Improvement => out.improvements_kept += 1.0,
                Kind::Regression => out.regressions_kept += 1.0,
                Kind::Null => out.nulls_kept += 1.0,
            }
        }
    }
    out.gain = kept_value;
    out.runs = used as f64;
    let refs: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let (best, measured) = recorded(v.rule, &groups[kept][kept_from..]);
    out.bias = best - kept_value;
    let (_, (lo, hi)) = estimate(&measured, pooled_noise(&refs), INTERVAL)
        .expect("the kept commit has samples and the baseline measures the noise");
    // The interval is on the loss; the true loss is −kept_value.
    out.covered = f64::from(u8::from(lo <= -kept_value && -kept_value <= hi));
    out
}

/// `--nonbinding F1,F`: futility bounds of the `--shape` and
/// `--corrected-record` rows applied without solving the keep bound again.
static NONBINDING: std::sync::OnceLock<(f64, f64)> = std::sync::OnceLock::new();

fn nonbinding_bounds() -> Option<(f64, f64)> {
    NONBINDING.get().copied()
}

/// The `sequential` rule (the `--shape` given, else the default) with a
/// keep recorded by all its own runs: as measured (chosen on), and with
/// the design's selection taken out of their mean.
fn own_records(shape: Option<(Shape, u32, usize)>) -> [Variant; 4] {
    let (shape, max_runs) = shape.map_or((SeqTuning::DEFAULT.shape, SEQUENTIAL_MAX_RUNS), |s| {
        (s.0, s.1)
    });
    let tuning = SeqTuning { shape, top_up: 0 };
    let mut raw = Variant::sequential(tuning, 0.95, max_runs).with_nonbinding(nonbinding_bounds());
    raw.record_all = true;
    raw.label = format!("{}, every run recorded", raw.label);
    let mut fixed =
        Variant::sequential(tuning, 0.95, max_runs).with_nonbinding(nonbinding_bounds());
    fixed.record_all = true;
    fixed.corrected = 1;
    fixed.label = format!("{}, every run recorded, mean corrected", fixed.label);
    let mut step = fixed.clone();
    step.corrected = 2;
    step.label = format!("{}, mean corrected by one step", raw.label);
    let mut mid = fixed.clone();
    mid.corrected = 3;
    mid.label = format!("{}, mean corrected halfway between the two", raw.label);
    [raw, fixed, step, mid]
}

/// What a corrected record adds to each of a kept candidate's runs (loss
/// units): its mean less the change the design's selection leaves
/// (`kept::kept_estimate`), σ the decision's noise.
fn correction(v: &Variant, decision: &Decision, best_runs: usize) -> f64 {
    let (Some(t), Some(sigma)) = (v.seq, decision.noise) else {
        return 0.0;
    };
    if sigma <= 0.0 {
        return 0.0;
    }
    let cap = v.settings.max_runs as usize;
    let mut design =
        sequential::design_shaped(&t.shape, 1, cap, best_runs, 1.0 - v.settings.confidence);
    // The looks' futility as played, the non-binding bounds included.
    if let Some((first, later)) = v.nonbinding {
        let last = design.bounds.len() - 1;
        for (i, b) in design.bounds.iter_mut().enumerate().take(last) {
            b.1 = b.1.max(if i == 0 { first } else { later }).min(b.0);
        }
    }
    let me = v.settings.min_effect.max(0.0);
    let observed = (decision.improvement - me) / sigma;
    let conditional = || kept::kept_estimate(&design, observed);
    let one_step = || kept::kept_estimate_one_step(&design, observed);
    let estimate = match v.corrected {
        1 => conditional(),
        2 => one_step(),
        _ => 0.5 * (conditional() + one_step()),
    };
    let fixed = estimate * sigma + me;
    // Better units to the loss: a smaller improvement is a higher loss.
    decision.improvement - fixed
}

/// How often one decision keeps a change of no true effect: five baseline
/// runs, then the candidate's runs until the rule decides, all N(0, 1).
fn single_null_rate(v: &Variant, trials: u64, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(9);
    let mut kept = 0u64;
    for _ in 0..trials {
        let baseline: Vec<f64> = (0..BASELINE_RUNS).map(|_| normal(&mut rng)).collect();
        let mut candidate = Vec::new();
        let decision = loop {
            candidate.push(normal(&mut rng));
            let replicates: [&[f64]; 1] = [&baseline];
            let evidence = Evidence {
                best: &baseline,
                candidate: &candidate,
                replicates: &replicates,
                segment_values: &baseline,
                seeds: Seeds::NONE,
                instances: None,
            };
            if let Step::Decide(d) = v.decide(&evidence) {
                break d;
            }
        };
        kept += u64::from(decision.keep());
    }
    kept as f64 / trials as f64
}

/// Means (and standard errors) over the loops.
#[derive(Debug, Clone)]
struct Summary {
    label: String,
    gain: (f64, f64),
    nulls: f64,
    regressions: f64,
    false_keeps: f64,
    improvements: f64,
    tried: f64,
    runs: f64,
    /// Candidate runs per try (a keep's record included, baselines not).
    runs_per_try: f64,
    bias: (f64, f64),
    keep_bias: f64,
    coverage: f64,
    spent: spent::Spent,
}

fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

fn summarize(worlds: &[World], v: &Variant) -> Summary {
    let outs: Vec<Outcome> = worlds.iter().map(|w| play(w, v)).collect();
    let col = |f: fn(&Outcome) -> f64| outs.iter().map(f).collect::<Vec<f64>>();
    let mean = |f: fn(&Outcome) -> f64| mean_se(&col(f)).0;
    let keeps = outs
        .iter()
        .map(|o| o.improvements_kept + o.nulls_kept + o.regressions_kept)
        .sum::<f64>();
    Summary {
        label: v.label.clone(),
        gain: mean_se(&col(|o| o.gain)),
        nulls: mean(|o| o.nulls_kept),
        regressions: mean(|o| o.regressions_kept),
        false_keeps: mean(|o| o.nulls_kept + o.regressions_kept),
        improvements: mean(|o| o.improvements_kept),
        tried: mean(|o| o.tried),
        runs: mean(|o| o.runs),
        runs_per_try: outs.iter().map(|o| o.runs - o.baseline_runs).sum::<f64>()
            / outs.iter().map(|o| o.tried).sum::<f64>().max(1.0),
        bias: mean_se(&col(|o| o.bias)),
        keep_bias: outs.iter().map(|o| o.keep_bias_sum).sum::<f64>() / keeps.max(1.0),
        coverage: mean(|o| o.covered),
        spent: spent::Spent::mean(&outs.iter().map(|o| o.spent).collect::<Vec<_>>()),
    }
}

/// Seed of loop `k` of stream `salt`: the same for every rule.
fn trial_seed(seed: u64, salt: u64, k: u64) -> u64 {
    seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

fn worlds(seed: u64, trials: u64) -> Vec<Vec<World>> {
    streams()
        .iter()
        .enumerate()
        .map(|(s, stream)| {
            (0..trials)
                .map(|k| world(stream, trial_seed(seed, s as u64 + 1, k)))
                .collect()
        })
        .collect()
}

/// Summaries of every variant in every stream (streams in parallel).
fn summarize_all(worlds: &[Vec<World>], variants: &[Variant]) -> Vec<Vec<Summary>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = worlds
            .iter()
            .map(|w| scope.spawn(move || variants.iter().map(|v| summarize(w, v)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a stream's simulation"))
            .collect()
    })
}

fn table(rows: &[Summary]) -> String {
    let mut out = String::from(
        "| rule | true improvement (σ) | ± s.e. | null changes kept | regressions kept | \
         improvements kept | candidates tried | bias of the recorded best (σ) | ± s.e. | \
         bias when recorded (σ) | 95% interval holds the truth |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.1} | {:+.2} | {:.2} | {:+.2} | {:.1}% |\n",
            r.label,
            r.gain.0,
            r.gain.1,
            r.nulls,
            r.regressions,
            r.improvements,
            r.tried,
            r.bias.0,
            r.bias.1,
            r.keep_bias,
            100.0 * r.coverage,
        );
    }
    out
}

/// The three targets of a row against the strict rule's row.
struct Check {
    false_ratio: f64,
    gain_ratio: f64,
    coverage: f64,
}

impl Check {
    fn of(row: &Summary, strict: &Summary) -> Check {
        Check {
            false_ratio: row.false_keeps / strict.false_keeps,
            gain_ratio: row.gain.0 / strict.gain.0,
            coverage: row.coverage,
        }
    }

    fn false_ok(&self) -> bool {
        self.false_ratio <= FALSE_KEEP_RATIO
    }

    fn gain_ok(&self) -> bool {
        self.gain_ratio >= GAIN_RATIO
    }

    fn honest_ok(&self) -> bool {
        self.coverage >= COVERAGE
    }

    fn pass(&self) -> bool {
        self.false_ok() && self.gain_ok() && self.honest_ok()
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "FAIL"
    }
}

struct Args {
    lane_trials: u64,
    instance_trials: u64,
    trials: u64,
    frontier_trials: u64,
    seed: u64,
    frontier: bool,
    lanes_only: bool,
    instances_only: bool,
    paired_only: bool,
    calibration_only: bool,
    calibration_trials: u64,
    /// Only the streams' tables (`--streams-only`).
    streams_only: bool,
    /// `--shape F1,F,FIRST,CAP,TOP_UP[,THETA]`: one more `sequential` row
    /// (and the calibration section played with it); THETA the later
    /// looks' futility on the scale of the change (`Shape::futility_effect`).
    shape: Option<(Shape, u32, usize)>,
    /// `--calibration-noise gauss,t3,wide,rho0,rho0.5,rho0.95`.
    calibration_noise: Option<String>,
    /// `--later-after-nulls N`.
    later_after_nulls: Option<usize>,
    /// `--corrected-record`: two more `sequential` rows, a keep recorded
    /// by all its runs, as measured and with the selection taken out.
    corrected_record: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        lane_trials: LANE_TRIALS,
        instance_trials: INSTANCE_TRIALS,
        trials: TRIALS,
        frontier_trials: FRONTIER_TRIALS,
        seed: SEED,
        frontier: false,
        lanes_only: false,
        instances_only: false,
        paired_only: false,
        calibration_only: false,
        calibration_trials: CALIBRATION_TRIALS,
        streams_only: false,
        shape: None,
        calibration_noise: None,
        later_after_nulls: None,
        corrected_record: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = |args: &mut dyn Iterator<Item = String>| -> u64 {
            let v = args.next().unwrap_or_else(|| usage(&arg));
            v.parse().unwrap_or_else(|_| usage(&arg))
        };
        match arg.as_str() {
            "--trials" => a.trials = value(&mut args).max(2),
            "--frontier-trials" => a.frontier_trials = value(&mut args).max(2),
            "--seed" => a.seed = value(&mut args),
            "--lane-trials" => a.lane_trials = value(&mut args).max(2),
            "--instance-trials" => a.instance_trials = value(&mut args).max(2),
            "--frontier" => a.frontier = true,
            "--lanes-only" => a.lanes_only = true,
            "--instances-only" => a.instances_only = true,
            "--paired-only" => a.paired_only = true,
            "--calibration-only" => a.calibration_only = true,
            "--power-only" => {
                a.calibration_only = true;
                calibration::set_power_only();
            }
            "--streams-only" => a.streams_only = true,
            "--corrected-record" => a.corrected_record = true,
            "--nonbinding" => {
                let v = args.next().unwrap_or_else(|| usage(&arg));
                let f: Vec<f64> = v
                    .split(',')
                    .map(|x| x.parse().unwrap_or_else(|_| usage(&arg)))
                    .collect();
                if f.len() != 2 {
                    usage(&arg);
                }
                let _ = NONBINDING.set((f[0], f[1]));
            }
            "--calibration-trials" => a.calibration_trials = value(&mut args).max(2),
            "--calibration-noise" => {
                a.calibration_noise = Some(args.next().unwrap_or_else(|| usage(&arg)))
            }
            "--later-after-nulls" => a.later_after_nulls = Some(value(&mut args) as usize),
            "--segment-tries" => {
                let _ = SEGMENT_TRIES.set(value(&mut args).max(1) as usize);
            }
            "--shape" => {
                let v = args.next().unwrap_or_else(|| usage(&arg));
                let f: Vec<f64> = v
                    .split(',')
                    .map(|x| x.parse().unwrap_or_else(|_| usage(&arg)))
                    .collect();
                if f.len() != 5 && f.len() != 6 {
                    usage(&arg);
                }
                let shape = Shape {
                    screen_futility: f[0],
                    futility: f[1],
                    futility_effect: f.get(5).copied().unwrap_or(0.0),
                    first_keep: f[2] as usize,
                };
                a.shape = Some((shape, f[3] as u32, f[4] as usize));
            }
            _ => usage(&arg),
        }
    }
    a
}

fn usage(arg: &str) -> ! {
    eprintln!(
        "ratchet_sim: bad argument {arg:?}\n\
         usage: ratchet_sim [--trials N] [--seed S] [--frontier] [--frontier-trials N] [--lane-trials N] [--instance-trials N] [--lanes-only] [--instances-only] [--paired-only] [--calibration-only] [--power-only] [--calibration-trials N] [--calibration-noise gauss,t3,wide,rhoR] [--later-after-nulls N] [--streams-only] [--shape F1,F,FIRST,CAP,TOP_UP[,THETA]] [--corrected-record] [--nonbinding F1,F] [--segment-tries N]"
    );
    std::process::exit(2)
}

fn main() {
    let started = Instant::now();
    let args = parse_args();
    if args.lanes_only {
        let pass = lanes_section(args.seed, args.lane_trials);
        println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
        std::process::exit(if pass { 0 } else { 1 });
    }
    if args.instances_only {
        let pass = instances::section(args.seed, args.instance_trials);
        println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
        std::process::exit(if pass { 0 } else { 1 });
    }
    if let Some((shape, max_runs, top_up)) = args.shape {
        let tuning = SeqTuning { shape, top_up };
        calibration::set_tuning(tuning, max_runs, nonbinding_bounds());
    }
    if let Some(only) = &args.calibration_noise {
        calibration::set_conditions(only).unwrap_or_else(|e| usage(&e));
    }
    if let Some(n) = args.later_after_nulls {
        calibration::set_after_nulls(n);
    }
    if args.calibration_only {
        let pass = calibration::section(args.seed, args.calibration_trials);
        println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
        std::process::exit(if pass { 0 } else { 1 });
    }
    let trials = args.trials;
    let all_worlds = worlds(args.seed, trials);
    if args.paired_only {
        let pass = paired_section(&all_worlds, args.seed, trials);
        println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
        std::process::exit(if pass { 0 } else { 1 });
    }
    // The headline rows; the first three are the rules of `arx try`.
    // Close to the quick model quoted as a reference point: one run, then
    // up to five when it beats the best by half a σ, a futility stop, keep at
    // one-sided 90%, every run recorded (no early keep here, and no
    // shortcut for a well-measured noise).
    let mut reference = Variant::confirm(0.5, 0.0, 0.9, 5);
    reference.record_all = true;
    if let Some(t) = reference.tuning.as_mut() {
        t.settled_df = f64::INFINITY;
    }
    reference.label = "reference model: promise 0.5σ, futility 0, one-sided 90%, 5 runs, \
                       every run recorded"
        .to_string();
    let mut with_screen = Variant::of(Rule::Confirm);
    with_screen.record_all = true;
    with_screen.label = "`confirm`, screening run recorded too".to_string();
    let mut unsettled = Variant::of(Rule::Confirm);
    unsettled.tuning = Some(Tuning {
        settled_df: f64::INFINITY,
        ..Tuning::DEFAULT
    });
    unsettled.label = "`confirm`, always every confirmation run".to_string();
    let mut variants = vec![
        Variant::of(Rule::Confirm),
        Variant::of(Rule::Strict),
        Variant::of(Rule::Mad),
        unsettled,
        with_screen,
        reference,
        Variant::sequential(SeqTuning::DEFAULT, 0.95, SEQUENTIAL_MAX_RUNS),
        confirm_when_filed(),
    ];
    if let Some((shape, max_runs, top_up)) = args.shape {
        let tuning = SeqTuning { shape, top_up };
        variants
            .push(Variant::sequential(tuning, 0.95, max_runs).with_nonbinding(nonbinding_bounds()));
    }
    if args.corrected_record {
        variants.extend(own_records(args.shape));
    }
    if args.streams_only {
        // The rows the stream target compares, and nothing else.
        variants.retain(|v| {
            matches!(v.rule, Rule::Strict)
                || v.seq.is_some()
                || (matches!(v.rule, Rule::Confirm) && v.tuning.is_none() && !v.record_all)
        });
    }

    println!(
        "# `arx try` ratchet simulation\n\n\
         {BUDGET} runs per loop ({BASELINE_RUNS} of them the baseline), {trials} loops per \
         stream, base seed {:#x}, ChaCha8 seeded per loop; noise N(0, 1), effects in σ, \
         a loss metric (`Direction::Min`). Every rule meets the same changes with the same \
         noise; decisions through `arx::kernel::ratchet::next_step`. `confirm` defaults: \
         promise {}σ, futility {}σ, one-sided {}, {} runs at most ({} once the noise has \
         {} df). Figures are means over the loops.\n",
        args.seed,
        Tuning::DEFAULT.promise,
        Tuning::DEFAULT.futility,
        DEFAULT_CONFIDENCE,
        DEFAULT_MAX_RUNS,
        DEFAULT_MAX_RUNS - 1,
        SETTLED_DF,
    );
    let results = summarize_all(&all_worlds, &variants);
    let mut all_pass = true;
    for (stream, rows) in streams().iter().zip(&results) {
        println!("## Stream `{}`: {}\n", stream.key, stream.title);
        print!("{}", table(rows));
        println!();
        stream_target(rows);
        if args.streams_only {
            let spending: Vec<(&str, spent::Spent)> =
                rows.iter().map(|r| (r.label.as_str(), r.spent)).collect();
            for r in rows {
                println!(
                    "- runs per try (a keep's record included, baselines not): {:.2} {}",
                    r.runs_per_try, r.label
                );
            }
            println!("\nWhere the runs go (means over the loops):\n");
            print!("{}", spent::table(&spending));
            println!();
            continue;
        }
        let (arx, strict) = (&rows[0], &rows[1]);
        let c = Check::of(arx, strict);
        all_pass &= c.pass();
        println!(
            "- {} false keeps (null changes + regressions) at most 1/5 of strict's: \
             {:.2} vs {:.2} (ratio {:.3})",
            verdict(c.false_ok()),
            arx.false_keeps,
            strict.false_keeps,
            c.false_ratio
        );
        println!(
            "- {} true improvement at least 60% of strict's: {:.2}σ vs {:.2}σ (ratio {:.3})",
            verdict(c.gain_ok()),
            arx.gain.0,
            strict.gain.0,
            c.gain_ratio
        );
        println!(
            "- {} honest recorded best (the mean of the kept commit's confirmation runs; \
             its 95% interval holds the true value in at least 90% of loops): {:.1}% \
             (strict's best sample: {:.1}%); bias {:+.2}σ at the end, {:+.2}σ when recorded \
             (strict: {:+.2}σ, {:+.2}σ)",
            verdict(c.honest_ok()),
            100.0 * c.coverage,
            100.0 * strict.coverage,
            arx.bias.0,
            arx.keep_bias,
            strict.bias.0,
            strict.keep_bias,
        );
        println!();
    }
    if args.streams_only {
        println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
        return;
    }
    println!("## One decision on a null change\n");
    println!(
        "{SINGLE_TRIALS} seeded decisions: five baseline runs, then a candidate of no true \
         effect run until the rule decides (repeat 1, N(0, 1) noise).\n"
    );
    println!("| rule | null changes kept |\n|---|---:|");
    let singles: Vec<f64> = variants
        .iter()
        .map(|v| single_null_rate(v, SINGLE_TRIALS, args.seed))
        .collect();
    for (v, rate) in variants.iter().zip(&singles) {
        println!("| {} | {:.2}% |", v.label, 100.0 * rate);
    }
    println!();
    let single_ok = singles[0] <= SINGLE_NULL_KEEPS;
    all_pass &= single_ok;
    println!(
        "- {} one decision keeps a null change at most 5% of the time: {:.2}% (strict: {:.2}%)\n",
        verdict(single_ok),
        100.0 * singles[0],
        100.0 * singles[1]
    );
    println!(
        "## Verdict\n\n- `confirm` at {DEFAULT_CONFIDENCE}: {}\n",
        if all_pass {
            "meets every target in every stream"
        } else {
            "misses at least one target"
        }
    );

    let calibration_pass = calibration::section(args.seed, args.calibration_trials);
    println!(
        "- `sequential` (opt-in), calibration and power of one decision: {}\n",
        if calibration_pass {
            "meet every target"
        } else {
            "miss at least one target"
        }
    );

    let paired_pass = paired_section(&all_worlds, args.seed, trials);
    println!(
        "- Paired seeds (`confirm` with the runs' seeds): {}\n",
        if paired_pass {
            "meets every target"
        } else {
            "misses at least one target"
        }
    );

    let instances_pass = instances::section(args.seed, args.instance_trials);
    println!(
        "- Per-instance scores (`instances`): {}\n",
        if instances_pass {
            "meet both targets against the aggregate rule at every run noise (the runs \
             target where any rule can reach it, one run per decision where none can)"
        } else {
            "miss at least one target"
        }
    );

    let lanes_pass = lanes_section(args.seed, args.lane_trials);
    println!(
        "- Lanes (4 lanes on 4 slots, the last setting of the table): {}\n",
        if lanes_pass {
            "meet every target in every stream, with slot effects of 0 and 1σ"
        } else {
            "miss at least one target"
        }
    );

    if args.frontier {
        frontier(args.seed, args.frontier_trials);
    }
    println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
}

/// A grid of the confirm rule's constants, each judged against `strict` on
/// the same loops.
fn frontier(seed: u64, trials: u64) {
    println!("## Frontier of the `confirm` constants\n");
    println!(
        "{trials} loops per stream (the first {trials} loops of the headline), strict \
         played on the same loops as the yardstick. Each cell: true improvement \
         and false keeps as shares of strict's, then the end-of-loop bias (σ) and how \
         often the 95% interval holds the truth; then how often one decision keeps a null \
         change ({} decisions). `targets` is PASS when every target holds in every stream.\n",
        SINGLE_TRIALS / 4
    );
    let worlds = worlds(seed, trials);
    let strict: Vec<Summary> = summarize_all(&worlds, &[Variant::of(Rule::Strict)])
        .into_iter()
        .map(|mut rows| rows.remove(0))
        .collect();
    let mut variants = Vec::new();
    for max_runs in [4, 5, 6] {
        for confidence in [0.8, 0.85, 0.9] {
            for promise in [0.5, 0.75, 0.85, 1.0] {
                for futility in [0.5, 0.75, 1.0, 1.25] {
                    variants.push(Variant::confirm(promise, futility, confidence, max_runs));
                }
            }
        }
    }
    let results = summarize_all(&worlds, &variants);
    println!("| promise, futility, confidence, runs | rich | sparse | junk | one null decision | targets |");
    println!("|---|---|---|---|---:|---|");
    let mut best: Option<(String, f64)> = None;
    for (i, v) in variants.iter().enumerate() {
        let mut cells = Vec::new();
        let mut ok = true;
        let mut worst_gain = f64::INFINITY;
        for (s, rows) in results.iter().enumerate() {
            let row = &rows[i];
            let c = Check::of(row, &strict[s]);
            ok &= c.pass();
            worst_gain = worst_gain.min(c.gain_ratio);
            cells.push(format!(
                "{:.2} / {:.3} / {:+.2} / {:.0}%",
                c.gain_ratio,
                c.false_ratio,
                row.bias.0,
                100.0 * c.coverage
            ));
        }
        let single = single_null_rate(v, SINGLE_TRIALS / 4, seed);
        ok &= single <= SINGLE_NULL_KEEPS;
        println!(
            "| {} | {} | {:.1}% | {} |",
            v.label,
            cells.join(" | "),
            100.0 * single,
            if ok { "PASS" } else { "" }
        );
        if ok && best.as_ref().is_none_or(|(_, g)| worst_gain > *g) {
            best = Some((v.label.clone(), worst_gain));
        }
    }
    println!();
    match best {
        Some((label, g)) => println!(
            "- Highest smallest true-improvement share among the rows meeting every \
             target: {label} ({g:.2}).\n"
        ),
        None => println!("- No row meets every target.\n"),
    }
}

/// The lanes section: per stream and slot effect, 1 lane on 1 slot against
/// 4 lanes on 4 slots (compared with the recorded best, and with the best
/// on the same slot), at equal wall time. True when the targets hold.
fn lanes_section(seed: u64, trials: u64) -> bool {
    use arx::kernel::slot_offset::OFFSET_VAR;
    use lanes::{false_per_true, BLIND_GAIN, CEILING_SHARE, CONFLICT, LANES_GAIN, REMEASURE};
    println!("## Lanes: 4 candidates at once on 4 slots\n");
    println!(
        "{trials} loops per stream and setting, {BUDGET} ticks of wall time (a run per slot \
         per tick; the baseline's {BASELINE_RUNS} runs on slot 0 first). Lane i runs on slot \
         i; a slot adds a fixed bias N(0, slot effect²) to every loss it measures. A keep is \
         a compare-and-swap of the best: a candidate whose best moved is replayed onto the new \
         best ({:.0}% of replays conflict: a `stale` discard) and measured again against it. \
         `same slot`: a candidate is compared with the best measured on its own slot ({REMEASURE} \
         runs of the best there first, shared by later candidates on that slot). `adaptive` (what `arx try` does, through \
         `arx::kernel::slot_offset`): a lane whose slot has no runs of the best and whose \
         offset to the best's slots is not known (variance above {OFFSET_VAR}σ²) first runs \
         the best {REMEASURE} times there; a candidate is compared with every run of the best, \
         each moved onto its slot by the slots' estimated offset (shrunk toward 0). `known \
         exactly`: every run of the best moved by the slots' true offsets, with no run spent \
         learning them — a ceiling for any comparison across slots, not a design. `replayed when the best \
         moves`: a candidate leaning better than its best is replayed at once when another \
         lane keeps, not after its own decision. Decisions through \
         `arx::kernel::ratchet::next_step` (`confirm`).\n",
        100.0 * CONFLICT
    );
    let mut pass = true;
    let stream_list = streams();
    let results: Vec<Vec<(f64, Vec<lanes::LaneOutcome>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = stream_list
            .iter()
            .enumerate()
            .map(|(s, stream)| {
                scope.spawn(move || {
                    [0.0, 1.0]
                        .iter()
                        .map(|&slot_sd| {
                            let setups = lanes::setups(slot_sd);
                            (
                                slot_sd,
                                lanes::summarize(stream, s as u64 + 1, seed, trials, &setups),
                            )
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a stream's lanes"))
            .collect()
    });
    for (stream, per_sd) in stream_list.iter().zip(&results) {
        println!("### Stream `{}`\n", stream.key);
        println!(
            "| slot effect | setting | true improvement (σ) | vs 1 lane | true keeps | \
             null or harmful keeps per true keep | stale | replays | runs re-measuring the best | candidates tried |"
        );
        println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (slot_sd, rows) in per_sd {
            let one = &rows[0];
            let setups = lanes::setups(*slot_sd);
            for (setup, r) in setups.iter().zip(rows) {
                println!(
                    "| {slot_sd}σ | {} | {:.2} | {:.2}x | {:.2} | {:.3} | {:.2} | {:.2} | {:.1} | {:.1} |",
                    setup.label(),
                    r.gain,
                    r.gain / one.gain,
                    r.true_keeps,
                    false_per_true(r),
                    r.stale,
                    r.replays,
                    r.remeasure_runs,
                    r.tried,
                );
            }
            let four = rows.last().expect("the design's row");
            let ceiling = &rows[rows.len() - 2];
            let blind = &rows[rows.len() - 3];
            let false_ok = false_per_true(four) <= false_per_true(one);
            let gain = if *slot_sd == 0.0 {
                let ok = four.gain >= LANES_GAIN * one.gain;
                pass &= ok;
                format!(
                    "{} true improvement ≥ {LANES_GAIN}x of 1 lane ({:.2}x; {:.2}x with the offsets known exactly)",
                    verdict(ok),
                    four.gain / one.gain,
                    ceiling.gain / one.gain,
                )
            } else {
                let of_ceiling = four.gain / ceiling.gain;
                let of_blind = four.gain / blind.gain;
                let (ceiling_ok, blind_ok) = (of_ceiling >= CEILING_SHARE, of_blind >= BLIND_GAIN);
                pass &= ceiling_ok && blind_ok;
                format!(
                    "{} true improvement ≥ {:.0}% of the offsets known exactly ({:.1}%); {} ≥ {BLIND_GAIN}x of blind to slots ({:.2}x; {:.2}x of 1 lane)",
                    verdict(ceiling_ok),
                    100.0 * CEILING_SHARE,
                    100.0 * of_ceiling,
                    verdict(blind_ok),
                    of_blind,
                    four.gain / one.gain,
                )
            };
            pass &= false_ok;
            println!(
                "| | {gain}; {} null or harmful keeps per true keep no worse than 1 lane ({:.3} vs {:.3}) | | | | | | | | |",
                verdict(false_ok),
                false_per_true(four),
                false_per_true(one),
            );
        }
        println!();
    }
    pass
}

/// The paired-seeds section: per correlation and stream, `strict`,
/// `confirm` unpaired and `confirm` with the seeds on the same loops and
/// the same seeds. True when the targets hold.
fn paired_section(worlds: &[Vec<World>], seed: u64, trials: u64) -> bool {
    use paired::{Corr, ROWS};
    println!("## Paired seeds\n");
    println!(
        "{trials} loops per stream (the headline's changes), {BUDGET} runs each. Every run is \
         handed a seed as `arx try` hands it (a candidate's k-th run the seed of the best's \
         k-th run, its recorded runs first, then the screening run its record leaves out, \
         `arx::kernel::paired::next_seed`); a commit's value at a seed \
         shares a correlation ρ with the value of the best it was tried against at that \
         seed, and varies N(0, 1) from seed to seed. `confirm`, paired seeds: the same rule \
         given the seeds (`Evidence::seeds`), which compares runs of the same seed where \
         the data establishes, at the keep test's confidence, that pairing makes the \
         comparison less noisy than unpaired (at least {} pairs for the keep test; two \
         confirmation runs once the differences' noise rests on {} df).\n",
        arx::kernel::paired::MIN_PAIRS,
        arx::kernel::paired::SETTLED_DF,
    );
    let corrs = [
        Corr::Fixed(0.0),
        Corr::Fixed(0.5),
        Corr::Fixed(0.8),
        Corr::Mixture {
            share: 0.6,
            high: 0.98,
            low: 0.1,
        },
    ];
    let stream_list = streams();
    let results: Vec<Vec<[paired::Tally; 4]>> = std::thread::scope(|scope| {
        let handles: Vec<_> = worlds
            .iter()
            .enumerate()
            .map(|(s, w)| {
                scope.spawn(move || {
                    corrs
                        .iter()
                        .map(|&corr| {
                            let salt = seed ^ (s as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407);
                            ROWS.map(|row| paired::summarize(w, corr, salt, row))
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a stream's paired loops"))
            .collect()
    });
    let mut pass = true;
    for (stream, per_corr) in stream_list.iter().zip(&results) {
        println!("### Stream `{}`\n", stream.key);
        println!(
            "| correlation | rule | true improvement (σ) | of strict's | false keeps | \
             improvements kept | candidates tried | runs per try | decided paired |"
        );
        println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (corr, rows) in corrs.iter().zip(per_corr) {
            for (row, t) in ROWS.iter().zip(rows) {
                println!(
                    "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.1} | {:.2} | {:.1} |",
                    corr.label(),
                    row.label,
                    t.gain,
                    t.gain / rows[0].gain,
                    t.false_keeps,
                    t.improvements,
                    t.tried,
                    t.runs_per_try,
                    t.paired,
                );
            }
        }
        println!();
        for (corr, rows) in corrs.iter().zip(per_corr) {
            let (ok, lines) = paired::checks(*corr, rows);
            pass &= ok;
            for line in lines {
                println!("- {}: {line}", corr.label());
            }
        }
        println!();
    }
    let single = paired::single_null_rate(0.8, SINGLE_TRIALS, seed);
    let single_ok = single <= SINGLE_NULL_KEEPS;
    pass &= single_ok;
    println!(
        "- {} one decision keeps a null change (ρ 0.8, paired, no earlier tries) at \
         most 5% of the time: {:.2}% of {SINGLE_TRIALS}\n",
        verdict(single_ok),
        100.0 * single
    );
    pass
}
