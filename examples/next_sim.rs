//! Selection simulation for `arx next`: plays the loop (choose a candidate,
//! run it, journal the verdict, update precision) against synthetic
//! candidate sets whose success rates are known, and compares the engine's
//! expected-free-energy models with the usual bandit baselines.
//!
//! ```sh
//! cargo run --release --example next_sim
//! cargo run --release --example next_sim -- --trials 1000 --seed 7
//! cargo run --release --example next_sim -- --grid   # also an epistemic-weight grid
//! cargo run --release --example next_sim -- --frontier   # other bandit rules vs the targets
//! ```
//!
//! Every candidate is a single-step plan with default preferences. For the
//! engine (`lrs`, `aif`) each run goes through `arx::engine::select::select`
//! (the rule of `arx next`: `score_candidate`, `selection_probabilities`,
//! then `sample_index` or `greedy_index`), with the planning level of a
//! precision hierarchy (updated by `observe_run` after every run, as
//! `arx run` does) as the precision. No plateau is simulated: the abstract
//! level does not enter the selection. Everything is seeded: the same seed
//! prints the same tables.

use std::time::Instant;

use arx::engine::efe::{Model, Posterior};
use arx::engine::precision::{observe_run, Hierarchy, Level};
use arx::engine::select::{select, Plan, Settings};
use arx::kernel::verdict::Verdict;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{Beta, ContinuousCDF};

/// Runs of the loop per trial.
const RUNS: usize = 100;
/// Runs-to-first-success recorded when the best candidate never succeeds.
const NEVER: usize = RUNS + 1;
/// Trials per scenario (overridable with `--trials`).
const TRIALS: u64 = 200;
/// Base seed (overridable with `--seed`): "arxnext1".
const SEED: u64 = 0x6172_786e_6578_7431;
/// Temperature of the headline comparison (the `arx next` default).
const TEMPERATURE: f64 = 0.02;
/// Temperatures of the sweep.
const SWEEP: [f64; 9] = [1.0, 0.5, 0.2, 0.1, 0.05, 0.03, 0.02, 0.01, 0.005];
/// Epistemic weights of the `--grid` exploration.
const GRID_WEIGHTS: [f64; 7] = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Temperatures of the `--grid` exploration.
const GRID_TEMPERATURES: [f64; 6] = [0.3, 0.1, 0.05, 0.03, 0.02, 0.01];
/// The engine's regret may exceed the best baseline's by at most this factor.
const REGRET_SLACK: f64 = 1.25;

struct Scenario {
    key: &'static str,
    title: &'static str,
    rates: Vec<f64>,
}

