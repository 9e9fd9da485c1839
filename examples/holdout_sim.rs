//! The held-out check at keep, through arx's own rule
//! (`arx::kernel::holdout::judge_look` and its looks `next_look`, the
//! seeds of `arx::kernel::paired::next_seed`), over loops of keeps.
//!
//! A loop measures its baseline's held-out value `baseline_repeat` times,
//! then tries 8 candidates, each one the target rule would keep. A
//! candidate's true held-out value is the best's plus `delta` (in units of
//! the held-out run noise σ = 1); the held-out check runs it `repeat`
//! times and, while the rule is undecided, more (up to `max_repeat`, the
//! baseline's runs growing to match, kept for the loop's later tries); a
//! passed candidate becomes the best. A run's held-out value is its commit's true value plus a seed
//! effect (variance ρ, the same for every commit run at that seed: the
//! data order, the initialisation) plus fresh noise (variance 1 − ρ).
//! Unpaired, every run draws its own seed; paired, the held-out runs take
//! the seeds arx hands them (the baseline's held-out seeds, in order).
//!
//! Two scenarios, with their targets:
//! - **harm**: every candidate 0.5σ worse than the best on the held-out
//!   set. Target: the kept commit not more than 1σ worse than the
//!   baseline in ≥ 95% of loops.
//! - **null**: no held-out effect (every candidate a real gain on the
//!   target, unchanged on the held-out set). Target: ≤ (1 − confidence) +
//!   5 points of them vetoed.
//!
//! The row `best only, 1 run` is the first rule: a candidate's single
//! held-out run against the best's, with the baseline's noise; the rows
//! `one look`, the rule before the sequential check (not worse than the
//! baseline beyond the noise, on `repeat` runs); the rows `sequential`,
//! the check now (shown within the harm bound of the baseline) at caps
//! of 12 to 30 (`defaults`: `max_repeat`'s default).
//!
//! Run: `cargo run --example holdout_sim [LOOPS] [ROWS]` (default 2000
//! loops per row; ROWS: the rows whose name contains it, or `NAME:MAX` one
//! cap of them).

use std::collections::HashMap;

use arx::kernel::holdout::{
    harm_bound, judge_look, next_look, paired_noise, HeldRuns, Rule, DEFAULT_MAX_REPEAT,
};
use arx::kernel::paired::next_seed;
use arx::kernel::ratchet::pooled_noise;
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TRIES: usize = 8;
const CONFIDENCE: f64 = 0.95;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    // Box-Muller.
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// One row of the table: how the check is set up.
#[derive(Clone, Copy)]
struct Setup {
    name: &'static str,
    /// `None`: unpaired; else the seed correlation ρ.
    rho: Option<f64>,
    baseline_repeat: usize,
    repeat: usize,
    /// The sequential check's cap (the runs of the one-look rule before:
    /// `repeat`).
    max_repeat: usize,
    margin: Option<f64>,
    /// Compare with the baseline too (the rule now), or the best only.
    against_baseline: bool,
    /// Ask that the candidate be shown within the harm bound of the
    /// baseline (the sequential check), or only not worse (before).
    bounded: bool,
}

/// Held-out runs as the journal holds them.
#[derive(Clone, Default)]
struct Held {
    values: Vec<f64>,
    seeds: Vec<Option<u64>>,
}

impl Held {
    fn runs(&self) -> HeldRuns<'_> {
        HeldRuns {
            values: &self.values,
            seeds: &self.seeds,
        }
    }
}

/// One loop's world: the seed effects drawn so far.
struct World {
    rng: ChaCha8Rng,
    effects: HashMap<u64, f64>,
    rho: Option<f64>,
}

impl World {
    /// `n` more held-out runs into `held` of a commit whose true value is
    /// `mu`, at the seeds that pair with `pair_with` (paired), or fresh
    /// (unpaired).
    fn measure(&mut self, held: &mut Held, mu: f64, n: usize, pair_with: &[Option<u64>]) {
        let mut used: Vec<u64> = held.seeds.iter().flatten().copied().collect();
        for _ in 0..n {
            match self.rho {
                None => {
                    held.values.push(mu + normal(&mut self.rng));
                    held.seeds.push(None);
                }
                Some(rho) => {
                    let seed = next_seed("sim", pair_with, &used);
                    used.push(seed);
                    let rng = &mut self.rng;
                    let effect = *self
                        .effects
                        .entry(seed)
                        .or_insert_with(|| rho.sqrt() * normal(rng));
                    let fresh = (1.0 - rho).sqrt() * normal(&mut self.rng);
                    held.values.push(mu + effect + fresh);
                    held.seeds.push(Some(seed));
                }
            }
        }
    }
}

