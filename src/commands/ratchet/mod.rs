//! The keep-if-better ratchet: `arx try` (one iteration), `arx best`,
//! `arx status` and `arx restore`. The decision rule is
//! `kernel::ratchet`, the segment fold `kernel::segment`, the git work
//! `io::git::ratchet`; the files here are glue and what they share.

mod answer;
pub mod attempt;
pub mod best;
pub mod restore;
pub mod status;

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::cli::ObjectiveFlags;
use crate::error::Exit;
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet::estimate;
use crate::kernel::report::{KeptFold, SegmentFold};
use crate::kernel::text::visible;
use crate::ops::ratchet::{self as ops_ratchet};
use crate::output::{bold, dim, warn, Report, Spinner};

pub use crate::ops::ratchet::Summary;
use answer::emit as answer_with;
pub use answer::{paused_try, refuse_repeat, refuse_screened};

/// In a lane (or any linked working tree) whose own `arx.toml` differs
/// from the main working tree's, which it decides by: say so, once.
fn warn_checkout_config(ctx: &Ctx, config: &crate::io::config::Config) -> Result<()> {
    static SAID: std::sync::Once = std::sync::Once::new();
    let (None, Some(used)) = (&ctx.global.config, &config.path) else {
        return Ok(());
    };
    if let Some(difference) = crate::io::config::checkout_difference(&ctx.cwd()?, used) {
        SAID.call_once(|| warn(difference));
    }
    Ok(())
}

/// The objective and its segment from the cached fold of the journal
/// (`.arx/report.json`, extended by the lines appended since).
pub fn load_summary(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Summary> {
    let config = ctx.config()?;
    warn_checkout_config(ctx, &config)?;
    crate::ops::ratchet::load_summary(&config, flags, ctx.cwd()?, ctx.state_dir()?, WARN)
}

/// [`estimate_of`] for a measured commit of the cached fold.
pub fn estimate_of_fold(k: &KeptFold, seg: &SegmentFold, confidence: f64) -> Option<Estimate> {
    let noise = seg.noise();
    let (value, interval) = estimate(&k.samples, noise, confidence)?;
    Some(Estimate {
        value,
        interval: (k.samples.len() > 1 || noise.is_some()).then_some(interval),
        n: k.samples.len(),
        noise: noise.map(|(sd, _)| sd),
    })
}

pub use crate::kernel::number::{decimals, num, signed};
pub use crate::ops::ratchet::Estimate;

pub use super::short;

// What `arx try` shares among its front-end pieces: the reports and the
// progress shown.

/// The report of one try: the journal record, and what happened to the tree.
#[derive(Serialize)]
struct TryReport {
    #[serde(flatten)]
    record: RunRecord,
    /// What a dry run would do, or what a discard restored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    #[serde(skip)]
    line: String,
}

impl Report for TryReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let d = dim();
        for line in self.line.lines() {
            let line = visible(line);
            match line.split_once(": ") {
                Some((head, rest)) => writeln!(out, "{b}{head}{b:#}: {rest}")?,
                None => writeln!(out, "{line}")?,
            }
        }
        for n in &self.notes {
            writeln!(out, "  {d}{}{d:#}", visible(n))?;
        }
        Ok(())
    }
}

/// A try whose only change since the kept commit is to the configuration
/// (`arx.toml`): never part of a candidate, so nothing is run, kept or
/// undone. The try decides by the new configuration from now on.
#[derive(Serialize)]
struct ConfigChange {
    proceed: bool,
    reason: &'static str,
    /// `{"status": "config_change"}`, where every other try says its status.
    ratchet: ConfigStatus,
    /// The configuration files changed since the kept commit.
    config: Vec<String>,
    kept: String,
    detail: String,
}

#[derive(Serialize)]
struct ConfigStatus {
    status: &'static str,
}

impl Report for ConfigChange {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(out, "{b}config change{b:#}: {}", self.detail)
    }
}

/// Report a try whose candidate is only a configuration change (exit 0:
/// the change is in effect; nothing was tried).
pub(super) fn config_change(
    ctx: &Ctx,
    kept: &str,
    config: Vec<String>,
    in_lane: bool,
) -> Result<Exit> {
    let then = if in_lane {
        "every lane decides by the main working tree's arx.toml, not by this one"
    } else {
        "tries decide by it from now on"
    };
    let report = ConfigChange {
        proceed: false,
        reason: "config change",
        ratchet: ConfigStatus {
            status: "config_change",
        },
        kept: kept.to_string(),
        detail: format!(
            "only {} changed since the kept commit {}: a config change is never part of a \
             candidate, so nothing ran and nothing was kept or undone; {then}",
            config.join(", "),
            short(kept)
        ),
        config,
    };
    let outcome = crate::kernel::try_outcome::find("config_change").expect("in the table");
    answer_with(
        ctx,
        outcome,
        format!("config change: {}", report.detail),
        &report,
    )
}

