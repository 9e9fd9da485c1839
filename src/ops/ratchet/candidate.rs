//! One candidate measured against the best until the rule decides, as a
//! sequence of named steps: snapshot (the working tree as it is measured,
//! which is what a keep commits and a discard undoes), screen (protected
//! paths), measure (the best
//! measured again on the candidate's slot when needed), then — once the
//! rule says keep — the guards, the checks and the held-out check, then
//! one end — interrupted, pruned, crash, discard, guard, checks failed,
//! holdout, or keep (a compare-and-swap of the best in lanes) — or, when another lane kept
//! meanwhile, handed back to be replayed onto the new best. The try's
//! state is one value, [`Try`], passed from step to step; what to tell
//! comes back as a [`Done`]; nothing here prints.

use std::path::Path;

use anyhow::Result;

use super::end::{self, Done};
use super::guard;
use super::holdout::{self, Checked};
use super::measure::{self, Measuring, Runs};
use super::replay::{Carry, Tried};
use super::{estimate_of, info, record, subject, Runner};
use crate::io::git::ratchet::{Candidate, Measured, RatchetRepo};
use crate::io::process::RunOutcome;
use crate::io::ratchet::KeepLock;
use crate::kernel::journal::RunRecord;
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::prune::Points;
use crate::kernel::ratchet::Rule;
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};
use crate::kernel::segment::Segment;
use crate::kernel::verdict::Verdict;
use crate::ops::attempts;
use crate::ops::lanes::LaneCtx;

/// What stays the same through a try: the runs' settings, the repository
/// and the state directory, the rule, and the lane the try runs in.
pub struct TryEnv<'t, 'a> {
    pub runner: &'t Runner<'a>,
    pub repo: &'t RatchetRepo,
    pub state: &'t Path,
    pub rule: Rule,
    pub lane: Option<&'t LaneCtx>,
    /// The fleet this working tree belongs to (`[fleet]`).
    pub fleet: Option<&'t crate::ops::fleet::Fleet>,
}

/// What one candidate is measured against: the segment and its best
/// (`kept`), the candidate with the protected paths it changes, and the
/// peers of the pruning rule (the segment's completed runs).
pub struct Against {
    pub segment: Segment,
    pub kept: String,
    pub candidate: Candidate,
    pub protected: Vec<String>,
    pub peers: Vec<Points>,
    /// The hash of the declared inputs the best was measured on, when it
    /// was recorded.
    pub best_inputs: Option<String>,
    /// The fleet's batch this try leads: its candidate is the batch.
    pub batch: Option<super::batch::Lead>,
}

/// One try as it goes, passed from step to step: its id and clocks, its
/// runs so far (some measured against an earlier best, when replayed), the
/// keep lock when it holds the best reserved, and the ratchet part of its
/// record.
pub(super) struct Try {
    pub run_id: String,
    pub start: jiff::Timestamp,
    pub wall: std::time::Instant,
    pub outcomes: Vec<RunOutcome>,
    /// How many of `outcomes` were measured against an earlier best.
    pub first: usize,
    /// Those runs carried as evidence (see `replay::carries`): the best
    /// each was measured on and its difference from it.
    pub carried: Vec<(String, f64)>,
    pub held: Option<KeepLock>,
    pub info: RatchetInfo,
    /// The snapshot of the working tree the candidate is measured as
    /// (taken when its measurement starts): what a keep commits and a
    /// discard undoes.
    pub measured: Option<Measured>,
}

/// Measure a candidate to its decision, and keep or discard it — or hand
/// it back when another lane kept first.
pub fn try_candidate(env: &TryEnv<'_, '_>, at: &Against, carry: Option<Carry>) -> Result<Tried> {
    let mut t = Try::begin(env, at, carry)?;
    snapshot(env, at, &mut t)?;
    if !at.protected.is_empty() {
        return end::protected(env, at, t).map(Tried::done);
    }
    let mut runs = match measure::measure(env, at, &mut t)? {
        Measuring::Moved(best) => return Ok(t.moved(&at.kept, best)),
        Measuring::Ran(runs) => runs,
    };
    runs_ended(env, &t)?;
    if runs.interrupted(&t) {
        return end::interrupted(env, t, runs).map(Tried::done);
    }
    if let Some(p) = runs.reactive.pruned.clone() {
        return end::pruned(env, at, t, runs, p).map(Tried::done);
    }
    let Some(d) = runs.decision.take() else {
        return end::crash(env, at, t, runs).map(Tried::done);
    };
    let change = end::describe(env, at, &mut t, &runs, &d);
    if d.verdict != Verdict::Supported && at.batch.is_some() {
        // A batch that fails is no verdict on this candidate alone: it
        // is measured again alone (`batch::settle`).
        return Ok(t.moved(&at.kept, at.kept.clone()));
    }
    if d.verdict != Verdict::Supported {
        return end::discarded(env, at, t, runs, &d, &change).map(Tried::done);
    }
    if let Some(breach) = guard::guards(env, at, &t, runs.slots.frame.as_deref())? {
        t.info.guard = Some(breach);
        return end::guarded(env, at, t, runs, &change).map(Tried::done);
    }
    if let Some(failed) = end::checks(env, &mut t)? {
        return end::checks_failed(env, at, t, runs, &failed, &change).map(Tried::done);
    }
    match holdout::check(env, at, &mut t)? {
        Some(Checked::Interrupted) => return end::interrupted(env, t, runs).map(Tried::done),
        Some(Checked::NotPassed(v)) => {
            return end::held_out(env, at, t, runs, v, &change).map(Tried::done)
        }
        Some(Checked::Passed) | None => {}
    }
    end::keep(env, at, t, runs, &d, &change)
}

