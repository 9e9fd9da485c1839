//! One night of a fleet under one rule.
//!
//! Every machine that is up does one run per tick. A machine claims the
//! next change of the stream (a claim is leased: a machine that dies keeps
//! its change for [`LEASE`] ticks, then the change goes back to the
//! backlog), builds it on the best it sees, measures it and decides with
//! `arx::kernel::ratchet::next_step` (arx's default rule) against a
//! reference that depends on the rule. What a keep does depends on the rule
//! too; see [`Rule`].

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// `--full-remeasure`: a best is measured on a class [`REMEASURE`] times
/// whatever the offsets already tell (as arx did before
/// `slot_offset::remeasure_runs`).
pub static FULL_REMEASURE: AtomicBool = AtomicBool::new(false);
/// `--rule confirm`: decide with the `confirm` rule rather than arx's
/// default (`sequential`).
pub static CONFIRM: AtomicBool = AtomicBool::new(false);

/// The rule every decision goes through: arx's default unless `--rule
/// confirm`.
pub fn ratchet_rule() -> Ratchet {
    if CONFIRM.load(Ordering::Relaxed) {
        Ratchet::Confirm
    } else {
        Ratchet::default()
    }
}
/// Replays keep their runs, as `arx try` does under the `sequential`
/// rule (`arx::kernel::ratchet_replayed`; not under `--rule confirm`,
/// where arx measures a replayed candidate again from nothing, nor with
/// `--replay-from-scratch`, arx before it carried runs): a candidate
/// replayed onto a best that did not touch its place keeps its runs, each
/// moved by the difference of the two bests as they measure on its class,
/// rather than being measured again from nothing.
pub static KEEP_RUNS: AtomicBool = AtomicBool::new(true);
/// `--keep-runs-guarded`: keeping runs only where the shift is covered
/// by the interval the rule computes: the old best's runs on the class at
/// least as many as the new best's (then the variance of the moved runs'
/// mean, σ²/N + (n₀/N)²σ²/r₀ + (n₁/N)²σ²/r₁, is at most the σ²/N + σ²/r₁
/// the rule assumes), else the runs are thrown away as without it.
pub static KEEP_RUNS_GUARDED: AtomicBool = AtomicBool::new(false);
/// A candidate that carried runs over is kept only once it has this many
/// runs or more measured on the new best and they lean better than the
/// new best too (else it runs on, up to the cap): arx's
/// `replayed::FRESH_RUNS`; `--keep-runs-fresh N` plays another number,
/// `--keep-runs` none (0).
pub static KEEP_RUNS_FRESH: AtomicU32 = AtomicU32::new(FRESH_RUNS as u32);
/// `--queue-confidence X`: the queue's confidence, in thousandths
/// (default [`BATCH_CONFIDENCE`]).
pub static QUEUE_PERMILLE: AtomicU32 = AtomicU32::new(0);

use arx::kernel::ratchet::{next_step, pooled_noise, Evidence, Rule as Ratchet, Seeds, Settings};
use arx::kernel::ratchet::{Decision, Step};
use arx::kernel::ratchet_replayed::{FRESH_RUNS, RUNS_CAP};
use arx::kernel::slot_offset::{self, CommitRuns};
use arx::kernel::stats::Direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::world::{normal, Kind, Scenario, World, BASELINE_RUNS, NIGHT};

/// Runs of the best on a class before a candidate there is compared with
/// it, when the offset to a class the best has runs on is not known.
pub const REMEASURE: usize = BASELINE_RUNS;
/// Ticks a dead machine's claim holds its change before it is taken over.
pub const LEASE: usize = 2;
/// Replicate groups (of two runs or more) the noise is pooled from: the
/// most recent ones, for speed (the estimate is settled long before).
const WINDOW: usize = 64;
/// Runs of one candidate at most, whatever the rule asks: arx's cap of a
/// replayed candidate's runs, carried and fresh (a candidate that was not
/// replayed is capped by the rule itself, long before).
const MAX_DRAWS: usize = RUNS_CAP;
/// `Batched`: the confidence a keep must reach to wait in the queue (the
/// default rule's is `DEFAULT_CONFIDENCE`), since it is not measured again
/// on its own. A candidate kept at the default confidence that cannot land
/// at once (its best moved, or a batch holds the best) is decided again
/// at this one: it runs on while the rule asks, and is discarded if it
/// falls short (replayed onto the best, as under `Fleet`, only if the cap
/// of runs leaves it undecided).
pub const BATCH_CONFIDENCE: f64 = arx::kernel::fleet::QUEUE_CONFIDENCE;
/// Changes in one batch at most.
pub const BATCH_MAX: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// arx's fleet: a keep is a compare-and-swap of one best; a loser
    /// replays onto the new best and is measured again (at once when the
    /// best moves under a candidate that leans better); a candidate is
    /// compared with the best as measured on its own class, or moved there
    /// by a known offset, else the best is measured on the class first.
    Fleet,
    /// As `Fleet` while the best stands still; but a keep that cannot land
    /// at once (its best moved, or a batch holds the best) joins a merge
    /// queue if it also wins at [`BATCH_CONFIDENCE`] (else it is
    /// discarded). The changes waiting, touching different places,
    /// are put on the best together and confirmed as one candidate, each
    /// machine of one class giving the batch its next run between two
    /// candidates, and land as one step. A batch that fails is split in
    /// two and each half confirmed; one change that fails is discarded.
    /// While a batch confirms it holds the best. Candidates are not
    /// replayed when the best moves under them.
    Batched,
    /// A hub: every child that measured better than its parent stays, no
    /// best pointer; a machine builds on the child with the best reported
    /// value (raw, whatever its class). Scored by the true value of that
    /// child at the end: the node any agent would build on next.
    Hub,
    /// Read-compare-write: a candidate is compared with the best as read
    /// when it decides (raw values, whatever class) and, if better,
    /// written as the best, built on the best it started from — a keep
    /// that landed in between is lost.
    ReadWrite,
    /// An orchestrator (machine 0) cherry-picks each worker's keep onto the
    /// best (merged on conflict, its effect intact) and verifies it on its
    /// own machine, one at a time; workers compare raw with the best's
    /// recorded runs.
    Orchestrator,
}

