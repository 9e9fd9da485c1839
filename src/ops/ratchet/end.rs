//! The ends of a candidate's try, one step each: set aside as protected,
//! interrupted, pruned, crash, discard, guard, checks failed, holdout, or
//! keep (the
//! compare-and-swap of the best, which may find that another lane kept
//! first). Each journals the try and says what to tell, as a [`Done`].

use anyhow::Result;
use serde_json::json;

use super::candidate::{Against, Try, TryEnv};
use super::measure::Runs;
use super::replay::Tried;
use super::{finding, run_checks, run_short, short, Keep};
use crate::error::Exit;
use crate::io::git::ratchet::{Measured, Since};
use crate::kernel::holdout::HoldoutVerdict;
use crate::kernel::journal::{RunRecord, RunStatus};
use crate::kernel::number::{decimals, fmt_number, num, signed};
use crate::kernel::paired;
use crate::kernel::prune::Pruned;
use crate::kernel::ratchet::{self, Decision};
use crate::kernel::segment::{CheckResult, TryStatus};
use crate::kernel::verdict::Verdict;
use crate::ops::journal;

/// A try that came to an end: its exit code, its record as journaled,
/// and what to tell (the line and its notes).
pub struct Done {
    pub exit: Exit,
    pub record: RunRecord,
    pub notes: Vec<String>,
    pub line: String,
    /// Ctrl-C: once told, exit as the signal would have.
    pub interrupted: bool,
    /// A discard the rule could not decide either way (`discard
    /// (inconclusive)`): still a discard, exit 1.
    pub inconclusive: bool,
}

impl Done {
    /// The try's outcome in the one table of outcomes.
    pub fn outcome(&self) -> &'static crate::kernel::try_outcome::Outcome {
        let status = self
            .record
            .ratchet
            .as_ref()
            .map_or("crash", |i| i.status.as_str());
        crate::kernel::try_outcome::of_status(status, self.inconclusive)
            .unwrap_or(&crate::kernel::try_outcome::OUTCOMES[0])
    }
}