/// What one loop came to.
struct Outcome {
    /// The final best's true gap to the baseline (positive: worse).
    gap: f64,
    vetoed: usize,
    /// Held-out runs of the candidates, and of the baseline.
    candidate_runs: usize,
    baseline_runs: usize,
}

/// One loop of [`TRIES`] candidates, each `delta` worse than the best.
fn one_loop(setup: &Setup, delta: f64, seed: u64) -> Outcome {
    let mut world = World {
        rng: ChaCha8Rng::seed_from_u64(seed),
        effects: HashMap::new(),
        rho: setup.rho,
    };
    // The journal: the baseline's runs (they grow) first, then each
    // candidate's.
    let mut journal: Vec<Held> = vec![Held::default()];
    world.measure(&mut journal[0], 0.0, setup.baseline_repeat, &[]);
    let (mut best, mut best_mu) = (journal[0].clone(), 0.0);
    let (mut vetoed, mut candidate_runs) = (0, 0);
    for _ in 0..TRIES {
        let mu = best_mu + delta;
        let mut cand = Held::default();
        let mut n = setup.repeat;
        let judged = loop {
            let pair_with = journal[0].seeds.clone();
            let more = n - cand.values.len();
            world.measure(&mut cand, mu, more, &pair_with);
            let next = next_look(n as u32, setup.max_repeat as u32);
            let rule = rule(setup, &journal, &cand);
            let baseline = &journal[0];
            let against = setup.against_baseline.then(|| baseline.runs());
            let last = next.is_none() || !setup.bounded;
            if let Some(j) = judge_look(cand.runs(), Some(best.runs()), against, &rule, last) {
                break j;
            }
            n = next.expect("not the last look") as usize;
            // The baseline grows to match, once for the segment.
            let more = n.saturating_sub(journal[0].values.len());
            let mut baseline = std::mem::take(&mut journal[0]);
            world.measure(&mut baseline, 0.0, more, &[]);
            journal[0] = baseline;
        };
        candidate_runs += cand.values.len();
        journal.push(cand.clone());
        if judged.verdict.passed() {
            best = cand;
            best_mu = mu;
        } else {
            vetoed += 1;
        }
    }
    Outcome {
        gap: best_mu,
        vetoed,
        candidate_runs,
        baseline_runs: journal[0].values.len(),
    }
}

/// The rule at one look, as `arx try` sets it: the pooled noise of the
/// segment's repeated held-out runs, the fitted paired noise, and the
/// harm bound they set.
fn rule(setup: &Setup, journal: &[Held], cand: &Held) -> Rule {
    let groups: Vec<&[f64]> = journal
        .iter()
        .map(|h| h.values.as_slice())
        .chain(std::iter::once(cand.values.as_slice()))
        .collect();
    let mut all: Vec<HeldRuns<'_>> = journal.iter().map(Held::runs).collect();
    all.push(cand.runs());
    let pooled = pooled_noise(&groups);
    Rule {
        direction: Direction::Min,
        pooled,
        paired: paired_noise(&all),
        margin: setup.margin,
        confidence: CONFIDENCE,
        bound: setup.bounded.then(|| harm_bound(pooled)),
    }
}

/// Wilson score interval (95%) of `k` in `n`, in percent.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.96);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    )
}