impl Rule {
    pub fn label(self) -> &'static str {
        match self {
            Rule::Fleet => "arx fleet: compare-and-swap, replay, like with like",
            Rule::Batched => "arx fleet, keeps batched (merge queue)",
            Rule::Hub => "hub: every child stays, no best pointer",
            Rule::ReadWrite => "read-compare-write, no swap",
            Rule::Orchestrator => "orchestrator cherry-picks and re-verifies",
        }
    }
}

/// What one night produced.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    /// True value of the best at the end (σ; the baseline is 0).
    pub gain: f64,
    /// Machine-ticks up (GPU time).
    pub gpu: f64,
    pub runs: f64,
    pub tried: f64,
    pub true_keeps: f64,
    pub false_keeps: f64,
    /// Improvements kept that are not in the final best's history.
    pub lost: f64,
    pub replays: f64,
    pub stale: f64,
    /// Runs thrown away: a candidate replayed or preempted, a dead
    /// machine's change.
    pub wasted: f64,
    pub remeasure: f64,
    /// Share of the night the best is held while a keep confirms.
    pub serial: f64,
    pub batches: f64,
    pub failed_batches: f64,
    pub failed_batch_runs: f64,
    /// Machine-ticks up, by what they went to ([`Use`]).
    pub by_use: [f64; USES],
}

/// What a machine-tick up went to (`--uses`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// The baseline's runs, on machine 0.
    Baseline,
    /// The best measured on a class before a candidate there.
    Remeasure,
    /// A candidate's runs that ended in a discard.
    Discarded,
    /// A candidate's runs that ended in a keep that landed (alone, or
    /// waiting in the queue).
    Kept,
    /// A keep's runs thrown away: its best moved before it could land.
    LostRace,
    /// A candidate's runs thrown away when the best moved under it while it
    /// leaned better.
    Moved,
    /// A replay dropped as stale (its place touched since), with its runs.
    Stale,
    /// A dead machine's runs in flight, or a candidate preempted.
    Dead,
    /// A batch's or the orchestrator's confirmation.
    Confirm,
    /// Up with nothing to run.
    Idle,
    /// A candidate's or a remeasure's runs still undecided at the end of
    /// the night.
    Unfinished,
}

pub const USES: usize = 11;

impl Use {
    pub const ALL: [Use; USES] = [
        Use::Baseline,
        Use::Remeasure,
        Use::Discarded,
        Use::Kept,
        Use::LostRace,
        Use::Moved,
        Use::Stale,
        Use::Dead,
        Use::Confirm,
        Use::Idle,
        Use::Unfinished,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Use::Baseline => "baseline",
            Use::Remeasure => "re-measuring the best on a class",
            Use::Discarded => "candidates discarded",
            Use::Kept => "candidates kept",
            Use::LostRace => "keeps replayed after a lost race",
            Use::Moved => "candidates replayed as the best moved",
            Use::Stale => "replays dropped as stale",
            Use::Dead => "dead or preempted",
            Use::Confirm => "confirming a batch or a keep",
            Use::Idle => "idle",
            Use::Unfinished => "undecided at the end",
        }
    }
}

struct Commit {
    value: f64,
    parent: usize,
    files: Vec<u8>,
    members: Vec<usize>,
    recorded: Vec<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Remeasure,
    Candidate,
    /// The orchestrator verifying a keep.
    Confirm,
}

struct Machine {
    class: usize,
    phase: Phase,
    change: usize,
    base: usize,
    value: f64,
    samples: Vec<f64>,
    since: usize,
    /// `--keep-runs`: a replayed candidate's runs, and the best they were
    /// measured on, held while the new best is measured on its class.
    carried: Option<(usize, Vec<f64>)>,
    /// `--keep-runs-fresh`: where the runs measured on this best start
    /// (after those carried over).
    fresh: usize,
}

/// A keep waiting for the merge queue or the orchestrator: its change, the
/// best it was decided against, when, and its record there.
#[derive(Debug, Clone)]
struct Queued {
    change: usize,
    base: usize,
    since: usize,
    record: Vec<f64>,
    class: usize,
}

/// A batch being confirmed: its changes on `base` (the best, held until
/// the batch lands or fails), worth `value`; its runs so far, all on
/// machines of class `class`.
struct Batch {
    members: Vec<Queued>,
    base: usize,
    value: f64,
    since: usize,
    class: usize,
    samples: Vec<f64>,
}

/// A commit's runs as they measure on a class (`None`: none can be moved
/// there), and whether it must be measured there first.
type ClassRef = (Option<Vec<f64>>, bool);