/// Screen: the candidate changes protected paths, so it is set aside
/// unmeasured.
pub(super) fn protected(env: &TryEnv<'_, '_>, at: &Against, mut t: Try) -> Result<Done> {
    t.info.protected = at.protected.clone();
    let ignored: Vec<&String> = at
        .protected
        .iter()
        .filter(|p| !at.candidate.paths.contains(p))
        .collect();
    if !ignored.is_empty() {
        env.runner.host.warn(&format!(
            "{} changed since the baseline and git ignores it: arx cannot undo it; put it back \
             as it was, or measure a new baseline on it (arx try --new-segment)",
            ignored
                .iter()
                .map(|p| crate::kernel::text::shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let rec = t.record(env.runner, TryStatus::Protected, None)?;
    let line = format!(
        "protected: the candidate changes {} \u{2192} set aside, {} restored",
        at.protected.join(", "),
        short(&at.kept)
    );
    discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)
}

/// A Ctrl-C stopped the runs: journaled, nothing kept or restored.
pub(super) fn interrupted(env: &TryEnv<'_, '_>, mut t: Try, mut runs: Runs<'_>) -> Result<Done> {
    // Stopped by an edit, not by a signal: nothing to pass on.
    let by_signal = runs.edited.is_empty();
    let line = match runs.edited.as_slice() {
        [] => "interrupted: the try was journaled; nothing was kept or restored".to_string(),
        edited => format!(
            "interrupted: {} changed between the candidate's runs, so the next run would not \
             measure the snapshot the first {} measured; the try was journaled; nothing was kept \
             or restored",
            edited
                .iter()
                .map(|p| crate::kernel::text::shown(p))
                .collect::<Vec<_>>()
                .join(", "),
            match runs.samples.len() {
                1 => "one".to_string(),
                n => format!("{n}"),
            }
        ),
    };
    let rec = t.finish(env.runner, TryStatus::Interrupted, &mut runs)?;
    journal::record_run(env.state, &rec, env.runner.warn)?;
    Ok(Done {
        exit: Exit::Inconclusive,
        record: rec,
        notes: vec!["the working tree is left as the candidate left it".into()],
        line,
        interrupted: by_signal,
        inconclusive: false,
    })
}

/// The pruning rule stopped a run: set aside.
pub(super) fn pruned(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    p: Pruned,
) -> Result<Done> {
    let mut rec = t.record(env.runner, TryStatus::Pruned, Some(&runs))?;
    rec.status = Some(RunStatus::Pruned);
    let line = format!(
        "pruned: {}{} \u{2192} set aside, {} restored",
        p.describe(),
        quoted(env),
        short(&at.kept)
    );
    rec.pruned = Some(p);
    runs.events.emit(
        "finished",
        runs.elapsed,
        json!({"status": "pruned", "pruned": rec.pruned}),
    );
    discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)
}

/// A run failed or reported no metric: set aside, inconclusive.
pub(super) fn crash(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
) -> Result<Done> {
    let rec = t.finish(env.runner, TryStatus::Crash, &mut runs)?;
    let last = t.outcomes.last().cloned().unwrap_or_default();
    let why = if last.effective_exit_code() != 0 {
        format!(
            "exit code {} [{} {}]",
            last.exit_code,
            last.failure_class,
            last.failure_class.describe_run(last.timed_out)
        )
    } else {
        let objective = env.runner.objective;
        format!(
            "no {} reported{}{}",
            objective.metric,
            crate::kernel::objective::unreported_note(
                &objective.format,
                &objective.metric,
                last.metrics.iter().map(|(k, _)| k)
            ),
            crate::kernel::objective::other_format_note(
                &objective.format,
                !last.metrics.is_empty(),
                &objective.metric,
                &last.stdout_tail
            )
        )
    };
    let line = format!(
        "crash: {why}{} \u{2192} set aside, {} restored",
        quoted(env),
        short(&at.kept)
    );
    discard(
        env,
        (&at.kept, t.measured.as_ref()),
        rec,
        line,
        Exit::Inconclusive,
    )
}

/// The decision in the record, and the change as people read it: the
/// metric, its difference from the best it was compared with, and the
/// noise.
pub(super) fn describe(
    env: &TryEnv<'_, '_>,
    at: &Against,
    t: &mut Try,
    runs: &Runs<'_>,
    d: &Decision,
) -> Change {
    let i = &mut t.info;
    i.improvement = Some(d.improvement);
    i.noise = d.noise;
    i.blind = d.blind;
    i.confirmed = d.confirmed;
    super::replay::told_apart(i, &t.carried, (runs, at, d));
    i.paired = d.paired;
    i.per_instance = d.per_instance;
    let samples = &runs.samples;
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let segment_noise = runs.slots.noise(&best.samples);
    i.slot_best = runs.slots.slot_best(best);
    i.best_runs = Some(runs.slots.reference_runs(best));
    // What every view tells of the try (its line, its finding, the log and
    // the report): one effect, of the try as it is decided.
    let mut decided = i.clone();
    decided.status = if d.verdict == Verdict::Supported {
        TryStatus::Keep
    } else {
        TryStatus::Discard
    };
    i.change = d.basis.map(|b| b.change);
    i.basis = d.basis;
    decided.change = i.change;
    decided.basis = i.basis;
    let effect = crate::kernel::effect::of_try(&decided, samples);
    let line = line(env, d, effect, segment_noise, i.slot_best.as_ref());
    // A keep recorded by other runs than it was decided on (a screen left
    // out): the value later tries are held to, said once after the line.
    let recorded = effect
        .filter(|e| d.keep() && (e.n != d.basis.map_or(e.n, |b| b.runs) || e.value != e.weighed))
        .map(|e| {
            let dp = decimals(d.noise.or(segment_noise), e.value);
            format!("; recorded as {} ({} runs)", num(e.value, dp), e.n)
        });
    Change {
        line: line + &super::replay::short_of(d),
        recorded: recorded.unwrap_or_default(),
        value: effect.map_or(f64::NAN, |e| e.weighed),
        against: effect.and_then(|e| e.against),
        change: effect.and_then(|e| e.change),
    }
}

/// The try's line: the value the decision weighed, its change against
/// the best over the same runs (paired: the same seeds) in metric units
/// with "better"/"worse", where it stands against the noise, and under
/// paired seeds the pairs and this try's own ρ ("ρ –" under three pairs).
fn line(
    env: &TryEnv<'_, '_>,
    d: &Decision,
    effect: Option<crate::kernel::effect::Effect>,
    segment_noise: Option<f64>,
    slot_best: Option<&crate::kernel::ratchet_record::SlotBest>,
) -> String {
    let direction = env.runner.objective.direction;
    let value = effect.map_or(f64::NAN, |e| e.weighed);
    let dp = decimals(d.noise.or(segment_noise), value);
    let vs = match (slot_best, effect.and_then(|e| e.against)) {
        (Some(b), Some(v)) => format!(" vs {} on slot {}", num(v, dp), b.slot),
        (None, Some(v)) => format!(" vs {}", num(v, dp)),
        (_, None) => String::new(),
    };
    let noise = match (effect, d.noise) {
        (Some(e), Some(sd)) if e.standing != ratchet::Standing::Blind => {
            format!(", {} {}", e.told(direction), num(sd, dp))
        }
        (Some(e), _) => format!(", {}", e.told(direction)),
        _ => ", blind to noise".to_string(),
    };
    let diff = effect
        .and_then(|e| e.change)
        .map(|c| format!("{}{vs}", signed(c, dp)))
        .unwrap_or_default();
    let noise = if diff.is_empty() {
        noise.trim_start_matches(", ")
    } else {
        &noise
    };
    let paired = match d.basis.filter(|b| b.pairs > 0) {
        Some(b) => format!(", {}", paired::told(b.pairs, b.rho)),
        None => String::new(),
    };
    // A per-instance decision says what decided it instead of the noise.
    let why = match (d.per_instance, diff.is_empty()) {
        (Some(p), true) => format!("per instance: {}", p.words()),
        (Some(p), false) => format!("{diff}; per instance: {}", p.words()),
        (None, _) => format!("{diff}{noise}{paired}"),
    };
    format!(
        "{} {} ({why}){}",
        env.runner.objective.metric,
        num(value, dp),
        quoted(env)
    )
}

/// The change a decided candidate makes, as [`describe`] tells it.
pub(super) struct Change {
    pub line: String,
    /// For a keep recorded by runs other than those it was decided on:
    /// "; recorded as 0.9 (4 runs)".
    pub recorded: String,
    /// The value the decision weighed (the line's).
    pub value: f64,
    /// The best over the same runs, and the change in metric units.
    pub against: Option<f64>,
    pub change: Option<f64>,
}

/// The rule refuted the candidate, or could not decide: set aside.
pub(super) fn discarded(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    d: &Decision,
    change: &Change,
) -> Result<Done> {
    let rec = t.finish(env.runner, TryStatus::Discard, &mut runs)?;
    // Refuted or undecided, a discard is a "no": exit 1 either way; the
    // line and the outcome say which.
    let inconclusive = d.verdict != Verdict::Refuted;
    let word = if inconclusive {
        "discard (inconclusive)"
    } else {
        "discard"
    };
    let line = format!(
        "{word}: {} \u{2192} set aside, {} restored",
        change.line,
        short(&at.kept)
    );
    let mut done = discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)?;
    done.inconclusive = inconclusive;
    Ok(done)
}

/// Confirm: the objective's checks, in order; the first that failed.
pub(super) fn checks(env: &TryEnv<'_, '_>, t: &mut Try) -> Result<Option<CheckResult>> {
    let checks = run_checks(env.runner, &env.runner.objective.checks)?;
    let failed = checks.iter().find(|c| c.exit_code != 0).cloned();
    t.info.checks = checks;
    Ok(failed)
}

/// A check failed on a winner: set aside.
pub(super) fn checks_failed(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    failed: &CheckResult,
    change: &Change,
) -> Result<Done> {
    let rec = t.finish(env.runner, TryStatus::ChecksFailed, &mut runs)?;
    let line = format!(
        "checks_failed: {}; `{}` exited {} \u{2192} set aside, {} restored",
        change.line,
        failed.command,
        failed.exit_code,
        short(&at.kept)
    );
    discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)
}

