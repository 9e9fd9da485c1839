//! `arx try` from its request to its answer, as named steps: enter the
//! lane, load, the execute gate, the working tree's lock, recover what a
//! crash interrupted, find the best (a lane's baseline measured once, its
//! take-up of the best), the candidate and its screening, the runner, the
//! baseline when the segment has none, then the candidate tried —
//! replayed onto a newer best as often as another lane keeps first.

use std::path::Path;

use anyhow::{Context, Result};

use super::candidate::{Against, TryEnv};
use super::idea::Tested;
use super::replay::Replayed;
use super::request::{check_kept, cwd, load, screen, Loaded, TryRequest};
use super::{baseline, recover, refuse, replay_moved, short, try_candidate, Done, Host, Runner};
use crate::error::Hinted;
use crate::io::clock::{parse_duration, parse_timeout, timestamp};
use crate::io::config::Config;
use crate::io::git::ratchet::{Candidate, RatchetRepo};
use crate::io::process::RunSpec;
use crate::io::ratchet::{lock_try, KeepLock, TryHolder, TryLock};
use crate::io::Warn;
use crate::kernel::gate::Gate;
use crate::kernel::journal::{GitState, RunRecord};
use crate::kernel::launch::Place;
use crate::kernel::objective::Objective;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::segment::Segment;
use crate::ops::attempts;
use crate::ops::finding::DeadMatch;
use crate::ops::lanes::LaneCtx;
use crate::ops::reactive::{self, Follow};

/// What a try came to.
pub enum Attempted {
    /// It ran (or measured its baseline): what to tell.
    Done(Box<Done>),
    /// The execute gate paused it: nothing ran and nothing changed.
    Paused { pending_gate: Option<Gate> },
    /// `--strict`: the description matches a failed approach.
    Refused(DeadMatch),
    /// `--no-repeat`: the idea was discarded at this parent already.
    Repeat { idea: String, detail: String },
    /// Only the configuration (`arx.toml`) changed since the best `kept`:
    /// never part of a candidate, so nothing ran and nothing changed.
    ConfigChange {
        kept: String,
        config: Vec<String>,
        /// In a lane (which decides by the main working tree's `arx.toml`).
        in_lane: bool,
    },
}

