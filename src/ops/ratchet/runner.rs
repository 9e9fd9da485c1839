//! The runs of a try: the [`Runner`] (the settings of one try's runs),
//! the [`Host`] its progress goes to, the checks, and the finding a
//! record adds.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::io::events::Events;
use crate::io::process::{Passthrough, RunOutcome, RunSpec, Sink};
use crate::io::Warn;
use crate::kernel::instances::Scores;
use crate::kernel::journal::{GitState, RunRecord};
use crate::kernel::objective::Objective;
use crate::kernel::prune::Points;
use crate::kernel::segment::CheckResult;
use crate::ops::attempts::{self, AttemptEvent};
use crate::ops::reactive::{Follow, LiveInfo, Reactive};

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

/// `spec` handed `seed`: `ARX_SEED` in the environment, every `{seed}` of
/// the command line replaced by it.
pub(super) fn seeded_spec(spec: &RunSpec, seed: u64) -> RunSpec {
    let text = seed.to_string();
    let mut out = spec.clone();
    for arg in &mut out.argv {
        *arg = arg.replace("{seed}", &text);
    }
    out.env.retain(|(k, _)| k != SEED_ENV);
    out.env.push((SEED_ENV.to_string(), text));
    out
}

/// The variable that carries a run's seed.
pub const SEED_ENV: &str = "ARX_SEED";

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
    /// A line people may do without (what a try will cost): not told
    /// under `--quiet`.
    fn note(&self, line: &str);
    /// A warning.
    fn warn(&self, line: &str);
    /// What a try's record added to the findings store.
    fn finding(&self, line: &str);
    /// Ask people a yes/no question (the execute gate); false when no one
    /// can answer.
    fn confirm(&self, question: &str) -> bool;
    /// How the experiment's output reaches the terminal around the
    /// progress shown.
    fn passthrough(&self) -> Passthrough;
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
    /// The idea and family the try tests.
    pub tested: super::idea::Tested,
    /// `--quiet`: the checks' output goes nowhere.
    pub quiet: bool,
    /// `--new-segment`: the baseline starts a segment.
    pub new_segment: bool,
    /// Values the result format ignored were told (once a try is enough).
    pub ignored_told: Arc<AtomicBool>,
    /// In a fleet: this machine's class, recorded with each run.
    pub class: Option<String>,
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
            ignored_told: self.ignored_told.clone(),
            follow: self.follow.clone(),
            cwd: self.cwd.clone(),
            now: self.now.clone(),
            events: self.events.clone(),
            description: self.description.clone(),
            tested: self.tested.clone(),
            class: self.class.clone(),
            ..*self
        }
    }

    /// Start following the runs of a new record (`kind`: `try`).
    pub fn reactive(
        &self,
        state: &Path,
        run_id: &str,
        start: jiff::Timestamp,
        since: std::time::Instant,
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
                since,
                heartbeat: self.spec.heartbeat,
            },
            Some(self.follow.clone()),
            peers,
            self.warn,
        ))
    }

    /// One run of the experiment, with live events, its live file,
    /// progress curve and pruning; handed `seed` when given (paired
    /// seeds): `ARX_SEED` in its environment, `{seed}` in its command.
    pub fn once(
        &self,
        events: &mut Events,
        label: &str,
        reactive: &mut Reactive,
        seed: Option<u64>,
    ) -> Result<RunOutcome> {
        self.host.running(label);
        let seeded;
        let spec = match seed {
            None => &self.spec,
            Some(seed) => {
                seeded = seeded_spec(&self.spec, seed);
                &seeded
            }
        };
        let (mut outcomes, _) =
            attempts::run_attempts_reacting(spec, 1, &self.interrupt, reactive, label, |e| {
                if let AttemptEvent::Run { event, elapsed } = e {
                    events.emit_run(event, elapsed, &self.spec.argv, label);
                }
            })?;
        let mut outcome = outcomes.remove(0);
        outcome.seed = seed;
        if outcome.output_held {
            self.host.warn(attempts::OUTPUT_HELD);
        }
        if let Some(note) = &outcome.ignored {
            if !self
                .ignored_told
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                self.host.warn(&self.objective.format.ignored_warning(note));
            }
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

    /// The per-instance scores of a run that succeeded, when the objective
    /// asks for them; a run whose result has none, or not as numbers, is
    /// told as a warning (it still counts by its metric).
    pub fn instances(&self, o: &RunOutcome) -> Option<Scores> {
        let key = self.objective.instances.as_deref()?;
        self.sample(o)?;
        match o.instances.clone() {
            Some(Ok(s)) => Some(s),
            Some(Err(why)) => {
                self.host.warn(&format!(
                    "per-instance scores not read from {key}: {why}; this run counts by {} only",
                    self.objective.metric
                ));
                None
            }
            None => None,
        }
    }

    /// When a record starts: `--now`, else the clock.
    pub fn start(&self) -> Result<jiff::Timestamp> {
        crate::io::clock::timestamp(self.now.as_deref())
    }
}
