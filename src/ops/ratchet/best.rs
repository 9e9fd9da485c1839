//! Runs of the best with the candidate set aside: the segment's baseline,
//! and the best measured again on a candidate's slot.

use std::path::Path;

use anyhow::Result;

use super::candidate::{Against, TryEnv};
use super::{info, instance_runs, put_back, record, set_aside, short, Done, Runner};
use crate::error::Exit;
use crate::io::events::Events;
use crate::io::git::ratchet::Candidate;
use crate::io::process::RunOutcome;
use crate::kernel::cost::Cost;
use crate::kernel::instances::Scores;
use crate::kernel::journal::RunRecord;
use crate::kernel::number::{decimals, num};
use crate::kernel::objective::Objective;
use crate::kernel::paired;
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};
use crate::kernel::segment::Segment;
use crate::kernel::slot_offset;
use crate::kernel::stats::summarize;
use crate::ops::attempts;
use crate::ops::reactive::Reactive;

/// Runs of the best, checked out with the candidate set aside (a
/// baseline, or the best measured again on a slot): never pruned, since
/// they are what candidates are compared with.
struct BestRuns {
    run_id: String,
    start: jiff::Timestamp,
    wall: std::time::Instant,
    events: Events,
    reactive: Reactive,
    outcomes: Vec<RunOutcome>,
    samples: Vec<f64>,
    /// Each sample's per-instance scores (see [`Runner::instances`]).
    instances: Vec<Option<Scores>>,
}

impl BestRuns {
    /// `n` runs (labelled by `label` of 1..=n), stopping at a Ctrl-C;
    /// with `slot`, every one waits for that slot. Under paired seeds, the
    /// runs take the seeds of the best's recorded runs `best_seeds` in
    /// order (a baseline passes none: the segment's sequence).
    fn run(
        runner: &Runner<'_>,
        state: &Path,
        (n, slot): (u32, Option<usize>),
        best_seeds: &[Option<u64>],
        (label, first_ran): (impl Fn(u32) -> String, impl Fn(&RunOutcome)),
    ) -> Result<BestRuns> {
        let run_id = attempts::new_run_id();
        let start = runner.start()?;
        let wall = std::time::Instant::now();
        let mut events = Events::open(runner.events.as_deref(), &run_id, start)?;
        let mut reactive = runner.reactive(state, &run_id, start, wall, Vec::new())?;
        reactive.without_pruning();
        if let Some(index) = slot {
            reactive.slot_index = Some(index);
            reactive.slot_only = true;
        }
        let segment = runner.objective.segment_id();
        let mut used = Vec::new();
        let (mut outcomes, mut samples, mut instances) = (Vec::new(), Vec::new(), Vec::new());
        for i in 1..=n {
            let seed = runner
                .objective
                .paired_seeds
                .then(|| paired::next_seed(&segment, best_seeds, &used));
            used.extend(seed);
            let o = runner.once(&mut events, &label(i), &mut reactive, seed)?;
            let interrupted = o.interrupted;
            if i == 1 && !interrupted {
                first_ran(&o);
            }
            let sample = runner.sample(&o);
            // A run that ended well without the metric, as the first:
            // the next ones would not print it either. After runs that
            // printed it (a NaN, a line cut short), it failed as a crash
            // does: told, left out, and the runs go on.
            let no_metric = sample.is_none() && o.effective_exit_code() == 0;
            let gave_up = no_metric && samples.is_empty();
            if no_metric && !gave_up {
                runner.host.warn(&format!(
                    "run {i} of {n} gave no number for {}, which the runs before it printed: \
                     left out as a failed run, and the measurement goes on",
                    runner.objective.metric
                ));
            }
            if sample.is_some() {
                instances.push(runner.instances(&o));
            }
            samples.extend(sample);
            outcomes.push(o);
            if interrupted || gave_up {
                break;
            }
        }
        runner.host.pause();
        Ok(BestRuns {
            run_id,
            start,
            wall,
            events,
            reactive,
            outcomes,
            samples,
            instances,
        })
    }

