//! Steering by family in a world where families truly differ, and in one
//! where they do not: does choosing the next idea's family by the ratchet's
//! record find more true improvements than choosing it uniformly, and does
//! it do no harm when there is nothing to learn?
//!
//! ```sh
//! cargo run --release --example steer_sim
//! cargo run --release --example steer_sim -- --worlds 2000 --seed 7
//! ```
//!
//! A world has 12 families of ideas. An idea of family f is a true
//! improvement with the family's hidden probability (its true keep rate),
//! of size U(1, 2.5)σ; otherwise it is null (half the time) or harmful
//! (−U(0.2, 1.5)σ). In the world where families differ, the probabilities
//! are 18% and 15% for two families, 1% for three, 0.5% for four and 0 for
//! three (mean 3.2%), placed at random among the 12; where they do not
//! differ, every family has the mean, 3.2%. 8 lanes try 300 ideas in all;
//! a lane that is free takes the next idea of the family its policy
//! chooses, from the record of the tries that have ended (a try in flight
//! teaches nothing yet). Every run measures `−value + ε`, ε ~ N(0, 1), one
//! run per lane per tick, and every keep decision goes through
//! `arx::kernel::ratchet::next_step` (`confirm`, at most 8 runs), as `arx
//! try` decides; a keep whose best moved while it was measured is replayed
//! onto the new best and measured again.
//!
//! Policies: `uniform` (a family at random: today's loop, which has no
//! record of families), `steered` (the family `arx::engine::steer`, the
//! ranking `arx next` uses, scores best; ties broken at random) and, as a
//! ceiling,
//! `oracle` (the family with the highest true rate). Every policy meets
//! the same ideas of each family in the same order and the same noise
//! (common random numbers), so the differences are the policies'.
//!
//! Exit 1 when a target is missed.

use arx::kernel::ratchet::{next_step, Evidence, Rule, Seeds, Settings, Step};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "steer/ranking.rs"]
mod ranking;

use ranking::{FixedRecord, Outcome, Record};

const FAMILIES: usize = 12;
const LANES: usize = 8;
const TRIES: usize = 300;
const BASELINE_RUNS: usize = 5;
/// Most runs of one candidate.
const MAX_DRAWS: usize = 8;
/// Worlds per setting (overridable with `--worlds`).
const WORLDS: u64 = 600;
/// Base seed (overridable with `--seed`).
const SEED: u64 = 0x7374_6565_7273_696d;
/// True keep rates of the world where families differ (mean 3.2%).
const DIFFER: [f64; FAMILIES] = [
    0.18, 0.15, 0.01, 0.01, 0.01, 0.005, 0.005, 0.005, 0.005, 0.0, 0.0, 0.0,
];
/// Targets: steered true keeps at least this multiple of uniform's where
/// families differ…
const DIFFER_RATIO: f64 = 1.5;
/// …and at least this share of uniform's where they do not.
const FLAT_RATIO: f64 = 0.95;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[derive(Clone, Copy, PartialEq)]
enum Policy {
    Uniform,
    Steered,
    Fixed,
    Oracle,
}

impl Policy {
    fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform choice of family (today)",
            Policy::Steered => "steered: arx::engine::steer",
            Policy::Fixed => "steered, prior strength fixed at 8",
            Policy::Oracle => "the best family always (a ceiling)",
        }
    }
}

/// One world, drawn in advance: the families' true rates, each family's
/// stream of ideas (true effects) and the noise of every run.
struct World {
    rates: [f64; FAMILIES],
    ideas: Vec<Vec<f64>>,
    /// noise[k][j]: the j-th run of the k-th try (replays continue the row).
    noise: Vec<Vec<f64>>,
    baseline: Vec<f64>,
}

fn world(rates: &[f64; FAMILIES], seed: u64) -> World {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rates = *rates;
    // The good families sit anywhere among the 12.
    for i in (1..FAMILIES).rev() {
        rates.swap(i, rng.random_range(0..=i));
    }
    let ideas = rates
        .iter()
        .map(|&q| {
            (0..TRIES)
                .map(|_| {
                    let u: f64 = rng.random();
                    if u < q {
                        rng.random_range(1.0..2.5)
                    } else if rng.random::<bool>() {
                        0.0
                    } else {
                        -rng.random_range(0.2..1.5)
                    }
                })
                .collect()
        })
        .collect();
    let noise = (0..TRIES)
        .map(|_| (0..4 * MAX_DRAWS).map(|_| normal(&mut rng)).collect())
        .collect();
    let baseline = (0..BASELINE_RUNS).map(|_| normal(&mut rng)).collect();
    World {
        rates,
        ideas,
        noise,
        baseline,
    }
}

