//! The steps of `arx try` that change the working tree, the journal and
//! the best, in the order that loses nothing when arx dies between them:
//! setting the candidate aside to measure the best (and putting it back),
//! the discard sequence, and the keep, a compare-and-swap of the best in
//! lanes; the runs of a try ([`Runner`]), the best measured again on a
//! candidate's slot, and one candidate measured to its decision
//! (`candidate.rs`). Nothing here prints: what happened comes back as
//! values, progress goes to the front end's [`Host`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::error::Exit;
use crate::error::Hinted;
use crate::io::events::Events;
use crate::io::git::ratchet::{Candidate, RatchetRepo, Restored};
use crate::io::process::{RunOutcome, RunSpec, Sink};
use crate::io::ratchet::{Aside, KeepLock, Markers, Pending};
use crate::io::Warn;
use crate::kernel::journal::{GitState, RunRecord};
use crate::kernel::number::{decimals, num};
use crate::kernel::objective::Objective;
use crate::kernel::outcome::Judgement;
use crate::kernel::prune::Points;
use crate::kernel::ratchet::{estimate, pooled_noise, Rule};
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};
use crate::kernel::segment::{CheckResult, Measured, Segment};
use crate::kernel::stats::summarize;
use crate::ops::attempts::{self, AttemptEvent};
use crate::ops::lanes::LaneCtx;
use crate::ops::reactive::{Follow, LiveInfo, Reactive};

mod candidate;
pub use candidate::{replay_moved, stale, try_candidate, Carry, Done, Replayed, Tried};

/// Set the candidate aside under the aside ref (a marker first, so that
/// the next `arx try` puts it back if arx dies) and restore `kept`, to
/// measure the best; `what` names why in the snapshot's message.
pub fn set_aside(repo: &RatchetRepo, state: &Path, kept: &str, what: &str) -> Result<()> {
    let markers = Markers::of(state, repo.workdir());
    let refname = markers.aside_ref.clone();
    markers.write_aside(&Aside {
        refname: refname.clone(),
        head: repo.head(),
    })?;
    repo.snapshot(&refname, &format!("arx: set aside for {what}"))?;
    repo.restore_to(kept)?;
    Ok(())
}

/// Put the candidate [`set_aside`] set aside back, and forget the marker.
pub fn put_back(repo: &RatchetRepo, state: &Path) -> Result<()> {
    let markers = Markers::of(state, repo.workdir());
    repo.put_back(&markers.aside_ref)?;
    repo.delete_ref(&markers.aside_ref)?;
    markers.clear_aside()
}

/// Discard a candidate: a marker naming the record first (so a crash
/// loses nothing: the next command finishes the job), the record
/// journaled, the candidate stored under `refs/arx/discarded/<run id>`,
/// the kept commit restored, the marker cleared. Returns the record as
/// journaled (with its `discarded_ref`) and what the restore did.
pub fn discard(
    repo: &RatchetRepo,
    state: &Path,
    kept: &str,
    mut rec: RunRecord,
    warn: Warn,
) -> Result<(RunRecord, Restored)> {
    let refname = format!("refs/arx/discarded/{}", rec.run_id);
    if let Some(info) = rec.ratchet.as_mut() {
        info.discarded_ref = Some(refname.clone());
    }
    let markers = Markers::of(state, repo.workdir());
    markers.write_pending(&Pending {
        kept: kept.to_string(),
        discarded_ref: refname.clone(),
        record: rec.clone(),
    })?;
    crate::ops::journal::record_run(state, &rec, warn)?;
    let (_, restored) = repo.discard(kept, &refname, &format!("arx: discarded {}", rec.run_id))?;
    markers.clear_pending()?;
    Ok((rec, restored))
}

/// What a keep came to.
pub enum Keep {
    /// Committed as `commit`; the keep lock is held until the record is
    /// journaled. `notes` for the report, `warning` for stderr.
    Kept {
        commit: String,
        lock: KeepLock,
        notes: Vec<String>,
        warning: Option<String>,
    },
    /// Another lane kept first: the best is now `best`.
    Moved { best: String },
}