fn scenarios() -> Vec<Scenario> {
    let mut a = vec![0.8];
    a.extend([0.2; 9]);
    let b = (0..10).map(|i| 0.1 + 0.6 * i as f64 / 9.0).collect();
    let mut c = vec![0.55];
    c.extend([0.5; 9]);
    vec![
        Scenario {
            key: "a",
            title: "one at 0.8, nine at 0.2",
            rates: a,
        },
        Scenario {
            key: "b",
            title: "ten graded evenly from 0.1 to 0.7",
            rates: b,
        },
        Scenario {
            key: "c",
            title: "one at 0.55, nine at 0.5",
            rates: c,
        },
    ]
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Strategy {
    /// `select` with the model at a temperature (or greedy on G).
    Engine {
        model: Model,
        temperature: f64,
        greedy: bool,
        /// Epistemic weight in place of `1 − precision`.
        weight: Option<f64>,
    },
    /// Uniform over the candidates.
    Random,
    /// Highest posterior mean, ties broken uniformly at random.
    Greedy,
    /// Highest draw from each Beta posterior.
    Thompson,
    /// Each candidate once, then the highest `mean + sqrt(2 ln t / n)`.
    Ucb1,
    // The `--frontier` families: how much exploration each target needs.
    /// Highest `mean + c·sqrt(ln t / (n + 1))` (posterior mean, no sweep).
    UcbC(f64),
    /// Thompson sampling from Beta(1 + s/k, 1 + f/k): k > 1 explores more.
    TemperedThompson(f64),
    /// With probability min(1, c/t) the least-tried candidate (the first
    /// on ties), else the highest posterior mean.
    EpsilonRoundRobin(f64),
    /// Every candidate k times (least-tried first), then the highest
    /// posterior mean.
    SweepGreedy(u64),
}

impl Strategy {
    fn engine(model: Model, temperature: f64) -> Strategy {
        Strategy::Engine {
            model,
            temperature,
            greedy: false,
            weight: None,
        }
    }

    fn label(&self) -> String {
        match self {
            Strategy::Engine {
                model,
                temperature,
                greedy,
                weight,
            } => {
                let w = weight.map_or(String::new(), |w| format!(", w = {w}"));
                if *greedy {
                    format!("`{model}` greedy on G{w}")
                } else {
                    format!("`{model}` (T = {temperature}{w})")
                }
            }
            Strategy::Random => "random".into(),
            Strategy::Greedy => "greedy (posterior mean)".into(),
            Strategy::Thompson => "Thompson".into(),
            Strategy::Ucb1 => "UCB1".into(),
            Strategy::UcbC(c) => format!("UCB, c = {c}"),
            Strategy::TemperedThompson(k) => format!("Thompson, counts / {k}"),
            Strategy::EpsilonRoundRobin(c) => format!("ε = {c}/t, least-tried"),
            Strategy::SweepGreedy(k) => format!("{k} sweep(s), then greedy"),
        }
    }
}

/// What one trial produced.
struct Trial {
    regret: f64,
    /// 1-based run at which the best candidate first succeeded.
    first_best_success: Option<usize>,
    best_runs: usize,
    /// Mean over the runs of the precision used for selection.
    mean_precision: f64,
}

/// Index of the largest value; ties broken uniformly at random.
fn argmax_random_ties(values: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..values.len()).filter(|&i| values[i] == top).collect();
    tied[rng.random_range(0..tied.len())]
}

/// The candidate with the fewest runs; the first on ties.
fn least_tried(successes: &[u64], failures: &[u64]) -> usize {
    (0..successes.len())
        .min_by_key(|&i| successes[i] + failures[i])
        .expect("candidates")
}

/// Index of the largest value; the first on ties.
fn argmax_first(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    best
}