/// Run one try as `req` asks, its progress told to `host`, the state
/// files' warnings to `warn`.
pub fn attempt(req: &TryRequest, host: &dyn Host, warn: Warn) -> Result<Attempted> {
    if let Some(name) = &req.lane {
        enter_lane(name)?;
    }
    let cwd = cwd()?;
    let config = req.config(&cwd, host)?;
    let state = crate::io::state::state_dir(req.state_dir.as_deref(), &cwd);
    let mut loaded = load(&config, &req.objective, cwd, state, warn)?;
    let rule = req.rule(loaded.file_rule.as_deref())?;
    let now = crate::io::clock::millis(timestamp(req.now.as_deref())?);
    let (mut tested, description) = super::idea::resolve(
        req,
        &loaded.state,
        Some(&loaded.records),
        (&now, host, warn),
    )?;
    let req = &TryRequest {
        description,
        ..req.clone()
    };
    // Slots and launcher: checked before anything runs.
    let place =
        crate::ops::placement::resolve(&req.launch, config.objective.as_ref(), &loaded.state)?;
    let mut repo = RatchetRepo::open(&loaded.cwd, &loaded.state)?;
    super::own_files(&mut repo, &loaded.state, &loaded.objective.notes)?;
    if let Some(dir) = crate::io::config::project_dir(&loaded.cwd, config.path.as_deref()) {
        repo.set_scope(&dir);
        super::outside_scope_warning(&repo, warn)?;
    }
    // The held-out journal's place: checked before anything runs.
    super::holdout::journal_path(
        loaded.objective.holdout.as_ref(),
        repo.workdir(),
        &loaded.state,
    )?;
    if req.new_segment {
        loaded.segment = None;
    }
    // A try the execute gate stops changes nothing, not even the state
    // directory (where the lock below lives).
    if let Some(pending_gate) = gate(req, &config, &loaded, host) {
        return Ok(Attempted::Paused { pending_gate });
    }
    // One try at a time in a working tree: a second one would rewrite the
    // files under the first one's running experiment.
    let testing = (
        tested.idea.clone(),
        crate::ops::lanes::context(&repo)?.map(|l| l.name),
    );
    // An idea in flight in another lane is refused, and this try's lock
    // (which says its idea) taken, under the claims lock: two lanes never
    // start one idea at once.
    // A retry is checked as the idea it retries.
    let claims = match tested.retry_of().or(testing.0.as_deref()) {
        Some(idea) => {
            let lock = crate::io::steer::lock_claims(&loaded.state)?;
            let lane = testing.1.as_deref();
            let elsewhere =
                super::idea::refuse_elsewhere(&loaded.state, idea, lane, &loaded.records, &now);
            match (elsewhere, req.retry_because.as_deref()) {
                (Err(e), None) => return Err(e),
                (Err(e), Some(because)) => host.warn(&format!(
                    "{e}; tried here as well (--retry): {}",
                    crate::kernel::text::shown(because)
                )),
                (Ok(()), _) => {}
            }
            Some(lock)
        }
        None => None,
    };
    let _lock = lock_worktree(req, &loaded.state, repo.workdir(), testing)?;
    drop(claims);
    // However the try ends, short of a kill, its measurement is over.
    let _measuring = Measuring(crate::io::ratchet::Markers::of(
        &loaded.state,
        repo.workdir(),
    ));
    let fleet = super::fleet::open(&config, &repo, &loaded.state, warn)?;
    let mut recovered = match &fleet {
        Some(f) => super::fleet::settle_intent(f, &repo, &loaded.state)?,
        None => Vec::new(),
    };
    recovered.extend(recover::all(&repo, &loaded.state, warn)?);
    let queued = super::batch::settle_queued(fleet.as_ref(), (&repo, &loaded.state), warn)?;
    recovered.extend(queued);
    for line in &recovered {
        host.warn(line);
    }
    if !recovered.is_empty() {
        // What was finished may have recorded outputs.
        super::own_files(&mut repo, &loaded.state, &loaded.objective.notes)?;
        // What was finished may have journaled a record (a new best).
        reload(req, &mut loaded, warn)?;
    }
    if let Some(f) = &fleet {
        let trying = req.description.as_deref().or(tested.idea.as_deref());
        if super::fleet::start(f, &repo, &loaded.state, trying, (host, warn))? {
            reload(req, &mut loaded, warn)?;
        }
    }
    // However the try ends, its records go to the fleet; its claim on its
    // idea is released after them.
    let mut end_sync = fleet
        .as_ref()
        .map(|f| super::fleet::EndSync::new(f, &loaded.state, host));
    let claim = super::fleet::claim(
        fleet.as_ref(),
        tested.idea.as_deref(),
        req.now.as_deref(),
        host,
    )?;
    if let Some(e) = end_sync.as_mut() {
        e.hold(claim);
    }
    let lane = crate::ops::lanes::context(&repo)?;
    let (start, baseline_lock) = find_best(req, &repo, lane.as_ref(), &mut loaded, (host, warn))?;
    if let Some(m) = screen(req, &loaded.state, host, warn)? {
        return Ok(Attempted::Refused(m));
    }
    if req.no_repeat && !start.candidate.is_empty() {
        if let Some((idea, detail)) = repeat(&tested, &loaded.records, &start.kept) {
            return Ok(Attempted::Repeat { idea, detail });
        }
    }
    // The lane's work, taken up onto the best, is no change at all.
    let already = start.took_up && !start.baseline_needed && start.candidate.is_empty();
    if let Some(config_only) = config_apart(&start, already, lane.is_some(), host) {
        return Ok(config_only);
    }
    if !start.baseline_needed && start.candidate.is_empty() && !already {
        return Err(Hinted::error(
            format!(
                "nothing to try: no change since the kept commit {}",
                short(&start.kept)
            ),
            "change the code (or commit a change), then run arx try again",
        ));
    }
    refuse::large(&repo, &start.candidate, loaded.objective.max_file_mb)?;
    refuse::nested(&repo)?;
    crate::ops::journal::check_writable(&loaded.state, warn)?;
    if !start.candidate.is_empty() {
        tested.announce(&loaded.state, host, warn)?;
    }
    let (objective, file_prune) = (&loaded.objective, &loaded.file_prune);
    let mut runner = runner(
        req,
        (objective, file_prune),
        &repo,
        &start.candidate,
        (place, tested),
        (host, warn),
    )?;
    runner.class = fleet.as_ref().map(|f| f.class.clone());
    let env = TryEnv {
        runner: &runner,
        repo: &repo,
        state: &loaded.state,
        rule,
        lane: lane.as_ref(),
        fleet: fleet.as_ref(),
    };
    if let (true, Some(l)) = (already, env.lane) {
        let done = super::already_in_best(&env, &start.kept, None, Some(l))?;
        return Ok(Attempted::Done(Box::new(done)));
    }
    let at = match baseline_when_needed(&env, start, &loaded, baseline_lock)? {
        Ok(at) => at,
        Err(done) => return Ok(Attempted::Done(Box::new(done))),
    };
    tries(&env, at).map(|done| Attempted::Done(Box::new(done)))
}