/// A guard vetoed a winner (broken, or its metric not printed): set
/// aside.
pub(super) fn guarded(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    change: &Change,
) -> Result<Done> {
    let rec = t.finish(env.runner, TryStatus::Guard, &mut runs)?;
    let why = rec
        .ratchet
        .as_ref()
        .and_then(|i| i.guard.as_ref())
        .map(super::guard::describe)
        .unwrap_or_default();
    let line = format!(
        "guard: {}; {why} \u{2192} set aside, {} restored",
        change.line,
        short(&at.kept)
    );
    discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)
}

/// The held-out check vetoed a winner (worse, crashed, no metric): set
/// aside. The line says why in words: never the held-out values.
pub(super) fn held_out(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    verdict: HoldoutVerdict,
    change: &Change,
) -> Result<Done> {
    let rec = t.finish(env.runner, TryStatus::Holdout, &mut runs)?;
    let line = format!(
        "holdout: {}; the held-out check {} \u{2192} set aside, {} restored",
        change.line,
        verdict.why(),
        short(&at.kept)
    );
    discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::No)
}

/// Keep: the compare-and-swap of the best (under the repository's keep
/// lock, the journal's best must still be the one this candidate was
/// measured against), the keep commit, then the record; or, when another
/// lane kept first, the try handed back to be replayed.
pub(super) fn keep(
    env: &TryEnv<'_, '_>,
    at: &Against,
    mut t: Try,
    mut runs: Runs<'_>,
    d: &Decision,
    change: &Change,
) -> Result<Tried> {
    let message = commit_message(env, &t, d, change);
    let held = t.held.take();
    // The record goes with the keep, which journals it once its commit is
    // on the best's branch.
    let mut rec = t.record(env.runner, TryStatus::Keep, Some(&runs))?;
    if let Some(commits) = moved_under(env, &t)? {
        return stale(env, at, t, Some(runs), &commits, "kept").map(Tried::done);
    }
    if super::confirm::waits(env, at, &mut rec)? {
        return super::confirm::hold(env, at, t, rec).map(Tried::done);
    }
    let measured = t.measured.clone();
    let measured = measured.as_ref();
    let queued = rec.clone();
    let (commit, rec, mut notes) = match super::keep(env, at, &message, (held, measured), rec)? {
        Keep::Moved { best, commit } => {
            super::batch::enqueue(env, at, (commit, &runs), &queued)?;
            return Ok(t.moved_with(runs, env, at, best));
        }
        Keep::Kept {
            commit,
            record,
            notes,
            warning,
        } => {
            if let Some(w) = warning {
                env.runner.host.warn(&w);
            }
            (commit, *record, notes)
        }
    };
    if let Some(m) = measured {
        let since = env.repo.changed_since(m)?;
        changed_while_running(env, &since, "not part of the kept commit")?;
    }
    runs.events.emit(
        "finished",
        runs.elapsed,
        json!({"status": "keep", "commit": commit}),
    );
    finding(env.runner, env.state, &rec);
    notes.extend(super::replay::carried_note(&rec, runs.samples.len()));
    let unconfirmed = if d.confirmed { "" } else { " (unconfirmed)" };
    Ok(Tried::Done(Box::new(Done {
        exit: Exit::Ok,
        record: rec,
        notes,
        line: format!(
            "keep: {}{} \u{2192} {}{unconfirmed}",
            change.line,
            change.recorded,
            short(&commit)
        ),
        interrupted: false,
        inconclusive: false,
    })))
}