/// One trial: the candidates are shuffled and their outcomes drawn in
/// advance from stream 0 of the trial's generator (the k-th run of
/// candidate c succeeds or fails the same way under every strategy); the
/// strategy's own draws come from stream 1 of the same generator.
fn play(rates: &[f64], strategy: Strategy, trial_seed: u64) -> Trial {
    let mut world = ChaCha8Rng::seed_from_u64(trial_seed);
    let mut rates = rates.to_vec();
    rates.shuffle(&mut world);
    let outcomes: Vec<Vec<bool>> = rates
        .iter()
        .map(|&r| (0..RUNS).map(|_| world.random::<f64>() < r).collect())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(trial_seed);
    rng.set_stream(1);

    let n = rates.len();
    let best_rate = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best = argmax_first(&rates);
    let mut successes = vec![0u64; n];
    let mut failures = vec![0u64; n];
    let mut hierarchy = Hierarchy::default();
    let mut trial = Trial {
        regret: 0.0,
        first_best_success: None,
        best_runs: 0,
        mean_precision: 0.0,
    };
    for t in 0..RUNS {
        let posteriors: Vec<Posterior> = (0..n)
            .map(|i| Posterior::from_counts(successes[i], failures[i]))
            .collect();
        let chosen = match strategy {
            Strategy::Engine {
                model,
                temperature,
                greedy,
                weight,
            } => {
                let precision = hierarchy.value(Level::Planning);
                trial.mean_precision += precision / RUNS as f64;
                let settings = Settings {
                    model,
                    precision,
                    temperature,
                    epistemic_weight: weight,
                    greedy,
                };
                // Single-step plans, default preferences.
                let plans: Vec<Plan> = posteriors.iter().map(|p| Plan::new(vec![*p])).collect();
                let u = rng.random::<f64>();
                select(&plans, &settings, u)
                    .expect("valid selection inputs")
                    .chosen
            }
            Strategy::Random => rng.random_range(0..n),
            Strategy::Greedy => {
                let means: Vec<f64> = posteriors.iter().map(|p| p.mean()).collect();
                argmax_random_ties(&means, &mut rng)
            }
            Strategy::Thompson => {
                let draws: Vec<f64> = posteriors
                    .iter()
                    .map(|p| {
                        let beta = Beta::new(p.a, p.b).expect("positive parameters");
                        beta.inverse_cdf(rng.random::<f64>())
                    })
                    .collect();
                argmax_first(&draws)
            }
            Strategy::Ucb1 => match (0..n).find(|&i| successes[i] + failures[i] == 0) {
                Some(untried) => untried,
                None => {
                    let ln_t = (t as f64).ln();
                    let index: Vec<f64> = (0..n)
                        .map(|i| {
                            let pulls = (successes[i] + failures[i]) as f64;
                            successes[i] as f64 / pulls + (2.0 * ln_t / pulls).sqrt()
                        })
                        .collect();
                    argmax_first(&index)
                }
            },
            Strategy::UcbC(c) => {
                let ln_t = ((t + 1) as f64).ln();
                let index: Vec<f64> = (0..n)
                    .map(|i| {
                        let pulls = (successes[i] + failures[i]) as f64;
                        posteriors[i].mean() + c * (ln_t / (pulls + 1.0)).sqrt()
                    })
                    .collect();
                argmax_first(&index)
            }
            Strategy::TemperedThompson(k) => {
                let draws: Vec<f64> = (0..n)
                    .map(|i| {
                        let a = 1.0 + successes[i] as f64 / k;
                        let b = 1.0 + failures[i] as f64 / k;
                        let beta = Beta::new(a, b).expect("positive parameters");
                        beta.inverse_cdf(rng.random::<f64>())
                    })
                    .collect();
                argmax_first(&draws)
            }
            Strategy::EpsilonRoundRobin(c) => {
                let explore = rng.random::<f64>() < (c / (t + 1) as f64).min(1.0);
                if explore {
                    least_tried(&successes, &failures)
                } else {
                    let means: Vec<f64> = posteriors.iter().map(|p| p.mean()).collect();
                    argmax_first(&means)
                }
            }
            Strategy::SweepGreedy(k) => {
                let least = least_tried(&successes, &failures);
                if successes[least] + failures[least] < k {
                    least
                } else {
                    let means: Vec<f64> = posteriors.iter().map(|p| p.mean()).collect();
                    argmax_first(&means)
                }
            }
        };
        let pulls = (successes[chosen] + failures[chosen]) as usize;
        let success = outcomes[chosen][pulls];
        if let Strategy::Engine { .. } = strategy {
            let verdict = if success {
                Verdict::Supported
            } else {
                Verdict::Refuted
            };
            let predicted = posteriors[chosen].mean();
            observe_run(&mut hierarchy, true, Some(verdict), predicted, false)
                .expect("a posterior mean is a probability");
        }
        if success {
            successes[chosen] += 1;
        } else {
            failures[chosen] += 1;
        }
        trial.regret += best_rate - rates[chosen];
        if chosen == best {
            trial.best_runs += 1;
            if success && trial.first_best_success.is_none() {
                trial.first_best_success = Some(t + 1);
            }
        }
    }
    trial
}

/// A strategy's figures over all trials of a scenario.
#[derive(Clone)]
struct Summary {
    label: String,
    regret: f64,
    regret_se: f64,
    first_success: f64,
    first_success_se: f64,
    never: usize,
    best_share: f64,
    precision: Option<f64>,
}

