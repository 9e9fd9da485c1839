//! Lanes and slots: several candidates measured at once on slots that are
//! not identical, at equal wall time with one lane on one slot.
//!
//! Model. Wall time is counted in runs: every slot does one run per tick,
//! for `BUDGET` ticks. Lane `i` runs on slot `i`. A slot adds a fixed bias
//! to every loss it measures (a faster card, a throttled one), drawn per
//! loop from N(0, `slot_sd`²); the noise of a run is N(0, 1) as in the
//! single-lane loops. Each lane takes the next change of the stream, runs
//! it against the best as it was when the lane started, and decides with
//! `arx::kernel::ratchet::next_step` (the default `confirm` rule). A keep is
//! a compare-and-swap of the best: when another lane kept first, the
//! candidate is replayed onto the new best (its effect adds to the new
//! best's; with probability `CONFLICT` the replay does not apply and the
//! candidate is a `stale` discard) and measured again, from nothing,
//! against the new best — never kept on a decision against a best that is
//! no longer the best.
//!
//! Three comparisons of a candidate with the best:
//! - `recorded`: against the samples the best was recorded with, whatever
//!   slot measured them (what a ratchet blind to slots does);
//! - `same slot`: against the best measured on the candidate's slot; when
//!   that slot has fewer than `REMEASURE` runs of the best, the lane first
//!   runs the best there (those runs cost wall time and are shared by every
//!   lane on that slot);
//! - `adaptive` (what `arx try` does with `slots`): a lane whose slot has
//!   no runs of the best, and whose offset to the slot the best was
//!   recorded on is not known well enough (variance above `OFFSET_VAR`),
//!   first runs the best there (`REMEASURE` runs: at the start of a
//!   segment, every lane measures the baseline on its own slot at once).
//!   A candidate is compared with every run of the best, each moved onto
//!   its slot by the estimated offset between the slots (from every commit
//!   measured on both, directly or through a third slot, shrunk toward 0 by
//!   how far apart the slots are). A keep that would not hold with the
//!   offset `PESSIMISM` standard errors against the candidate (while the
//!   offset's variance is above `OFFSET_VAR`) first runs the best on the
//!   candidate's slot and decides again.
//!
//! And two moments to replay a candidate whose best moved: after its
//! decision against the old best (a keep found stale), or as soon as the
//! best moves while the candidate leans better than its best ("replayed
//! when the best moves").
//!
//! Reported per stream, with slot effects of 0 and 1σ: the true improvement
//! of the final best, keeps, null or harmful keeps per true keep, stale
//! discards and the runs spent re-measuring the best.

use std::collections::HashMap;

use arx::kernel::ratchet::{next_step, Evidence, Rule, Settings, Step};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{normal, trial_seed, world, Kind, Stream, BASELINE_RUNS, BUDGET, MAX_DRAWS};

/// Runs of the best on a slot before a candidate there is compared with it
/// (`same slot`).
pub const REMEASURE: usize = BASELINE_RUNS;
/// Share of replays onto a moved best that do not apply (a conflict).
pub const CONFLICT: f64 = 0.1;
/// Targets at equal wall time, 4 lanes on 4 slots (`same slot`) against 1
/// lane on 1 slot: at least this many times the true improvement…
pub const LANES_GAIN: f64 = 3.0;
// …and no more null or harmful keeps per true keep than 1 lane.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Recorded,
    SameSlot,
    /// Against the best on the same slot when it has runs there; else
    /// against the recorded best moved by the slots' estimated offset, and
    /// a keep that rests on an offset not yet known well enough first
    /// runs the best on the candidate's slot and decides again there.
    Adaptive,
}