/// Keep the candidate as one commit on `kept`. In a lane this is a
/// compare-and-swap of the best, under the repository's keep lock (`held`
/// when the try already holds it): the journal's best must still be
/// `kept`; then the keep commit advances the best's branch from `kept`,
/// and the main working tree on that branch follows it (around changes
/// of its own).
#[allow(clippy::too_many_arguments)]
pub fn keep(
    repo: &RatchetRepo,
    state: &Path,
    lane: Option<&LaneCtx>,
    segment: &str,
    kept: &str,
    candidate: &Candidate,
    message: &str,
    held: Option<KeepLock>,
    warn: Warn,
) -> Result<Keep> {
    let lock = match held {
        Some(lock) => lock,
        None => crate::io::ratchet::lock_keep(state)?,
    };
    let Some(l) = lane else {
        let commit = repo.keep_candidate(candidate, message)?;
        return Ok(Keep::Kept {
            commit,
            lock,
            notes: Vec::new(),
            warning: None,
        });
    };
    let now_best = crate::ops::lanes::segment_best(state, Some(segment), warn)?;
    if now_best.as_deref() != Some(kept) {
        let Some(best) = now_best else {
            return Err(anyhow::anyhow!(
                "the journal no longer has a best for this segment"
            ));
        };
        return Ok(Keep::Moved { best });
    }
    let main = l.main_tree(state, kept);
    let commit = repo.keep_onto(candidate, kept, message)?;
    if !repo.advance_branch(&l.best_ref, kept, &commit)? {
        return Err(Hinted::error(
            format!(
                "{} is no longer at the best {}: it was moved outside arx",
                l.best_ref.trim_start_matches("refs/heads/"),
                short(kept)
            ),
            format!(
                "the keep is on the lane's branch ({}); put the best's branch back, then arx lane sync",
                short(&commit)
            ),
        ));
    }
    let (mut notes, mut warning) = (Vec::new(), None);
    match main.as_ref().map(|m| (m, m.changed.as_deref())) {
        Some((m, Some(_))) => match l.follow_in_main(state, m, &commit, &candidate.paths) {
            Ok(both) if both.is_empty() => {}
            Ok(both) => notes.push(format!(
                "the main working tree has changes of its own in {}, which the keep changed too: \
                 left as they were (its branch is at {})",
                both.join(", "),
                short(&commit)
            )),
            Err(e) => {
                warning = Some(format!(
                    "the main working tree did not follow the keep: {e:#}"
                ))
            }
        },
        Some((_, None)) => notes.push(format!(
            "the main working tree is not at the best: its branch moved to {} under it",
            short(&commit)
        )),
        None => {}
    }
    Ok(Keep::Kept {
        commit,
        lock,
        notes,
        warning,
    })
}

/// A commit id as people read it.
pub fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// A run id as people read it.
pub fn run_short(run_id: &str) -> &str {
    run_id
        .get(..crate::kernel::journal::SHORT_ID_LEN)
        .unwrap_or(run_id)
}

/// One line for a commit message: no line breaks (which could forge
/// trailer lines), trimmed.
pub fn subject(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The honest estimate of a measured commit: the mean of its samples and
/// its interval, with the segment's pooled noise.
#[derive(Debug, Clone, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub n: usize,
    /// The segment's noise (pooled sd of one run), when it has replicates.
    pub noise: Option<f64>,
}

pub fn estimate_of(m: &Measured, seg: &Segment, confidence: f64) -> Option<Estimate> {
    let groups: Vec<&[f64]> = seg.replicates.iter().map(Vec::as_slice).collect();
    let noise = pooled_noise(&groups);
    let (value, interval) = estimate(&m.samples, noise, confidence)?;
    Some(Estimate {
        value,
        interval: (m.samples.len() > 1 || noise.is_some()).then_some(interval),
        n: m.samples.len(),
        noise: noise.map(|(sd, _)| sd),
    })
}

/// Add the finding a try's record makes to the findings store, and tell
/// it; a failure is a warning (the try itself stands).
pub fn finding(runner: &Runner<'_>, state: &Path, rec: &RunRecord) {
    let outcome = runner
        .start()
        .and_then(|now| crate::ops::finding::record_result(state, rec, now, runner.warn));
    match outcome {
        Ok(Some(line)) => runner.host.finding(&line),
        Ok(None) => {}
        Err(e) => runner
            .host
            .warn(&format!("the finding of this run was not recorded: {e:#}")),
    }
}

