//! A candidate's runs until the rule decides: one run at a time, the best
//! measured again on the candidate's slot when its offset there is not
//! known well enough (remeasure), and — in a lane or on a fleet's
//! machine, while the candidate leads — a stop as soon as another lane or
//! machine moves the best.

use std::time::Duration;

use anyhow::Result;

use super::candidate::{Against, Try, TryEnv};
use super::{remeasure, short};
use crate::io::events::Events;
use crate::kernel::instances::{self, InstanceEvidence, Scores};
use crate::kernel::paired::{self, Seeds};
use crate::kernel::prune::Progress;
use crate::kernel::ratchet::{self, Decision, Evidence, Settings, Step};
use crate::kernel::ratchet_replayed as replayed;
use crate::ops::reactive::Reactive;
use crate::ops::slot_compare::SlotCompare;

/// A candidate's runs, measured.
pub(super) struct Runs<'s> {
    pub events: Events,
    pub reactive: Reactive,
    pub samples: Vec<f64>,
    /// The seed of each of `samples` (paired seeds).
    pub seeds: Vec<Option<u64>>,
    /// Each sample's per-instance scores, when the objective asks for them
    /// and the run's result had them.
    pub instances: Vec<Option<Scores>>,
    /// The comparison with the best on the candidate's slot.
    pub slots: SlotCompare<'s>,
    /// The runs carried from earlier bests (a replayed try): each one's
    /// difference from the best it was measured on, weighed before
    /// `samples` (see `kernel::ratchet_replayed`).
    pub carried: Vec<f64>,
    /// `None`: the runs stopped (a crash, a Ctrl-C, pruned).
    pub decision: Option<Decision>,
    /// From the try's start to the end of its runs.
    pub elapsed: Duration,
    /// The runs' progress curves, when they reported any.
    pub progress: Option<Progress>,
    /// The candidate's files that changed between its runs (an edit that
    /// landed after the snapshot): the runs stopped, since the next one
    /// would not measure what the first ones did.
    pub edited: Vec<String>,
}

/// What measuring a candidate came to (once per measurement: its size
/// does not matter).
#[allow(clippy::large_enum_variant)]
pub(super) enum Measuring<'s> {
    /// The runs ended: decided, or stopped.
    Ran(Runs<'s>),
    /// The candidate leads and another lane kept meanwhile: the best is
    /// now this one.
    Moved(String),
}

impl Runs<'_> {
    /// This measurement's runs as they are carried to a newer best (when
    /// the try carries its runs, `replay::carries`): the best they were
    /// measured on, and each one's difference from it as compared.
    pub fn carry(&self, env: &TryEnv<'_, '_>, at: &Against) -> Vec<(String, f64)> {
        if !super::replay::carries(env) {
            return Vec::new();
        }
        let best = at.segment.kept.as_ref().expect("a kept commit");
        let (reference, values) = self.slots.compare(best, &self.samples);
        replayed::effects(&values, &reference)
            .into_iter()
            .map(|e| (at.kept.clone(), e))
            .collect()
    }

    /// The carried runs as the decision weighs them on the best it is
    /// decided against (`reference`): none when it has no runs.
    pub fn carried_on(&self, reference: &[f64]) -> Vec<f64> {
        if reference.is_empty() {
            return Vec::new();
        }
        replayed::moved(&self.carried, reference)
    }

    /// What the rule weighs against `reference`: a replayed try's carried
    /// runs first, then `fresh` (its own runs on this best, as compared),
    /// with their seeds; and how many were carried.
    fn weighed(&self, reference: &[f64], fresh: &[f64]) -> (Vec<f64>, Vec<Option<u64>>, usize) {
        let mut values = self.carried_on(reference);
        let carried = values.len();
        values.extend(fresh);
        let seeds = std::iter::repeat_n(None, carried)
            .chain(self.seeds.iter().copied())
            .collect();
        (values, seeds, carried)
    }

    /// A Ctrl-C stopped a run of the candidate or of the best.
    pub fn interrupted(&self, t: &Try) -> bool {
        t.outcomes.iter().any(|o| o.interrupted)
            || self.slots.interrupted
            || !self.edited.is_empty()
    }
}