fn main() {
    let loops: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let before = |name, rho, baseline_repeat, repeat, margin, against_baseline| Setup {
        name,
        rho,
        baseline_repeat,
        repeat,
        max_repeat: repeat,
        margin,
        against_baseline,
        bounded: false,
    };
    let seq = |name, rho, max_repeat| Setup {
        name,
        rho,
        baseline_repeat: 5,
        repeat: 3,
        max_repeat,
        margin: None,
        against_baseline: true,
        bounded: true,
    };
    // The rows marked `defaults` run at `max_repeat`'s default.
    let cap = DEFAULT_MAX_REPEAT as usize;
    let setups = [
        before(
            "best only, 1 run (first rule)",
            None,
            3,
            1,
            Some(0.0),
            false,
        ),
        before("unpaired, one look", None, 5, 3, None, true),
        before("paired ρ 0.5, one look", Some(0.5), 5, 3, None, true),
        before("paired ρ 0.9, one look", Some(0.9), 5, 3, None, true),
        seq("unpaired, sequential", None, 12),
        seq("unpaired, sequential", None, 20),
        seq("unpaired, sequential, defaults", None, cap),
        seq("unpaired, sequential", None, 30),
        seq("paired ρ 0.5, sequential", Some(0.5), 12),
        seq("paired ρ 0.5, sequential", Some(0.5), 20),
        seq("paired ρ 0.5, seq., defaults", Some(0.5), cap),
        seq("paired ρ 0.9, seq., defaults", Some(0.9), cap),
        seq("paired ρ 0.99, seq., defaults", Some(0.99), cap),
        seq("paired ρ 0, sequential", Some(0.0), 20),
        seq("paired ρ 0, seq., defaults", Some(0.0), cap),
        seq("paired ρ 0, sequential", Some(0.0), 30),
    ];
    // A second argument: the rows whose name contains it, at its cap
    // (`unpaired:25`), or all.
    let only: Option<String> = std::env::args().nth(2);
    let shown = |s: &Setup| match only.as_deref().and_then(|o| o.split_once(':')) {
        Some((name, max)) => s.name.contains(name) && max.parse() == Ok(s.max_repeat),
        None => only.as_deref().is_none_or(|o| s.name.contains(o)),
    };
    println!(
        "held-out check over {loops} loops of {TRIES} tries per row, confidence {CONFIDENCE}, \
         through arx::kernel::holdout::judge_look"
    );
    println!(
        "{:<30} {:>4} {:>4} {:>4} | {:>22} {:>6} {:>6} {:>5} | {:>20} {:>6} {:>5}",
        "check",
        "base",
        "cand",
        "max",
        "harm ≤1σ loops [95%]",
        "median",
        "runs/t",
        "base",
        "null vetoed [95%]",
        "runs/t",
        "base"
    );
    for s in setups.iter().filter(|s| shown(s)) {
        let mut within = 0u64;
        let mut gaps = Vec::with_capacity(loops as usize);
        let (mut null_vetoed, mut harm_runs, mut null_runs) = (0u64, 0usize, 0usize);
        let (mut harm_base, mut null_base) = (0usize, 0usize);
        for l in 0..loops {
            let harm = one_loop(s, 0.5, 1 + l);
            if harm.gap <= 1.0 + 1e-9 {
                within += 1;
            }
            gaps.push(harm.gap);
            harm_runs += harm.candidate_runs;
            harm_base += harm.baseline_runs;
            let null = one_loop(s, 0.0, 1_000_000 + l);
            null_vetoed += null.vetoed as u64;
            null_runs += null.candidate_runs;
            null_base += null.baseline_runs;
        }
        gaps.sort_by(f64::total_cmp);
        let median = gaps[gaps.len() / 2];
        let tries = loops * TRIES as u64;
        let (hl, hh) = wilson(within, loops);
        let (nl, nh) = wilson(null_vetoed, tries);
        println!(
            "{:<30} {:>4} {:>4} {:>4} | {:>6.1}% [{:>5.1}–{:>5.1}] {:>5.1}σ {:>6.1} {:>5.1} | {:>5.1}% [{:>4.1}–{:>4.1}] {:>6.1} {:>5.1}",
            s.name,
            s.baseline_repeat,
            s.repeat,
            s.max_repeat,
            100.0 * within as f64 / loops as f64,
            hl,
            hh,
            median,
            harm_runs as f64 / tries as f64,
            harm_base as f64 / loops as f64,
            100.0 * null_vetoed as f64 / tries as f64,
            nl,
            nh,
            null_runs as f64 / tries as f64,
            null_base as f64 / loops as f64,
        );
    }
    println!(
        "targets: harm ≤1σ in ≥ 95% of loops; null vetoed ≤ {:.0}% ((1 − confidence) + 5 points); \
         runs/t: the candidates' held-out runs per try; base: the baseline's held-out runs at the loop's end",
        100.0 * (1.0 - CONFIDENCE) + 5.0
    );
}
