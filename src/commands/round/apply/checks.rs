//! The round's checks: each triggered `[[harness.checks]]` command run
//! against a scratch checkout of the round commit, confined by bubblewrap
//! when `[harness] isolate = true`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::commands::round::{CheckSpec, Settings};
use crate::error::Hinted;
use crate::io::git::RoundRepo;
use crate::io::process::{self, RunSpec, Sink};
use crate::io::sandbox::{hidden_paths, Bubblewrap, Confinement, BWRAP_ENV};
use crate::kernel::failure::FailureClass;
use crate::kernel::outcome::RunOutcome;
use crate::kernel::round::{EvalCheck, EvalReport, RoundPatch};

/// Checks confined by bubblewrap (`[harness] isolate = true`): the
/// sandbox, and what it hides besides everything outside the scratch
/// checkout being read-only.
struct Isolation {
    bwrap: Bubblewrap,
    hide: Vec<PathBuf>,
}

/// The isolation asked for, or a refusal when it cannot be had: checks are
/// never run unconfined once `isolate = true`.
fn isolation(settings: &Settings, root: &Path, state: &Path) -> Result<Option<Isolation>> {
    if !settings.isolate {
        return Ok(None);
    }
    let bwrap = Bubblewrap::find().map_err(|why| {
        Hinted::error(
            format!("[harness] isolate = true, but checks cannot be isolated: {why}"),
            format!(
                "install bubblewrap (Debian and Ubuntu: apt install bubblewrap) or set \
                 {BWRAP_ENV} to it; nothing was landed"
            ),
        )
    })?;
    let hide = hidden_paths(root, state, &settings.isolate_hide);
    Ok(Some(Isolation { bwrap, hide }))
}

/// Run the triggered checks against a scratch checkout of the round commit.
pub(super) fn evaluate(
    repo: &RoundRepo,
    commit: git2::Oid,
    settings: &Settings,
    state: &Path,
    patch: &RoundPatch,
    quiet: bool,
) -> Result<EvalReport> {
    let triggered: Vec<&CheckSpec> = settings
        .checks
        .iter()
        .filter(|c| c.kinds.is_empty() || patch.entries.iter().any(|e| c.kinds.contains(&e.kind)))
        .collect();
    if triggered.is_empty() {
        return Ok(EvalReport { checks: Vec::new() });
    }
    let isolation = isolation(settings, repo.workdir(), state)?;
    let scratch = tempfile::Builder::new()
        .prefix("arx-round-")
        .tempdir()
        .context("cannot create a scratch checkout")?;
    repo.export_tree(commit, scratch.path())?;
    // bwrap binds the scratch checkout by its real path.
    let scratch_path = scratch
        .path()
        .canonicalize()
        .context("cannot resolve the scratch checkout")?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let mut results = Vec::new();
    for check in triggered {
        let run = CheckRun {
            isolation: isolation.as_ref(),
            scratch: &scratch_path,
            interrupt: &interrupt,
            quiet,
        };
        results.push(run.check(check)?);
    }
    Ok(EvalReport { checks: results })
}

/// What every check of a round runs with.
struct CheckRun<'a> {
    isolation: Option<&'a Isolation>,
    scratch: &'a Path,
    interrupt: &'a Arc<AtomicBool>,
    quiet: bool,
}

impl CheckRun<'_> {
    /// Run one check: its command (confined when isolated) in the scratch
    /// checkout, its result and why it failed.
    fn check(&self, check: &CheckSpec) -> Result<EvalCheck> {
        if !self.quiet {
            let how = if self.isolation.is_some() {
                " (isolated)"
            } else {
                ""
            };
            crate::errln!(
                "arx: check {}: running `{}`{how}",
                check.name,
                check.command
            );
        }
        let (argv, shell) = match self.isolation {
            None => (vec![check.command.clone()], true),
            Some(iso) => {
                let confinement = Confinement {
                    scratch: self.scratch,
                    hide: &iso.hide,
                };
                let argv = iso
                    .bwrap
                    .argv(&confinement, &check.command)
                    .map_err(|why| anyhow::anyhow!("cannot isolate check {}: {why}", check.name))?;
                (argv, false)
            }
        };
        let spec = RunSpec {
            argv,
            shell,
            env: Vec::new(),
            cwd: Some(self.scratch.to_path_buf()),
            timeout: check.timeout,
            grace: Duration::from_secs(5),
            stop_after_result: None,
            heartbeat: Duration::from_secs(3600),
            stdout_to: Sink::Discard,
            stderr_to: Sink::Discard,
            passthrough: Default::default(),
            place: None,
            result: Default::default(),
            instances: None,
        };
        let outcome = process::run(&spec, self.interrupt, |_| {})?;
        let detail = failure_detail(&outcome);
        if !self.quiet {
            let secs = outcome.duration.as_secs_f64();
            if outcome.exit_code == 0 {
                crate::errln!("arx: check {}: ok ({secs:.1}s)", check.name);
            } else {
                crate::errln!(
                    "arx: check {}: failed, exit code {} ({secs:.1}s): {detail}",
                    check.name,
                    outcome.exit_code
                );
            }
        }
        Ok(EvalCheck {
            name: check.name.clone(),
            exit_code: outcome.exit_code,
            detail,
        })
    }
}

/// Why a check failed: its failure class and its last line of output (or
/// that it timed out); empty when it passed.
fn failure_detail(outcome: &RunOutcome) -> String {
    if outcome.exit_code == 0 {
        return String::new();
    }
    let class = if outcome.failure_class == FailureClass::None {
        FailureClass::H4
    } else {
        outcome.failure_class
    };
    let last = outcome
        .stderr_tail
        .lines()
        .rev()
        .chain(outcome.stdout_tail.lines().rev())
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string();
    let why = if outcome.timed_out {
        "timed out".to_string()
    } else if last.is_empty() {
        format!("exit code {}, no output", outcome.exit_code)
    } else {
        last
    };
    format!("{class}: {why}")
}