pub struct Sim<'w> {
    w: &'w World,
    sc: Scenario,
    rule: Rule,
    rng: ChaCha8Rng,
    settings: Settings,
    commits: Vec<Commit>,
    /// The commits' runs per class, as `slot_offset` takes them.
    runs: Vec<CommitRuns>,
    refs: HashMap<(usize, usize), ClassRef>,
    /// (commit, class) being measured on the class before candidates
    /// there, and the runs that remeasure takes
    /// (`slot_offset::remeasure_runs`).
    remeasuring: HashSet<(usize, usize)>,
    /// The runs each (commit, class) remeasure takes, once it started.
    remeasure_runs: HashMap<(usize, usize), usize>,
    groups: VecDeque<Vec<f64>>,
    best: usize,
    history: Vec<(usize, usize)>,
    next_change: usize,
    returned: VecDeque<(usize, usize)>,
    queue: VecDeque<Queued>,
    halves: VecDeque<Vec<Queued>>,
    batch: Option<Batch>,
    serial: Vec<(usize, usize)>,
    machines: Vec<Machine>,
    /// `--keep-runs` ([`KEEP_RUNS`]).
    keep_runs: bool,
    out: Outcome,
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Play one night of `world` under `rule`.
pub fn play(w: &World, sc: Scenario, rule: Rule, seed: u64) -> Outcome {
    let mut sim = Sim::new(w, sc, rule, seed);
    for t in 0..NIGHT {
        sim.tick(t);
    }
    sim.finish()
}

impl<'w> Sim<'w> {
    fn new(w: &'w World, sc: Scenario, rule: Rule, seed: u64) -> Sim<'w> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let settings = Settings::new(Direction::Min);
        let baseline: Vec<f64> = (0..BASELINE_RUNS)
            .map(|_| w.bias[0] + normal(&mut rng))
            .collect();
        let machines = (0..sc.machines)
            .map(|m| Machine {
                class: m % sc.classes(),
                phase: Phase::Idle,
                change: 0,
                base: 0,
                value: 0.0,
                samples: Vec::new(),
                since: 0,
                carried: None,
                fresh: 0,
            })
            .collect();
        Sim {
            w,
            sc,
            rule,
            rng,
            settings,
            commits: vec![Commit {
                value: 0.0,
                parent: 0,
                files: Vec::new(),
                members: Vec::new(),
                recorded: baseline.clone(),
            }],
            runs: vec![CommitRuns {
                commit: "0".into(),
                by_slot: BTreeMap::from([("0".to_string(), baseline.clone())]),
            }],
            refs: HashMap::new(),
            remeasuring: HashSet::new(),
            remeasure_runs: HashMap::new(),
            groups: VecDeque::from([baseline]),
            best: 0,
            history: vec![(0, 0)],
            next_change: 0,
            returned: VecDeque::new(),
            queue: VecDeque::new(),
            halves: VecDeque::new(),
            batch: None,
            serial: Vec::new(),
            machines,
            keep_runs: KEEP_RUNS.load(Ordering::Relaxed) && !CONFIRM.load(Ordering::Relaxed),
            out: Outcome {
                runs: BASELINE_RUNS as f64,
                ..Outcome::default()
            },
        }
    }

    fn orchestrated(&self) -> bool {
        self.rule == Rule::Orchestrator && self.machines.len() > 1
    }

    fn tick(&mut self, t: usize) {
        if self.rule == Rule::Batched {
            self.form_batch(t);
        }
        let n = self.machines.len();
        for k in 0..n {
            self.step((t + k) % n, t);
        }
    }

    fn step(&mut self, m: usize, t: usize) {
        if !self.w.up(m, t) {
            self.release(m, t);
            return;
        }
        self.out.gpu += 1.0;
        if m == 0 && t < BASELINE_RUNS {
            self.spent(Use::Baseline, 1);
            return;
        }
        if m == 0 && self.orchestrated() && !self.queue.is_empty() {
            if self.machines[0].phase != Phase::Confirm {
                self.preempt(0, t);
                self.machines[0].phase = Phase::Confirm;
                self.machines[0].since = t;
            }
            return self.verify(t);
        }
        if self.machines[m].phase == Phase::Idle && self.confirm(m, t) {
            return;
        }
        if self.machines[m].phase == Phase::Idle && !self.claim(m, t) {
            self.spent(Use::Idle, 1);
            return;
        }
        if self.rule == Rule::Fleet {
            self.replay_if_moved(m, t);
        }
        if self.machines[m].phase == Phase::Remeasure {
            self.remeasure(m);
        }
        if self.machines[m].phase == Phase::Candidate {
            self.candidate(m, t);
        }
    }

    /// The best a machine sees at `t` (the remote's, `delay` ticks late).
    fn visible(&self, t: usize) -> usize {
        self.history
            .iter()
            .rev()
            .find(|&&(at, _)| at + self.sc.delay <= t)
            .map_or(0, |&(_, c)| c)
    }

    fn measure(&mut self, value: f64, class: usize) -> f64 {
        self.out.runs += 1.0;
        -value + self.w.bias[class] + normal(&mut self.rng)
    }

    fn noise(&self) -> Option<f64> {
        let groups: Vec<&[f64]> = self.groups.iter().map(Vec::as_slice).collect();
        pooled_noise(&groups).map(|(sd, _)| sd)
    }

    fn push_group(&mut self, g: Vec<f64>) {
        if g.len() < 2 {
            return;
        }
        self.groups.push_back(g);
        if self.groups.len() > WINDOW {
            self.groups.pop_front();
        }
    }

    /// The best `base` as it measures on `class`, and whether it must be
    /// measured there first (`Fleet`, `Batched`).
    fn adaptive(&mut self, base: usize, class: usize) -> ClassRef {
        if let Some(hit) = self.refs.get(&(base, class)) {
            return hit.clone();
        }
        let sd = self.noise();
        let slot = class.to_string();
        let r = slot_offset::reference(&self.runs, &self.runs[base], &slot, sd).map(|r| r.samples);
        let need = slot_offset::needs_remeasure(&self.runs, &self.runs[base], &slot, sd);
        self.refs.insert((base, class), (r.clone(), need));
        (r, need)
    }