/// A dry run's answer.
#[derive(Serialize)]
struct DryRun {
    dry_run: bool,
    /// The experiment, as it would run.
    command: String,
    segment: String,
    baseline_needed: bool,
    kept: Option<String>,
    paths: Vec<String>,
    protected: Vec<String>,
    would: Vec<String>,
    /// What a keep needs beside the target.
    keep_needs: KeepNeeds,
    /// Under the `sequential` rule: what it can be expected to do at the
    /// objective's settings, σ the segment's run noise.
    #[serde(skip_serializing_if = "Option::is_none")]
    operating_point: Option<OperatingPoint>,
    /// How many runs the try would take, and about how long.
    cost: crate::kernel::cost::Cost,
}

/// What a keep needs beside the target: the guards as written, the check
/// commands, and whether a held-out check runs (never what it runs: its
/// command and values are the operator's).
#[derive(Serialize)]
struct KeepNeeds {
    guards: Vec<String>,
    checks: Vec<String>,
    holdout: bool,
}

impl KeepNeeds {
    fn of(objective: &crate::kernel::objective::Objective) -> KeepNeeds {
        KeepNeeds {
            guards: objective.guards.iter().map(|g| g.text.clone()).collect(),
            checks: objective.checks.clone(),
            holdout: objective.holdout.is_some(),
        }
    }

    /// One line a need, as the dry run lists them.
    fn lines(&self, metric: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .guards
            .iter()
            .map(|g| format!("guard `{g}`: a keep needs it to hold beside {metric}"))
            .collect();
        out.extend(
            self.checks
                .iter()
                .map(|c| format!("check `{c}`: a keep needs it to exit 0")),
        );
        if self.holdout {
            out.push(
                "held-out check: yes (before a keep; it says only passed or failed)".to_string(),
            );
        }
        out
    }
}

impl Report for DryRun {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(out, "{b}dry run{b:#}: nothing changed")?;
        for w in &self.would {
            writeln!(out, "  {w}")?;
        }
        match self.cost.run_ms {
            Some(ms) => writeln!(
                out,
                "{b}cost{b:#}: one run takes about {} (this segment's record)",
                crate::kernel::cost::about(ms)
            )?,
            None => writeln!(
                out,
                "{b}cost{b:#}: how long one run takes is known after the first"
            )?,
        }
        for line in self.cost.lines() {
            writeln!(out, "  {line}")?;
        }
        Ok(())
    }
}

/// A try's progress as people see it: the spinner, and lines on stderr.
pub(super) struct Shown {
    pub(super) spinner: Spinner,
    /// `--quiet`: no findings told.
    pub(super) quiet: bool,
}

impl ops_ratchet::Host for Shown {
    fn running(&self, label: &str) {
        self.spinner.set_message(label.to_string());
    }
    fn ran(&self) {
        self.spinner.inc();
    }
    fn pause(&self) {
        self.spinner.finish();
    }
    fn say(&self, line: &str) {
        self.spinner.finish();
        for line in line.lines() {
            crate::errln!("arx: {}", visible(line));
        }
    }
    fn warn(&self, line: &str) {
        warn(line);
    }
    fn note(&self, line: &str) {
        if !self.quiet {
            self.say(line);
        }
    }
    fn finding(&self, line: &str) {
        if !self.quiet {
            self.say(line);
        }
    }
    fn confirm(&self, question: &str) -> bool {
        crate::io::terminal::confirm(question)
    }
    fn passthrough(&self) -> crate::io::process::Passthrough {
        super::passthrough(&self.spinner)
    }
}

