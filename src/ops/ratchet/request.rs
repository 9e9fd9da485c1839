//! A try as a front end asks for it ([`TryRequest`]), what every ratchet
//! command starts from (the objective, the journal, the segment: in full,
//! [`Loaded`], or from the report's cached fold, [`Summary`]), and a try's
//! dry run ([`plan`]): what it would do, changing nothing.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{short, Host};
use crate::error::Hinted;
use crate::io::config::Config;
use crate::io::git::ratchet::{Candidate, RatchetRepo};
use crate::io::report::JournalText;
use crate::io::state::{journal, JOURNAL_FILE};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::kernel::objective::Objective;
use crate::kernel::ratchet::Rule;
use crate::kernel::report::SegmentFold;
use crate::kernel::segment::{self, Segment};
use crate::ops::finding::DeadMatch;
use crate::ops::objective::ObjectiveFlags;
use crate::ops::placement::LaunchFlags;
use crate::ops::reactive::PruneFlags;

/// One try as a front end asks for it: the flags of `arx try` and the
/// global settings a try depends on. The command line builds it from its
/// flags (the MCP server's `try` tool runs that command line); [`attempt`]
/// makes it into an answer, [`plan`] into a dry run.
///
/// [`attempt`]: super::attempt
#[derive(Debug, Clone, Default)]
pub struct TryRequest {
    /// `-m`: what the candidate tries.
    pub description: Option<String>,
    /// `--idea`: the idea of the backlog the try tests.
    pub idea: Option<String>,
    /// `--retry --because TEXT`: try the idea although another lane has it
    /// in flight, for this reason.
    pub retry_because: Option<String>,
    /// `--family`: the family of the change.
    pub family: Option<String>,
    /// `--rule`, over `[objective] rule`.
    pub rule: Option<String>,
    pub new_segment: bool,
    /// `--lane`: try in this lane's directory.
    pub lane: Option<String>,
    /// `--strict`: refuse a description that matches a failed approach.
    pub strict: bool,
    pub approve: bool,
    pub no_gates: bool,
    /// `--no-repeat`: refuse an idea discarded at this parent already.
    pub no_repeat: bool,
    /// `--because`: try `idea` again as a retry that says what changed.
    pub because: Option<String>,
    /// `--grace`, `--heartbeat` (durations, as written).
    pub grace: String,
    pub heartbeat: String,
    /// `--events`: where run events go (`-`: stdout).
    pub events: Option<String>,
    pub prune: PruneFlags,
    pub launch: LaunchFlags,
    pub objective: ObjectiveFlags,
    /// `--config`, `--state-dir`, `--now`.
    pub config: Option<PathBuf>,
    pub state_dir: Option<PathBuf>,
    pub now: Option<String>,
    /// `--quiet`: the experiment's and the checks' output go nowhere.
    pub quiet: bool,
    /// The answer is data on stdout (`--json`, `--events -`): the
    /// experiment's output goes to stderr.
    pub data_on_stdout: bool,
}

impl TryRequest {
    /// The configuration, its warnings told.
    pub(super) fn config(&self, cwd: &Path, host: &dyn Host) -> Result<Config> {
        let config = crate::io::config::load(self.config.as_deref(), cwd)?;
        for w in &config.warnings {
            host.warn(w);
        }
        // A lane decides by the main working tree's `arx.toml`: say what
        // its own copy changes, if anything.
        if let (None, Some(used)) = (&self.config, &config.path) {
            if let Some(difference) = crate::io::config::checkout_difference(cwd, used) {
                host.warn(&difference);
            }
        }
        Ok(config)
    }

    /// The rule: `--rule`, else `[objective] rule`, else the default.
    pub(super) fn rule(&self, file_rule: Option<&str>) -> Result<Rule> {
        match self.rule.as_deref().or(file_rule) {
            None => Ok(Rule::default()),
            Some(text) => text.parse().map_err(|e: String| {
                Hinted::error(
                    format!("invalid rule: {e}"),
                    "use --rule sequential (the default), confirm, strict or mad",
                )
            }),
        }
    }
}

/// Where arx runs.
pub(super) fn cwd() -> Result<PathBuf> {
    use anyhow::Context;
    std::env::current_dir().context("cannot determine the working directory")
}

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
pub fn load(
    config: &Config,
    flags: &ObjectiveFlags,
    cwd: PathBuf,
    state: PathBuf,
    warn: Warn,
) -> Result<Loaded> {
    let (objective, file_rule) = crate::ops::objective::resolve(flags, config.objective.as_ref())?;
    let file_prune = crate::ops::objective::file_prune(config.objective.as_ref());
    let records = journal(&state, warn).read()?;
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
    /// Without it: the last night imported from another loop
    /// (`arx journal import`), shown but never measured against.
    pub imported: Option<SegmentFold>,
    /// The metrics the journal's segments measure, each once, oldest
    /// first.
    pub metrics: Vec<String>,
}