    fn runs_changed(&mut self) {
        self.refs.clear();
    }

    /// The runs a machine's candidate is compared with.
    fn reference(&mut self, m: usize, t: usize) -> Vec<f64> {
        let (base, class) = (self.machines[m].base, self.machines[m].class);
        match self.rule {
            Rule::Fleet | Rule::Batched => self
                .adaptive(base, class)
                .0
                .unwrap_or_else(|| self.commits[base].recorded.clone()),
            Rule::ReadWrite => self.commits[self.visible(t)].recorded.clone(),
            Rule::Hub | Rule::Orchestrator => self.commits[base].recorded.clone(),
        }
    }

    fn take_change(&mut self, t: usize) -> Option<usize> {
        if self.returned.front().is_some_and(|&(_, at)| at <= t) {
            return self.returned.pop_front().map(|(c, _)| c);
        }
        if self.next_change >= self.w.changes.len() {
            return None;
        }
        self.next_change += 1;
        Some(self.next_change - 1)
    }

    fn claim(&mut self, m: usize, t: usize) -> bool {
        let Some(change) = self.take_change(t) else {
            return false;
        };
        self.out.tried += 1.0;
        self.machines[m].change = change;
        let base = self.visible(t);
        self.rebase(m, base, t);
        true
    }

    /// Put machine `m`'s change on `base`, from nothing.
    fn rebase(&mut self, m: usize, base: usize, t: usize) {
        let effect = self.w.changes[self.machines[m].change].effect;
        let value = self.commits[base].value + effect;
        // The best must be measured on the class first: no runs there and no
        // offset known, or a remeasure another machine started (and has not
        // finished) there.
        let class = self.machines[m].class;
        let partial = self.remeasuring.contains(&(base, class));
        let need = matches!(self.rule, Rule::Fleet | Rule::Batched)
            && (self.adaptive(base, class).1 || partial);
        if need && !partial {
            let sd = self.noise();
            let runs = &self.runs;
            let n = if FULL_REMEASURE.load(Ordering::Relaxed) {
                REMEASURE
            } else {
                slot_offset::remeasure_runs(runs, &runs[base], &class.to_string(), sd, REMEASURE)
            };
            self.remeasuring.insert((base, class));
            self.remeasure_runs.insert((base, class), n);
        }
        let mac = &mut self.machines[m];
        mac.base = base;
        mac.value = value;
        mac.samples.clear();
        mac.carried = None;
        mac.fresh = 0;
        mac.since = t;
        mac.phase = if need {
            Phase::Remeasure
        } else {
            Phase::Candidate
        };
    }

    /// A machine that is down: its change waits out the lease, then goes
    /// back to the backlog; a batch it confirmed goes back to the queue.
    fn release(&mut self, m: usize, t: usize) {
        self.drop_carried(m);
        let n = self.machines[m].samples.len();
        self.spent(Use::Dead, n);
        let mac = &mut self.machines[m];
        self.out.wasted += mac.samples.len() as f64;
        mac.samples.clear();
        match mac.phase {
            Phase::Idle => {}
            Phase::Remeasure | Phase::Candidate => {
                self.returned.push_back((mac.change, t + LEASE));
            }
            // The orchestrator's keep stays first in its queue.
            Phase::Confirm => {}
        }
        mac.phase = Phase::Idle;
    }

    /// Take machine `m` off its candidate at once (its change back to the
    /// front of the backlog).
    fn preempt(&mut self, m: usize, t: usize) {
        self.drop_carried(m);
        let n = self.machines[m].samples.len();
        self.spent(Use::Dead, n);
        let mac = &mut self.machines[m];
        if matches!(mac.phase, Phase::Remeasure | Phase::Candidate) {
            self.out.wasted += mac.samples.len() as f64;
            self.returned.push_front((mac.change, t));
        }
        mac.samples.clear();
        mac.phase = Phase::Idle;
    }

    fn remeasure(&mut self, m: usize) {
        let (base, class) = (self.machines[m].base, self.machines[m].class);
        let slot = class.to_string();
        let have = self.runs[base].by_slot.get(&slot).map_or(0, Vec::len);
        let want = self
            .remeasure_runs
            .get(&(base, class))
            .copied()
            .unwrap_or(REMEASURE);
        if have >= want {
            self.remeasuring.remove(&(base, class));
            self.machines[m].phase = Phase::Candidate;
            self.restore_carried(m);
            return;
        }
        let x = self.measure(self.commits[base].value, class);
        self.out.remeasure += 1.0;
        self.spent(Use::Remeasure, 1);
        let runs = self.runs[base].by_slot.entry(slot).or_default();
        runs.push(x);
        if runs.len() >= want {
            let g = runs.clone();
            self.push_group(g);
            self.remeasuring.remove(&(base, class));
        }
        self.runs_changed();
    }

    /// Decide on `samples` against `reference`: `None` to run again.
    fn decide(&self, reference: &[f64], samples: &[f64]) -> Option<Option<Decision>> {
        self.decide_at(&self.settings, reference, samples)
    }

    fn decide_at(
        &self,
        settings: &Settings,
        reference: &[f64],
        samples: &[f64],
    ) -> Option<Option<Decision>> {
        if samples.len() >= MAX_DRAWS {
            return Some(None);
        }
        let replicates: Vec<&[f64]> = self.groups.iter().map(Vec::as_slice).collect();
        let evidence = Evidence {
            best: reference,
            candidate: samples,
            replicates: &replicates,
            segment_values: &[],
            seeds: Seeds::NONE,
            instances: None,
        };
        match next_step(ratchet_rule(), settings, &evidence) {
            Step::RunAgain => None,
            Step::Decide(d) => Some(Some(d)),
        }
    }