    /// The tail of the last run's output.
    fn output_tail(&self) -> String {
        self.outcomes
            .last()
            .map(|o| o.stdout_tail.clone())
            .unwrap_or_default()
    }

    fn interrupted(&self) -> bool {
        self.outcomes.iter().any(|o| o.interrupted)
    }

    /// Journal the runs as one record with `info`, with their progress.
    fn journal(
        mut self,
        runner: &Runner<'_>,
        state: &Path,
        mut info: RatchetInfo,
    ) -> Result<RunRecord> {
        let status = info.status;
        info.instances = instance_runs(&self.instances);
        let elapsed = self.wall.elapsed();
        let mut rec = record(
            runner,
            self.run_id,
            self.start,
            elapsed,
            &self.outcomes,
            self.samples,
            info,
        )?;
        rec.progress = self
            .reactive
            .progress()
            .filter(|p| p.curves.iter().any(|c| !c.is_empty()));
        self.events.emit(
            "finished",
            elapsed,
            serde_json::json!({"status": status, "metrics": rec.metrics}),
        );
        crate::ops::journal::record_run(state, &rec, runner.warn)?;
        Ok(rec)
    }
}

/// A segment's first measurement, as [`baseline`] made it.
pub struct Baselined {
    /// What to tell when the try ends with the baseline: it failed, or
    /// there is no candidate to try after it.
    pub done: Option<Done>,
    /// The segment with its baseline, when it was measured.
    pub segment: Option<Segment>,
}

/// Measure the kept commit `baseline_repeat` times, with any candidate in
/// the tree set aside meanwhile.
pub fn baseline(
    env: &TryEnv<'_, '_>,
    records: &[RunRecord],
    kept: &str,
    candidate: &Candidate,
) -> Result<Baselined> {
    let (repo, state) = (env.repo, env.state);
    let objective = env.runner.objective;
    let aside = candidate.dirty;
    if aside {
        set_aside(repo, state, kept, "the baseline")?;
        env.runner
            .host
            .say("set the working tree's changes aside to measure the baseline");
    }
    // With nothing set aside, what the runs write is seen against the
    // tree before them: outputs, never part of a candidate.
    let before = match aside {
        false => {
            let before = repo.measure_snapshot("arx: before the baseline")?;
            super::measuring(repo, state, &before, true)?;
            Some(before)
        }
        true => None,
    };
    // The declared inputs the best is measured on.
    let inputs = repo.hash_inputs(&objective.inputs)?;
    // What `protect` guards that git ignores, as the best is measured on.
    super::protected_ignored(repo, state, &objective.protect, true)?;
    let runner = &env.runner.at(kept);
    let runs = baseline_runs(runner, env.rule, state, records, candidate)?;
    if let Some(before) = before {
        let since = repo.changed_since(&before)?;
        let mut written = since.written;
        written.extend(since.edited);
        written.sort();
        if !written.is_empty() {
            super::record_outputs(repo, state, &written)?;
            runner.host.warn(&format!(
                "the baseline's runs wrote {}: outputs, not part of a candidate while they hold \
                 what was written; git-ignore them",
                written.join(", ")
            ));
        }
        super::measured(repo, state)?;
    }
    let (interrupted, samples) = (runs.interrupted(), runs.samples.clone());
    let tail = runs.output_tail();
    let status = if interrupted {
        TryStatus::Interrupted
    } else if samples.is_empty() {
        TryStatus::Crash
    } else {
        TryStatus::Baseline
    };
    let mut i = info(objective, status, kept, env.rule, Some("baseline".into()));
    i.inputs = inputs;
    i.new_segment = runner.new_segment;
    i.commit = Some(kept.to_string());
    // Measured in a lane: the lane's record, as its tries are.
    i.lane = env.lane.map(|l| l.name.clone());
    if status == TryStatus::Baseline {
        unguarded(runner, &runs.outcomes);
    }
    let rec = runs.journal(runner, state, i)?;
    if status == TryStatus::Baseline {
        super::holdout::at_baseline(runner, state, repo, kept, &rec.run_id)?;
    }
    if aside {
        outputs_undone(runner, put_back(repo, state, kept)?);
    }
    let line = baseline_line(objective, status, &samples, kept, &rec, &tail);
    let done = |record: RunRecord| Done {
        exit: match status {
            TryStatus::Baseline => Exit::Ok,
            _ => Exit::Inconclusive,
        },
        record,
        notes: Vec::new(),
        line: line.clone(),
        interrupted,
        inconclusive: false,
    };
    if status != TryStatus::Baseline {
        return Ok(Baselined {
            done: Some(done(rec)),
            segment: None,
        });
    }
    let mut all = records.to_vec();
    all.push(rec.clone());
    let segment = crate::kernel::segment::current(&all, &objective.segment_id());
    if candidate.is_empty() {
        return Ok(Baselined {
            done: Some(done(rec)),
            segment,
        });
    }
    runner.host.say(&line);
    Ok(Baselined {
        done: None,
        segment,
    })
}