/// The candidate's runs are over: what they wrote outside it is recorded
/// as outputs at once and the measuring marker goes, so that a kill at a
/// later step never takes new work for what they wrote.
fn runs_ended(env: &TryEnv<'_, '_>, t: &Try) -> Result<()> {
    if let Some(m) = &t.measured {
        let since = env.repo.changed_since(m)?;
        super::record_outputs(env.repo, env.state, &since.written)?;
    }
    super::measured(env.repo, env.state)
}

/// Snapshot: the working tree as the candidate is measured, taken before
/// its first run (an edit made while it runs is not part of it), and the
/// declared inputs it is measured on, which must be the best's: a
/// candidate measured on other inputs is not compared (exit 2, nothing
/// journaled, nothing changed).
fn snapshot(env: &TryEnv<'_, '_>, at: &Against, t: &mut Try) -> Result<()> {
    let inputs = &env.runner.objective.inputs;
    t.info.inputs = env.repo.hash_inputs(inputs)?;
    if let (Some(best), Some(now)) = (&at.best_inputs, &t.info.inputs) {
        if best != now {
            return Err(crate::error::Hinted::error(
                format!(
                    "the declared inputs ({}) differ from the ones the best {} was measured on: \
                     the candidate cannot be compared with it; nothing was run or changed",
                    inputs.join(", "),
                    super::short(&at.kept)
                ),
                "put the inputs back as they were, or measure a new baseline on these inputs \
                 (arx try --new-segment)",
            ));
        }
    }
    let message = format!("arx: measured {}", t.run_id);
    let measured = env.repo.measure_snapshot(&message)?;
    super::measuring(env.repo, env.state, &measured, false)?;
    t.measured = Some(measured);
    Ok(())
}

impl Try {
    /// A new try, or the try `carry` measured again on a newer best.
    fn begin(env: &TryEnv<'_, '_>, at: &Against, carry: Option<Carry>) -> Result<Try> {
        let runner = env.runner;
        let c = match carry {
            Some(c) => c,
            None => Carry {
                run_id: attempts::new_run_id(),
                start: runner.start()?,
                wall: std::time::Instant::now(),
                outcomes: Vec::new(),
                replayed_from: Vec::new(),
                carried: Vec::new(),
                held: None,
            },
        };
        let best = at.segment.kept.as_ref().expect("a kept commit");
        let description = runner.description.as_deref().map(subject);
        let mut i = info(
            runner.objective,
            TryStatus::Discard,
            &at.kept,
            env.rule,
            description,
        );
        i.paths = at.candidate.paths.clone();
        i.best = estimate_of(best, &at.segment, INTERVAL_CONFIDENCE).map(|e| e.value);
        i.lane = env.lane.map(|l| l.name.clone());
        i.replayed_from = c.replayed_from;
        Ok(Try {
            run_id: c.run_id,
            start: c.start,
            wall: c.wall,
            first: c.outcomes.len(),
            outcomes: c.outcomes,
            carried: c.carried,
            held: c.held,
            info: i,
            measured: None,
        })
    }

    /// The try, measured against `kept`, handed back to be replayed onto
    /// `best`.
    pub(super) fn moved(self, kept: &str, best: String) -> Tried {
        let carry = Carry::after(
            self.run_id,
            self.start,
            self.wall,
            self.outcomes,
            (self.info.replayed_from, self.carried),
            kept,
        );
        Tried::Moved { carry, best }
    }

    /// [`Try::moved`] once `runs` against `at`'s best stopped: they are
    /// carried on (when the try carries its runs, `replay::carries`).
    pub(super) fn moved_with(
        mut self,
        runs: Runs<'_>,
        env: &TryEnv<'_, '_>,
        at: &Against,
        best: String,
    ) -> Tried {
        self.carried.extend(runs.carry(env, at));
        self.moved(&at.kept, best)
    }

    /// The try's record as it stands, with `status`; with its runs'
    /// samples and progress when it was measured.
    pub(super) fn record(
        &mut self,
        runner: &Runner<'_>,
        status: TryStatus,
        runs: Option<&Runs<'_>>,
    ) -> Result<RunRecord> {
        self.info.status = status;
        self.info.instances = runs.and_then(|r| super::instance_runs(&r.instances));
        let (elapsed, samples) = match runs {
            Some(r) => (r.elapsed, r.samples.clone()),
            None => (self.wall.elapsed(), Vec::new()),
        };
        let mut rec = record(
            runner,
            self.run_id.clone(),
            self.start,
            elapsed,
            &self.outcomes,
            samples,
            self.info.clone(),
        )?;
        if let Some(r) = runs {
            rec.progress = r.progress.clone();
        }
        Ok(rec)
    }

    /// [`Try::record`] of the try's runs, told to `--events` as
    /// `finished` with its status.
    pub(super) fn finish(
        &mut self,
        runner: &Runner<'_>,
        status: TryStatus,
        runs: &mut Runs<'_>,
    ) -> Result<RunRecord> {
        let rec = self.record(runner, status, Some(runs))?;
        runs.events.emit(
            "finished",
            runs.elapsed,
            serde_json::json!({"status": status.as_str()}),
        );
        Ok(rec)
    }
}

impl Tried {
    pub(super) fn done(done: Done) -> Tried {
        Tried::Done(Box::new(done))
    }
}