    fn candidate(&mut self, m: usize, t: usize) {
        let (value, class) = (self.machines[m].value, self.machines[m].class);
        let x = self.measure(value, class);
        self.machines[m].samples.push(x);
        let reference = self.reference(m, t);
        let Some(mut decision) = self.decide(&reference, &self.machines[m].samples) else {
            return;
        };
        let fresh = self.machines[m].fresh;
        let want = KEEP_RUNS_FRESH.load(Ordering::Relaxed) as usize;
        let samples = &self.machines[m].samples;
        if want > 0
            && fresh > 0
            && decision.as_ref().is_some_and(Decision::keep)
            && samples.len() < MAX_DRAWS
            && (samples.len() - fresh < want || mean(&samples[fresh..]) >= mean(&reference))
        {
            return;
        }
        // `Batched`: a keep that cannot land at once must win at the
        // queue's confidence.
        let queued = self.rule == Rule::Batched
            && (self.machines[m].base != self.best || self.batch.is_some());
        let mut strong = true;
        if queued && decision.as_ref().is_some_and(Decision::keep) {
            let mut strict = self.settings;
            strict.confidence = match QUEUE_PERMILLE.load(Ordering::Relaxed) {
                0 => BATCH_CONFIDENCE,
                p => f64::from(p) / 1000.0,
            };
            match self.decide_at(&strict, &reference, &self.machines[m].samples) {
                None => return,
                Some(d) => {
                    strong = d.as_ref().is_some_and(Decision::keep);
                    decision = d.or(decision);
                }
            }
        }
        let samples = std::mem::take(&mut self.machines[m].samples);
        self.push_group(samples.clone());
        self.machines[m].phase = Phase::Idle;
        if decision.as_ref().is_none_or(|d| !d.keep()) {
            self.spent(Use::Discarded, samples.len());
        }
        if let Some(d) = decision.filter(Decision::keep) {
            self.machines[m].samples = samples;
            if strong {
                self.kept(m, t, d.record_from);
            } else {
                self.replay(m, t, Use::LostRace);
            }
            if self.machines[m].phase == Phase::Idle {
                self.machines[m].samples.clear();
            }
        }
    }

    /// Does a replay of `change` from `base` onto the best conflict: a
    /// change landed since touched its file (or `base` is not behind the
    /// best).
    fn conflicts(&self, base: usize, change: usize) -> bool {
        let file = self.w.changes[change].file;
        let mut c = self.best;
        while c != base {
            if c == 0 || self.commits[c].files.contains(&file) {
                return true;
            }
            c = self.commits[c].parent;
        }
        false
    }

    /// Replay machine `m`'s candidate onto the best, or drop it as stale.
    fn replay(&mut self, m: usize, t: usize, fate: Use) {
        if self.carry_over(m, t) {
            return;
        }
        let mac = &self.machines[m];
        self.out.wasted += mac.samples.len() as f64;
        let (n, stale) = (mac.samples.len(), self.conflicts(mac.base, mac.change));
        self.spent(if stale { Use::Stale } else { fate }, n);
        if stale {
            self.out.stale += 1.0;
            self.machines[m].phase = Phase::Idle;
            self.machines[m].samples.clear();
            return;
        }
        self.out.replays += 1.0;
        self.rebase(m, self.best, t);
    }

    /// `--keep-runs`: replay machine `m`'s candidate onto the best with its
    /// runs, each moved by the difference of the two bests on its class
    /// (once the new best measures there), when the best did not touch its
    /// place. Returns whether it did.
    fn carry_over(&mut self, m: usize, t: usize) -> bool {
        let (base, class, change) = {
            let mac = &self.machines[m];
            (mac.base, mac.class, mac.change)
        };
        if !self.keep_runs || self.machines[m].samples.is_empty() || self.conflicts(base, change) {
            return false;
        }
        let old = self.adaptive(base, class);
        if old.0.is_none() || old.1 {
            return false;
        }
        let runs = std::mem::take(&mut self.machines[m].samples);
        self.out.replays += 1.0;
        self.rebase(m, self.best, t);
        self.machines[m].carried = Some((base, runs));
        if self.machines[m].phase == Phase::Candidate {
            self.restore_carried(m);
        }
        true
    }

    /// `--keep-runs`: the runs carried over, moved by the difference of the
    /// two bests on the machine's class, now that the new best measures
    /// there (thrown away if it still does not).
    fn restore_carried(&mut self, m: usize) {
        let Some((from, runs)) = self.machines[m].carried.take() else {
            return;
        };
        let (base, class) = (self.machines[m].base, self.machines[m].class);
        let (old, new) = (self.adaptive(from, class), self.adaptive(base, class));
        let (Some(old), Some(new)) = (old.0.filter(|_| !old.1), new.0.filter(|_| !new.1)) else {
            self.out.wasted += runs.len() as f64;
            self.spent(Use::Moved, runs.len());
            return;
        };
        if KEEP_RUNS_GUARDED.load(Ordering::Relaxed) && old.len() < new.len() {
            self.out.wasted += runs.len() as f64;
            self.spent(Use::Moved, runs.len());
            return;
        }
        let shift = mean(&new) - mean(&old);
        self.machines[m].samples = runs.iter().map(|x| x + shift).collect();
        self.machines[m].fresh = runs.len();
    }

