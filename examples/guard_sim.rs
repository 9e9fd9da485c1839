//! Guards bound the total, not the step: loops of ten candidates, each
//! truly 5% slower than the commit kept before it (at the edge of a
//! `step_time_s <= 1.05 * best` guard) while its target improves, so
//! only the guard can stop them. Judged by the kernel's
//! `kernel::guard::judge` as `arx try` calls it: the guard metric's noise
//! pooled over the segment's repeated records (the baseline's runs, then
//! each candidate's), the candidate's runs against the best's or the
//! baseline's.
//!
//! Step time of run `r` = the commit's true step time + `σ·z`, `z ~ N(0,
//! 1)`; the baseline's true step time is 1. The baseline has 3 runs
//! (`baseline_repeat`'s default), each candidate 5 (a keep of the
//! `confirm` rule: a screen and four confirmation runs). Arms:
//!
//! - before: `1.05 * best`, broken only beyond the noise (the rule arx had);
//! - `1.05 * best` with the burden of proof on the candidate;
//! - `1.05 * baseline` with the burden of proof (what `arx init` writes).
//!
//! Beside the loops: how often one candidate truly at 1.10×, 1.05×, 1.02×
//! and 1.00× the baseline passes a `1.05 * baseline` guard (and the old
//! rule's `1.05 * best` on a first decision).
//!
//! Usage: `cargo run --example guard_sim -- [--loops N] [--seed S]`

use arx::kernel::guard::{judge, parse, Judged};
use arx::kernel::ratchet::pooled_noise;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, StudentsT};

const TRIES: usize = 10;
const BASELINE_RUNS: usize = 3;
const CANDIDATE_RUNS: usize = 5;
const STEP: f64 = 1.05;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let den = 1.0 + z * z / n;
    let mid = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((mid - half).max(0.0), (mid + half).min(1.0))
}

#[derive(Clone, Copy, PartialEq)]
enum Arm {
    Before,
    Best,
    Baseline,
}

impl Arm {
    fn label(self) -> &'static str {
        match self {
            Arm::Before => "before: `1.05 * best`, broken beyond the noise",
            Arm::Best => "`1.05 * best`, burden of proof on the candidate",
            Arm::Baseline => "`1.05 * baseline`, burden of proof on the candidate",
        }
    }
}

/// The rule arx had: a relative bound broken only when the candidate is
/// beyond it by more than the noise can explain.
fn before(candidate: &[f64], best: &[f64], noise: Option<(f64, f64)>, confidence: f64) -> bool {
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let (value, bound) = (mean(candidate), STEP * mean(best));
    match noise {
        Some((sd, df)) if sd > 0.0 => {
            let spread =
                sd * (1.0 / candidate.len() as f64 + STEP * STEP / best.len() as f64).sqrt();
            let t = StudentsT::new(0.0, 1.0, df)
                .unwrap()
                .inverse_cdf(confidence);
            (value - bound) / spread <= t
        }
        _ => value <= bound,
    }
}

fn runs(rng: &mut ChaCha8Rng, truth: f64, n: usize, sigma: f64) -> Vec<f64> {
    (0..n).map(|_| truth + sigma * normal(rng)).collect()
}

/// One loop: the true step time of the commit kept at its end.
fn play(rng: &mut ChaCha8Rng, arm: Arm, sigma: f64, confidence: f64) -> f64 {
    let text = match arm {
        Arm::Baseline => "step <= 1.05 * baseline",
        _ => "step <= 1.05 * best",
    };
    let guard = parse(text).unwrap();
    let baseline = runs(rng, 1.0, BASELINE_RUNS, sigma);
    let mut groups = vec![baseline.clone()];
    let (mut truth, mut best) = (1.0, baseline.clone());
    for _ in 0..TRIES {
        let t = truth * STEP;
        let cand = runs(rng, t, CANDIDATE_RUNS, sigma);
        groups.push(cand.clone());
        let g: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
        let noise = pooled_noise(&g);
        let reference = if arm == Arm::Baseline {
            &baseline
        } else {
            &best
        };
        let holds = match arm {
            Arm::Before => before(&cand, &best, noise, confidence),
            _ => matches!(
                judge(&guard, &cand, reference, noise, confidence),
                Judged::Holds { .. }
            ),
        };
        if holds {
            truth = t;
            best = cand;
        }
    }
    truth
}

