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
//! - `adaptive` (what `arx try` does with `slots`, through
//!   `arx::kernel::slot_offset`): a lane whose slot has no runs of the
//!   best, and whose offset to the slots the best has runs on is not known
//!   well enough (variance above `slot_offset::OFFSET_VAR`), first runs the
//!   best there (`REMEASURE` runs: at the start of a segment, every lane
//!   measures the baseline on its own slot at once). A candidate is
//!   compared with every run of the best, each moved onto its slot by the
//!   estimated offset between the slots (from every commit measured on
//!   both, directly or through a third slot, shrunk toward 0 by how far
//!   apart the slots are).
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

use arx::kernel::ratchet::{next_step, pooled_noise, Evidence, Rule, Seeds, Settings, Step};
use arx::kernel::slot_offset::{self, CommitRuns};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{normal, trial_seed, world, Kind, Stream, BASELINE_RUNS, BUDGET, MAX_DRAWS};

/// Runs of the best on a slot before a candidate there is compared with it
/// (`same slot`).
pub const REMEASURE: usize = BASELINE_RUNS;
/// Share of replays onto a moved best that do not apply (a conflict).
pub const CONFLICT: f64 = 0.1;
/// Targets at equal wall time for the design (4 lanes on 4 slots,
/// `adaptive`). With identical slots: at least this many times the true
/// improvement of 1 lane on 1 slot…
pub const LANES_GAIN: f64 = 3.0;
/// …with a slot effect, where no estimate of the offsets can reach what
/// identical slots give: at least this share of the ceiling (the offsets
/// known exactly)…
pub const CEILING_SHARE: f64 = 0.85;
/// …and at least this many times a ratchet blind to slots (against the
/// recorded best, replayed when the best moves).
pub const BLIND_GAIN: f64 = 1.3;
// And in both, no more null or harmful keeps per true keep than 1 lane.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Recorded,
    SameSlot,
    /// Against the best on the same slot when it has runs there; else
    /// against the recorded best moved by the slots' estimated offset, and
    /// a keep that rests on an offset not yet known well enough first
    /// runs the best on the candidate's slot and decides again there.
    Adaptive,
    /// Against every run of the best moved by the slots' true offsets: no
    /// estimate can do better, and none is free. A ceiling, not a design.
    Known,
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
        one(1, Compare::Recorded, false),
        one(4, Compare::Recorded, false),
        one(4, Compare::SameSlot, false),
        one(4, Compare::Recorded, true),
        one(4, Compare::Known, true),
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
                Compare::Known =>
                    "against the best moved by the slots' true offsets (known exactly: a ceiling)",
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

/// Every commit's runs per slot, as `arx::kernel::slot_offset` takes them.
fn commit_runs(commits: &[Commit]) -> Vec<CommitRuns> {
    commits
        .iter()
        .enumerate()
        .map(|(i, c)| CommitRuns {
            commit: i.to_string(),
            by_slot: c
                .on_slot
                .iter()
                .map(|(s, runs)| (s.to_string(), runs.clone()))
                .collect(),
        })
        .collect()
}

/// One run's standard deviation, pooled from the replicate groups.
fn noise(groups: &[Vec<f64>]) -> Option<f64> {
    let groups: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    pooled_noise(&groups).map(|(sd, _)| sd)
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
                lane.phase = start_phase(&commits, &groups, best, lane.slot, setup);
            }
            // The best moved under a candidate that leans better than it:
            // replay it now rather than finish measuring it against a best
            // that is gone.
            if setup.restart && lane.base != best && matches!(lane.phase, Phase::Candidate) {
                let reference = reference(&commits, &groups, &bias, lane, setup.compare);
                if lane.samples.is_empty() || mean(&lane.samples) < mean(&reference) {
                    if rng.random::<f64>() < CONFLICT {
                        out.stale += 1.0;
                        lane.phase = Phase::Idle;
                        continue;
                    }
                    out.replays += 1.0;
                    lane.base = best;
                    lane.value = commits[best].value + changes[lane.change].effect;
                    lane.samples.clear();
                    lane.phase = start_phase(&commits, &groups, best, lane.slot, setup);
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
                    let reference = reference(&commits, &groups, &bias, lane, setup.compare);
                    let replicates: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
                    let evidence = Evidence {
                        best: &reference,
                        candidate: &lane.samples,
                        replicates: &replicates,
                        segment_values: &values,
                        seeds: Seeds::NONE,
                        instances: None,
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
                        lane.phase = start_phase(&commits, &groups, best, lane.slot, setup);
                    }
                }
            }
        }
    }
    out.gain = commits[best].value;
    out
}

/// The runs of the lane's best its candidate is compared with (and leans
/// on).
fn reference(
    commits: &[Commit],
    groups: &[Vec<f64>],
    bias: &[f64],
    lane: &Lane,
    compare: Compare,
) -> Vec<f64> {
    let base = &commits[lane.base];
    match compare {
        Compare::Recorded => base.recorded.clone(),
        Compare::SameSlot => base.on_slot[&lane.slot].clone(),
        Compare::Known => base
            .on_slot
            .iter()
            .flat_map(|(&s, runs)| runs.iter().map(move |x| x - bias[s] + bias[lane.slot]))
            .collect(),
        // What `arx try` compares with: every run of the best, moved onto
        // the candidate's slot by the slots' estimated offsets.
        Compare::Adaptive => {
            let runs = commit_runs(commits);
            slot_offset::reference(
                &runs,
                &runs[lane.base],
                &lane.slot.to_string(),
                noise(groups),
            )
            .map_or_else(|| base.recorded.clone(), |r| r.samples)
        }
    }
}

/// What a lane does first with a new best: run the best on its slot
/// (`same slot` without `REMEASURE` runs there; `adaptive` when the offset
/// between its slot and the slot the best was recorded on is not known well
/// enough), or run the candidate.
fn start_phase(
    commits: &[Commit],
    groups: &[Vec<f64>],
    best: usize,
    slot: usize,
    setup: Setup,
) -> Phase {
    if setup.compare == Compare::Adaptive {
        let runs = commit_runs(commits);
        let sd = noise(groups);
        if slot_offset::needs_remeasure(&runs, &runs[best], &slot.to_string(), sd) {
            return Phase::Remeasure;
        }
    }
    let best = &commits[best];
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