/// The baseline's `baseline_repeat` runs, their cost said up front: from
/// the segment's record when it has runs (a baseline tried before), else
/// once the first run has ended.
fn baseline_runs(
    runner: &Runner<'_>,
    rule: crate::kernel::ratchet::Rule,
    state: &Path,
    records: &[RunRecord],
    candidate: &Candidate,
) -> Result<BestRuns> {
    let objective = runner.objective;
    let n = objective.baseline_repeat;
    let cost = |run_ms| {
        Cost::of(objective, rule, true, Some(run_ms))
            .lines()
            .join("; ")
    };
    let known =
        crate::kernel::segment::current(records, &objective.segment_id()).and_then(|s| s.run_ms());
    if let Some(ms) = known {
        runner.host.note(&cost(ms));
    }
    let told = |o: &RunOutcome| {
        if known.is_none() && (n > 1 || !candidate.is_empty()) {
            runner.host.note(&cost(o.duration.as_millis() as u64));
        }
    };
    let label = |i| format!("baseline {i}/{n}");
    BestRuns::run(runner, state, (n, None), &[], (label, told))
}

/// Warn of each guard whose metric no run of the baseline printed: every
/// candidate will be set aside by it until the experiment prints it.
fn unguarded(runner: &Runner<'_>, outcomes: &[RunOutcome]) {
    for g in &runner.objective.guards {
        if !outcomes.iter().any(|o| o.metrics.get(&g.metric).is_some()) {
            let again = if g.bound.relative() {
                " and the baseline is measured again (`arx try --new-segment`)"
            } else {
                ""
            };
            runner.host.warn(&format!(
                "the baseline printed no {}: the guard `{}` sets aside every candidate until the experiment prints it{again}",
                g.metric, g.text
            ));
        }
    }
}

/// What a baseline came to, as people read it.
fn baseline_line(
    objective: &Objective,
    status: TryStatus,
    samples: &[f64],
    kept: &str,
    rec: &RunRecord,
    output_tail: &str,
) -> String {
    match status {
        TryStatus::Baseline => {
            let s = summarize(samples);
            let mean = s.as_ref().map_or(samples[0], |s| s.mean);
            let sd = s.as_ref().filter(|s| s.n > 1).map(|s| s.sd);
            let d = decimals(sd, mean);
            let spread = sd.map_or(String::new(), |sd| format!(" \u{b1} {} sd", num(sd, d)));
            format!(
                "baseline: {} {}{spread} (n={}) at {}",
                objective.metric,
                num(mean, d),
                samples.len(),
                short(kept)
            )
        }
        TryStatus::Interrupted => "interrupted: the baseline was interrupted".to_string(),
        _ => format!(
            "crash: the baseline reported no {} (exit code {}){}{}",
            objective.metric,
            rec.exit_code,
            crate::kernel::objective::unreported_note(
                &objective.format,
                &objective.metric,
                rec.metrics.iter().map(|(k, _)| k)
            ),
            crate::kernel::objective::other_format_note(
                &objective.format,
                !rec.metrics.is_empty(),
                &objective.metric,
                output_tail
            )
        ),
    }
}

/// The best run again on a candidate's slot.
pub struct Remeasured {
    /// Each run's slot and value.
    pub runs: Vec<(String, f64)>,
    /// Each run's seed, under paired seeds.
    pub seeds: Vec<Option<u64>>,
    pub interrupted: bool,
}