/// How often one candidate truly at `ratio` × the baseline passes, on a
/// segment's first decision.
fn pass_rate(
    rng: &mut ChaCha8Rng,
    arm: Arm,
    ratio: f64,
    sigma: f64,
    confidence: f64,
    n: u64,
) -> f64 {
    let text = match arm {
        Arm::Baseline => "step <= 1.05 * baseline",
        _ => "step <= 1.05 * best",
    };
    let guard = parse(text).unwrap();
    let mut passed = 0.0;
    for _ in 0..n {
        let baseline = runs(rng, 1.0, BASELINE_RUNS, sigma);
        let cand = runs(rng, ratio, CANDIDATE_RUNS, sigma);
        let g: Vec<&[f64]> = vec![&baseline, &cand];
        let noise = pooled_noise(&g);
        let holds = match arm {
            Arm::Before => before(&cand, &baseline, noise, confidence),
            _ => matches!(
                judge(&guard, &cand, &baseline, noise, confidence),
                Judged::Holds { .. }
            ),
        };
        passed += f64::from(u8::from(holds));
    }
    passed / n as f64
}

fn main() {
    let (mut loops, mut seed) = (2000_u64, 42_u64);
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        match (pair[0].as_str(), pair.get(1).and_then(|v| v.parse().ok())) {
            ("--loops", Some(v)) => loops = v,
            ("--seed", Some(v)) => seed = v,
            _ => {
                eprintln!("usage: guard_sim [--loops N] [--seed S]");
                std::process::exit(2);
            }
        }
    }
    let mut pass = true;
    println!("## Guards: ten keeps each truly at a 1.05× step guard (kernel rule)\n");
    println!(
        "{loops} loops per row; {TRIES} candidates a loop, each truly {STEP}× the commit kept \
         before it; baseline {BASELINE_RUNS} runs, candidates {CANDIDATE_RUNS}; σ the step \
         time's run noise (baseline 1). \"≤ 1.05×\": loops whose kept commit is truly at most \
         1.05× the baseline (Wilson 95% interval).\n"
    );
    println!(
        "| guard | confidence | σ | kept commit ≤ 1.05× | 95% interval | median | 95th percentile | keeps a loop |\n\
         |---|---:|---:|---:|---|---:|---:|---:|"
    );
    for confidence in [0.85, 0.95] {
        for sigma in [0.02, 0.05] {
            for arm in [Arm::Before, Arm::Best, Arm::Baseline] {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (sigma * 1e4) as u64);
                let mut ends: Vec<f64> = (0..loops)
                    .map(|_| play(&mut rng, arm, sigma, confidence))
                    .collect();
                ends.sort_by(f64::total_cmp);
                let within = ends.iter().filter(|x| **x <= STEP + 1e-9).count() as f64;
                let keeps: f64 = ends.iter().map(|x| x.ln() / STEP.ln()).sum::<f64>();
                let (lo, hi) = wilson(within, loops as f64);
                println!(
                    "| {} | {confidence} | {sigma} | {:.1}% | {:.1}–{:.1}% | {:.3}× | {:.3}× | {:.2} |",
                    arm.label(),
                    100.0 * within / loops as f64,
                    100.0 * lo,
                    100.0 * hi,
                    ends[ends.len() / 2],
                    ends[(ends.len() * 95) / 100],
                    keeps / loops as f64,
                );
                if arm == Arm::Baseline {
                    pass &= within / loops as f64 >= 0.95;
                }
            }
        }
    }
    println!("\n### One candidate against a `1.05 *` guard, first decision\n");
    println!(
        "| guard | confidence | σ | truly 1.10× | 1.05× | 1.02× | 1.00× |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for confidence in [0.85, 0.95] {
        for sigma in [0.02, 0.05] {
            for arm in [Arm::Before, Arm::Baseline] {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed ^ (sigma * 1e4) as u64);
                let rates: Vec<String> = [1.10, 1.05, 1.02, 1.00]
                    .iter()
                    .map(|r| {
                        format!(
                            "{:.1}%",
                            100.0 * pass_rate(&mut rng, arm, *r, sigma, confidence, loops)
                        )
                    })
                    .collect();
                println!(
                    "| {} | {confidence} | {sigma} | {} |",
                    arm.label(),
                    rates.join(" | ")
                );
            }
        }
    }
    println!(
        "\n- {} a `1.05 * baseline` guard keeps the kept commit within 1.05× the baseline in \
         ≥ 95% of loops in every row",
        if pass { "PASS" } else { "FAIL" }
    );
    if !pass {
        std::process::exit(1);
    }
}