/// Run the candidate until the rule decides or a run stops it.
pub(super) fn measure<'s>(
    env: &TryEnv<'_, '_>,
    at: &'s Against,
    t: &mut Try,
) -> Result<Measuring<'s>> {
    let runner = env.runner;
    // With two slots or more, the candidate is compared with the best as
    // it measures on the candidate's slot (see `kernel::slot_offset`).
    let slot_count = runner
        .spec
        .place
        .as_ref()
        .map_or(0, |p| p.placement.slots.len());
    let mut runs = Runs {
        events: Events::open(runner.events.as_deref(), &t.run_id, t.start)?,
        reactive: runner.reactive(env.state, &t.run_id, t.start, t.wall, at.peers.clone())?,
        samples: Vec::new(),
        seeds: Vec::new(),
        instances: Vec::new(),
        slots: SlotCompare::new(slot_count, runner.class.is_some(), &at.segment),
        carried: t.carried.iter().map(|(_, e)| *e).collect(),
        decision: None,
        elapsed: Duration::ZERO,
        progress: None,
        edited: Vec::new(),
    };
    runs.decision = loop {
        if !run_once(env, at, t, &mut runs)? || !remeasure_when_needed(env, at, &mut runs)? {
            break None;
        }
        match next_step(env, at, &runs) {
            (Step::Decide(d), _) => break Some(d),
            (Step::RunAgain, leads) => {
                if let Some(best) = best_moved(env, at, t, leads)? {
                    let n = runs.samples.len();
                    t.carried.extend(runs.carry(env, at));
                    drop(runs);
                    runner.host.say(&format!(
                        "the candidate leads after {n} run{} and the best moved: no decision against {}",
                        if n == 1 { "" } else { "s" },
                        short(&at.kept)
                    ));
                    return Ok(Measuring::Moved(best));
                }
            }
        }
    };
    runner.host.pause();
    // Instance scores that cannot be paired are the experiment's mistake:
    // said as a warning, beside the inconclusive line.
    if let Some(d) = runs
        .decision
        .as_ref()
        .filter(|d| d.per_instance.is_some_and(|p| p.common == 0))
    {
        runner
            .host
            .warn(d.detail.trim_start_matches("inconclusive: "));
    }
    runs.elapsed = t.wall.elapsed();
    runs.progress = runs
        .reactive
        .progress()
        .filter(|p| p.curves.iter().any(|c| !c.is_empty()));
    Ok(Measuring::Ran(runs))
}

/// One run of the candidate; false when it gave no sample to decide on
/// (pruned, interrupted, a crash).
fn run_once(env: &TryEnv<'_, '_>, at: &Against, t: &mut Try, runs: &mut Runs<'_>) -> Result<bool> {
    let n = t.outcomes.len() - t.first + 1;
    // Every run measures the snapshot: an edit of the candidate's files
    // since it was taken stops the runs (the try says so).
    if let (true, Some(m)) = (n > 1, &t.measured) {
        runs.edited = env.repo.changed_since(m)?.edited;
        if !runs.edited.is_empty() {
            return Ok(false);
        }
    }
    let label = if t.first > 0 {
        format!("candidate run {n} on the new best")
    } else {
        format!("candidate run {n}")
    };
    let seed = env.runner.objective.paired_seeds.then(|| {
        // The seeds of this try's runs against this best so far.
        let used: Vec<u64> = t.outcomes[t.first..]
            .iter()
            .filter_map(|o| o.seed)
            .collect();
        // The best's seeds in this try's own order (its recorded runs'
        // shuffled by the try's place in the segment), so tries do not all
        // see the same seeds first; the same journal gives the same order.
        let key = format!("{}/{}/{}", at.segment.id, at.kept, at.segment.tries);
        let best = at
            .segment
            .kept
            .as_ref()
            .map(|k| paired::try_order(&k.pair_seeds(), k.samples.len(), &key));
        paired::next_seed(&at.segment.id, best.as_deref().unwrap_or_default(), &used)
    });
    let o = env
        .runner
        .once(&mut runs.events, &label, &mut runs.reactive, seed)?;
    let interrupted = o.interrupted;
    if o.pruned {
        t.outcomes.push(o);
        return Ok(false);
    }
    let sample = env.runner.sample(&o);
    let slot = crate::kernel::slot_offset::frame(env.runner.class.as_deref(), o.slot.as_deref());
    let scores = env.runner.instances(&o);
    t.outcomes.push(o);
    let Some(x) = sample.filter(|_| !interrupted) else {
        return Ok(false);
    };
    runs.samples.push(x);
    runs.seeds.push(seed);
    runs.instances.push(scores);
    runs.slots.ran(slot);
    Ok(true)
}

/// Remeasure: the best measured again on the candidate's slot, when the
/// comparison needs it; false when a Ctrl-C stopped it.
fn remeasure_when_needed(env: &TryEnv<'_, '_>, at: &Against, runs: &mut Runs<'_>) -> Result<bool> {
    let n = env.runner.objective.baseline_repeat.max(1);
    let n = runs.slots.remeasure_runs(&at.kept, n);
    if n == 0 {
        return Ok(true);
    }
    let index = runs.reactive.slot_index.unwrap_or_default();
    let frame = runs.slots.frame.clone().unwrap_or_default();
    let again = remeasure(env, at, (index, &frame), n)?;
    runs.slots.remeasured(&at.kept, again.runs, &again.seeds);
    if again.interrupted {
        runs.slots.interrupted = true;
        return Ok(false);
    }
    Ok(true)
}

/// What the rule says on the runs so far, and whether the candidate leans
/// better than the best.
fn next_step(env: &TryEnv<'_, '_>, at: &Against, runs: &Runs<'_>) -> (Step, bool) {
    next_step_at(env, at, runs, env.runner.objective.confidence)
}