/// Measure the best (`kept`) again on the slot `slot` (index `index`) —
/// the slot a candidate runs on, where the best has no runs and its offset
/// from the slots it has runs on is not known well enough — `n` times
/// (`SlotCompare::remeasure_runs`), with the candidate set aside, and
/// journal it as `remeasure` (not a try).
pub fn remeasure(
    env: &TryEnv<'_, '_>,
    at: &Against,
    (index, slot): (usize, &str),
    n: u32,
) -> Result<Remeasured> {
    let (runner, repo, state, kept) = (env.runner, env.repo, env.state, at.kept.as_str());
    let objective = runner.objective;
    let n = n.max(1);
    // In a fleet the frame is this machine's class (and slot).
    let on = match &runner.class {
        Some(_) => format!("class {}", crate::kernel::text::shown(slot)),
        None => format!("slot {slot}"),
    };
    runner.host.say(&format!(
        "the best {} has no runs on {on} that the candidate can be compared with: \
         measuring it there ({n} run{}) with the candidate set aside",
        short(kept),
        if n == 1 { "" } else { "s" }
    ));
    let aside = !at.candidate.is_empty();
    if aside {
        set_aside(repo, state, kept, "measuring the best on another slot")?;
    }
    let runner = &runner.at(kept);
    let best_seeds = at.segment.kept.as_ref().map_or(&[][..], |k| &k.seeds[..]);
    let label = |i| format!("the best on {on} {i}/{n}");
    let runs = BestRuns::run(
        runner,
        state,
        (n, Some(index)),
        best_seeds,
        (label, |_: &RunOutcome| {}),
    )?;
    let interrupted = runs.interrupted();
    let samples = runs.samples.clone();
    let slotted: Vec<(String, f64, Option<u64>)> = runs
        .outcomes
        .iter()
        .filter_map(|o| {
            let frame = slot_offset::frame(runner.class.as_deref(), o.slot.as_deref());
            Some((frame?, runner.sample(o)?, o.seed))
        })
        .collect();
    let mut i = info(
        objective,
        TryStatus::Remeasure,
        kept,
        env.rule,
        Some(format!("the best on {on}")),
    );
    i.commit = Some(kept.to_string());
    i.lane = env.lane.map(|l| l.name.clone());
    runs.journal(runner, state, i)?;
    if aside {
        outputs_undone(runner, put_back(repo, state, kept)?);
    }
    tell_remeasured(runner, kept, &on, &samples, interrupted);
    Ok(Remeasured {
        seeds: slotted.iter().map(|(_, _, s)| *s).collect(),
        runs: slotted.into_iter().map(|(s, x, _)| (s, x)).collect(),
        interrupted,
    })
}

/// Tell the best's value measured again on `on` (a slot, or a class), or
/// that its runs reported none.
fn tell_remeasured(runner: &Runner<'_>, kept: &str, on: &str, samples: &[f64], interrupted: bool) {
    let metric = &runner.objective.metric;
    match summarize(samples) {
        Some(sm) => runner.host.say(&format!(
            "the best {} on {on}: {metric} {} (n={})",
            short(kept),
            num(sm.mean, decimals((sm.n > 1).then_some(sm.sd), sm.mean)),
            sm.n
        )),
        None if !interrupted => runner.host.warn(&format!(
            "the best {} reported no {metric} on {on}: {}",
            short(kept),
            match runner.class {
                // Never with another class's values: no decision.
                Some(_) => "the candidate has nothing to be compared with here",
                None => "the candidate is compared with it as recorded",
            }
        )),
        None => {}
    }
}

/// Tell what the runs of the best wrote in the working tree, undone before
/// the candidate set aside came back.
fn outputs_undone(runner: &Runner<'_>, paths: Vec<String>) {
    if paths.is_empty() {
        return;
    }
    runner.host.warn(&format!(
        "the runs of the best wrote {}: undone before the candidate was put back \
         (outputs are not part of a candidate; git-ignore them, or write them outside the repository)",
        paths.join(", ")
    ));
}
