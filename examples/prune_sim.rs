//! Pruning on synthetic learning curves, through arx's own pruning code
//! (`arx::kernel::prune`: the rules, the pruner and the bounded curves the
//! journal keeps), side by side with no pruning.
//!
//! A search tries 30 configurations one after another, in a random order.
//! Configuration i reports `loss(step) = c_i + a_i * step^(-b_i) + noise`
//! at every step 1..=200 (noise: normal, sd 0.03, its own seeded stream, so
//! a configuration's curve is the same under every rule). Three are good
//! (c = 0.30 .. 0.40), the others not (c = 0.55 .. 1.5); a and b vary, so
//! curves cross early. A run that is not pruned completes and its curve
//! becomes a peer of the later runs, as in the journal. Reported per rule:
//! steps run (compute) and the saving against no pruning, runs pruned, and
//! the best final loss found, which must equal the unpruned search's.
//!
//! Run: `cargo run --release --example prune_sim [SEEDS]` (default 200
//! searches; the first one, seed 1, is shown in detail).

use arx::kernel::prune::{CurveRecorder, Points, PruneRule, Pruner};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const CONFIGS: usize = 30;
const GOOD: usize = 3;
const STEPS: u32 = 200;
const NOISE_SD: f64 = 0.03;

struct Config {
    a: f64,
    b: f64,
    c: f64,
    seed: u64,
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    // Box-Muller.
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn configs(seed: u64) -> Vec<Config> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out: Vec<Config> = (0..CONFIGS)
        .map(|i| Config {
            a: rng.random_range(1.0..2.5),
            b: rng.random_range(0.3..0.8),
            c: if i < GOOD {
                rng.random_range(0.30..0.40)
            } else {
                rng.random_range(0.55..1.5)
            },
            seed: seed * 1000 + i as u64,
        })
        .collect();
    // The search's order: random.
    for i in (1..out.len()).rev() {
        let j = rng.random_range(0..=i);
        out.swap(i, j);
    }
    out
}

fn curve(c: &Config) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(c.seed);
    (1..=STEPS)
        .map(|s| c.c + c.a * f64::from(s).powf(-c.b) + NOISE_SD * normal(&mut rng))
        .collect()
}

#[derive(Debug, Default, Clone, Copy)]
struct Outcome {
    steps: u64,
    pruned: usize,
    best: f64,
}

/// One search under `rule` (None: no pruning).
fn search(configs: &[Config], rule: Option<PruneRule>) -> Outcome {
    let mut peers: Vec<Points> = Vec::new();
    let mut out = Outcome {
        best: f64::INFINITY,
        ..Outcome::default()
    };
    for c in configs {
        let values = curve(c);
        let mut pruner = rule.map(|r| Pruner::new(r, "loss", Direction::Min, peers.clone()));
        let mut recorder = CurveRecorder::default();
        let mut pruned = false;
        for (i, &v) in values.iter().enumerate() {
            let step = (i + 1) as f64;
            out.steps += 1;
            recorder.push(step, v);
            if pruner.as_mut().and_then(|p| p.observe(step, v)).is_some() {
                pruned = true;
                break;
            }
        }
        if pruned {
            out.pruned += 1;
        } else {
            out.best = out.best.min(*values.last().expect("a curve"));
            peers.push(recorder.finish());
        }
    }
    out
}

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let rules: [(&str, Option<PruneRule>); 3] = [
        ("none", None),
        ("median", Some("median".parse().expect("a rule"))),
        ("patient:3", Some("patient:3".parse().expect("a rule"))),
    ];
    println!(
        "## Pruning on synthetic learning curves ({CONFIGS} configurations, {GOOD} good, {STEPS} steps, noise sd {NOISE_SD})\n"
    );
    println!("Seed 1:\n");
    println!(
        "| rule | steps run | compute saved | runs pruned | best final loss | same best as none |"
    );
    println!("|---|---:|---:|---:|---:|---|");
    let first = configs(1);
    let base = search(&first, None);
    for (name, rule) in &rules {
        let o = search(&first, *rule);
        println!(
            "| {name} | {} | {:.1}% | {} | {:.4} | {} |",
            o.steps,
            100.0 * (1.0 - o.steps as f64 / base.steps as f64),
            o.pruned,
            o.best,
            if o.best == base.best { "yes" } else { "no" }
        );
    }
    println!("\nOver {seeds} searches (seeds 1..={seeds}):\n");
    println!("| rule | mean compute saved | worst compute saved | searches with the same best | worst best-final gap |");
    println!("|---|---:|---:|---:|---:|");
    for (name, rule) in &rules {
        let mut saved = Vec::new();
        let mut same = 0;
        let mut gap: f64 = 0.0;
        for seed in 1..=seeds {
            let cs = configs(seed);
            let base = search(&cs, None);
            let o = search(&cs, *rule);
            saved.push(1.0 - o.steps as f64 / base.steps as f64);
            if o.best == base.best {
                same += 1;
            }
            gap = gap.max(o.best - base.best);
        }
        let mean = saved.iter().sum::<f64>() / saved.len() as f64;
        let worst = saved.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "| {name} | {:.1}% | {:.1}% | {same}/{seeds} | {gap:.4} |",
            100.0 * mean,
            100.0 * worst
        );
    }
}