/// The objective and its segment from the cached fold of the journal
/// (`.arx/report.json`, extended by the lines appended since).
pub fn load_summary(
    config: &Config,
    flags: &ObjectiveFlags,
    cwd: PathBuf,
    state: PathBuf,
    warn: Warn,
) -> Result<Summary> {
    let (objective, file_rule) = crate::ops::objective::resolve(flags, config.objective.as_ref())?;
    let text = JournalText::open(&state.join(JOURNAL_FILE))?;
    let (fold, _, _) = crate::io::report::fold(&state, text.bytes(), warn, None)?;
    let id = objective.segment_id();
    let imported = fold
        .segments
        .iter()
        .rev()
        .find(|s| s.id.starts_with(crate::kernel::import::SEGMENT_PREFIX))
        .cloned();
    let mut metrics: Vec<String> = Vec::new();
    for s in &fold.segments {
        if !metrics.contains(&s.metric) {
            metrics.push(s.metric.clone());
        }
    }
    let segment = fold.segments.into_iter().last().filter(|s| s.id == id);
    Ok(Summary {
        objective,
        file_rule,
        cwd,
        state,
        metrics,
        imported: imported.filter(|_| segment.is_none()),
        segment,
    })
}

/// The branch must still hold the segment's kept commit.
pub(super) fn check_kept(repo: &RatchetRepo, kept: &str) -> Result<()> {
    if !repo.descends_from(kept)? {
        return Err(Hinted::error(
            format!(
                "the branch no longer contains the kept commit {} of this segment",
                short(kept)
            ),
            "check out the branch the loop runs on, or start over with arx try --new-segment",
        ));
    }
    Ok(())
}

/// Screen the description against the failed approaches: a match is a
/// warning, or with `--strict` the try's refusal.
pub(super) fn screen(
    req: &TryRequest,
    state: &Path,
    host: &dyn Host,
    warn: Warn,
) -> Result<Option<DeadMatch>> {
    let Some(d) = req.description.as_deref().filter(|d| !d.trim().is_empty()) else {
        return Ok(None);
    };
    let Some(m) = crate::ops::finding::screen(state, d, warn)? else {
        return Ok(None);
    };
    if req.strict {
        return Ok(Some(m));
    }
    host.warn(&screened(d, &m));
    Ok(None)
}

/// A description that matches a failed approach, as people read it.
pub fn screened(description: &str, m: &DeadMatch) -> String {
    format!(
        "\"{description}\" matches {} {} (similarity {:.2}): {}",
        m.what, m.id, m.similarity, m.content
    )
}

/// What a try would do, as [`plan`] found it.
pub struct Plan {
    pub objective: Objective,
    pub baseline_needed: bool,
    /// The best the candidate would be measured against.
    pub kept: String,
    pub candidate: Candidate,
    pub protected: Vec<String>,
    /// What the try would do first (a lane's take-up of the best).
    pub first: Vec<String>,
    /// With two slots or more: how the candidate would be compared.
    pub on_slots: Option<String>,
    /// How many runs the try would take, and about how long.
    pub cost: crate::kernel::cost::Cost,
    /// The rule that would decide, the segment's run noise σ (when
    /// measured) and the kept commit's recorded runs.
    pub rule: Rule,
    pub noise: Option<f64>,
    pub best_runs: usize,
}

/// A dry run's answer.
pub enum Planned {
    Plan(Box<Plan>),
    /// `--strict`: the description matches a failed approach.
    Refused(DeadMatch),
    /// `--no-repeat`: the idea was discarded at this parent already.
    Repeat {
        idea: String,
        detail: String,
    },
}

/// `arx try --dry-run`: what a try would do, from the cached fold of the
/// journal (no record is read in full); nothing changes.
pub fn plan(req: &TryRequest, host: &dyn Host, warn: Warn) -> Result<Planned> {
    if let Some(name) = &req.lane {
        super::attempt::enter_lane(name)?;
    }
    let cwd = cwd()?;
    let config = req.config(&cwd, host)?;
    let state = crate::io::state::state_dir(req.state_dir.as_deref(), &cwd);
    let summary = load_summary(&config, &req.objective, cwd, state, warn)?;
    let rule = req.rule(summary.file_rule.as_deref())?;
    let now = crate::io::clock::millis(crate::io::clock::timestamp(req.now.as_deref())?);
    // `--no-repeat` needs the journal, to know what was tried at the best.
    let records = match req.no_repeat {
        true => Some(crate::io::state::journal(&summary.state, warn).read()?),
        false => None,
    };
    let (tested, description) =
        super::idea::resolve(req, &summary.state, records.as_deref(), (&now, host, warn))?;
    let req = &TryRequest {
        description,
        ..req.clone()
    };
    let repo = dry_repo(&summary, config.path.as_deref(), warn)?;
    let segment = summary.segment.filter(|_| !req.new_segment);
    let baseline_needed = segment.as_ref().is_none_or(|s| s.kept.is_none());
    let kept = match &segment {
        Some(SegmentFold { kept: Some(k), .. }) => k.commit.clone(),
        _ => repo.head(),
    };
    let lane = crate::ops::lanes::context(&repo)?;
    let kept = match (&lane, baseline_needed) {
        (Some(l), true) => repo.branch_tip(&l.best_ref).map_or(kept, |o| o.to_string()),
        _ => kept,
    };
    let (from, first) = lane_base(&repo, lane.as_ref(), &kept)?;
    check_kept(&repo, &from)?;
    let candidate = repo.candidate(&from)?;
    let objective = summary.objective;
    let protected = repo.protected_paths(&candidate, &objective.protect)?;
    if let Some(m) = screen(req, &summary.state, host, warn)? {
        return Ok(Planned::Refused(m));
    }
    if let (Some(records), false) = (&records, candidate.is_empty()) {
        if let Some((idea, detail)) = super::attempt::repeat(&tested, records, &from) {
            return Ok(Planned::Repeat { idea, detail });
        }
    }
    let slots = crate::ops::placement::resolve(
        &req.launch,
        crate::io::config::load(req.config.as_deref(), &summary.cwd)?
            .objective
            .as_ref(),
        &summary.state,
    )?
    .map_or(0, |p| p.placement.slots.len());
    let on_slots = on_slots(&objective, segment.as_ref(), slots, &kept);
    let run_ms = segment.as_ref().and_then(SegmentFold::run_ms);
    let cost = crate::kernel::cost::Cost::of(&objective, rule, baseline_needed, run_ms);
    let (noise, best_runs) = noise_and_best_runs(segment.as_ref(), &objective);
    Ok(Planned::Plan(Box::new(Plan {
        rule,
        noise,
        best_runs,
        objective,
        baseline_needed,
        kept,
        candidate,
        protected,
        first,
        on_slots,
        cost,
    })))
}

