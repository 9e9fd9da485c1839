//! Per-instance decisions when runs share an effect: the false-keep rate
//! of a null change and the keep rate of real gains, decided by the
//! `confirm` rule with per-instance scores (`[objective] instances`),
//! over the kernel's `next_step` as `arx try` calls it.
//!
//! A suite of 400 pass/fail instances in mirror pairs: instance `2j`
//! passes with probability `a_j`, instance `2j + 1` with `1 − a_j`,
//! `a_j ~ U(0.1, 0.9)`. Run `r` of a commit passes instance `i` when
//! `V_ri < q_i + t_r`: `q_i` the commit's probability, `t_r ~ N(0, τ²)`
//! an effect the run shares across all its instances (a retrained model,
//! a sampling temperature), and `V_ri` the instance's draw — fixed per
//! instance without sampling noise (`V_ri = U_i`, every run draws alike
//! but for `t_r`), fresh per run with it.
//!
//! A null change moves 80 pairs: `+0.1` on the first of the pair, `−0.1`
//! on its mirror, so its expected pass rate is the best's exactly,
//! whatever τ. Gains move 80 or 200 instances (the first of their pairs)
//! by `+0.1`: +0.02 and +0.05 on the pass rate.
//!
//! Each try is a segment's first decision: a baseline of 3 runs
//! (`baseline_repeat`'s default), then the candidate's runs until the rule
//! decides, at the default confidence (the per-instance test holds itself
//! to 95%). Beside it, the sign test on one run a side as arx decided
//! before (the instances taken as independent).
//!
//! Usage: `cargo run --example instance_runs_sim -- [--trials N] [--seed S] [--nulls-only]
//! [--cell TAU/S] [--parts] [--noisier X]`. `--cell 0.1/1` plays that cell alone (τ, and
//! 1 with sampling noise or 0 without); `--parts` adds a column: the null
//! changes the t test over the runs' means would keep alone (without the
//! instances' part of its standard error, and without the sign test);
//! `--noisier X` gives the candidate's runs a shared effect X × τ (a null
//! change that makes whole runs vary more: its mean is still the best's).

use arx::kernel::instances::{judge, runs_differ, InstanceEvidence, Scores};
use arx::kernel::ratchet::{next_step, Evidence, Rule, Settings, Step};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 400;
const BASELINE_RUNS: usize = 3;
const TAUS: [f64; 3] = [0.0, 0.05, 0.1];

const USAGE: &str =
    "usage: instance_runs_sim [--trials N] [--seed S] [--nulls-only] [--cell TAU/S] [--parts] [--noisier X]";