    /// A machine that stops: the runs it carried over are thrown away.
    fn drop_carried(&mut self, m: usize) {
        if let Some((_, runs)) = self.machines[m].carried.take() {
            self.out.wasted += runs.len() as f64;
            self.spent(Use::Dead, runs.len());
        }
    }

    /// `Fleet`: the best moved under a candidate that leans better than its
    /// best: replay it now.
    fn replay_if_moved(&mut self, m: usize, t: usize) {
        let mac = &self.machines[m];
        if mac.phase != Phase::Candidate || mac.base == self.visible(t) {
            return;
        }
        let leans = mac.samples.is_empty() || {
            let s = mean(&self.machines[m].samples);
            s < mean(&self.reference(m, t))
        };
        if leans {
            self.replay(m, t, Use::Moved);
        }
    }

    /// Machine `m`'s candidate was kept against its base.
    fn kept(&mut self, m: usize, t: usize, from: usize) {
        if self.rule != Rule::Fleet || self.machines[m].base == self.best {
            self.spent(Use::Kept, self.machines[m].samples.len());
        }
        let mac = &self.machines[m];
        let (change, base, since) = (mac.change, mac.base, mac.since);
        // Its record: its runs on the best it landed on (as arx records
        // a replayed keep), not those it carried over.
        let record = mac.samples[from.max(mac.fresh)..].to_vec();
        let (value, class) = (mac.value, mac.class);
        match self.rule {
            Rule::Fleet if base == self.best => {
                self.land(vec![change], value, record, class, (since, t));
            }
            Rule::Fleet => {
                self.machines[m].phase = Phase::Candidate;
                self.replay(m, t, Use::LostRace);
            }
            Rule::Batched if base == self.best && self.batch.is_none() => {
                self.land(vec![change], value, record, class, (since, t));
            }
            Rule::Orchestrator if !self.orchestrated() => {
                self.land(vec![change], value, record, class, (since, t));
            }
            Rule::Batched | Rule::Orchestrator => self.queue.push_back(Queued {
                change,
                base,
                since: t,
                record,
                class,
            }),
            Rule::ReadWrite => {
                self.add(vec![change], value, base, record);
                self.moved(t);
            }
            Rule::Hub => {
                self.add(vec![change], value, base, record);
                let new = self.commits.len() - 1;
                if mean(&self.commits[new].recorded) < mean(&self.commits[self.best].recorded) {
                    self.best = new;
                    self.history.push((t, new));
                }
            }
        }
    }

    /// A new commit on `parent`, counted as kept.
    fn add(&mut self, members: Vec<usize>, value: f64, parent: usize, recorded: Vec<f64>) {
        for &c in &members {
            match self.w.changes[c].kind {
                Kind::Improvement => self.out.true_keeps += 1.0,
                _ => self.out.false_keeps += 1.0,
            }
        }
        let files = members.iter().map(|&c| self.w.changes[c].file).collect();
        self.commits.push(Commit {
            value,
            parent,
            files,
            members,
            recorded,
        });
    }

    fn moved(&mut self, t: usize) {
        self.best = self.commits.len() - 1;
        self.history.push((t, self.best));
    }

    /// Land `members` on the best as one commit (a compare-and-swap that
    /// succeeds: the caller checked the best).
    fn land(
        &mut self,
        members: Vec<usize>,
        value: f64,
        record: Vec<f64>,
        class: usize,
        held: (usize, usize),
    ) {
        self.add(members, value, self.best, record.clone());
        self.runs.push(CommitRuns {
            commit: (self.commits.len() - 1).to_string(),
            by_slot: BTreeMap::from([(class.to_string(), record)]),
        });
        self.runs_changed();
        self.moved(held.1);
        self.serial.push(held);
    }

    /// `Batched`: put the changes waiting on the best as one batch, to be
    /// confirmed on the machines of one class.
    fn form_batch(&mut self, t: usize) {
        if self.batch.is_some() {
            return;
        }
        let (members, half) = match self.halves.pop_front() {
            Some(h) => (h, true),
            None => (self.gather(), false),
        };
        if members.is_empty() {
            return;
        }
        let best = self.best;
        if !half && members.len() == 1 && members[0].base == best {
            // Decided against this very best (it waited only while a batch
            // that then failed held the best): it lands as decided.
            let q = members.into_iter().next().expect("one");
            let value = self.commits[best].value + self.w.changes[q.change].effect;
            self.land(vec![q.change], value, q.record, q.class, (q.since, t));
            return;
        }
        let Some(class) = self.batch_class(t) else {
            self.halves.push_front(members);
            return;
        };
        let mut value = self.commits[best].value;
        let effects: Vec<f64> = members
            .iter()
            .map(|q| self.w.changes[q.change].effect)
            .collect();
        value += effects.iter().sum::<f64>();
        if members.len() >= 2 && self.rng.random::<f64>() < self.sc.interact {
            value -= effects.iter().copied().fold(0.0, f64::max);
        }
        self.out.batches += 1.0;
        self.batch = Some(Batch {
            members,
            base: best,
            value,
            since: t,
            class,
            samples: Vec::new(),
        });
    }

    /// The changes waiting that can go on the best together: none conflicts
    /// with what landed since its base (those are stale), none touches
    /// another's file (those wait for the next batch).
    fn gather(&mut self) -> Vec<Queued> {
        let mut members: Vec<Queued> = Vec::new();
        let mut rest = VecDeque::new();
        while let Some(q) = self.queue.pop_front() {
            let file = self.w.changes[q.change].file;
            if self.conflicts(q.base, q.change) {
                self.out.stale += 1.0;
            } else if members.len() >= BATCH_MAX
                || members
                    .iter()
                    .any(|o| self.w.changes[o.change].file == file)
            {
                rest.push_back(q);
            } else {
                members.push(q);
            }
        }
        self.queue = rest;
        members
    }