/// The keep commit's message: the description (or the run), and the
/// trailers that say which run kept it and by how much.
fn commit_message(env: &TryEnv<'_, '_>, t: &Try, d: &Decision, change: &Change) -> String {
    let objective = env.runner.objective;
    let run_id = &t.run_id;
    let mut message = t
        .info
        .description
        .clone()
        .unwrap_or_else(|| format!("arx try {}", run_short(run_id)));
    message.push_str(&format!(
        "\n\nArx-Run: {run_id}\nArx-Metric: {} {} ({} vs {})\n",
        objective.metric,
        fmt_number(change.value),
        fmt_number(change.change.unwrap_or(0.0)),
        change.against.map_or("-".to_string(), fmt_number),
    ));
    if !d.confirmed {
        message.push_str("Arx-Unconfirmed: true\n");
    }
    message
}

/// The try's description, quoted for its line (empty without one).
fn quoted(env: &TryEnv<'_, '_>) -> String {
    env.runner
        .description
        .as_deref()
        .map(|d| format!(" \"{}\"", crate::kernel::text::shown(&super::subject(d))))
        .unwrap_or_default()
}

/// Discard: journal the try (a marker first, so a crash loses nothing),
/// store the candidate under `refs/arx/discarded/<run-id>`, restore the
/// kept commit.
pub(super) fn discard(
    env: &TryEnv<'_, '_>,
    (kept, measured): (&str, Option<&Measured>),
    rec: RunRecord,
    line: String,
    exit: Exit,
) -> Result<Done> {
    let mut notes = Vec::new();
    let mut since = None;
    if let Some(m) = measured {
        let commits = env.repo.commits_since(m)?;
        if !commits.is_empty() {
            if env.repo.has_own_commits(kept, &m.head)? {
                return stale_record(env, rec, &commits, "set aside");
            }
            notes.push(format!(
                "{} moved while the try ran ({}, not made by arx): it stays; only the candidate's files were undone",
                env.repo.branch(),
                commits.iter().map(|c| short(c)).collect::<Vec<_>>().join(", ")
            ));
        }
        since = Some(env.repo.changed_since(m)?);
    }
    let (rec, undone) =
        super::discard(env.repo, env.state, (kept, measured), rec, env.runner.warn)?;
    let restored = undone.restored;
    finding(env.runner, env.state, &rec);
    if let Some(since) = since {
        changed_while_running(env, &since, "not undone")?;
    }
    if !restored.restored.is_empty() {
        notes.push(format!("restored: {}", restored.restored.join(", ")));
    }
    if !restored.removed.is_empty() {
        notes.push(format!("removed: {}", restored.removed.join(", ")));
    }
    // A protected edit is not worth putting back.
    let protected = rec
        .ratchet
        .as_ref()
        .is_some_and(|i| i.status == TryStatus::Protected);
    if !protected {
        notes.push(format!(
            "to put it back: arx restore {}",
            run_short(&rec.run_id)
        ));
    }
    Ok(Done {
        exit,
        record: rec,
        notes,
        line,
        interrupted: false,
        inconclusive: false,
    })
}

