//! Everything random in one night that every rule meets alike: the stream
//! of changes (with the file each touches), the offset of each hardware
//! class, and when each machine is down.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Wall time of a night, in run-lengths (ticks): every machine that is up
/// does one run per tick.
pub const NIGHT: usize = 200;
/// Runs of the baseline (true value 0), on machine 0, before anything.
pub const BASELINE_RUNS: usize = 5;
/// Hardware classes at most (machine `m` is of class `m % CLASSES`).
pub const CLASSES: usize = 4;
/// Places a change can touch (a file, or a region of one): two changes
/// touch the same place (and a replay of one onto the other conflicts, and
/// they cannot share a batch) with probability 1/FILES.
pub const FILES: u8 = 20;
/// Chance per tick that a machine that is up dies…
pub const DEATH: f64 = 0.002;
/// …and the ticks it stays down before it comes back with nothing in
/// flight.
pub const DOWN: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Improvement,
    Regression,
    Null,
}

#[derive(Debug, Clone, Copy)]
pub struct Change {
    pub kind: Kind,
    /// True effect, in σ of one run (higher is better).
    pub effect: f64,
    pub file: u8,
}

/// What a night is played with.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    pub machines: usize,
    /// The classes' offsets are drawn from N(0, class_sd²) (σ of one run).
    pub class_sd: f64,
    /// Ticks before a machine sees a best that moved on the remote (0: at
    /// its next run, as lanes on one machine).
    pub delay: usize,
    /// Machines die (at [`DEATH`] a tick, for [`DOWN`] ticks).
    pub deaths: bool,
    /// Share of batches of two changes or more whose changes interact:
    /// together they are worth less than the sum (the largest effect is
    /// lost), so the batch fails its confirmation.
    pub interact: f64,
    /// The machines are lanes of one machine: one class (no offsets, no
    /// best to measure again on another class), down together.
    pub lanes: bool,
}

impl Scenario {
    pub fn classes(&self) -> usize {
        if self.lanes {
            1
        } else {
            self.machines.clamp(1, CLASSES)
        }
    }
}

pub struct World {
    pub changes: Vec<Change>,
    /// What each class adds to the loss it measures.
    pub bias: Vec<f64>,
    /// Per machine, the ticks `[from, to)` it is down.
    pub down: Vec<Vec<(usize, usize)>>,
}

impl World {
    pub fn up(&self, machine: usize, tick: usize) -> bool {
        !self.down[machine]
            .iter()
            .any(|&(from, to)| from <= tick && tick < to)
    }
}

/// One standard normal draw (Box–Muller).
pub fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The `rich` stream of the ratchet simulation: 20% improvements
/// U(0.5, 3)σ, 10% regressions −U(0.5, 3)σ, 70% null.
pub fn world(sc: &Scenario, seed: u64) -> World {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let uniform = |rng: &mut ChaCha8Rng, lo: f64, hi: f64| lo + (hi - lo) * rng.random::<f64>();
    let changes = (0..sc.machines * NIGHT + 16)
        .map(|_| {
            let u: f64 = rng.random();
            let (kind, effect) = if u < 0.2 {
                (Kind::Improvement, uniform(&mut rng, 0.5, 3.0))
            } else if u < 0.3 {
                (Kind::Regression, -uniform(&mut rng, 0.5, 3.0))
            } else {
                (Kind::Null, 0.0)
            };
            Change {
                kind,
                effect,
                file: rng.random_range(0..FILES),
            }
        })
        .collect();
    let bias = (0..sc.classes())
        .map(|_| sc.class_sd * normal(&mut rng))
        .collect();
    let down: Vec<Vec<(usize, usize)>> = (0..if sc.lanes { 1 } else { sc.machines })
        .map(|m| {
            let mut spans = Vec::new();
            let mut t = 0;
            while sc.deaths && t < NIGHT {
                // Machine 0 measures the baseline; it is up for that.
                if (m > 0 || t >= BASELINE_RUNS) && rng.random::<f64>() < DEATH {
                    spans.push((t, t + DOWN));
                    t += DOWN;
                } else {
                    t += 1;
                }
            }
            spans
        })
        .collect();
    // Lanes are down when their machine is.
    let down = if sc.lanes {
        vec![down[0].clone(); sc.machines]
    } else {
        down
    };
    World {
        changes,
        bias,
        down,
    }
}