#[derive(Default, Clone, Copy)]
struct Outcomes {
    true_keeps: f64,
    false_keeps: f64,
    gain: f64,
    good_family_tries: f64,
    runs: f64,
}

impl Outcomes {
    fn add(&mut self, o: &Outcomes) {
        self.true_keeps += o.true_keeps;
        self.false_keeps += o.false_keeps;
        self.gain += o.gain;
        self.good_family_tries += o.good_family_tries;
        self.runs += o.runs;
    }
}

struct Lane {
    try_no: usize,
    family: usize,
    effect: f64,
    base: usize,
    samples: Vec<f64>,
    drawn: usize,
}

fn family_name(f: usize) -> String {
    format!("family-{f}")
}

fn choose(
    policy: Policy,
    w: &World,
    record: &Record,
    fixed: &FixedRecord,
    rng: &mut ChaCha8Rng,
) -> usize {
    match policy {
        Policy::Uniform => rng.random_range(0..FAMILIES),
        Policy::Oracle => (0..FAMILIES)
            .max_by(|&a, &b| w.rates[a].total_cmp(&w.rates[b]))
            .unwrap_or(0),
        Policy::Steered | Policy::Fixed => {
            let view = (policy == Policy::Steered).then(|| record.view());
            let scores: Vec<f64> = (0..FAMILIES)
                .map(|f| match &view {
                    Some(v) => v.score(&family_name(f)),
                    None => fixed.score(&family_name(f)),
                })
                .collect();
            let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let best: Vec<usize> = (0..FAMILIES).filter(|&f| scores[f] == top).collect();
            best[rng.random_range(0..best.len())]
        }
    }
}

/// Play one world with one policy.
fn play(w: &World, policy: Policy, seed: u64) -> Outcomes {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let settings = Settings::new(Direction::Min);
    let mut out = Outcomes::default();
    let mut record = Record::default();
    let mut fixed = FixedRecord::default();
    // Kept commits: (true value, recorded runs).
    let mut commits: Vec<(f64, Vec<f64>)> = vec![(0.0, w.baseline.clone())];
    let mut groups: Vec<Vec<f64>> = vec![w.baseline.clone()];
    let mut values: Vec<f64> = w.baseline.clone();
    let mut next_idea = [0usize; FAMILIES];
    let mut started = 0usize;
    let mut lanes: Vec<Option<Lane>> = (0..LANES).map(|_| None).collect();
    loop {
        let mut busy = false;
        for slot in lanes.iter_mut() {
            if slot.is_none() && started < TRIES {
                let family = choose(policy, w, &record, &fixed, &mut rng);
                let effect = w.ideas[family][next_idea[family]];
                next_idea[family] += 1;
                if w.rates[family] >= 0.1 {
                    out.good_family_tries += 1.0;
                }
                *slot = Some(Lane {
                    try_no: started,
                    family,
                    effect,
                    base: commits.len() - 1,
                    samples: Vec::new(),
                    drawn: 0,
                });
                started += 1;
            }
            let Some(lane) = slot.as_mut() else { continue };
            busy = true;
            let value = commits[lane.base].0 + lane.effect;
            let eps = w.noise[lane.try_no][lane.drawn % (4 * MAX_DRAWS)];
            lane.drawn += 1;
            lane.samples.push(-value + eps);
            out.runs += 1.0;
            let best = commits.len() - 1;
            let replicates: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let evidence = Evidence {
                best: &commits[lane.base].1,
                candidate: &lane.samples,
                replicates: &replicates,
                segment_values: &values,
                seeds: Seeds::NONE,
                instances: None,
            };
            let decision = if lane.samples.len() >= MAX_DRAWS {
                None
            } else {
                match next_step(Rule::Confirm, &settings, &evidence) {
                    Step::RunAgain => continue,
                    Step::Decide(d) => Some(d),
                }
            };
            groups.push(lane.samples.clone());
            values.extend_from_slice(&lane.samples);
            match decision.filter(|d| d.keep()) {
                Some(_) if lane.base != best => {
                    // Replayed onto the best another lane kept.
                    lane.base = best;
                    lane.samples.clear();
                }
                Some(d) => {
                    let recorded = lane.samples[d.record_from..].to_vec();
                    let runs = lane.drawn as u64;
                    commits.push((value, recorded));
                    if lane.effect > 0.0 {
                        out.true_keeps += 1.0;
                    } else {
                        out.false_keeps += 1.0;
                    }
                    out.gain += lane.effect;
                    record.observe(
                        &family_name(lane.family),
                        Outcome::Kept,
                        Some(d.improvement),
                        runs,
                    );
                    fixed.observe(&family_name(lane.family), Outcome::Kept);
                    *slot = None;
                }
                None => {
                    let runs = lane.drawn as u64;
                    record.observe(&family_name(lane.family), Outcome::Discarded, None, runs);
                    fixed.observe(&family_name(lane.family), Outcome::Discarded);
                    *slot = None;
                }
            }
        }
        if !busy && started >= TRIES {
            return out;
        }
    }
}