/// The journal read again (what a recovery or a sync added), and the
/// segment with it.
fn reload(req: &TryRequest, loaded: &mut Loaded, warn: Warn) -> Result<()> {
    loaded.records = crate::io::state::journal(&loaded.state, warn).read()?;
    if !req.new_segment {
        loaded.segment =
            crate::kernel::segment::current(&loaded.records, &loaded.objective.segment_id());
    }
    Ok(())
}

/// The idea tested, when a try of it was discarded (not kept, not a
/// crash, not interrupted) at `kept` already: its id and what to say.
pub(super) fn repeat(
    tested: &Tested,
    records: &[RunRecord],
    kept: &str,
) -> Option<(String, String)> {
    let idea = tested.idea.as_deref()?;
    let before = records.iter().rev().find_map(|r| {
        let i = r.ratchet.as_ref()?;
        let same = i.idea.as_deref() == Some(idea) && i.parent.as_deref() == Some(kept);
        let said = i.status.is_non_keep()
            && !matches!(i.status, TryStatus::Crash | TryStatus::Interrupted);
        (same && said).then(|| (r.run_id.clone(), i.status))
    })?;
    Some((
        idea.to_string(),
        format!(
            "idea {idea} was tried at this parent {} already ({} {}); nothing ran, the change \
             is still in the working tree",
            short(kept),
            before.1,
            super::run_short(&before.0)
        ),
    ))
}

/// Measure the segment's baseline when it has none (the try ends there
/// when it fails, or when there is no candidate); then what the candidate
/// is measured against.
fn baseline_when_needed(
    env: &TryEnv<'_, '_>,
    start: Start,
    loaded: &Loaded,
    baseline_lock: Option<KeepLock>,
) -> Result<Result<Against, Done>> {
    let mut segment = loaded.segment.clone();
    let mut records = None;
    if start.baseline_needed {
        let measured = baseline(env, &loaded.records, &start.kept, &start.candidate)?;
        if let Some(done) = measured.done {
            return Ok(Err(done));
        }
        segment = measured.segment;
        records = Some(crate::io::state::journal(env.state, env.runner.warn).read()?);
    }
    drop(baseline_lock);
    let segment = segment.expect("a segment with a kept commit");
    // The peers of the pruning rule: the segment's completed runs.
    let peers = reactive::peers(
        records
            .as_ref()
            .unwrap_or(&loaded.records)
            .iter()
            .filter(|r| r.ratchet.as_ref().is_some_and(|i| i.segment == segment.id)),
        &env.runner.follow,
    );
    let records = records.as_ref().unwrap_or(&loaded.records);
    let best_inputs = records
        .iter()
        .rev()
        .filter_map(|r| r.ratchet.as_ref())
        .find(|i| {
            i.segment == segment.id
                && i.commit.as_deref() == Some(start.kept.as_str())
                && matches!(i.status, TryStatus::Keep | TryStatus::Baseline)
        })
        .and_then(|i| i.inputs.clone());
    Ok(Ok(Against {
        best_inputs,
        segment,
        kept: start.kept,
        candidate: start.candidate,
        protected: start.protected,
        peers,
        batch: None,
    }))
}

/// How many times one try is replayed onto a newer best at most.
const MAX_REPLAYS: usize = 64;

/// Try the candidate; each time another lane kept first, replay it onto
/// the new best and try it there (or set it aside as `stale`).
fn tries(env: &TryEnv<'_, '_>, mut at: Against) -> Result<Done> {
    let mut carry = None;
    for _ in 0..MAX_REPLAYS {
        let tried = try_candidate(env, &at, carry.take())?;
        let (c, best) = match super::batch::next(env, &mut at, tried)? {
            super::batch::Batched::Alone(c, best) => (c, best),
            super::batch::Batched::Landed(done) => return Ok(*done),
            super::batch::Batched::Lead(c) => {
                carry = Some(c);
                continue;
            }
        };
        let lane = env.lane;
        let (segment, best, c) = match replay_moved(env, lane, &at.kept, (best, c))? {
            Replayed::Stale(done) => return Ok(done),
            Replayed::Onto {
                segment,
                best,
                carry,
            } => (segment, best, carry),
        };
        at.candidate = env.repo.candidate(&best)?;
        if at.candidate.is_empty() {
            // Both lanes made this change: the best has it already.
            return super::already_in_best(env, &best, Some(c), lane);
        }
        at.protected = env
            .repo
            .protected_paths(&at.candidate, &env.runner.objective.protect)?;
        at.segment = segment;
        at.kept = best;
        carry = Some(c);
    }
    Err(Hinted::error(
        format!("the best moved {MAX_REPLAYS} times while this try ran: nothing was kept"),
        "the candidate is still in the working tree: run arx try again",
    ))
}