    /// The class a batch's runs are moved onto: one the best needs no
    /// remeasure on, with the most machines up.
    fn batch_class(&mut self, t: usize) -> Option<usize> {
        let best = self.best;
        let mut up = vec![0usize; self.sc.classes()];
        for m in 0..self.machines.len() {
            if self.w.up(m, t) {
                up[self.machines[m].class] += 1;
            }
        }
        (0..up.len())
            .filter(|&c| up[c] > 0 && !self.adaptive(best, c).1)
            .max_by_key(|&c| (up[c], std::cmp::Reverse(c)))
    }

    /// `Batched`: a machine of the batch's class between candidates gives
    /// its run to the batch first. Returns whether it did.
    fn confirm(&mut self, m: usize, t: usize) -> bool {
        let Some(batch) = self.batch.as_ref() else {
            return false;
        };
        let (base, value, lead) = (batch.base, batch.value, batch.class);
        if self.machines[m].class != lead {
            return false;
        }
        let Some(reference) = self.adaptive(base, lead).0 else {
            return false;
        };
        let x = self.measure(value, lead);
        self.spent(Use::Confirm, 1);
        let batch = self.batch.as_mut().expect("a batch confirms");
        batch.samples.push(x);
        let samples = batch.samples.clone();
        let Some(decision) = self.decide(&reference, &samples) else {
            return true;
        };
        let batch = self.batch.take().expect("a batch confirms");
        self.push_group(samples.clone());
        match decision.filter(Decision::keep) {
            Some(d) => {
                let members = batch.members.iter().map(|q| q.change).collect();
                let record = samples[d.record_from..].to_vec();
                self.land(members, value, record, lead, (batch.since, t));
            }
            None => {
                self.out.failed_batches += 1.0;
                self.out.failed_batch_runs += samples.len() as f64;
                if batch.members.len() >= 2 {
                    let mut a = batch.members;
                    let b = a.split_off(a.len() / 2);
                    self.halves.push_front(b);
                    self.halves.push_front(a);
                }
            }
        }
        // The next batch forms at once.
        self.form_batch(t);
        true
    }

    /// The orchestrator: one run verifying the oldest keep waiting,
    /// cherry-picked onto the best.
    fn verify(&mut self, t: usize) {
        let change = self.queue.front().expect("a keep waits").change;
        let value = self.commits[self.best].value + self.w.changes[change].effect;
        let x = self.measure(value, 0);
        self.spent(Use::Confirm, 1);
        self.machines[0].samples.push(x);
        let reference = self.commits[self.best].recorded.clone();
        let Some(decision) = self.decide(&reference, &self.machines[0].samples) else {
            return;
        };
        self.queue.pop_front();
        let samples = std::mem::take(&mut self.machines[0].samples);
        self.push_group(samples.clone());
        self.machines[0].phase = Phase::Idle;
        if let Some(d) = decision.filter(Decision::keep) {
            let record = samples[d.record_from..].to_vec();
            let since = self.machines[0].since;
            self.land(vec![change], value, record, 0, (since, t));
        }
    }

    /// `n` machine-ticks went to `u`.
    fn spent(&mut self, u: Use, n: usize) {
        self.out.by_use[u as usize] += n as f64;
    }

    fn finish(mut self) -> Outcome {
        self.out.gain = self.commits[self.best].value;
        let accounted: f64 = self.out.by_use.iter().sum();
        self.out.by_use[Use::Unfinished as usize] += self.out.gpu - accounted;
        // Improvements kept that the final best does not hold.
        let mut line = vec![false; self.commits.len()];
        let mut c = self.best;
        while c != 0 {
            line[c] = true;
            c = self.commits[c].parent;
        }
        for (i, commit) in self.commits.iter().enumerate().skip(1) {
            if !line[i] {
                self.out.lost += commit
                    .members
                    .iter()
                    .filter(|&&c| self.w.changes[c].kind == Kind::Improvement)
                    .count() as f64;
            }
        }
        // The share of the night some keep held the best.
        self.serial.sort_unstable();
        let (mut held, mut end) = (0usize, 0usize);
        for &(from, to) in &self.serial {
            let from = from.max(end);
            let to = to + 1;
            if to > from {
                held += to - from;
                end = to;
            }
        }
        self.out.serial = held as f64 / NIGHT as f64;
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::world;

    fn scenario(machines: usize) -> Scenario {
        Scenario {
            machines,
            class_sd: 1.0,
            delay: 0,
            deaths: true,
            interact: 0.2,
            lanes: false,
        }
    }

    /// Play a night and hand back the simulation itself.
    fn night(w: &World, sc: Scenario, rule: Rule) -> Sim<'_> {
        let mut sim = Sim::new(w, sc, rule, 11);
        for t in 0..NIGHT {
            sim.tick(t);
        }
        sim
    }