/// Mean and standard error of the mean.
fn mean_se(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = values.clone().count() as f64;
    let mean = values.clone().sum::<f64>() / n;
    let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

fn summarize(rates: &[f64], strategy: Strategy, trials: u64, seed: u64, salt: u64) -> Summary {
    let results: Vec<Trial> = (0..trials)
        .map(|k| play(rates, strategy, trial_seed(seed, salt, k)))
        .collect();
    let m = results.len() as f64;
    let (regret, regret_se) = mean_se(results.iter().map(|r| r.regret));
    let (first_success, first_success_se) = mean_se(
        results
            .iter()
            .map(|r| r.first_best_success.unwrap_or(NEVER) as f64),
    );
    Summary {
        label: strategy.label(),
        regret,
        regret_se,
        first_success,
        first_success_se,
        never: results
            .iter()
            .filter(|r| r.first_best_success.is_none())
            .count(),
        best_share: results.iter().map(|r| r.best_runs as f64).sum::<f64>() / (m * RUNS as f64),
        precision: match strategy {
            Strategy::Engine { .. } => {
                Some(results.iter().map(|r| r.mean_precision).sum::<f64>() / m)
            }
            _ => None,
        },
    }
}

/// Seed of trial `k` of scenario `salt`: the same for every strategy, so
/// they are compared on the same candidate orders and outcomes.
fn trial_seed(seed: u64, salt: u64, k: u64) -> u64 {
    seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

fn table(rows: &[Summary], trials: u64) -> String {
    let mut out = String::from(
        "| strategy | mean regret | ± s.e. | runs to first success of the best | ± s.e. | never within 100 (counted as 101) | runs on the best | mean precision |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {:.2} | {:.2} | {:.1} | {:.1} | {} of {} | {:.1}% | {} |\n",
            r.label,
            r.regret,
            r.regret_se,
            r.first_success,
            r.first_success_se,
            r.never,
            trials,
            100.0 * r.best_share,
            r.precision.map_or("".into(), |p| format!("{p:.3}")),
        );
    }
    out
}

/// The targets for one engine row against the baselines of a scenario.
struct Check {
    beats_random_regret: bool,
    beats_random_first: bool,
    within_slack: bool,
    ratio: f64,
    best_baseline: String,
}

impl Check {
    fn pass(&self) -> bool {
        self.beats_random_regret && self.beats_random_first && self.within_slack
    }
}

/// `baselines[0]` is random.
fn check(engine: &Summary, baselines: &[Summary]) -> Check {
    let random = &baselines[0];
    let best = baselines
        .iter()
        .min_by(|x, y| x.regret.total_cmp(&y.regret))
        .expect("baselines");
    let ratio = engine.regret / best.regret;
    Check {
        beats_random_regret: engine.regret < random.regret,
        beats_random_first: engine.first_success < random.first_success,
        within_slack: ratio <= REGRET_SLACK,
        ratio,
        best_baseline: best.label.clone(),
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "FAIL"
    }
}

fn parse_args() -> (u64, u64, bool, bool) {
    let mut trials = TRIALS;
    let mut seed = SEED;
    let mut grid = false;
    let mut frontier = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = |args: &mut dyn Iterator<Item = String>| -> u64 {
            let v = args.next().unwrap_or_else(|| usage(&arg));
            v.parse().unwrap_or_else(|_| usage(&arg))
        };
        match arg.as_str() {
            "--trials" => trials = value(&mut args).max(1),
            "--seed" => seed = value(&mut args),
            "--grid" => grid = true,
            "--frontier" => frontier = true,
            _ => usage(&arg),
        }
    }
    (trials, seed, grid, frontier)
}

fn usage(arg: &str) -> ! {
    eprintln!("next_sim: bad argument {arg:?}\nusage: next_sim [--trials N] [--seed S] [--grid] [--frontier]");
    std::process::exit(2)
}