/// The execute gate: `None` to proceed, or the gate the try pauses on.
fn gate(
    req: &TryRequest,
    config: &Config,
    loaded: &Loaded,
    host: &dyn Host,
) -> Option<Option<Gate>> {
    let what = loaded.objective.command.join(" ");
    let confirm = || host.confirm(&format!("Run `{what}`?"));
    match crate::ops::gate::execute_gate(config, req.approve, req.no_gates, confirm) {
        crate::ops::gate::GateOutcome::Proceed => None,
        crate::ops::gate::GateOutcome::Paused { pending_gate } => Some(pending_gate),
    }
}

/// Where a try starts: the best it measures against, whether the segment
/// needs its baseline first, and the candidate with the protected paths
/// it changes.
struct Start {
    kept: String,
    baseline_needed: bool,
    candidate: Candidate,
    protected: Vec<String>,
    /// A lane's work of its own was taken up onto the best.
    took_up: bool,
}

/// A configuration change is never part of a candidate: alone, the try's
/// answer (nothing runs); beside other changes, a warning, and the rest
/// is tried.
fn config_apart(start: &Start, already: bool, in_lane: bool, host: &dyn Host) -> Option<Attempted> {
    let c = &start.candidate;
    if c.config.is_empty() {
        return None;
    }
    if c.is_empty() && !start.baseline_needed && !already {
        return Some(Attempted::ConfigChange {
            kept: start.kept.clone(),
            config: c.config.clone(),
            in_lane,
        });
    }
    if !c.is_empty() {
        host.warn(&format!(
            "{} changed too: a config change is never part of a candidate; it stays as it is \
             (not measured as the change, not committed by a keep, not undone by a discard)",
            c.config.join(", ")
        ));
    }
    None
}

/// The best the candidate is measured against. Lanes measure a segment's
/// baseline once: the first lane to need it measures it while the others
/// wait (the lock returned), then use it. A lane takes up the best first.
fn find_best(
    req: &TryRequest,
    repo: &RatchetRepo,
    lane: Option<&LaneCtx>,
    loaded: &mut Loaded,
    (host, warn): (&dyn Host, Warn),
) -> Result<(Start, Option<KeepLock>)> {
    let baseline_lock = match lane {
        Some(_) if loaded.segment.as_ref().is_none_or(|s| s.kept.is_none()) => {
            let lock = crate::io::ratchet::lock_baseline(&loaded.state)?;
            if !req.new_segment {
                loaded.records = crate::io::state::journal(&loaded.state, warn).read()?;
                loaded.segment = crate::kernel::segment::current(
                    &loaded.records,
                    &loaded.objective.segment_id(),
                );
            }
            Some(lock)
        }
        _ => None,
    };
    let segment = &loaded.segment;
    let baseline_needed = segment.as_ref().is_none_or(|s| s.kept.is_none());
    let kept = match segment {
        Some(Segment { kept: Some(k), .. }) => k.commit.clone(),
        _ => repo.head(),
    };
    let kept = match (lane, segment) {
        // A lane's first try measures the best's branch as it is.
        (Some(l), Some(Segment { kept: None, .. }) | None) => {
            repo.branch_tip(&l.best_ref).map_or(kept, |o| o.to_string())
        }
        _ => kept,
    };
    let took_up = match lane {
        Some(l) => super::takeup::take_up_best((repo, &loaded.state), l, &kept, host)?,
        None => false,
    };
    check_kept(repo, &kept)?;
    let candidate = repo.candidate(&kept)?;
    let mut protected = repo.protected_paths(&candidate, &loaded.objective.protect)?;
    if !baseline_needed {
        let state = &loaded.state;
        protected.extend(super::protected_ignored(
            repo,
            state,
            &loaded.objective.protect,
            false,
        )?);
        protected.sort();
        protected.dedup();
    }
    let start = Start {
        kept,
        baseline_needed,
        candidate,
        protected,
        took_up,
    };
    Ok((start, baseline_lock))
}