/// The settings compared, one lane first and the design last.
pub fn setups(slot_sd: f64) -> Vec<Setup> {
    let one = |lanes, compare, restart| Setup {
        lanes,
        slot_sd,
        compare,
        restart,
    };
    vec![
        one(1, Compare::SameSlot, false),
        one(4, Compare::Recorded, false),
        one(4, Compare::SameSlot, false),
        one(4, Compare::Recorded, true),
        one(4, Compare::Adaptive, true),
    ]
}

/// One setting of the lanes simulation.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    pub lanes: usize,
    pub slot_sd: f64,
    pub compare: Compare,
    /// A candidate that leans better than its best is replayed as soon as
    /// the best moves, not after its decision against the old best.
    pub restart: bool,
}

impl Setup {
    pub fn label(&self) -> String {
        format!(
            "{} lane{} on {} slot{}, {}",
            self.lanes,
            if self.lanes == 1 { "" } else { "s" },
            self.lanes,
            if self.lanes == 1 { "" } else { "s" },
            match self.compare {
                Compare::Recorded => "against the recorded best",
                Compare::SameSlot => "against the best on the same slot",
                Compare::Adaptive =>
                    "against the best on the same slot or across slots by their offset (adaptive)",
            }
        ) + if self.restart {
            ", replayed when the best moves"
        } else {
            ""
        }
    }
}

/// A commit of the loop: its true value (σ, higher is better), the samples
/// it was recorded with, and its runs on each slot.
struct Commit {
    value: f64,
    recorded: Vec<f64>,
    /// The slot its recorded samples were measured on.
    slot: usize,
    on_slot: HashMap<usize, Vec<f64>>,
}

enum Phase {
    Idle,
    /// Running the best (commit `base`) on the lane's slot.
    Remeasure,
    /// Running the candidate.
    Candidate,
}

struct Lane {
    slot: usize,
    phase: Phase,
    change: usize,
    base: usize,
    value: f64,
    samples: Vec<f64>,
}

/// What one loop with lanes produced.
#[derive(Debug, Default, Clone, Copy)]
pub struct LaneOutcome {
    pub gain: f64,
    pub true_keeps: f64,
    pub false_keeps: f64,
    pub stale: f64,
    pub replays: f64,
    pub remeasure_runs: f64,
    pub tried: f64,
}

/// Offsets between slots known well enough to compare across them: the
/// variance (σ²) of the estimated offset at most this.
pub const OFFSET_VAR: f64 = 0.04;
/// A keep across slots stands without measuring the best on the
/// candidate's slot when it holds with the offset this many standard
/// errors against the candidate.
pub const PESSIMISM: f64 = 2.0;

/// The estimated offset of slot `s` over slot `r` (what slot `s` adds to a
/// loss, less what `r` adds) and its variance (σ²), from every commit
/// measured on both (inverse-variance weighted), and through any third
/// slot both were compared with; `None` without such a path.
fn offset(commits: &[Commit], s: usize, r: usize, slots: usize) -> Option<(f64, f64)> {
    if s == r {
        return Some((0.0, 0.0));
    }
    let mut paths: Vec<(f64, f64)> = Vec::new();
    paths.extend(direct(commits, s, r));
    for t in (0..slots).filter(|&t| t != s && t != r) {
        if let (Some((a, va)), Some((b, vb))) = (direct(commits, s, t), direct(commits, t, r)) {
            paths.push((a + b, va + vb));
        }
    }
    let weight: f64 = paths.iter().map(|(_, v)| 1.0 / v).sum();
    (weight > 0.0).then(|| {
        (
            paths.iter().map(|(d, v)| d / v).sum::<f64>() / weight,
            1.0 / weight,
        )
    })
}

fn direct(commits: &[Commit], s: usize, r: usize) -> Option<(f64, f64)> {
    let (mut sum, mut weight) = (0.0, 0.0);
    for c in commits {
        let (Some(a), Some(b)) = (c.on_slot.get(&s), c.on_slot.get(&r)) else {
            continue;
        };
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let w = 1.0 / (1.0 / a.len() as f64 + 1.0 / b.len() as f64);
        sum += w * (mean(a) - mean(b));
        weight += w;
    }
    (weight > 0.0).then(|| (sum / weight, 1.0 / weight))
}