/// The commits made on the branch since the candidate was measured (by a
/// person: arx changes the branch only when a try ends), when there are.
fn moved_under(env: &TryEnv<'_, '_>, t: &Try) -> Result<Option<Vec<String>>> {
    let Some(m) = &t.measured else {
        return Ok(None);
    };
    let commits = env.repo.commits_since(m)?;
    Ok((!commits.is_empty()).then_some(commits))
}

/// Stale: the branch moved under the try (a person's commit) where it
/// would have been `doing` (kept, or set aside with commits of its own):
/// journaled as `stale`, nothing kept, nothing undone; the next try
/// measures the candidate again, on top of that commit.
fn stale(
    env: &TryEnv<'_, '_>,
    _at: &Against,
    mut t: Try,
    runs: Option<Runs<'_>>,
    commits: &[String],
    doing: &str,
) -> Result<Done> {
    let rec = match runs {
        Some(mut runs) => t.finish(env.runner, TryStatus::Stale, &mut runs)?,
        None => t.record(env.runner, TryStatus::Stale, None)?,
    };
    stale_record(env, rec, commits, doing)
}

/// [`stale`] of a record already built.
fn stale_record(
    env: &TryEnv<'_, '_>,
    mut rec: RunRecord,
    commits: &[String],
    doing: &str,
) -> Result<Done> {
    if let Some(i) = rec.ratchet.as_mut() {
        i.status = TryStatus::Stale;
    }
    journal::record_run(env.state, &rec, env.runner.warn)?;
    let shown: Vec<&str> = commits.iter().map(|c| short(c)).collect();
    Ok(Done {
        exit: Exit::No,
        record: rec,
        notes: vec![format!(
            "the candidate is still in the working tree: arx try measures it again on top of {}",
            shown.last().copied().unwrap_or_default()
        )],
        line: format!(
            "stale: {} moved while the try ran ({}, not made by arx) \u{2192} not {doing}; nothing was changed",
            env.repo.branch(),
            shown.join(", ")
        ),
        interrupted: false,
        inconclusive: false,
    })
}

/// Warn of what changed in the working tree while the try ran: the
/// candidate's files edited since they were measured (`what` became of
/// them), and other files written meanwhile: outputs, recorded so that
/// they are left out of later candidates while they hold what was written.
fn changed_while_running(env: &TryEnv<'_, '_>, since: &Since, what: &str) -> Result<()> {
    if !since.edited.is_empty() {
        env.runner.host.warn(&format!(
            "changed while the try ran, so not what was measured ({what}; left in the working tree): {}",
            since.edited.join(", ")
        ));
    }
    if !since.written.is_empty() {
        super::record_outputs(env.repo, env.state, &since.written)?;
        super::measured(env.repo, env.state)?;
        env.runner.host.warn(&format!(
            "the try's runs wrote {}: outputs, not part of this candidate or a later one \
             while they hold what was written (left as they are); git-ignore them",
            since.written.join(", ")
        ));
    }
    Ok(())
}
