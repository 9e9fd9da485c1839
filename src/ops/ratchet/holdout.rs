//! The held-out step of a try (`[objective.holdout]`): its command run on
//! the candidate about to be kept (`repeat` times, and while the rule is
//! undecided more, up to `max_repeat`), and on the baseline
//! (`baseline_repeat` times, and more as a candidate needs them, once per
//! segment), each time in a throwaway
//! checkout of the measured tree outside the working tree (removed after,
//! so nothing it writes is kept or set aside), under paired seeds at the
//! seeds of the runs it is compared with. Its output is never shown and
//! never stored under the state directory: the values and the output's
//! tails go to the operator's journal ([`crate::io::holdout`]) only, and
//! the try is told passed or failed.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::candidate::{Against, Try, TryEnv};
use super::runner::seeded_spec;
use super::Runner;
use crate::error::Hinted;
use crate::io::git::ratchet::RatchetRepo;
use crate::io::holdout as journal;
use crate::io::process::{RunOutcome, RunSpec, Sink};
use crate::kernel::holdout::{self, Entry, HeldRuns, Holdout, HoldoutVerdict};
use crate::kernel::paired;
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

/// The held-out command's runs: its values (and their seeds), the first
/// failure, its last outcome, and whether a Ctrl-C stopped it.
struct Runs {
    values: Vec<f64>,
    seeds: Vec<Option<u64>>,
    failed: Option<HoldoutVerdict>,
    last: RunOutcome,
    interrupted: bool,
}

/// Where a held-out check runs: the tree it measures (a commit) and, under
/// paired seeds, the seeds of the runs it pairs with (the baseline's
/// held-out runs; none for the baseline, which runs the segment's
/// sequence) and those its earlier runs took (more runs of the baseline
/// take the next).
struct Measure<'s> {
    repo: &'s RatchetRepo,
    commit: &'s str,
    pair_with: &'s [Option<u64>],
    used: &'s [Option<u64>],
    segment: &'s str,
}

/// The held-out command's spec: run in `checkout` (at the same place
/// relative to it as arx's working directory is to the working tree),
/// its output kept from the terminal.
fn spec_in(runner: &Runner<'_>, h: &Holdout, workdir: &Path, checkout: &Path) -> RunSpec {
    let here = runner
        .spec
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| workdir.to_path_buf());
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let cwd = match real(&here).strip_prefix(real(workdir)) {
        Ok(rel) if checkout.join(rel).is_dir() => checkout.join(rel),
        _ => checkout.to_path_buf(),
    };
    RunSpec {
        argv: h.command.clone(),
        shell: h.shell,
        cwd: Some(cwd),
        stop_after_result: None,
        stdout_to: Sink::Discard,
        stderr_to: Sink::Discard,
        ..runner.spec.clone()
    }
}

/// Runs of the held-out command not yet taken.
fn no_runs() -> Runs {
    Runs {
        values: Vec::new(),
        seeds: Vec::new(),
        failed: None,
        last: RunOutcome::default(),
        interrupted: false,
    }
}

/// Run the held-out command `n` more times into `runs` (stopping at the
/// first failure) in a throwaway checkout of the measured tree, outside
/// the working tree and removed after, its output kept from the terminal;
/// under paired seeds each run is handed its seed (`ARX_SEED`, `{seed}`).
fn run(runner: &Runner<'_>, h: &Holdout, n: u32, at: &Measure<'_>, runs: &mut Runs) -> Result<()> {
    let checkout = at.repo.scratch_checkout(at.commit)?;
    let spec = spec_in(runner, h, at.repo.workdir(), checkout.path());
    let mut used: Vec<u64> = at
        .used
        .iter()
        .chain(&runs.seeds)
        .flatten()
        .copied()
        .collect();
    for _ in 0..n {
        let seed = runner
            .objective
            .paired_seeds
            .then(|| paired::next_seed(at.segment, at.pair_with, &used));
        used.extend(seed);
        let o = match seed {
            Some(s) => attempts::run_placed(&seeded_spec(&spec, s), &runner.interrupt)?,
            None => attempts::run_placed(&spec, &runner.interrupt)?,
        };
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
        if let Some(v) = value {
            runs.values.push(v);
            runs.seeds.push(seed);
        }
        runs.last = o;
        if runs.failed.is_some() {
            break;
        }
    }
    drop(checkout);
    if !runner.objective.paired_seeds {
        runs.seeds.clear();
    }
    Ok(())
}

/// Warn when runs at different seeds all printed the same value: the
/// held-out command seems not to read its seed, and its noise is taken
/// as 0.
fn warn_if_flat(runner: &Runner<'_>, runs: &Runs, of: &str) {
    let held = HeldRuns {
        values: &runs.values,
        seeds: &runs.seeds,
    };
    if holdout::flat_over_seeds(held) {
        runner.host.warn(&format!(
            "the held-out check of {of} printed the same value at {} different seeds: its \
             command seems not to read ARX_SEED or {{seed}}, and its noise is taken as 0",
            runs.values.len()
        ));
    }
}