/// The standard error of (steered − uniform) null-or-harmful keeps per
/// true keep, by resampling the worlds (200 resamples).
fn bootstrap_se(per_world: &[[Outcomes; 4]], seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xB007);
    let n = per_world.len();
    let diffs: Vec<f64> = (0..200)
        .map(|_| {
            let mut t = [Outcomes::default(); 2];
            for _ in 0..n {
                let w = &per_world[rng.random_range(0..n)];
                t[0].add(&w[0]);
                t[1].add(&w[1]);
            }
            let r = |o: &Outcomes| o.false_keeps / o.true_keeps.max(1e-9);
            r(&t[1]) - r(&t[0])
        })
        .collect();
    let m = diffs.iter().sum::<f64>() / diffs.len() as f64;
    (diffs.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (diffs.len() - 1) as f64).sqrt()
}

fn main() {
    let mut worlds = WORLDS;
    let mut seed = SEED;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), v) {
            ("--worlds", Some(n)) if n > 0 => worlds = n,
            ("--seed", Some(s)) => seed = s,
            _ => {
                eprintln!("usage: steer_sim [--worlds N] [--seed N]");
                std::process::exit(2);
            }
        }
    }
    let mean = DIFFER.iter().sum::<f64>() / FAMILIES as f64;
    let flat = [mean; FAMILIES];
    println!(
        "{worlds} worlds per setting; 12 families, 8 lanes, 300 tries; seed {seed}. Per world, mean.\n"
    );
    println!("| families | policy | true keeps | vs uniform | null or harmful keeps | per true keep | true improvement (σ) | tries in the two good families | runs |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut ok = true;
    let mut lines = Vec::new();
    for (label, rates) in [
        ("differ (two at 15–18%, mean 3.2%)", &DIFFER),
        ("do not differ (all 3.2%)", &flat),
    ] {
        let policies = [
            Policy::Uniform,
            Policy::Steered,
            Policy::Fixed,
            Policy::Oracle,
        ];
        let mut totals = [Outcomes::default(); 4];
        let mut per_world: Vec<[Outcomes; 4]> = Vec::new();
        for k in 0..worlds {
            let w = world(rates, seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut this = [Outcomes::default(); 4];
            for (p, policy) in policies.iter().enumerate() {
                this[p] = play(&w, *policy, seed ^ k ^ 0x5EED);
                totals[p].add(&this[p]);
            }
            per_world.push(this);
        }
        let n = worlds as f64;
        let uniform = totals[0].true_keeps / n;
        for (p, policy) in policies.iter().enumerate() {
            let t = &totals[p];
            println!(
                "| {label} | {} | {:.2} | {:.2}x | {:.2} | {:.3} | {:.2} | {:.1} | {:.0} |",
                policy.name(),
                t.true_keeps / n,
                t.true_keeps / n / uniform,
                t.false_keeps / n,
                t.false_keeps / t.true_keeps.max(1e-9),
                t.gain / n,
                t.good_family_tries / n,
                t.runs / n,
            );
        }
        let ratio = totals[1].true_keeps / totals[0].true_keeps;
        let fixed_ratio = totals[2].true_keeps / totals[0].true_keeps;
        let fpk = |t: &Outcomes| t.false_keeps / t.true_keeps.max(1e-9);
        let (goal, floor) = if std::ptr::eq(rates, &DIFFER) {
            (format!("≥ {DIFFER_RATIO}x"), DIFFER_RATIO)
        } else {
            (format!("≥ {FLAT_RATIO}x (within 5%)"), FLAT_RATIO)
        };
        let t1 = ratio >= floor;
        // "No worse": steered's rate above uniform's by less than two
        // standard errors of the difference (worlds resampled).
        let diff = fpk(&totals[1]) - fpk(&totals[0]);
        let se = bootstrap_se(&per_world, seed);
        let t2 = diff < 2.0 * se;
        ok &= t1 && t2;
        let pass = |b: bool| if b { "PASS" } else { "FAIL" };
        lines.push(format!(
            "{} families {label}: steered true keeps {ratio:.2}x uniform ({goal}; with the prior strength fixed at 8: {fixed_ratio:.2}x)",
            pass(t1)
        ));
        lines.push(format!(
            "{} families {label}: null or harmful keeps per true keep, steered {:.3} vs uniform {:.3} (no worse: difference {diff:+.3} < 2 × its standard error {se:.3})",
            pass(t2),
            fpk(&totals[1]),
            fpk(&totals[0])
        ));
    }
    println!();
    for l in lines {
        println!("{l}");
    }
    if !ok {
        std::process::exit(1);
    }
}