/// `TAU/S`: a shared run effect and 1 (sampling noise) or 0.
fn parse_cell(text: &str) -> Option<(f64, bool)> {
    let (tau, s) = text.split_once('/')?;
    let tau: f64 = tau
        .parse()
        .ok()
        .filter(|t: &f64| t.is_finite() && *t >= 0.0)?;
    match s {
        "0" => Some((tau, false)),
        "1" => Some((tau, true)),
        _ => None,
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Wilson 95% interval of `k` in `n`.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let den = 1.0 + z * z / n;
    let mid = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((mid - half).max(0.0), (mid + half).min(1.0))
}

#[derive(Clone, Copy, PartialEq)]
enum Change {
    Null,
    Gain(usize),
}

struct World {
    p: Vec<f64>,
    u: Vec<f64>,
    change: Vec<f64>,
    tau: f64,
    /// The candidate's run effect is `noisier` × τ (1: the best's).
    noisier: f64,
    sampling: bool,
    names: Vec<String>,
}

impl World {
    fn new(rng: &mut ChaCha8Rng, tau: f64, sampling: bool, change: Change) -> World {
        let mut p = Vec::with_capacity(N);
        for _ in 0..N / 2 {
            let a = 0.1 + 0.8 * rng.random::<f64>();
            p.push(a);
            p.push(1.0 - a);
        }
        let u = (0..N).map(|_| rng.random::<f64>()).collect();
        let mut pairs: Vec<usize> = (0..N / 2).collect();
        for i in (1..pairs.len()).rev() {
            let j = rng.random_range(0..=i);
            pairs.swap(i, j);
        }
        let mut moved = vec![0.0; N];
        match change {
            Change::Null => {
                for &j in &pairs[..80] {
                    moved[2 * j] = 0.1;
                    moved[2 * j + 1] = -0.1;
                }
            }
            Change::Gain(n) => {
                // The first of `n` pairs, then the mirrors when n > N / 2.
                for &j in pairs.iter().take(n.min(N / 2)) {
                    moved[2 * j] = 0.1;
                }
                for &j in pairs.iter().take(n.saturating_sub(N / 2)) {
                    moved[2 * j + 1] = 0.1;
                }
            }
        }
        World {
            p,
            u,
            change: moved,
            tau,
            noisier: 1.0,
            sampling,
            names: (0..N).map(|i| format!("q{i}")).collect(),
        }
    }

    /// One run: its pass rate and scores.
    fn run(&self, rng: &mut ChaCha8Rng, candidate: bool) -> (f64, Scores) {
        let t = self.tau * if candidate { self.noisier } else { 1.0 } * normal(rng);
        let scores: Vec<(String, f64)> = (0..N)
            .map(|i| {
                let q = self.p[i] + if candidate { self.change[i] } else { 0.0 };
                let v = if self.sampling {
                    rng.random::<f64>()
                } else {
                    self.u[i]
                };
                (self.names[i].clone(), f64::from(u8::from(v < q + t)))
            })
            .collect();
        let rate = scores.iter().map(|s| s.1).sum::<f64>() / N as f64;
        (rate, Scores(scores))
    }
}

#[derive(Default)]
struct Tally {
    tries: f64,
    keeps: f64,
    runs: f64,
    sign_keeps: f64,
    /// Keeps of the t test over the runs' means alone (its standard error
    /// without the instances' part, no sign test): `--parts`.
    t_alone: f64,
}

/// The one-sided p of the test over runs without the instances' part.
fn p_runs_alone(t: &arx::kernel::instances::OverRuns) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    let runs_se = (t.se * t.se - t.instances_se * t.instances_se)
        .max(0.0)
        .sqrt();
    if runs_se <= 0.0 {
        return if t.change > 0.0 { 0.0 } else { 1.0 };
    }
    StudentsT::new(0.0, 1.0, t.df).map_or(1.0, |d| 1.0 - d.cdf(t.change / runs_se))
}

fn one_try(w: &World, rng: &mut ChaCha8Rng, t: &mut Tally) {
    let (best, best_scores): (Vec<f64>, Vec<Scores>) =
        (0..BASELINE_RUNS).map(|_| w.run(rng, false)).unzip();
    let best_refs: Vec<&Scores> = best_scores.iter().collect();
    let vary = runs_differ(&best_refs);
    let settings = Settings::new(Direction::Max);
    let (mut samples, mut scores) = (Vec::new(), Vec::new());
    let keep = loop {
        let (x, s) = w.run(rng, true);
        samples.push(x);
        scores.push(s);
        let refs: Vec<&Scores> = scores.iter().collect();
        let replicates: Vec<&[f64]> = vec![&best, &samples];
        let evidence = Evidence {
            best: &best,
            candidate: &samples,
            replicates: &replicates[..if samples.len() > 1 { 2 } else { 1 }],
            instances: Some(InstanceEvidence {
                best: &best_refs,
                candidate: &refs,
                runs_vary: vary,
            }),
            ..Evidence::default()
        };
        if let Step::Decide(d) = next_step(Rule::Confirm, &settings, &evidence) {
            let over = d.per_instance.and_then(|p| p.over_runs);
            t.t_alone += f64::from(u8::from(over.is_some_and(|o| p_runs_alone(&o) <= 0.05)));
            break d.keep();
        }
    };
    // As arx decided before: the sign test on one run a side.
    let sign = judge(&best_refs[..1], &[&scores[0]], 1.0, settings.confidence)
        .is_some_and(|j| j.better && samples[0] > best[0]);
    t.tries += 1.0;
    t.runs += samples.len() as f64;
    t.keeps += f64::from(u8::from(keep));
    t.sign_keeps += f64::from(u8::from(sign));
}

