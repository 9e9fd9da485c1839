//! The paired-seeds section: the same loops, each run handed a seed as
//! `arx try` hands it (`arx::kernel::paired::next_seed`), and a run's noise
//! a function of its commit and its seed. A commit's value at seed `s` is
//! `√ρ · f_best(s) + √(1 − ρ) · g(s)`: it shares a share ρ of its noise
//! with the best it was tried against at the same seed (the same data
//! order and initialisation), and draws the rest afresh. Every commit's
//! runs still vary by N(0, 1) from seed to seed, so the unpaired rules see
//! the same noise as in the headline.
//!
//! Three rules on the same changes and the same seeds: `strict`, `confirm`
//! as it decides without seeds, and `confirm` with the seeds
//! (`Evidence::seeds`), which compares paired differences when the data
//! says pairing helps.

use std::collections::HashMap;

use arx::kernel::paired::{differences, next_seed};
use arx::kernel::ratchet::{next_step, Evidence, Rule, Seeds, Settings, Step};
use arx::kernel::stats::Direction;

use super::{verdict, Kind, World, BASELINE_RUNS, BUDGET};

/// The segment the seeds are drawn for.
const SEGMENT: &str = "ratchet_sim";

/// How the changes' runs correlate with the best's at the same seed.
#[derive(Debug, Clone, Copy)]
pub enum Corr {
    Fixed(f64),
    /// A share of the changes at one correlation, the rest at another (a
    /// change of the learning rate keeps the initialisation, a change of
    /// width draws it again).
    Mixture {
        share: f64,
        high: f64,
        low: f64,
    },
}

impl Corr {
    pub fn label(&self) -> String {
        match self {
            Corr::Fixed(r) => format!("\u{3c1} {r}"),
            Corr::Mixture { share, high, low } => format!(
                "{:.0}% of changes at \u{3c1} {high}, {:.0}% at {low}",
                100.0 * share,
                100.0 * (1.0 - share)
            ),
        }
    }
}

