//! The held-out step of a try (`[objective.holdout]`): its command run on
//! the candidate about to be kept (`repeat` times), and on the baseline
//! (`baseline_repeat` times, its noise). Its output is never shown and
//! never stored under the state directory: the values and the output's
//! tails go to the operator's journal ([`crate::io::holdout`]) only, and
//! the try is told passed or failed.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::candidate::{Against, Try, TryEnv};
use super::Runner;
use crate::error::Hinted;
use crate::io::holdout as journal;
use crate::io::process::{RunOutcome, RunSpec, Sink};
use crate::kernel::holdout::{self, Entry, Holdout, HoldoutVerdict};
use crate::ops::attempts;

/// The operator's journal, refused inside the repository or the state
/// directory (where the agent would read it).
pub fn journal_path(
    holdout: Option<&Holdout>,
    workdir: &Path,
    state: &Path,
) -> Result<Option<PathBuf>> {
    if holdout.is_none() {
        return Ok(None);
    }
    let path = journal::path()?;
    if journal::is_inside(&path, workdir) || journal::is_inside(&path, state) {
        return Err(Hinted::error(
            format!(
                "the held-out journal {} is inside the repository, where its values would be seen",
                path.display()
            ),
            format!(
                "set {} to a file outside {}",
                journal::ENV,
                workdir.display()
            ),
        ));
    }
    Ok(Some(path))
}

/// The state directory as the journal's entries name it.
pub fn state_key(state: &Path) -> String {
    state
        .canonicalize()
        .unwrap_or_else(|_| state.to_path_buf())
        .display()
        .to_string()
}

/// The held-out command's runs: its values, the first failure, its last
/// outcome, and whether a Ctrl-C stopped it.
struct Runs {
    values: Vec<f64>,
    failed: Option<HoldoutVerdict>,
    last: RunOutcome,
    interrupted: bool,
}

/// Run the held-out command `n` times (stopping at the first failure),
/// its output kept from the terminal.
fn run(runner: &Runner<'_>, h: &Holdout, n: u32, of: &str) -> Result<Runs> {
    if !runner.quiet {
        runner.host.say(&format!(
            "held-out check of {of} ({n} run{})",
            if n == 1 { "" } else { "s" }
        ));
    }
    let spec = RunSpec {
        argv: h.command.clone(),
        shell: h.shell,
        stop_after_result: None,
        stdout_to: Sink::Discard,
        stderr_to: Sink::Discard,
        ..runner.spec.clone()
    };
    let mut runs = Runs {
        values: Vec::new(),
        failed: None,
        last: RunOutcome::default(),
        interrupted: false,
    };
    for _ in 0..n {
        let o = attempts::run_placed(&spec, &runner.interrupt)?;
        if o.interrupted {
            runs.interrupted = true;
            runs.last = o;
            break;
        }
        let value = o.metrics.get(&h.metric).filter(|x| x.is_finite());
        runs.failed = if o.failed() || o.spawn_error.is_some() {
            Some(HoldoutVerdict::Crashed)
        } else if value.is_none() {
            Some(HoldoutVerdict::Missing)
        } else {
            None
        };
        runs.values.extend(value);
        runs.last = o;
        if runs.failed.is_some() {
            break;
        }
    }
    Ok(runs)
}

/// What the held-out check came to on a candidate.
pub(super) enum Checked {
    Passed,
    NotPassed(HoldoutVerdict),
    Interrupted,
}

/// The held-out check of the candidate about to be kept; `None` without
/// one. The verdict goes into the try's record, the values and the output
/// into the operator's journal.
pub(super) fn check(env: &TryEnv<'_, '_>, at: &Against, t: &mut Try) -> Result<Option<Checked>> {
    let runner = env.runner;
    let Some(h) = &runner.objective.holdout else {
        return Ok(None);
    };
    let path = journal_path(Some(h), env.repo.workdir(), env.state)?.expect("a held-out check");
    let runs = run(runner, h, h.repeat, "the candidate")?;
    if runs.interrupted {
        return Ok(Some(Checked::Interrupted));
    }
    let entries = journal::read(&path)?;
    let key = state_key(env.state);
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let best_values = holdout::values_of(&entries, &key, &at.segment.id, &best.run_id);
    let noise = holdout::noise(&entries, &key, &at.segment.id, &runs.values);
    let verdict = match (runs.failed, best_values) {
        (Some(failed), _) => failed,
        (None, None) => HoldoutVerdict::Passed,
        (None, Some(b)) => holdout::judge(
            &runs.values,
            b,
            h.direction,
            noise,
            runner.objective.confidence,
        ),
    };
    let no_reference = best_values.is_none() && runs.failed.is_none();
    if no_reference {
        runner.host.warn(
            "the best has no held-out value in the held-out journal: the check passes, and this candidate's becomes the reference",
        );
    }
    let mut entry = entry(runner, h, (&key, &at.segment.id, &t.run_id), &runs, verdict)?;
    entry.kind = "candidate".into();
    entry.best_run = Some(best.run_id.clone());
    entry.best = best_values.map(<[f64]>::to_vec).unwrap_or_default();
    entry.noise = noise.map(|(sd, _)| sd);
    entry.no_reference = no_reference;
    journal::append(&path, &entry)?;
    t.info.holdout = Some(verdict);
    Ok(Some(if verdict.passed() {
        Checked::Passed
    } else {
        Checked::NotPassed(verdict)
    }))
}

/// The held-out check of a baseline just measured (its commit checked
/// out), journaled under the baseline's run; a failure is a warning (the
/// first candidate to pass becomes the reference).
pub fn at_baseline(runner: &Runner<'_>, state: &Path, workdir: &Path, run_id: &str) -> Result<()> {
    let Some(h) = &runner.objective.holdout else {
        return Ok(());
    };
    let path = journal_path(Some(h), workdir, state)?.expect("a held-out check");
    let runs = run(runner, h, h.baseline_repeat, "the baseline")?;
    if runs.interrupted {
        return Ok(());
    }
    let verdict = runs.failed.unwrap_or(HoldoutVerdict::Passed);
    let key = state_key(state);
    let segment = runner.objective.segment_id();
    let mut entry = entry(runner, h, (&key, &segment, run_id), &runs, verdict)?;
    entry.kind = "baseline".into();
    journal::append(&path, &entry)?;
    if !verdict.passed() {
        let what = match verdict {
            HoldoutVerdict::Missing => "printed no metric",
            _ => "crashed",
        };
        runner.host.warn(&format!(
            "the held-out check {what} on the baseline: the first candidate that passes it becomes the reference"
        ));
    }
    Ok(())
}

/// The journal entry of `runs` (kind and comparison filled by the caller).
fn entry(
    runner: &Runner<'_>,
    h: &Holdout,
    (state, segment, run_id): (&str, &str, &str),
    runs: &Runs,
    verdict: HoldoutVerdict,
) -> Result<Entry> {
    Ok(Entry {
        at: runner.start()?.to_string(),
        state: state.to_string(),
        segment: segment.to_string(),
        run_id: run_id.to_string(),
        kind: String::new(),
        best_run: None,
        description: runner.description.clone(),
        metric: h.metric.clone(),
        direction: h.direction,
        values: runs.values.clone(),
        best: Vec::new(),
        noise: None,
        verdict,
        no_reference: false,
        exit_code: runs.last.exit_code,
        stdout_tail: runs.last.stdout_tail.clone(),
        stderr_tail: runs.last.stderr_tail.clone(),
    })
}