fn main() {
    let mut trials = 2000_u64;
    let mut seed = 37_u64;
    let mut nulls_only = false;
    let mut parts = false;
    let mut noisier = 1.0_f64;
    let mut only: Option<(f64, bool)> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--nulls-only" || args[i] == "--parts" {
            nulls_only |= args[i] == "--nulls-only";
            parts |= args[i] == "--parts";
            i += 1;
            continue;
        }
        let value: Option<u64> = args.get(i + 1).and_then(|v| v.parse().ok());
        let real: Option<f64> = args.get(i + 1).and_then(|v| v.parse().ok());
        let cell = args.get(i + 1).and_then(|v| parse_cell(v));
        match (args[i].as_str(), value, cell) {
            ("--trials", Some(v), _) => trials = v,
            ("--seed", Some(v), _) => seed = v,
            ("--cell", _, Some(c)) => only = Some(c),
            ("--noisier", _, _) if real.is_some_and(|v| v.is_finite() && v >= 0.0) => {
                noisier = real.unwrap_or(1.0);
            }
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let alpha = 1.0 - arx::kernel::instances::INSTANCE_CONFIDENCE;
    println!("## Per-instance decisions with a shared run effect (kernel rule)\n");
    println!(
        "{trials} tries per cell, each a segment's first decision on {N} pass/fail instances \
         against a baseline of {BASELINE_RUNS} runs; the per-instance test at 95%. \
         Intervals: Wilson 95%.\n"
    );
    println!(
        "| change | τ | sampling noise | kept (arx) | 95% interval | runs per try | \
         kept by the sign test on one run a side (before) |{}\n|---|---:|---|---:|---|---:|---:|{}",
        if parts {
            " kept by the t test over runs alone | 95% interval |"
        } else {
            ""
        },
        if parts { "---:|---|" } else { "" },
    );
    let (mut pass, mut shown) = (true, true);
    let changes = if nulls_only {
        vec![Change::Null]
    } else {
        vec![Change::Null, Change::Gain(80), Change::Gain(200)]
    };
    for change in changes {
        for sampling in [false, true] {
            if only.is_some_and(|(_, s)| s != sampling) {
                continue;
            }
            for tau in only.map_or(TAUS.to_vec(), |(t, _)| vec![t]) {
                let mut rng = ChaCha8Rng::seed_from_u64(
                    seed ^ (tau * 1000.0) as u64
                        ^ (u64::from(sampling) << 20)
                        ^ match change {
                            Change::Null => 0,
                            Change::Gain(n) => (n as u64) << 32,
                        },
                );
                let mut t = Tally::default();
                for _ in 0..trials {
                    let mut w = World::new(&mut rng, tau, sampling, change);
                    w.noisier = noisier;
                    one_try(&w, &mut rng, &mut t);
                }
                let (lo, hi) = wilson(t.keeps, t.tries);
                let label = match change {
                    Change::Null => "null".to_string(),
                    Change::Gain(n) => format!("+{:.2} pass rate", n as f64 * 0.1 / N as f64),
                };
                let alone = if parts {
                    let (a, b) = wilson(t.t_alone, t.tries);
                    format!(
                        " {:.2}% | {:.2}–{:.2}% |",
                        100.0 * t.t_alone / t.tries,
                        100.0 * a,
                        100.0 * b
                    )
                } else {
                    String::new()
                };
                println!(
                    "| {label} | {tau} | {} | {:.2}% | {:.2}–{:.2}% | {:.2} | {:.1}% |{alone}",
                    if sampling { "yes" } else { "no" },
                    100.0 * t.keeps / t.tries,
                    100.0 * lo,
                    100.0 * hi,
                    t.runs / t.tries,
                    100.0 * t.sign_keeps / t.tries,
                );
                if change == Change::Null {
                    shown &= hi < alpha;
                    pass &= lo <= alpha;
                }
            }
        }
    }
    println!(
        "\n- {} null changes kept at most 1 − confidence ({alpha:.2}) in every cell \
         ({})",
        if !pass {
            "FAIL"
        } else if shown {
            "PASS"
        } else {
            "NOT SHOWN"
        },
        if !pass {
            "some interval lies over it"
        } else if shown {
            "every interval lies under it"
        } else {
            "no interval lies over it, not every one under it"
        }
    );
    if !pass {
        std::process::exit(1);
    }
}