/// The runs' settings: the experiment, its output, its progress followed
/// and pruned, the tree it runs on.
fn runner<'a>(
    req: &TryRequest,
    (objective, file_prune): (&'a Objective, &(Option<String>, Option<String>)),
    repo: &RatchetRepo,
    candidate: &Candidate,
    (place, tested): (Option<std::sync::Arc<Place>>, super::idea::Tested),
    (host, warn): (&'a dyn Host, Warn),
) -> Result<Runner<'a>> {
    let (file_prune, file_step) = file_prune;
    let follow = Follow {
        metric: objective.metric.clone(),
        direction: Some(objective.direction),
        step_key: reactive::step_key(req.prune.progress_step.as_deref().or(file_step.as_deref()))?,
        rule: req
            .prune
            .prune
            .as_deref()
            .or(file_prune.as_deref())
            .map(reactive::parse_rule)
            .transpose()?,
    };
    let (stdout_to, stderr_to) = attempts::sinks(req.quiet, req.data_on_stdout);
    let spec = RunSpec {
        argv: objective.command.clone(),
        shell: objective.shell,
        env: Vec::new(),
        // A project in a subdirectory runs there, wherever arx was started.
        cwd: repo.scope_set().then(|| repo.project_dir()),
        timeout: parse_timeout(objective.timeout.as_deref())?,
        grace: parse_duration(&req.grace, "--grace")?,
        stop_after_result: None,
        heartbeat: attempts::heartbeat(&req.heartbeat)?,
        stdout_to,
        stderr_to,
        passthrough: host.passthrough(),
        place,
        result: objective.format.clone(),
        instances: objective.instances.clone(),
    };
    Ok(Runner {
        objective,
        spec,
        interrupt: attempts::interrupt_flag()?,
        git: GitState {
            head: Some(candidate.head.clone()),
            branch: Some(repo.branch().to_string()),
            dirty: candidate.dirty,
        },
        follow,
        cwd: match repo.scope_set() {
            true => repo.project_dir(),
            false => cwd()?,
        },
        now: req.now.clone(),
        events: req.events.clone(),
        host,
        warn,
        description: req.description.clone(),
        tested,
        quiet: req.quiet,
        new_segment: req.new_segment,
        ignored_told: Default::default(),
        class: None,
    })
}

/// Take the working tree's try lock, or refuse: another `arx try` runs here.
/// The holder names the idea the try tests and its lane (`testing`), so
/// the backlog tells the idea in flight while the try runs.
fn lock_worktree(
    req: &TryRequest,
    state: &Path,
    workdir: &Path,
    (idea, lane): (Option<String>, Option<String>),
) -> Result<TryLock> {
    let holder = TryHolder::ours(
        timestamp(req.now.as_deref())?.to_string(),
        req.description.clone(),
    )
    .testing(idea, lane);
    std::fs::create_dir_all(state).with_context(|| format!("cannot create {}", state.display()))?;
    match lock_try(state, workdir, &holder)? {
        Ok(lock) => Ok(lock),
        Err(other) => {
            let who = match other {
                Some(h) => format!(
                    " (pid {}, started {}{})",
                    h.pid,
                    h.started_at,
                    h.description
                        .map(|d| format!(", {d:?}"))
                        .unwrap_or_default()
                ),
                None => String::new(),
            };
            Err(Hinted::error(
                format!("another arx try is running in this working tree{who}"),
                TRY_ELSEWHERE,
            ))
        }
    }
}

/// Where to run a second try at the same time.
const TRY_ELSEWHERE: &str = "wait for it to end (`arx ps` shows it), or run tries side by side, each in its own git worktree";

/// `--lane NAME`: work from the lane's directory, as if run there.
pub(super) fn enter_lane(name: &str) -> Result<()> {
    crate::ops::lanes::check_name(name)?;
    let lanes = crate::io::git::lane::Lanes::open(&cwd()?)?;
    let lane = crate::ops::lanes::find(&lanes, name)?;
    match (&lane.path, lane.exists) {
        (Some(path), true) => std::env::set_current_dir(path)
            .with_context(|| format!("cannot enter lane {name} at {}", path.display())),
        _ => Err(Hinted::error(
            format!("lane {name}'s directory is gone"),
            format!("remove it with arx lane rm {name}, and add it again"),
        )),
    }
}

/// Clears this working tree's measuring marker when the try ends (not
/// when it is killed: then the next command finds it, see `recover.rs`).
struct Measuring(crate::io::ratchet::Markers);

impl Drop for Measuring {
    fn drop(&mut self) {
        let _ = self.0.clear_measuring();
    }
}