/// What the held-out check came to on a candidate.
pub(super) enum Checked {
    Passed,
    NotPassed(HoldoutVerdict),
    Interrupted,
}

/// Say what a held-out check runs (its run count, never a value).
fn say(runner: &Runner<'_>, of: &str, n: u32, max: u32) {
    if runner.quiet {
        return;
    }
    let runs = match (n, max) {
        (1, m) if m <= 1 => "1 run".to_string(),
        (n, m) if m <= n => format!("{n} runs"),
        (n, m) => format!("{n} to {m} runs"),
    };
    runner.host.say(&format!("held-out check of {of} ({runs})"));
}

/// What the sequential check works with: the operator's journal as read
/// at its start (with the baseline's runs it adds), the loop's key and
/// segment, and the commits it measures.
struct Seq<'s> {
    runner: &'s Runner<'s>,
    h: &'s Holdout,
    path: &'s Path,
    entries: Vec<Entry>,
    key: String,
    segment: &'s str,
    repo: &'s RatchetRepo,
    /// The candidate's tree.
    measured: &'s str,
    /// The best's held-out runs (values, seeds).
    best: Option<(Vec<f64>, Vec<Option<u64>>)>,
    /// The baseline's commit while its held-out runs can grow.
    grow: Option<String>,
}

impl Seq<'_> {
    fn baseline(&self) -> Option<holdout::Gathered> {
        holdout::baseline_of(&self.entries, &self.key, self.segment)
    }

    /// The rule at this look: the segment's noise with the candidate's
    /// runs, and the harm bound it sets.
    fn rule(&self, cand: HeldRuns<'_>) -> holdout::Rule {
        let pooled = holdout::noise(&self.entries, &self.key, self.segment, cand.values);
        let all = holdout::segment_runs(&self.entries, &self.key, self.segment);
        let mut runs: Vec<HeldRuns<'_>> = all.iter().map(holdout::Gathered::runs).collect();
        runs.push(cand);
        holdout::Rule {
            direction: self.h.direction,
            pooled,
            paired: holdout::paired_noise(&runs),
            margin: self.h.margin,
            confidence: self.runner.objective.confidence,
            bound: Some(holdout::harm_bound(pooled)),
        }
    }

    /// More held-out runs of the baseline, up to `to` in all, journaled
    /// under its run and reused by later tries; `false` when a Ctrl-C
    /// stopped them. A failure stops the growing (with a warning).
    fn grow_baseline(&mut self, to: u32) -> Result<bool> {
        let (Some(commit), Some(b)) = (self.grow.clone(), self.baseline()) else {
            return Ok(true);
        };
        let Some(k) = to.checked_sub(b.values.len() as u32).filter(|k| *k > 0) else {
            return Ok(true);
        };
        let mut more = no_runs();
        let at = Measure {
            repo: self.repo,
            commit: &commit,
            pair_with: &[],
            used: &b.seeds,
            segment: self.segment,
        };
        run(self.runner, self.h, k, &at, &mut more)?;
        if more.interrupted {
            return Ok(false);
        }
        let verdict = more.failed.unwrap_or(HoldoutVerdict::Passed);
        let who = (self.key.as_str(), self.segment, b.run_id.as_str());
        let mut e = entry(self.runner, self.h, who, &more, verdict)?;
        e.kind = "baseline".into();
        journal::append(self.path, &e)?;
        self.entries.push(e);
        if !verdict.passed() {
            self.grow = None;
            self.runner.host.warn(
                "the held-out check failed on more runs of the baseline: it decides on the baseline's runs so far",
            );
        }
        Ok(true)
    }

    /// The candidate's held-out runs, look after look, until the rule
    /// decides; `None` when a Ctrl-C stopped them.
    fn looks(&mut self) -> Result<Option<(Runs, holdout::Judged)>> {
        let mut runs = no_runs();
        let mut n = self.h.repeat;
        loop {
            let pair_with = match self.baseline() {
                Some(b) => b.seeds,
                None => self.best.clone().map(|b| b.1).unwrap_or_default(),
            };
            let at = Measure {
                repo: self.repo,
                commit: self.measured,
                pair_with: &pair_with,
                used: &[],
                segment: self.segment,
            };
            let k = n.saturating_sub(runs.values.len() as u32).max(1);
            run(self.runner, self.h, k, &at, &mut runs)?;
            if runs.interrupted {
                return Ok(None);
            }
            if let Some(failed) = runs.failed {
                let judged = holdout::Judged {
                    verdict: failed,
                    worse_than: None,
                    noise: None,
                };
                return Ok(Some((runs, judged)));
            }
            let cand = HeldRuns {
                values: &runs.values,
                seeds: &runs.seeds,
            };
            let next = holdout::next_look(runs.values.len() as u32, self.h.max_repeat);
            let best = self
                .best
                .as_ref()
                .map(|(values, seeds)| HeldRuns { values, seeds });
            let baseline = self.baseline();
            let rule = self.rule(cand);
            let looked = holdout::judge_look(
                cand,
                best,
                baseline.as_ref().map(holdout::Gathered::runs),
                &rule,
                next.is_none(),
            );
            if let Some(judged) = looked {
                return Ok(Some((runs, judged)));
            }
            n = next.expect("not the last look");
            if !self.grow_baseline(n)? {
                return Ok(None);
            }
        }
    }
}