/// The best's runs on every slot, each moved onto `slot` by the estimated
/// offset between the two (slots without a known offset left out).
fn on_slot_of(commits: &[Commit], best: &Commit, slot: usize, slots: usize) -> Vec<f64> {
    let mut all = Vec::new();
    for (&s, runs) in &best.on_slot {
        if s == slot {
            all.extend_from_slice(runs);
        } else if let Some((d, _)) =
            offset(commits, slot, s, slots).map(|o| shrink(o, commits, slots))
        {
            all.extend(runs.iter().map(|x| x + d));
        }
    }
    all
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Play one loop of `stream` (seeded by `seed`) with `setup`.
pub fn play(stream: &Stream, seed: u64, setup: Setup) -> LaneOutcome {
    // The changes come from the single-lane loops' world (enough for every
    // lane: four lanes try about four times as many).
    let mut changes = Vec::new();
    for part in 0..setup.lanes as u64 {
        changes.extend(world(stream, seed ^ part.wrapping_mul(0xA076_1D64_78BD_642F)).changes);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5107_5107);
    let bias: Vec<f64> = (0..setup.lanes.max(1))
        .map(|_| setup.slot_sd * normal(&mut rng))
        .collect();
    // The metric is a loss: a run of a commit of true value v on slot s
    // measures −v + bias[s] + ε.
    let measure = |value: f64, slot: usize, rng: &mut ChaCha8Rng| -value + bias[slot] + normal(rng);
    let baseline: Vec<f64> = (0..BASELINE_RUNS)
        .map(|_| measure(0.0, 0, &mut rng))
        .collect();
    let mut commits = vec![Commit {
        value: 0.0,
        recorded: baseline.clone(),
        slot: 0,
        on_slot: HashMap::from([(0, baseline.clone())]),
    }];
    let mut groups: Vec<Vec<f64>> = vec![baseline.clone()];
    let mut values = baseline;
    let mut best = 0usize;
    let mut next_change = 0usize;
    let mut out = LaneOutcome::default();
    let settings = Settings::new(Direction::Min);
    let mut lanes: Vec<Lane> = (0..setup.lanes)
        .map(|slot| Lane {
            slot,
            phase: Phase::Idle,
            change: 0,
            base: 0,
            value: 0.0,
            samples: Vec::new(),
        })
        .collect();
    // The baseline took BASELINE_RUNS ticks of slot 0; the other slots
    // start at once.
    for tick in 0..BUDGET {
        for lane in lanes.iter_mut() {
            if lane.slot == 0 && tick < BASELINE_RUNS {
                continue;
            }
            if matches!(lane.phase, Phase::Idle) {
                if next_change >= changes.len() {
                    continue;
                }
                lane.change = next_change;
                next_change += 1;
                out.tried += 1.0;
                lane.base = best;
                lane.value = commits[best].value + changes[lane.change].effect;
                lane.samples.clear();
                lane.phase = start_phase(&commits, best, lane.slot, setup);
            }
            // The best moved under a candidate that leans better than it:
            // replay it now rather than finish measuring it against a best
            // that is gone.
            if setup.restart && lane.base != best && matches!(lane.phase, Phase::Candidate) {
                let base = &commits[lane.base];
                let reference = base.on_slot.get(&lane.slot).unwrap_or(&base.recorded);
                if lane.samples.is_empty() || mean(&lane.samples) < mean(reference) {
                    if rng.random::<f64>() < CONFLICT {
                        out.stale += 1.0;
                        lane.phase = Phase::Idle;
                        continue;
                    }
                    out.replays += 1.0;
                    lane.base = best;
                    lane.value = commits[best].value + changes[lane.change].effect;
                    lane.samples.clear();
                    lane.phase = start_phase(&commits, best, lane.slot, setup);
                }
            }
            match lane.phase {
                Phase::Idle => unreachable!("a lane was just given a change"),
                Phase::Remeasure => {
                    let v = commits[lane.base].value;
                    let s = measure(v, lane.slot, &mut rng);
                    let runs = commits[lane.base].on_slot.entry(lane.slot).or_default();
                    runs.push(s);
                    out.remeasure_runs += 1.0;
                    if runs.len() >= REMEASURE {
                        groups.push(runs.clone());
                        values.extend_from_slice(runs);
                        lane.phase = Phase::Candidate;
                    }
                }
                Phase::Candidate => {
                    lane.samples.push(measure(lane.value, lane.slot, &mut rng));
                    let base = &commits[lane.base];
                    let same_slot = base
                        .on_slot
                        .get(&lane.slot)
                        .filter(|r| lane.slot == base.slot || r.len() >= REMEASURE);
                    // What the best measures on the candidate's slot, and
                    // whether that rests on an offset not known well enough.
                    let (reference, uncertain): (Vec<f64>, bool) = match (setup.compare, same_slot)
                    {
                        (Compare::Recorded, _) => (base.recorded.clone(), false),
                        (Compare::SameSlot, _) => (base.on_slot[&lane.slot].clone(), false),
                        // Every slot's runs of the best, moved onto the
                        // candidate's slot by the slots' offsets.
                        (Compare::Adaptive, Some(_)) => {
                            (on_slot_of(&commits, base, lane.slot, setup.lanes), false)
                        }
                        (Compare::Adaptive, None) => {
                            match offset(&commits, lane.slot, base.slot, setup.lanes)
                                .map(|o| shrink(o, &commits, setup.lanes))
                            {
                                Some((d, var)) => (
                                    base.recorded.iter().map(|x| x + d).collect(),
                                    var > OFFSET_VAR && {
                                        // Would it still be a keep with the
                                        // offset two standard errors against it?
                                        let shifted: Vec<f64> = base
                                            .recorded
                                            .iter()
                                            .map(|x| x + d - PESSIMISM * var.sqrt())
                                            .collect();
                                        let replicates: Vec<&[f64]> =
                                            groups.iter().map(Vec::as_slice).collect();
                                        !matches!(
                                            next_step(
                                                Rule::Confirm,
                                                &settings,
                                                &Evidence {
                                                    best: &shifted,
                                                    candidate: &lane.samples,
                                                    replicates: &replicates,
                                                    segment_values: &values,
                                                }
                                            ),
                                            Step::Decide(ref d) if d.keep()
                                        )
                                    },
                                ),
                                None => (base.recorded.clone(), true),
                            }
                        }
                    };
                    let replicates: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
                    let evidence = Evidence {
                        best: &reference,
                        candidate: &lane.samples,
                        replicates: &replicates,
                        segment_values: &values,
                    };
                    let step = if lane.samples.len() >= MAX_DRAWS {
                        None
                    } else {
                        Some(next_step(Rule::Confirm, &settings, &evidence))
                    };
                    let decision = match step {
                        Some(Step::RunAgain) => continue,
                        Some(Step::Decide(d)) => Some(d),
                        None => None,
                    };
                    if uncertain && decision.as_ref().is_some_and(|d| d.keep()) {
                        // A keep across slots whose offset is not known:
                        // measure the best on this slot, then decide again.
                        lane.phase = Phase::Remeasure;
                        continue;
                    }
                    groups.push(lane.samples.clone());
                    values.extend_from_slice(&lane.samples);
                    let Some(d) = decision.filter(|d| d.keep()) else {
                        lane.phase = Phase::Idle;
                        continue;
                    };
                    if lane.base == best {
                        // The compare-and-swap succeeds: the best has not moved.
                        let record = lane.samples[d.record_from..].to_vec();
                        commits.push(Commit {
                            value: lane.value,
                            recorded: record.clone(),
                            slot: lane.slot,
                            on_slot: HashMap::from([(lane.slot, record)]),
                        });
                        best = commits.len() - 1;
                        match changes[lane.change].kind {
                            Kind::Improvement => out.true_keeps += 1.0,
                            _ => out.false_keeps += 1.0,
                        }
                        lane.phase = Phase::Idle;
                    } else if rng.random::<f64>() < CONFLICT {
                        out.stale += 1.0;
                        lane.phase = Phase::Idle;
                    } else {
                        // Replayed onto the new best, measured again.
                        out.replays += 1.0;
                        lane.base = best;
                        lane.value = commits[best].value + changes[lane.change].effect;
                        lane.samples.clear();
                        lane.phase = start_phase(&commits, best, lane.slot, setup);
                    }
                }
            }
        }
    }
    out.gain = commits[best].value;
    out
}

/// What a lane does first with a new best: run the best on its slot
/// (`same slot` without `REMEASURE` runs there; `adaptive` when the offset
/// between its slot and the slot the best was recorded on is not known well
/// enough), or run the candidate.
fn start_phase(commits: &[Commit], best: usize, slot: usize, setup: Setup) -> Phase {
    let best = &commits[best];
    if setup.compare == Compare::Adaptive && !best.on_slot.contains_key(&slot) {
        let known =
            offset(commits, slot, best.slot, setup.lanes).map(|o| shrink(o, commits, setup.lanes));
        if known.is_none_or(|(_, var)| var > OFFSET_VAR) {
            return Phase::Remeasure;
        }
    }
    match setup.compare {
        Compare::SameSlot if best.on_slot.get(&slot).map_or(0, Vec::len) < REMEASURE => {
            Phase::Remeasure
        }
        _ => Phase::Candidate,
    }
}

/// Means over `trials` loops of `stream` (salt `salt`) for each setup.
pub fn summarize(
    stream: &Stream,
    salt: u64,
    seed: u64,
    trials: u64,
    setups: &[Setup],
) -> Vec<LaneOutcome> {
    setups
        .iter()
        .map(|&setup| {
            let mut sum = LaneOutcome::default();
            for k in 0..trials {
                let o = play(stream, trial_seed(seed, salt + 100, k), setup);
                sum.gain += o.gain;
                sum.true_keeps += o.true_keeps;
                sum.false_keeps += o.false_keeps;
                sum.stale += o.stale;
                sum.replays += o.replays;
                sum.remeasure_runs += o.remeasure_runs;
                sum.tried += o.tried;
            }
            let n = trials as f64;
            LaneOutcome {
                gain: sum.gain / n,
                true_keeps: sum.true_keeps / n,
                false_keeps: sum.false_keeps / n,
                stale: sum.stale / n,
                replays: sum.replays / n,
                remeasure_runs: sum.remeasure_runs / n,
                tried: sum.tried / n,
            }
        })
        .collect()
}

/// False keeps per true keep.
pub fn false_per_true(o: &LaneOutcome) -> f64 {
    o.false_keeps / o.true_keeps.max(f64::MIN_POSITIVE)
}

/// Shrink an offset toward 0 by how far apart the slots are: with prior
/// variance 2τ² for the offset between two slots, τ² estimated from every
/// slot's offset over slot 0.
fn shrink((d, var): (f64, f64), commits: &[Commit], slots: usize) -> (f64, f64) {
    let all: Vec<(f64, f64)> = (1..slots)
        .filter_map(|s| offset(commits, s, 0, slots))
        .collect();
    if all.is_empty() {
        return (d, var);
    }
    let prior = (all.iter().map(|(d, v)| d * d - v).sum::<f64>() / all.len() as f64).max(0.0);
    if prior == 0.0 {
        return (0.0, 0.0);
    }
    let k = prior / (prior + var);
    (d * k, var * k)
}