/// Run the checks in order, stopping at the first that fails.
pub fn run_checks(runner: &Runner<'_>, checks: &[String]) -> Result<Vec<CheckResult>> {
    let mut results = Vec::new();
    for check in checks {
        runner.host.say(&format!("check: {check}"));
        let spec = RunSpec {
            argv: vec![check.clone()],
            shell: true,
            stop_after_result: None,
            stdout_to: if runner.quiet {
                Sink::Discard
            } else {
                Sink::Stderr
            },
            ..runner.spec.clone()
        };
        let o = attempts::run_placed(&spec, &runner.interrupt)?;
        results.push(CheckResult {
            command: check.clone(),
            exit_code: o.exit_code,
            duration_ms: o.duration.as_millis() as u64,
        });
        if o.exit_code != 0 || o.interrupted {
            break;
        }
    }
    Ok(results)
}

/// Where a try's progress goes: the front end shows it (a spinner, lines
/// for people); the steps here only tell.
pub trait Host {
    /// A run starts, under `label`.
    fn running(&self, label: &str);
    /// A run ended.
    fn ran(&self);
    /// Progress stops for now (a line is about to be told, or the runs
    /// are over).
    fn pause(&self);
    /// A line of progress for people.
    fn say(&self, line: &str);
    /// A warning.
    fn warn(&self, line: &str);
    /// What a try's record added to the findings store.
    fn finding(&self, line: &str);
}

/// The settings of the runs of one try.
pub struct Runner<'a> {
    pub objective: &'a Objective,
    pub spec: RunSpec,
    pub interrupt: Arc<AtomicBool>,
    /// The tree the runs see (read once from the candidate: a second
    /// status scan of a large tree is not free).
    pub git: GitState,
    /// The progress followed and the pruning rule.
    pub follow: Follow,
    /// Where arx runs (recorded with each run).
    pub cwd: PathBuf,
    /// `--now`: the time records start at.
    pub now: Option<String>,
    /// `--events`: where run events go.
    pub events: Option<String>,
    pub host: &'a dyn Host,
    /// Where warnings of the state files go.
    pub warn: Warn,
    /// The try's description (`-m`).
    pub description: Option<String>,
    /// `--quiet`: the checks' output goes nowhere.
    pub quiet: bool,
    /// `--new-segment`: the baseline starts a segment.
    pub new_segment: bool,
}

impl<'a> Runner<'a> {
    /// This runner, for runs of the commit `kept` (the candidate set aside).
    pub fn at(&self, kept: &str) -> Runner<'a> {
        Runner {
            git: GitState {
                head: Some(kept.to_string()),
                dirty: false,
                ..self.git.clone()
            },
            spec: self.spec.clone(),
            interrupt: self.interrupt.clone(),
            follow: self.follow.clone(),
            cwd: self.cwd.clone(),
            now: self.now.clone(),
            events: self.events.clone(),
            description: self.description.clone(),
            ..*self
        }
    }

    /// Start following the runs of a new record (`kind`: `try`).
    pub fn reactive(
        &self,
        state: &Path,
        run_id: &str,
        start: jiff::Timestamp,
        peers: Vec<Points>,
    ) -> Result<Reactive> {
        Ok(Reactive::start(
            state,
            LiveInfo {
                run_id,
                kind: "try",
                command: &self.spec.argv,
                shell: self.spec.shell,
                cwd: &self.cwd,
                start,
                heartbeat: self.spec.heartbeat,
            },
            Some(self.follow.clone()),
            peers,
            self.warn,
        ))
    }

    /// One run of the experiment, with live events, its live file,
    /// progress curve and pruning.
    pub fn once(
        &self,
        events: &mut Events,
        label: &str,
        reactive: &mut Reactive,
    ) -> Result<RunOutcome> {
        self.host.running(label);
        let (mut outcomes, _) = attempts::run_attempts_reacting(
            &self.spec,
            1,
            &self.interrupt,
            reactive,
            label,
            |e| {
                if let AttemptEvent::Run { event, elapsed } = e {
                    events.emit_run(event, elapsed, &self.spec.argv, label);
                }
            },
        )?;
        let outcome = outcomes.remove(0);
        if outcome.output_held {
            self.host.warn(attempts::OUTPUT_HELD);
        }
        if let Some(msg) = &outcome.spawn_error {
            self.host.warn(&format!("cannot run the experiment: {msg}"));
        }
        self.host.ran();
        Ok(outcome)
    }

    /// The metric of a run that succeeded; `None` for a crash.
    pub fn sample(&self, o: &RunOutcome) -> Option<f64> {
        if o.effective_exit_code() != 0 {
            return None;
        }
        o.metrics
            .get(&self.objective.metric)
            .filter(|x| x.is_finite())
    }

    /// When a record starts: `--now`, else the clock.
    pub fn start(&self) -> Result<jiff::Timestamp> {
        crate::io::clock::timestamp(self.now.as_deref())
    }
}