/// The repository a dry run reads, its own files and scope set; what a
/// killed try left half done is said, not finished (the try finishes it).
fn dry_repo(summary: &Summary, config: Option<&Path>, warn: Warn) -> Result<RatchetRepo> {
    let tree = crate::io::config::repo_root(&summary.cwd).unwrap_or_else(|| summary.cwd.clone());
    for line in super::recover::waiting(&summary.state, &tree) {
        warn(&format!("{line} (before anything else)"));
    }
    let mut repo = RatchetRepo::open(&summary.cwd, &summary.state)?;
    super::own_files(&mut repo, &summary.state, &summary.objective.notes)?;
    if let Some(dir) = crate::io::config::project_dir(&summary.cwd, config) {
        repo.set_scope(&dir);
        super::outside_scope_warning(&repo, warn)?;
    }
    Ok(repo)
}

/// The segment's pooled run noise σ (when measured) and the kept
/// commit's recorded runs (the baseline's count before it has any).
fn noise_and_best_runs(
    segment: Option<&SegmentFold>,
    objective: &Objective,
) -> (Option<f64>, usize) {
    let noise = segment
        .filter(|s| s.noise_df > 0)
        .map(|s| (s.noise_ss / s.noise_df as f64).sqrt());
    let best_runs = segment
        .and_then(|s| s.kept.as_ref().or(s.baseline.as_ref()))
        .map_or(objective.baseline_repeat as usize, |k| k.samples.len());
    (noise, best_runs)
}

/// A lane behind the best: its candidate is its work since it and the
/// best met, which the try would first replay onto the best. The commit
/// the candidate starts from, and what the try would do first.
fn lane_base(
    repo: &RatchetRepo,
    lane: Option<&crate::ops::lanes::LaneCtx>,
    kept: &str,
) -> Result<(String, Vec<String>)> {
    let Some(l) = lane.filter(|_| !repo.contains(kept)) else {
        return Ok((kept.to_string(), Vec::new()));
    };
    let lanes = crate::io::git::lane::Lanes::open(repo.workdir())?;
    let base = lanes.merge_base(&repo.head(), kept).ok_or_else(|| {
        Hinted::error(
            format!(
                "lane {} and the best {} have no commit in common",
                l.name,
                short(kept)
            ),
            "remove the lane (arx lane rm --force) and add it again",
        )
    })?;
    let first = format!(
        "take up the best {}: replay the lane's work (started from {}) onto it, or stop if it conflicts",
        short(kept),
        short(&base)
    );
    Ok((base, vec![first]))
}

/// With two slots or more: where the best has runs to compare with.
fn on_slots(
    objective: &Objective,
    segment: Option<&SegmentFold>,
    slots: usize,
    kept: &str,
) -> Option<String> {
    let seg = segment.filter(|s| slots >= 2 && s.noise().is_some())?;
    let mut on: Vec<&str> = seg
        .slot_runs
        .iter()
        .find(|c| c.commit == kept)
        .map(|c| c.by_slot.keys().map(String::as_str).collect())
        .unwrap_or_default();
    on.sort_unstable();
    let runs = objective.baseline_repeat;
    Some(format!(
        "compare it with the best as it measures on the slot it runs on (the best has runs on {}); \
         on a slot whose offset to those is not known, first measure the best there ({} run{})",
        if on.is_empty() {
            "no slot yet".to_string()
        } else {
            format!("slot {}", on.join(", "))
        },
        runs,
        if runs == 1 { "" } else { "s" }
    ))
}