/// The held-out check of the candidate about to be kept; `None` without
/// one. It runs `repeat` runs, and while they show the candidate neither
/// worse than the baseline nor within the harm bound of it, more (up to
/// `max_repeat`), the baseline's growing to match. The verdict goes into
/// the try's record, the values and the output into the operator's
/// journal.
pub(super) fn check(env: &TryEnv<'_, '_>, at: &Against, t: &mut Try) -> Result<Option<Checked>> {
    let runner = env.runner;
    let Some(h) = &runner.objective.holdout else {
        return Ok(None);
    };
    let path = journal_path(Some(h), env.repo.workdir(), env.state)?.expect("a held-out check");
    let entries = journal::read(&path)?;
    let key = state_key(env.state);
    let segment = at.segment.id.as_str();
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let best_runs = holdout::runs_of(&entries, &key, segment, &best.run_id)
        .map(|b| (b.values.to_vec(), b.seeds.to_vec()));
    let reference = holdout::baseline_of(&entries, &key, segment);
    let grow = at
        .segment
        .baseline
        .as_ref()
        .filter(|b| reference.as_ref().is_some_and(|g| g.run_id == b.run_id))
        .map(|b| b.commit.clone());
    let mut seq = Seq {
        runner,
        h,
        path: &path,
        entries,
        key,
        segment,
        repo: env.repo,
        measured: t.measured.as_ref().map_or(at.kept.as_str(), |m| &m.commit),
        best: best_runs,
        grow,
    };
    say(runner, "the candidate", h.repeat, h.max_repeat);
    let Some((runs, judged)) = seq.looks()? else {
        return Ok(Some(Checked::Interrupted));
    };
    warn_if_flat(runner, &runs, "the candidate");
    let no_reference = seq.best.is_none() && reference.is_none() && runs.failed.is_none();
    if no_reference {
        runner.host.warn(
            "the best has no held-out value in the held-out journal: the check passes, and this candidate's becomes the reference",
        );
    }
    let verdict = judged.verdict;
    let mut entry = entry(runner, h, (&seq.key, segment, &t.run_id), &runs, verdict)?;
    entry.kind = "candidate".into();
    entry.best_run = Some(best.run_id.clone());
    entry.best = seq.best.map(|b| b.0).unwrap_or_default();
    entry.noise = judged.noise;
    entry.worse_than = judged.worse_than.map(str::to_string);
    entry.no_reference = no_reference;
    journal::append(&path, &entry)?;
    t.info.holdout = Some(verdict);
    Ok(Some(if verdict.passed() {
        Checked::Passed
    } else {
        Checked::NotPassed(verdict)
    }))
}

/// The held-out check of a baseline just measured (the commit `kept`),
/// journaled under the baseline's run; a failure is a warning (the first
/// candidate to pass becomes the reference).
pub fn at_baseline(
    runner: &Runner<'_>,
    state: &Path,
    repo: &RatchetRepo,
    kept: &str,
    run_id: &str,
) -> Result<()> {
    let Some(h) = &runner.objective.holdout else {
        return Ok(());
    };
    let path = journal_path(Some(h), repo.workdir(), state)?.expect("a held-out check");
    let segment = runner.objective.segment_id();
    let measure = Measure {
        repo,
        commit: kept,
        pair_with: &[],
        used: &[],
        segment: &segment,
    };
    say(runner, "the baseline", h.baseline_repeat, h.baseline_repeat);
    let mut runs = no_runs();
    run(runner, h, h.baseline_repeat, &measure, &mut runs)?;
    if runs.interrupted {
        return Ok(());
    }
    warn_if_flat(runner, &runs, "the baseline");
    let verdict = runs.failed.unwrap_or(HoldoutVerdict::Passed);
    let key = state_key(state);
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
        seeds: runs.seeds.clone(),
        best: Vec::new(),
        noise: None,
        verdict,
        worse_than: None,
        no_reference: false,
        exit_code: runs.last.exit_code,
        stdout_tail: runs.last.stdout_tail.clone(),
        stderr_tail: runs.last.stderr_tail.clone(),
    })
}