/// Whether the runs so far keep the candidate at `confidence` (a keep
/// that waits in the fleet's merge queue must win at a higher one).
pub(super) fn keeps_at(
    env: &TryEnv<'_, '_>,
    at: &Against,
    runs: &Runs<'_>,
    confidence: f64,
) -> bool {
    matches!(next_step_at(env, at, runs, confidence).0, Step::Decide(d) if d.keep())
}

fn next_step_at(
    env: &TryEnv<'_, '_>,
    at: &Against,
    runs: &Runs<'_>,
    confidence: f64,
) -> (Step, bool) {
    let objective = env.runner.objective;
    let settings = Settings {
        direction: objective.direction,
        min_effect: objective.min_effect,
        confidence,
        repeat: objective.repeat,
        max_runs: objective.repeat.max(ratchet::DEFAULT_MAX_RUNS),
    };
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let (reference, fresh) = runs.slots.compare(best, &runs.samples);
    let (candidate_values, seeds, carried) = runs.weighed(&reference, &fresh);
    // The candidate's own runs are a replicate group too (the very slice
    // the decision is given, so that it counts once).
    let mut replicates = runs.slots.groups();
    if candidate_values.len() > 1 {
        replicates.push(&candidate_values);
    }
    let (paired_best, best_seeds) = runs.slots.paired_best(best);
    let history: Vec<&[f64]> = at.segment.pair_groups.iter().map(Vec::as_slice).collect();
    let best_scores: Vec<Scores> = match &best.instances {
        Some(i) if objective.instances.is_some() => i.scores().into_iter().flatten().collect(),
        _ => Vec::new(),
    };
    let best_scores: Vec<&Scores> = best_scores.iter().collect();
    let candidate_scores: Option<Vec<&Scores>> =
        runs.instances.iter().map(Option::as_ref).collect();
    // The baseline's repeated runs show whether a run scores instances
    // alike (a suite at temperature 0) or a run carries an effect of its own.
    let baseline_scores: Vec<Scores> = match &at.segment.baseline {
        Some(b) if objective.instances.is_some() => b
            .instances
            .as_ref()
            .map(|i| i.scores().into_iter().flatten().collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let baseline_scores: Vec<&Scores> = baseline_scores.iter().collect();
    let evidence = Evidence {
        best: &reference,
        candidate: &candidate_values,
        replicates: &replicates,
        segment_values: &at.segment.values,
        seeds: Seeds {
            best: &paired_best,
            best_seeds: &best_seeds,
            candidate: &seeds,
            history: &history,
        },
        instances: candidate_scores
            .as_deref()
            .filter(|_| !best_scores.is_empty())
            .map(|candidate| InstanceEvidence {
                best: &best_scores,
                candidate,
                runs_vary: instances::runs_differ(&baseline_scores),
            }),
    };
    let step = ratchet::next_step(env.rule, &settings, &evidence);
    let fresh = replayed::Fresh {
        carried,
        fresh: &fresh,
        reference: &reference,
        direction: settings.direction,
    };
    let step = replayed::fresh_step(step, &fresh);
    let leads = matches!(step, Step::RunAgain)
        && ratchet::leans_better(&candidate_values, &reference, settings.direction);
    (step, leads)
}

/// Another lane, or another machine of the fleet, kept while this
/// candidate, leaning better than its best, is still being measured: the
/// new best, to replay it onto now rather than finish measuring it against
/// a best that is gone (a winner would have to win twice, and its keep's
/// push would lose the race). Not while it holds the best reserved.
fn best_moved(env: &TryEnv<'_, '_>, at: &Against, t: &Try, leads: bool) -> Result<Option<String>> {
    if t.held.is_some() || !leads {
        return Ok(None);
    }
    if env.lane.is_none() && !env.fleet.is_some_and(|f| fleet_took_in(f, env.runner.warn)) {
        return Ok(None);
    }
    let now = crate::ops::lanes::segment_best(env.state, Some(&at.segment.id), env.runner.warn)?;
    Ok(now.filter(|b| *b != at.kept))
}

/// A machine of a fleet (its main working tree, not a lane): the other
/// machines' records fetched and merged in now (a keep comes in with its
/// record: the journal's best is the fleet's). Not when keeps are batched
/// (a keep that cannot land waits in the merge queue instead), nor with
/// the remote unreachable (the try goes on against the best it has; an
/// error merging is warned of, and the try goes on too).
fn fleet_took_in(f: &crate::ops::fleet::Fleet, warn: crate::io::Warn) -> bool {
    if f.batch.is_some() {
        return false;
    }
    match f.take_in() {
        Ok(fetched) => fetched.is_ok(),
        Err(e) => {
            warn(&format!(
                "cannot take the fleet's records in between runs: {e:#}"
            ));
            false
        }
    }
}