/// The ratchet part of a record, before the outcome is known.
pub fn info(
    objective: &Objective,
    status: TryStatus,
    kept: &str,
    rule: Rule,
    description: Option<String>,
) -> RatchetInfo {
    RatchetInfo {
        segment: objective.segment_id(),
        new_segment: false,
        status,
        description,
        metric: objective.metric.clone(),
        direction: objective.direction,
        rule: rule.name().to_string(),
        kept: kept.to_string(),
        commit: None,
        discarded_ref: None,
        paths: Vec::new(),
        protected: Vec::new(),
        best: None,
        improvement: None,
        noise: None,
        blind: false,
        record_from: 0,
        confirmed: true,
        checks: Vec::new(),
        lane: None,
        replayed_from: Vec::new(),
        slot_best: None,
    }
}

/// The journal record of the runs of one try.
pub fn record(
    runner: &Runner<'_>,
    run_id: String,
    start: jiff::Timestamp,
    elapsed: Duration,
    outcomes: &[RunOutcome],
    samples: Vec<f64>,
    info: RatchetInfo,
) -> Result<RunRecord> {
    let summary = if samples.len() > 1 {
        summarize(&samples)
    } else {
        None
    };
    Ok(RunRecord::builder(
        attempts::origin(
            run_id,
            start,
            elapsed,
            &runner.cwd,
            Some(runner.git.clone()),
        ),
        runner.spec.argv.clone(),
        runner.spec.shell,
        outcomes,
        outcomes.len() > 1,
    )
    .judgement(Judgement {
        samples: if samples.len() > 1 {
            samples
        } else {
            Vec::new()
        },
        summary,
        ..Judgement::default()
    })
    .ratchet(info)
    .build())
}

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
}

impl BestRuns {
    /// `n` runs (labelled by `label` of 1..=n), stopping at a Ctrl-C;
    /// with `slot`, every one waits for that slot.
    fn run(
        runner: &Runner<'_>,
        state: &Path,
        n: u32,
        slot: Option<usize>,
        label: impl Fn(u32) -> String,
    ) -> Result<BestRuns> {
        let run_id = attempts::new_run_id();
        let start = runner.start()?;
        let mut events = Events::open(runner.events.as_deref(), &run_id, start)?;
        let mut reactive = runner.reactive(state, &run_id, start, Vec::new())?;
        reactive.without_pruning();
        if let Some(index) = slot {
            reactive.slot_index = Some(index);
            reactive.slot_only = true;
        }
        let wall = std::time::Instant::now();
        let (mut outcomes, mut samples) = (Vec::new(), Vec::new());
        for i in 1..=n {
            let o = runner.once(&mut events, &label(i), &mut reactive)?;
            let interrupted = o.interrupted;
            samples.extend(runner.sample(&o));
            outcomes.push(o);
            if interrupted {
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
        })
    }

    fn interrupted(&self) -> bool {
        self.outcomes.iter().any(|o| o.interrupted)
    }