/// SplitMix64: one well-mixed word of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn uniform(key: u64) -> f64 {
    ((mix(key) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal draw that depends only on `key` (Box–Muller).
fn normal_of(key: u64) -> f64 {
    let (u1, u2) = (uniform(key), uniform(key ^ 0x5555_5555_5555_5555));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The seeded noise of one loop: commit `c` (0 = the baseline, `i + 1` =
/// the i-th change) at seed `s`, the same under every rule for the same
/// chain of bests.
struct Noise {
    key: u64,
    corr: Corr,
    /// The best each commit was tried against.
    parent: Vec<usize>,
    memo: HashMap<(usize, u64), f64>,
}

impl Noise {
    fn rho(&self, c: usize) -> f64 {
        match self.corr {
            Corr::Fixed(r) => r,
            Corr::Mixture { share, high, low } => {
                if uniform(mix(self.key ^ 0x7268_6f00) ^ c as u64) < share {
                    high
                } else {
                    low
                }
            }
        }
    }

    fn at(&mut self, c: usize, s: u64) -> f64 {
        if let Some(x) = self.memo.get(&(c, s)) {
            return *x;
        }
        let fresh = normal_of(mix(self.key ^ mix(c as u64)) ^ s);
        let x = if c == 0 {
            fresh
        } else {
            let r = self.rho(c);
            r.sqrt() * self.at(self.parent[c], s) + (1.0 - r).sqrt() * fresh
        };
        self.memo.insert((c, s), x);
        x
    }
}

/// A rule of the section.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub label: &'static str,
    pub rule: Rule,
    /// The rule is given the seeds.
    pub seeds: bool,
    /// Every run a fresh seed (no seeds handed): the loop as without
    /// `seeds = "paired"`.
    pub fresh: bool,
}

pub const ROWS: [Row; 4] = [
    Row {
        label: "`strict`, a fresh seed per run",
        rule: Rule::Strict,
        seeds: false,
        fresh: true,
    },
    Row {
        label: "`confirm`, a fresh seed per run (today)",
        rule: Rule::Confirm,
        seeds: false,
        fresh: true,
    },
    Row {
        label: "`confirm`, paired seeds",
        rule: Rule::Confirm,
        seeds: true,
        fresh: false,
    },
    Row {
        label: "`strict`, handed the seeds (a fixed-seed loop)",
        rule: Rule::Strict,
        seeds: false,
        fresh: false,
    },
];

/// What the loops of one row came to (means per loop).
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub gain: f64,
    pub false_keeps: f64,
    pub improvements: f64,
    pub tried: f64,
    /// Runs per candidate tried.
    pub runs_per_try: f64,
    /// Decisions taken paired, per loop.
    pub paired: f64,
}

fn play(world: &World, corr: Corr, key: u64, row: Row) -> Tally {
    let mut noise = Noise {
        key,
        corr,
        parent: vec![0; world.changes.len() + 1],
        memo: HashMap::new(),
    };
    let settings = Settings::new(Direction::Min);
    // Each commit's runs and their seeds; 0 is the baseline.
    let mut runs: Vec<(Vec<f64>, Vec<Option<u64>>)> = Vec::new();
    // A fresh seed: one the sequence never hands out (above 2³¹).
    let fresh = |c: usize, k: usize| (1 << 40) | (mix(key ^ mix(c as u64) ^ k as u64) >> 24);
    let mut base_seeds = Vec::new();
    for k in 0..BASELINE_RUNS {
        base_seeds.push(if row.fresh {
            fresh(0, k)
        } else {
            next_seed(SEGMENT, &[], &base_seeds)
        });
    }
    let base: Vec<f64> = base_seeds.iter().map(|s| noise.at(0, *s)).collect();
    runs.push((base.clone(), base_seeds.into_iter().map(Some).collect()));
    let mut groups: Vec<Vec<f64>> = vec![base.clone()];
    let mut pair_groups: Vec<Vec<f64>> = Vec::new();
    let mut values = base;
    let (mut kept, mut kept_from, mut kept_value) = (0usize, 0usize, 0.0);
    let mut used = BASELINE_RUNS;
    let mut out = Tally::default();
    'changes: for (i, change) in world.changes.iter().enumerate() {
        if used >= BUDGET {
            break;
        }
        let c = i + 1;
        noise.parent[c] = kept;
        out.tried += 1.0;
        let value = kept_value + change.effect;
        let best = &runs[kept].0[kept_from..];
        // The best's runs as a candidate's runs pair with them (`Seeds::best`):
        // its recorded runs, then the screening run its record leaves out.
        let (ran, ran_seeds) = (&runs[kept].0, &runs[kept].1);
        let pair_best: Vec<f64> = ran[kept_from..]
            .iter()
            .chain(&ran[..kept_from])
            .copied()
            .collect();
        let best_seeds: Vec<Option<u64>> = ran_seeds[kept_from..]
            .iter()
            .chain(&ran_seeds[..kept_from])
            .copied()
            .collect();
        let (pair_best, best_seeds) = (&pair_best[..], &best_seeds[..]);
        let (mut samples, mut seeds) = (Vec::new(), Vec::<u64>::new());
        let decision = loop {
            if used >= BUDGET {
                break 'changes;
            }
            let s = if row.fresh {
                fresh(c, seeds.len())
            } else {
                next_seed(SEGMENT, best_seeds, &seeds)
            };
            seeds.push(s);
            samples.push(-value + noise.at(c, s));
            used += 1;
            let replicates: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let history: Vec<&[f64]> = pair_groups.iter().map(Vec::as_slice).collect();
            let candidate_seeds: Vec<Option<u64>> = seeds.iter().copied().map(Some).collect();
            let evidence = Evidence {
                best,
                candidate: &samples,
                replicates: &replicates,
                segment_values: &values,
                instances: None,
                seeds: if row.seeds {
                    Seeds {
                        best: pair_best,
                        best_seeds,
                        candidate: &candidate_seeds,
                        history: &history,
                    }
                } else {
                    Seeds::NONE
                },
            };
            match next_step(row.rule, &settings, &evidence) {
                Step::RunAgain => continue,
                Step::Decide(d) => break d,
            }
        };
        let seeds: Vec<Option<u64>> = seeds.into_iter().map(Some).collect();
        let d = differences(pair_best, best_seeds, &samples, &seeds);
        if d.len() >= 2 {
            pair_groups.push(d);
        }
        out.paired += f64::from(u8::from(decision.paired.is_some()));
        values.extend_from_slice(&samples);
        groups.push(samples.clone());
        runs.push((samples, seeds));
        if decision.keep() {
            kept = c;
            kept_from = decision.record_from;
            kept_value = value;
            match change.kind {
                Kind::Improvement => out.improvements += 1.0,
                Kind::Regression | Kind::Null => out.false_keeps += 1.0,
            }
        }
    }
    out.gain = kept_value;
    out.runs_per_try = (used - BASELINE_RUNS) as f64 / out.tried.max(1.0);
    out
}

/// The means of `row` over `worlds`.
pub fn summarize(worlds: &[World], corr: Corr, salt: u64, row: Row) -> Tally {
    let n = worlds.len() as f64;
    let mut sum = Tally::default();
    for (k, w) in worlds.iter().enumerate() {
        let t = play(w, corr, mix(salt ^ mix(k as u64)), row);
        sum.gain += t.gain / n;
        sum.false_keeps += t.false_keeps / n;
        sum.improvements += t.improvements / n;
        sum.tried += t.tried / n;
        sum.runs_per_try += t.runs_per_try / n;
        sum.paired += t.paired / n;
    }
    sum
}

/// How often one decision keeps a change of no true effect whose runs
/// correlate `rho` with the best's at the same seed: five baseline runs,
/// then the candidate's, paired, with no earlier tries in the segment.
pub fn single_null_rate(rho: f64, trials: u64, seed: u64) -> f64 {
    let settings = Settings::new(Direction::Min);
    let mut kept = 0u64;
    for k in 0..trials {
        let mut noise = Noise {
            key: mix(seed ^ 0x6e75_6c6c ^ mix(k)),
            corr: Corr::Fixed(rho),
            parent: vec![0, 0],
            memo: HashMap::new(),
        };
        let mut base_seeds = Vec::new();
        for _ in 0..BASELINE_RUNS {
            base_seeds.push(next_seed(SEGMENT, &[], &base_seeds));
        }
        let base: Vec<f64> = base_seeds.iter().map(|s| noise.at(0, *s)).collect();
        let best_seeds: Vec<Option<u64>> = base_seeds.iter().copied().map(Some).collect();
        let (mut samples, mut seeds) = (Vec::new(), Vec::<u64>::new());
        let decision = loop {
            let s = next_seed(SEGMENT, &best_seeds, &seeds);
            seeds.push(s);
            samples.push(noise.at(1, s));
            let candidate_seeds: Vec<Option<u64>> = seeds.iter().copied().map(Some).collect();
            let replicates: [&[f64]; 1] = [&base];
            let evidence = Evidence {
                best: &base,
                candidate: &samples,
                replicates: &replicates,
                segment_values: &base,
                instances: None,
                seeds: Seeds {
                    best: &base,
                    best_seeds: &best_seeds,
                    candidate: &candidate_seeds,
                    history: &[],
                },
            };
            if let Step::Decide(d) = next_step(Rule::Confirm, &settings, &evidence) {
                break d;
            }
        };
        kept += u64::from(decision.keep());
    }
    kept as f64 / trials as f64
}

/// Targets of paired seeds at ρ 0.8, against `strict` on the same loops:
/// true improvement at least this share of its…
pub const GAIN_OF_STRICT: f64 = 0.9;
/// …false keeps at most this share of its…
pub const FALSE_OF_STRICT: f64 = 0.2;
/// …and at ρ 0, true improvement within this share of unpaired `confirm`'s.
pub const SAME_AT_ZERO: f64 = 0.05;

/// The PASS/FAIL lines of one stream; true when they pass.
pub fn checks(corr: Corr, rows: &[Tally; 4]) -> (bool, Vec<String>) {
    let [strict, unpaired, paired, fixed] = rows;
    let mut lines = Vec::new();
    let mut pass = true;
    match corr {
        Corr::Fixed(r) if (r - 0.8).abs() < 1e-9 => {
            let gain = paired.gain / strict.gain;
            let falses = paired.false_keeps / strict.false_keeps;
            let (g, f) = (gain >= GAIN_OF_STRICT, falses <= FALSE_OF_STRICT);
            pass &= g && f;
            lines.push(format!(
                "{} true improvement at least {:.0}% of strict's: {:.2}\u{3c3} vs {:.2}\u{3c3} (ratio {:.3}; unpaired `confirm` {:.3})",
                verdict(g),
                100.0 * GAIN_OF_STRICT,
                paired.gain,
                strict.gain,
                gain,
                unpaired.gain / strict.gain,
            ));
            lines.push(format!(
                "{} false keeps at most 1/5 of strict's: {:.2} vs {:.2} (ratio {:.3})",
                verdict(f),
                paired.false_keeps,
                strict.false_keeps,
                falses,
            ));
            lines.push(format!(
                "against `strict` handed the seeds (a fixed-seed loop, which pairs its one run with the best's): true improvement {:.3} of its, false keeps {:.3} of its",
                paired.gain / fixed.gain,
                paired.false_keeps / fixed.false_keeps,
            ));
        }
        Corr::Fixed(0.0) => {
            let ratio = paired.gain / unpaired.gain;
            let ok = (ratio - 1.0).abs() <= SAME_AT_ZERO;
            pass &= ok;
            lines.push(format!(
                "{} true improvement within {:.0}% of unpaired `confirm`'s: {:.2}\u{3c3} vs {:.2}\u{3c3} (ratio {:.3}); false keeps {:.2} vs {:.2}",
                verdict(ok),
                100.0 * SAME_AT_ZERO,
                paired.gain,
                unpaired.gain,
                ratio,
                paired.false_keeps,
                unpaired.false_keeps,
            ));
        }
        _ => lines.push(format!(
            "true improvement {:.3} of strict's (unpaired `confirm` {:.3}), false keeps {:.3} of strict's (unpaired {:.3})",
            paired.gain / strict.gain,
            unpaired.gain / strict.gain,
            paired.false_keeps / strict.false_keeps,
            unpaired.false_keeps / strict.false_keeps,
        )),
    }
    (pass, lines)
}
