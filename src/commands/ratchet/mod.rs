//! The keep-if-better ratchet: `arx try` (one iteration), `arx best`,
//! `arx status` and `arx restore`. The decision rule is
//! `kernel::ratchet`, the segment fold `kernel::segment`, the git work
//! `io::git::ratchet`; the files here are glue and what they share.

pub mod attempt;
pub mod best;
pub mod restore;
pub mod status;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::cli::{ObjectiveFlags, TryArgs};
use crate::error::{Exit, Hinted};
use crate::io::git::ratchet::{Candidate, RatchetRepo};
use crate::io::report::JournalText;
use crate::io::state::{journal, JOURNAL_FILE};
use crate::kernel::journal::RunRecord;
use crate::kernel::objective::Objective;
use crate::kernel::ratchet::{estimate, Rule};
use crate::kernel::report::{KeptFold, SegmentFold};
use crate::kernel::segment::{self, Segment};
use crate::ops::ratchet::{self as ops_ratchet};
use crate::output::{bold, dim, warn, Report, Spinner};

/// What every ratchet command starts from.
pub struct Loaded {
    pub objective: Objective,
    /// `rule` from `[objective]`, if set.
    pub file_rule: Option<String>,
    pub cwd: PathBuf,
    pub state: PathBuf,
    pub records: Vec<RunRecord>,
    /// The objective's segment, when it is the journal's current one.
    pub segment: Option<Segment>,
    /// `prune` and `progress_step` from `[objective]`, if set.
    pub file_prune: (Option<String>, Option<String>),
}

/// The objective, the journal and the current segment.
pub fn load(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Loaded> {
    let config = ctx.config()?;
    let (objective, file_rule) = crate::ops::objective::resolve(flags, config.objective.as_ref())?;
    let file_prune = crate::ops::objective::file_prune(config.objective.as_ref());
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;
    let records = journal(&state, WARN).read()?;
    let segment = segment::current(&records, &objective.segment_id());
    Ok(Loaded {
        objective,
        file_rule,
        cwd,
        state,
        records,
        segment,
        file_prune,
    })
}

/// What `arx status`, `arx best` and `arx try --dry-run` start from: the
/// objective and its segment as the report's cached fold holds it, without
/// reading every record.
pub struct Summary {
    pub objective: Objective,
    /// `rule` from `[objective]`, if set.
    pub file_rule: Option<String>,
    pub cwd: PathBuf,
    pub state: PathBuf,
    /// The objective's segment, when it is the journal's current one.
    pub segment: Option<SegmentFold>,
}

/// The objective and its segment from the cached fold of the journal
/// (`.arx/report.json`, extended by the lines appended since).
pub fn load_summary(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Summary> {
    let config = ctx.config()?;
    let (objective, file_rule) = crate::ops::objective::resolve(flags, config.objective.as_ref())?;
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;
    let text = JournalText::open(&state.join(JOURNAL_FILE))?;
    let (fold, _, _) = crate::io::report::fold(&state, text.bytes(), WARN, None)?;
    let id = objective.segment_id();
    let segment = fold.segments.into_iter().last().filter(|s| s.id == id);
    Ok(Summary {
        objective,
        file_rule,
        cwd,
        state,
        segment,
    })
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

pub use super::{run_short, short};

/// Finish a discard that a crash interrupted (journaled, not yet
/// restored), and put back a candidate set aside for a baseline. Returns a
/// line for each thing done.
pub fn recover(repo: &RatchetRepo, state: &Path, records: &[RunRecord]) -> Result<Vec<String>> {
    let mut done = Vec::new();
    let markers = crate::io::ratchet::Markers::of(state, repo.workdir());
    if let Some(aside) = markers.read_aside()? {
        repo.put_back(&aside.refname)?;
        repo.delete_ref(&aside.refname)?;
        markers.clear_aside()?;
        done.push(format!(
            "put back the candidate set aside for the baseline ({})",
            aside.refname
        ));
    }
    if let Some(p) = markers.read_pending()? {
        if !records.iter().any(|r| r.run_id == p.record.run_id) {
            journal(state, WARN).append(&p.record)?;
        }
        if repo.ref_target(&p.discarded_ref).is_none() {
            repo.snapshot(
                &p.discarded_ref,
                &format!("arx: discarded {}", p.record.run_id),
            )?;
        }
        let restored = repo.restore_to(&p.kept)?;
        markers.clear_pending()?;
        done.push(format!(
            "finished an interrupted discard of run {}: {} restored, {} removed",
            run_short(&p.record.run_id),
            restored.restored.len(),
            restored.removed.len()
        ));
    }
    Ok(done)
}

// What `arx try` shares among its steps: the runner, the record, the
// baseline, the checks and the reports.

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
        match self.line.split_once(": ") {
            Some((head, rest)) => writeln!(out, "{b}{head}{b:#}: {rest}")?,
            None => writeln!(out, "{}", self.line)?,
        }
        for n in &self.notes {
            writeln!(out, "  {d}{n}{d:#}")?;
        }
        Ok(())
    }
}

/// A dry run's answer.
#[derive(Serialize)]
struct DryRun {
    dry_run: bool,
    segment: String,
    baseline_needed: bool,
    kept: Option<String>,
    paths: Vec<String>,
    protected: Vec<String>,
    would: Vec<String>,
}

impl Report for DryRun {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(out, "{b}dry run{b:#}: nothing changed")?;
        for w in &self.would {
            writeln!(out, "  {w}")?;
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
        eprintln!("arx: {line}");
    }
    fn warn(&self, line: &str) {
        warn(line);
    }
    fn finding(&self, line: &str) {
        if !self.quiet {
            self.say(line);
        }
    }
}

fn rule_of(args: &TryArgs, file_rule: Option<&str>) -> Result<Rule> {
    match args.rule.as_deref().or(file_rule) {
        None => Ok(Rule::default()),
        Some(text) => text.parse().map_err(|e: String| {
            Hinted::error(
                format!("invalid rule: {e}"),
                "use --rule confirm (the default), strict or mad",
            )
        }),
    }
}

#[allow(clippy::too_many_arguments)]
fn dry_run(
    ctx: &Ctx,
    objective: &Objective,
    baseline_needed: bool,
    kept: &str,
    candidate: &Candidate,
    protected: Vec<String>,
    first: Vec<String>,
    on_slots: Option<String>,
) -> Result<Exit> {
    let mut would = first;
    if baseline_needed {
        would.push(format!(
            "measure the baseline: {} of {}{}",
            crate::output::count(objective.baseline_repeat, "run", "runs"),
            short(kept),
            if candidate.dirty {
                " (the changes in the working tree set aside meanwhile)"
            } else {
                ""
            }
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
        segment: objective.segment_id(),
        baseline_needed,
        kept: Some(kept.to_string()),
        paths: candidate.paths.clone(),
        protected,
        would,
    })?;
    Ok(Exit::Ok)
}