    /// Journal the runs as one record with `info`, with their progress.
    fn journal(
        mut self,
        runner: &Runner<'_>,
        state: &Path,
        info: RatchetInfo,
    ) -> Result<RunRecord> {
        let status = info.status;
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
#[allow(clippy::too_many_arguments)]
pub fn baseline(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    records: &[RunRecord],
    kept: &str,
    candidate: &Candidate,
    rule: Rule,
) -> Result<Baselined> {
    let objective = runner.objective;
    let aside = candidate.dirty;
    if aside {
        set_aside(repo, state, kept, "the baseline")?;
        runner
            .host
            .say("set the working tree's changes aside to measure the baseline");
    }
    let runner = &runner.at(kept);
    let n = objective.baseline_repeat;
    let runs = BestRuns::run(runner, state, n, None, |i| format!("baseline {i}/{n}"))?;
    let (interrupted, samples) = (runs.interrupted(), runs.samples.clone());
    let status = if interrupted {
        TryStatus::Interrupted
    } else if samples.is_empty() {
        TryStatus::Crash
    } else {
        TryStatus::Baseline
    };
    let mut i = info(objective, status, kept, rule, Some("baseline".into()));
    i.new_segment = runner.new_segment;
    i.commit = Some(kept.to_string());
    let rec = runs.journal(runner, state, i)?;
    if aside {
        put_back(repo, state)?;
    }
    let line = match status {
        TryStatus::Baseline => {
            let s = summarize(&samples);
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
            "crash: the baseline reported no {} (exit code {})",
            objective.metric, rec.exit_code
        ),
    };
    let exit = match status {
        TryStatus::Baseline => Exit::Ok,
        _ => Exit::Inconclusive,
    };
    let done = |record: RunRecord| Done {
        exit,
        record,
        notes: Vec::new(),
        line: line.clone(),
        interrupted,
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

/// The best run again on a candidate's slot.
pub struct Remeasured {
    /// Each run's slot and value.
    pub runs: Vec<(String, f64)>,
    pub interrupted: bool,
}

/// Measure the best (`kept`) again on the slot `slot` (index `index`) —
/// the slot a candidate runs on, where the best has no runs and its offset
/// from the slots it has runs on is not known well enough — with the
/// candidate set aside, and journal it as `remeasure` (not a try).
#[allow(clippy::too_many_arguments)]
pub fn remeasure(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &Path,
    kept: &str,
    candidate: &Candidate,
    rule: Rule,
    lane: Option<&str>,
    (index, slot): (usize, &str),
) -> Result<Remeasured> {
    let objective = runner.objective;
    let n = objective.baseline_repeat.max(1);
    runner.host.say(&format!(
        "the best {} has no runs on slot {slot} that the candidate can be compared with: \
         measuring it there ({n} run{}) with the candidate set aside",
        short(kept),
        if n == 1 { "" } else { "s" }
    ));
    let aside = !candidate.is_empty();
    if aside {
        set_aside(repo, state, kept, "measuring the best on another slot")?;
    }
    let runner = &runner.at(kept);
    let runs = BestRuns::run(runner, state, n, Some(index), |i| {
        format!("the best on slot {slot} {i}/{n}")
    })?;
    let interrupted = runs.interrupted();
    let samples = runs.samples.clone();
    let slotted: Vec<(String, f64)> = runs
        .outcomes
        .iter()
        .filter_map(|o| Some((o.slot.clone()?, runner.sample(o)?)))
        .collect();
    let mut i = info(
        objective,
        TryStatus::Remeasure,
        kept,
        rule,
        Some(format!("the best on slot {slot}")),
    );
    i.commit = Some(kept.to_string());
    i.lane = lane.map(str::to_string);
    runs.journal(runner, state, i)?;
    if aside {
        put_back(repo, state)?;
    }
    match summarize(&samples) {
        Some(sm) => runner.host.say(&format!(
            "the best {} on slot {slot}: {} {} (n={})",
            short(kept),
            objective.metric,
            num(sm.mean, decimals((sm.n > 1).then_some(sm.sd), sm.mean)),
            sm.n
        )),
        None if !interrupted => runner.host.warn(&format!(
            "the best {} reported no {} on slot {slot}: the candidate is compared with it as recorded",
            short(kept),
            objective.metric
        )),
        None => {}
    }
    Ok(Remeasured {
        runs: slotted,
        interrupted,
    })
}