/// A dry run's answer, from what [`ops_ratchet::plan`] found.
fn dry_run(ctx: &Ctx, plan: ops_ratchet::Plan) -> Result<Exit> {
    let point = (plan.rule == crate::kernel::ratchet::Rule::Sequential)
        .then(|| operating_point(&plan.objective, plan.noise, plan.best_runs));
    let ops_ratchet::Plan {
        objective,
        baseline_needed,
        kept,
        candidate,
        protected,
        first,
        on_slots,
        cost,
        ..
    } = plan;
    let (kept, objective) = (kept.as_str(), &objective);
    let needs = KeepNeeds::of(objective);
    let mut would = first;
    if !candidate.config.is_empty() {
        would.push(format!(
            "leave {} as it is: a config change is never part of a candidate",
            candidate.config.join(", ")
        ));
    }
    if baseline_needed {
        would.push(baseline_words(
            objective,
            kept,
            needs.holdout,
            candidate.dirty,
        ));
    }
    if candidate.is_empty() {
        would.push("nothing to try: no change since the kept commit".into());
    } else if !protected.is_empty() {
        would.push(format!(
            "refuse the candidate: it changes protected paths ({}); restore {}",
            protected.join(", "),
            short(kept)
        ));
    } else {
        would.push(format!(
            "run the candidate ({} changed, {}) at least {}",
            crate::output::count(candidate.paths.len() as u64, "path", "paths"),
            crate::output::count(candidate.commits.len() as u64, "commit", "commits"),
            crate::output::count(objective.repeat, "time", "times")
        ));
        would.extend(on_slots);
        would.extend(point.as_ref().map(operating_line));
        would.extend(needs.lines(&objective.metric));
        would.push(format!(
            "keep: {}; otherwise store it under refs/arx/discarded/<run-id> and restore {} ({})",
            if candidate.dirty {
                "commit the changes"
            } else {
                "keep the commits as they are"
            },
            short(kept),
            candidate.paths.join(", ")
        ));
    }
    ctx.out.emit(&DryRun {
        dry_run: true,
        command: objective.command.join(" "),
        segment: objective.segment_id(),
        baseline_needed,
        kept: Some(kept.to_string()),
        paths: candidate.paths.clone(),
        protected,
        would,
        keep_needs: needs,
        cost,
        operating_point: point,
    })?;
    Ok(Exit::Ok)
}

/// "measure the baseline: 5 runs of abc1234, and its held-out check".
fn baseline_words(
    objective: &crate::kernel::objective::Objective,
    kept: &str,
    holdout: bool,
    dirty: bool,
) -> String {
    format!(
        "measure the baseline: {} of {}{}{}",
        crate::output::count(objective.baseline_repeat, "run", "runs"),
        short(kept),
        if holdout {
            ", and its held-out check"
        } else {
            ""
        },
        if dirty {
            " (the changes in the working tree set aside meanwhile)"
        } else {
            ""
        }
    )
}

/// The rule's operating point, in σ of the run noise.
#[derive(Serialize)]
struct OperatingPoint {
    rule: &'static str,
    confidence: f64,
    /// The segment's run noise σ (`None` before it is measured).
    noise: Option<f64>,
    #[serde(flatten)]
    point: crate::kernel::ratchet::sequential::OperatingPoint,
    /// The runs that record a kept candidate, beside those that decided.
    record_runs: usize,
}

/// The `sequential` rule's operating point at the objective's settings,
/// against the kept commit's recorded runs.
fn operating_point(
    objective: &crate::kernel::objective::Objective,
    noise: Option<f64>,
    best_runs: usize,
) -> OperatingPoint {
    use crate::kernel::ratchet::{sequential, SEQUENTIAL_MAX_RUNS, TOP_UP};
    let screen = objective.repeat.max(1) as usize;
    let cap = (SEQUENTIAL_MAX_RUNS as usize).max(screen);
    let confidence = crate::kernel::stats::check_confidence(objective.confidence)
        .unwrap_or(crate::kernel::ratchet::DEFAULT_CONFIDENCE);
    OperatingPoint {
        rule: "sequential",
        confidence,
        noise,
        point: sequential::operating_point(screen, cap, best_runs.max(1), 1.0 - confidence),
        record_runs: TOP_UP,
    }
}

/// "decide at confidence 0.95: a change no better than the best is kept
/// 5% of the time, a gain of 1σ 45%, …".
fn operating_line(p: &OperatingPoint) -> String {
    let pt = &p.point;
    let sigma = p.noise.map_or(String::new(), |s| {
        format!(", {} here", crate::kernel::number::fmt_sig(s, 3))
    });
    format!(
        "decide at confidence {}: a change no better than the best is kept {:.0}% of the time, \
         a gain of 1σ {:.0}%, of 2σ {:.0}% (unpaired; σ the run noise{sigma}; against a best of {}); \
         about {:.1} runs for a change no better, {:.1} for 1σ, {:.1} for 2σ, and {} more to \
         record a keep",
        p.confidence,
        100.0 * pt.false_keep,
        100.0 * pt.keep_1_sigma,
        100.0 * pt.keep_2_sigma,
        crate::output::count(pt.best_runs as u64, "run", "runs"),
        pt.runs_null,
        pt.runs_1_sigma,
        pt.runs_2_sigma,
        p.record_runs,
    )
}