fn main() {
    let started = Instant::now();
    let (trials, seed, grid, frontier) = parse_args();
    let models = [Model::Lrs, Model::Aif];
    let baselines = [
        Strategy::Random,
        Strategy::Greedy,
        Strategy::Thompson,
        Strategy::Ucb1,
    ];

    println!(
        "# `arx next` selection simulation\n\n\
         {RUNS} runs per trial, {trials} trials per scenario, base seed {seed:#x}, \
         ChaCha8 seeded per trial. Regret: sum over the runs of (best rate − rate of \
         the chosen candidate), averaged over trials. Runs to first success: the run \
         (1-based) at which the best candidate first succeeds, averaged over trials; \
         {NEVER} when it never does within {RUNS} runs. Engine rows choose through \
         `arx::engine::select::select` with precision = the planning level, \
         temperature {TEMPERATURE}, sampled. Greedy breaks ties uniformly at random.\n"
    );

    // Headline: both models at the default temperature.
    let mut totals = [0.0f64; 2];
    let mut passes = [true; 2];
    let mut baseline_rows: Vec<Vec<Summary>> = Vec::new();
    for (s, scenario) in scenarios().iter().enumerate() {
        let salt = s as u64 + 1;
        let mut rows: Vec<Summary> = models
            .iter()
            .map(|m| {
                let strategy = Strategy::engine(*m, TEMPERATURE);
                summarize(&scenario.rates, strategy, trials, seed, salt)
            })
            .collect();
        rows.extend(
            baselines
                .iter()
                .map(|b| summarize(&scenario.rates, *b, trials, seed, salt)),
        );
        println!("## Scenario ({}): {}\n", scenario.key, scenario.title);
        print!("{}", table(&rows, trials));
        println!();
        let (engine, base) = rows.split_at(models.len());
        for (i, (m, e)) in models.iter().zip(engine).enumerate() {
            let c = check(e, base);
            totals[i] += e.regret;
            passes[i] &= c.pass();
            println!(
                "- {} `{m}` beats random on regret ({:.2} vs {:.2})",
                verdict(c.beats_random_regret),
                e.regret,
                base[0].regret
            );
            println!(
                "- {} `{m}` beats random on runs to first success ({:.1} vs {:.1})",
                verdict(c.beats_random_first),
                e.first_success,
                base[0].first_success
            );
            println!(
                "- {} `{m}` regret within 25% of the best baseline ({}, {:.2}): ratio {:.2}",
                verdict(c.within_slack),
                c.best_baseline,
                e.regret / c.ratio,
                c.ratio
            );
        }
        // The same targets applied to the baselines themselves.
        let others: Vec<String> = base[1..]
            .iter()
            .map(|b| format!("{}: {}", b.label, misses(&check(b, base)).join(" ")))
            .collect();
        println!(
            "- (info) the baselines against the same targets: {}",
            others.join("; ")
        );
        println!();
        baseline_rows.push(base.to_vec());
    }

    println!("## Verdict at temperature {TEMPERATURE}\n");
    for (i, m) in models.iter().enumerate() {
        println!(
            "- `{m}`: {} (regret summed over the scenarios {:.2})",
            if passes[i] {
                "meets every target"
            } else {
                "misses at least one target"
            },
            totals[i]
        );
    }
    println!("- {}\n", winner(&models, &passes, &totals));

    // Sweep: where, if anywhere, does each model meet the targets?
    println!("## Temperature sweep\n");
    let mut sweep: Vec<Strategy> = Vec::new();
    for m in models {
        for t in SWEEP {
            sweep.push(Strategy::engine(m, t));
        }
        sweep.push(Strategy::Engine {
            model: m,
            temperature: 1.0,
            greedy: true,
            weight: None,
        });
    }
    sweep_table(&sweep, &baseline_rows, trials, seed);

    if grid {
        println!("## Epistemic weight grid\n");
        let mut strategies = Vec::new();
        for m in models {
            for w in GRID_WEIGHTS {
                for t in GRID_TEMPERATURES {
                    strategies.push(Strategy::Engine {
                        model: m,
                        temperature: t,
                        greedy: false,
                        weight: Some(w),
                    });
                }
            }
        }
        sweep_table(&strategies, &baseline_rows, trials, seed);
    }

    if frontier {
        println!("## Other exploration rules against the same targets\n");
        println!(
            "How much exploration does each target ask for? Four families of \
             bandit rules, from little exploration to much; every row is judged \
             against the same random and best-baseline figures as above.\n"
        );
        let mut strategies = Vec::new();
        for c in [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5] {
            strategies.push(Strategy::UcbC(c));
        }
        for k in [0.25, 0.5, 1.0, 2.0, 4.0] {
            strategies.push(Strategy::TemperedThompson(k));
        }
        for c in [1.0, 3.0, 5.0, 10.0, 20.0, 40.0] {
            strategies.push(Strategy::EpsilonRoundRobin(c));
        }
        for k in 1..=4 {
            strategies.push(Strategy::SweepGreedy(k));
        }
        sweep_table(&strategies, &baseline_rows, trials, seed);
    }

    println!("Total run time: {:.2} s", started.elapsed().as_secs_f64());
}