    #[test]
    fn one_machine_never_batches_nor_replays() {
        let sc = scenario(1);
        let w = world(&sc, 3);
        let a = play(&w, sc, Rule::Fleet, 5);
        let b = play(&w, sc, Rule::Batched, 5);
        assert_eq!(a.gain, b.gain);
        assert_eq!(a.runs, b.runs);
        assert_eq!((b.batches, b.replays, b.stale), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_fleet_best_is_linear_and_keeps_every_landed_change() {
        for rule in [Rule::Fleet, Rule::Batched, Rule::Orchestrator] {
            let sc = scenario(16);
            let w = world(&sc, 4);
            let sim = night(&w, sc, rule);
            // Every best's parent is the best before it: no two keeps on
            // one parent, nothing overwritten.
            let bests: Vec<usize> = sim.history.iter().map(|&(_, c)| c).collect();
            assert!(bests.len() > 10, "{rule:?} kept {}", bests.len());
            for pair in bests.windows(2) {
                assert_eq!(sim.commits[pair[1]].parent, pair[0], "{rule:?}");
            }
            assert_eq!(sim.commits.len(), bests.len(), "{rule:?}");
            let out = sim.finish();
            assert_eq!(out.lost, 0.0, "{rule:?}");
        }
    }

    #[test]
    fn the_peers_lose_keeps_and_a_change_is_never_run_twice_at_once() {
        let sc = scenario(16);
        let w = world(&sc, 6);
        assert!(w.down.iter().any(|d| !d.is_empty()), "some machine dies");
        for rule in [Rule::Hub, Rule::ReadWrite] {
            assert!(play(&w, sc, rule, 2).lost > 0.0, "{rule:?}");
        }
        let mut sim = Sim::new(&w, sc, Rule::Batched, 11);
        for t in 0..NIGHT {
            sim.tick(t);
            let mut busy: Vec<usize> = sim
                .machines
                .iter()
                .filter(|m| matches!(m.phase, Phase::Remeasure | Phase::Candidate))
                .map(|m| m.change)
                .collect();
            let n = busy.len();
            busy.sort_unstable();
            busy.dedup();
            assert_eq!(busy.len(), n, "tick {t}");
        }
    }

    #[test]
    fn every_machine_tick_up_is_accounted_for_once() {
        let sc = scenario(16);
        let w = world(&sc, 8);
        for rule in [Rule::Fleet, Rule::Batched, Rule::Orchestrator, Rule::Hub] {
            let o = play(&w, sc, rule, 3);
            let total: f64 = o.by_use.iter().sum();
            assert_eq!(total, o.gpu, "{rule:?}: {:?}", o.by_use);
            assert!(
                o.by_use.iter().all(|&u| u >= 0.0),
                "{rule:?}: {:?}",
                o.by_use
            );
            // Most of the machine-time goes to candidates' runs, whatever
            // became of them (under the default rule one keep at a time at
            // 16 machines replays more than it decides).
            let candidates: f64 = [
                Use::Kept,
                Use::Discarded,
                Use::LostRace,
                Use::Moved,
                Use::Stale,
            ]
            .iter()
            .map(|&u| o.by_use[u as usize])
            .sum();
            assert!(candidates > 0.5 * o.gpu, "{rule:?}: {:?}", o.by_use);
        }
    }

    #[test]
    fn a_replay_that_keeps_its_runs_throws_few_away_and_the_best_stays_linear() {
        let sc = scenario(4);
        let w = world(&sc, 9);
        let mut plain = Sim::new(&w, sc, Rule::Fleet, 11);
        plain.keep_runs = false;
        for t in 0..NIGHT {
            plain.tick(t);
        }
        let plain = plain.finish();
        let mut sim = Sim::new(&w, sc, Rule::Fleet, 11);
        sim.keep_runs = true;
        for t in 0..NIGHT {
            sim.tick(t);
        }
        let bests: Vec<usize> = sim.history.iter().map(|&(_, c)| c).collect();
        for pair in bests.windows(2) {
            assert_eq!(sim.commits[pair[1]].parent, pair[0]);
        }
        let kept = sim.finish();
        assert!(kept.replays > 0.0 && plain.replays > 0.0);
        assert!(
            kept.by_use[Use::Moved as usize] < 0.5 * plain.by_use[Use::Moved as usize],
            "{:?} vs {:?}",
            kept.by_use,
            plain.by_use
        );
        let total: f64 = kept.by_use.iter().sum();
        assert_eq!(total, kept.gpu, "{:?}", kept.by_use);
    }

    #[test]
    fn lanes_of_one_machine_are_one_class_that_never_remeasures_and_die_together() {
        let sc = Scenario {
            lanes: true,
            class_sd: 0.0,
            ..scenario(4)
        };
        assert_eq!(sc.classes(), 1);
        // A seed where the machine dies in the night.
        let w = (0..200)
            .map(|k| world(&sc, k))
            .find(|w| !w.down[0].is_empty())
            .expect("some night the machine dies");
        assert_eq!(w.bias, vec![0.0]);
        assert!(w.down.iter().all(|d| *d == w.down[0]));
        let o = play(&w, sc, Rule::Fleet, 4);
        assert_eq!(o.remeasure, 0.0);
        assert!(o.replays > 0.0, "lanes replay as the best moves");
    }

    /// At 16 machines one keep at a time, its replays measured again from
    /// nothing, stops scaling: batching the keeps, or replays that carry
    /// their runs (arx's), each get far more.
    #[test]
    fn batching_or_carried_runs_beat_replays_from_nothing_at_sixteen_machines() {
        let sc = scenario(16);
        let (mut scratch, mut carried, mut batched) = (0.0, 0.0, 0.0);
        for k in 0..3 {
            let w = world(&sc, 20 + k);
            let mut sim = Sim::new(&w, sc, Rule::Fleet, k);
            sim.keep_runs = false;
            for t in 0..NIGHT {
                sim.tick(t);
            }
            scratch += sim.finish().gain;
            carried += play(&w, sc, Rule::Fleet, k).gain;
            batched += play(&w, sc, Rule::Batched, k).gain;
        }
        assert!(batched > 1.3 * scratch, "{batched} vs {scratch}");
        assert!(carried > 1.3 * scratch, "{carried} vs {scratch}");
    }
}