/// The targets a row misses: `rnd-regret` (regret not below random's),
/// `rnd-first` (runs to first success not below random's), `xR` (regret
/// R times the best baseline's, above the slack). Empty when it meets all.
fn misses(c: &Check) -> Vec<String> {
    let mut m = Vec::new();
    if !c.beats_random_regret {
        m.push("rnd-regret".to_string());
    }
    if !c.beats_random_first {
        m.push("rnd-first".to_string());
    }
    if !c.within_slack {
        m.push(format!("x{:.2}", c.ratio));
    }
    if m.is_empty() {
        m.push("PASS".to_string());
    }
    m
}

/// Print one row per strategy: regret and runs to first success in each
/// scenario, and which targets fail; then the best row that meets every
/// target and the best row that meets the two regret targets.
fn sweep_table(strategies: &[Strategy], baselines: &[Vec<Summary>], trials: u64, seed: u64) {
    println!(
        "Mean regret per scenario (mean runs to first success of the best in brackets). \
         `targets` is PASS when every target holds in all three scenarios; otherwise it \
         lists the misses: `rnd-regret` (regret not below random), `rnd-first` (runs to \
         first success not below random), `xR` (regret R times the best baseline's, above 1.25).\n"
    );
    println!("| strategy | (a) | (b) | (c) | sum | targets |");
    println!("|---|---:|---:|---:|---:|---|");
    let mut all_best: Option<(String, f64)> = None;
    let mut regret_best: Option<(String, f64)> = None;
    for strategy in strategies {
        let mut cells = Vec::new();
        let mut failed = Vec::new();
        let mut regret_ok = true;
        let mut sum = 0.0;
        for (s, scenario) in scenarios().iter().enumerate() {
            let e = summarize(&scenario.rates, *strategy, trials, seed, s as u64 + 1);
            let c = check(&e, &baselines[s]);
            regret_ok &= c.beats_random_regret && c.within_slack;
            if !c.pass() {
                failed.push(format!("({}) {}", scenario.key, misses(&c).join(" ")));
            }
            sum += e.regret;
            cells.push(format!("{:.2} [{:.1}]", e.regret, e.first_success));
        }
        let label = strategy.label();
        println!(
            "| {label} | {} | {sum:.2} | {} |",
            cells.join(" | "),
            if failed.is_empty() {
                "PASS".to_string()
            } else {
                failed.join("; ")
            }
        );
        let better = |best: &Option<(String, f64)>| best.as_ref().is_none_or(|(_, b)| sum < *b);
        if failed.is_empty() && better(&all_best) {
            all_best = Some((label.clone(), sum));
        }
        if regret_ok && better(&regret_best) {
            regret_best = Some((label, sum));
        }
    }
    println!();
    match all_best {
        Some((label, sum)) => println!(
            "- Lowest summed regret among the rows that meet every target: {label} ({sum:.2})."
        ),
        None => println!("- No row meets every target."),
    }
    match regret_best {
        Some((label, sum)) => println!(
            "- Lowest summed regret among the rows that meet both regret targets \
             (below random, within 25% of the best baseline) everywhere: {label} ({sum:.2})."
        ),
        None => println!("- No row meets both regret targets everywhere."),
    }
    println!();
}

fn winner(models: &[Model], passes: &[bool], totals: &[f64]) -> String {
    let meeting: Vec<usize> = (0..models.len()).filter(|&i| passes[i]).collect();
    match meeting.as_slice() {
        [] => "neither model meets the targets at this temperature".into(),
        [i] => format!(
            "winner: `{}` (the only model meeting the targets)",
            models[*i]
        ),
        _ => {
            let i = *meeting
                .iter()
                .min_by(|x, y| totals[**x].total_cmp(&totals[**y]))
                .expect("non-empty");
            format!(
                "winner: `{}` (both meet the targets; lower summed regret)",
                models[i]
            )
        }
    }
}
