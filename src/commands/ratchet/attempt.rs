//! `arx try`: one iteration of the ratchet. Measures the baseline when the
//! segment has none, runs the candidate until the rule decides, then keeps
//! it as a commit or journals it, stores it under `refs/arx/discarded/` and
//! restores the last kept commit, in that order.

use anyhow::{Context, Result};
use serde_json::json;

use super::{
    baseline, decimals, dry_run, info, load, load_summary, num, record, recover, rule_of,
    run_checks, run_short, short, signed, subject, Loaded, Runner, Summary, TryReport,
};
use crate::cli::TryArgs;
use crate::commands::{
    finding_from_result, pass_execute_gate_for_try, passthrough, screen_description, Ctx, WARN,
};
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_duration, parse_timeout, timestamp};
use crate::io::events::Events;
use crate::io::git::ratchet::{Candidate, RatchetRepo, Replay};
use crate::io::process::RunSpec;
use crate::io::ratchet::{lock_try, TryHolder, TryLock};
use crate::kernel::journal::{GitState, RunRecord};
use crate::kernel::number::fmt_number;
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::prune::Points;
use crate::kernel::ratchet::{self, Decision, Evidence, Rule, Settings, Step};
use crate::kernel::report::SegmentFold;
use crate::kernel::segment::{Segment, TryStatus};
use crate::kernel::stats::summarize;
use crate::kernel::verdict::Verdict;
use crate::ops::attempts::{self};
use crate::ops::journal;
use crate::ops::lanes::LaneCtx;
use crate::ops::reactive::{self, Follow};
use crate::ops::slot_compare::SlotCompare;
use crate::output::{warn, Spinner};

/// Take the working tree's try lock, or refuse: another `arx try` runs here.
fn lock_worktree(
    ctx: &Ctx,
    state: &std::path::Path,
    cwd: &std::path::Path,
    args: &TryArgs,
) -> Result<TryLock> {
    let holder = TryHolder::ours(
        timestamp(ctx.global.now.as_deref())?.to_string(),
        args.description.clone(),
    );
    std::fs::create_dir_all(state).with_context(|| format!("cannot create {}", state.display()))?;
    match lock_try(state, cwd, &holder)? {
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

/// The branch must still hold the segment's kept commit.
fn check_kept(repo: &RatchetRepo, kept: &str) -> Result<()> {
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

/// `arx try --dry-run`: what a try would do, from the cached fold of the
/// journal (no record is read in full).
fn dry_run_summary(ctx: &Ctx, args: &TryArgs) -> Result<Exit> {
    let Summary {
        objective,
        file_rule,
        cwd,
        state,
        segment,
    } = load_summary(ctx, &args.objective)?;
    rule_of(args, file_rule.as_deref())?;
    let repo = RatchetRepo::open(&cwd, &state)?;
    let segment = if args.new_segment { None } else { segment };
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
    // A lane behind the best: its candidate is its work since it and the
    // best met, which the try would first replay onto the best.
    let mut first = Vec::new();
    let from = match &lane {
        Some(l) if !repo.contains(&kept) => {
            let lanes = crate::io::git::lane::Lanes::open(repo.workdir())?;
            let base = lanes.merge_base(&repo.head(), &kept).ok_or_else(|| {
                Hinted::error(
                    format!(
                        "lane {} and the best {} have no commit in common",
                        l.name,
                        short(&kept)
                    ),
                    "remove the lane (arx lane rm --force) and add it again",
                )
            })?;
            first.push(format!(
                "take up the best {}: replay the lane's work (started from {}) onto it, or stop if it conflicts",
                short(&kept),
                short(&base)
            ));
            base
        }
        _ => kept.clone(),
    };
    check_kept(&repo, &from)?;
    let candidate = repo.candidate(&from)?;
    let protected = repo.protected_paths(&candidate, &objective.protect)?;
    if let Some(exit) = screen_description(ctx, &state, args.description.as_deref(), args.strict)? {
        return Ok(exit);
    }
    dry_run(
        ctx,
        &objective,
        baseline_needed,
        &kept,
        &candidate,
        protected,
        first,
    )
}

pub fn run(ctx: &Ctx, args: &TryArgs) -> Result<Exit> {
    if let Some(name) = &args.lane {
        enter_lane(ctx, name)?;
    }
    if args.dry_run {
        return dry_run_summary(ctx, args);
    }
    let Loaded {
        objective,
        file_rule,
        cwd,
        state,
        records,
        segment,
        file_prune,
    } = load(ctx, &args.objective)?;
    let rule = rule_of(args, file_rule.as_deref())?;
    // Slots and launcher: checked before anything runs (its warnings
    // were shown by `load`).
    let place = crate::ops::placement::resolve(
        &args.launch,
        crate::io::config::load(ctx.global.config.as_deref(), &cwd)?
            .objective
            .as_ref(),
        &state,
    )?;
    let repo = RatchetRepo::open(&cwd, &state)?;
    let segment = if args.new_segment { None } else { segment };

    // A try the execute gate stops changes nothing, not even the state
    // directory (where the lock below lives).
    if !args.dry_run {
        let what = objective.command.join(" ");
        if !pass_execute_gate_for_try(ctx, args.approve, args.no_gates, &what)? {
            return Ok(Exit::No);
        }
    }
    // One try at a time in a working tree: a second one would rewrite the
    // files under the first one's running experiment.
    let _lock = lock_worktree(ctx, &state, repo.workdir(), args)?;
    for line in recover(&repo, &state, &records)? {
        warn(line);
    }
    let lane = crate::ops::lanes::context(&repo)?;
    let mut segment = segment;
    let mut records = records;
    // Lanes measure a segment's baseline once: the first lane to need it
    // measures it while the others wait, then use it.
    let baseline_lock = match &lane {
        Some(_) if segment.as_ref().is_none_or(|s| s.kept.is_none()) => {
            let lock = crate::io::ratchet::lock_baseline(&state)?;
            if !args.new_segment {
                records = crate::io::state::journal(&state, WARN).read()?;
                segment = crate::kernel::segment::current(&records, &objective.segment_id());
            }
            Some(lock)
        }
        _ => None,
    };
    let baseline_needed = segment.as_ref().is_none_or(|s| s.kept.is_none());
    let kept = match &segment {
        Some(Segment { kept: Some(k), .. }) => k.commit.clone(),
        _ => repo.head(),
    };
    let kept = match (&lane, &segment) {
        // A lane's first try measures the best's branch as it is.
        (Some(l), Some(Segment { kept: None, .. }) | None) => {
            repo.branch_tip(&l.best_ref).map_or(kept, |o| o.to_string())
        }
        _ => kept,
    };
    if let Some(l) = &lane {
        take_up_best(&repo, l, &kept)?;
    }
    check_kept(&repo, &kept)?;
    let candidate = repo.candidate(&kept)?;
    let protected = repo.protected_paths(&candidate, &objective.protect)?;
    if let Some(exit) = screen_description(ctx, &state, args.description.as_deref(), args.strict)? {
        return Ok(exit);
    }

    if !baseline_needed && candidate.is_empty() {
        return Err(Hinted::error(
            format!(
                "nothing to try: no change since the kept commit {}",
                short(&kept)
            ),
            "change the code (or commit a change), then run arx try again",
        ));
    }
    journal::check_writable(&state, WARN)?;

    let follow = Follow {
        metric: objective.metric.clone(),
        direction: Some(objective.direction),
        step_key: reactive::step_key(
            args.prune
                .progress_step
                .as_deref()
                .or(file_prune.1.as_deref()),
        )?,
        rule: args
            .prune
            .prune
            .as_deref()
            .or(file_prune.0.as_deref())
            .map(reactive::parse_rule)
            .transpose()?,
    };
    let timeout = parse_timeout(objective.timeout.as_deref())?;
    let grace = parse_duration(&args.grace, "--grace")?;
    let heartbeat = attempts::heartbeat(&args.heartbeat)?;
    let spinner = Spinner::new(!ctx.out.quiet && !ctx.out.json);
    let data_on_stdout = ctx.out.json || args.events.as_deref() == Some("-");
    let (stdout_to, stderr_to) = attempts::sinks(ctx.out.quiet, data_on_stdout);
    let shown = super::Shown {
        spinner: spinner.clone(),
    };
    let runner = Runner {
        ctx,
        args,
        run: crate::ops::ratchet::Runner {
            objective: &objective,
            spec: RunSpec {
                argv: objective.command.clone(),
                shell: objective.shell,
                env: Vec::new(),
                cwd: None,
                timeout,
                grace,
                stop_after_result: None,
                heartbeat,
                stdout_to,
                stderr_to,
                passthrough: passthrough(&spinner),
                place,
            },
            interrupt: attempts::interrupt_flag()?,
            git: GitState {
                head: Some(candidate.head.clone()),
                branch: Some(repo.branch().to_string()),
                dirty: candidate.dirty,
            },
            follow,
            cwd: ctx.cwd()?,
            now: ctx.global.now.clone(),
            events: args.events.clone(),
            host: &shown,
            warn: WARN,
        },
        spinner,
    };

    if baseline_needed {
        let (exit, measured) = baseline(&runner, &repo, &state, &records, &kept, &candidate, rule)?;
        let Some(seg) = measured else {
            return Ok(exit);
        };
        if candidate.is_empty() {
            return Ok(exit);
        }
        segment = Some(seg);
        records = crate::io::state::journal(&state, WARN).read()?;
    }
    drop(baseline_lock);
    let mut segment = segment.expect("a segment with a kept commit");
    // The peers of the pruning rule: the segment's completed runs.
    let peers = reactive::peers(
        records
            .iter()
            .filter(|r| r.ratchet.as_ref().is_some_and(|i| i.segment == segment.id)),
        &runner.follow,
    );
    let (mut kept, mut candidate, mut protected) = (kept, candidate, protected);
    let mut carry = None;
    loop {
        let tried = try_candidate(
            &runner,
            &repo,
            &state,
            &segment,
            &kept,
            candidate,
            protected,
            rule,
            peers.clone(),
            lane.as_ref(),
            carry.take(),
        )?;
        let (mut c, mut best) = match tried {
            Tried::Done(exit) => return Ok(exit),
            Tried::Moved { carry, best } => (carry, best),
        };
        let lane = lane.as_ref().expect("only a lane's best moves");
        let refname = lane.before_sync_ref();
        // The commit the lane's work sits on.
        let mut on = kept.clone();
        let newest = loop {
            eprintln!(
                "arx: another lane kept {} while this try ran: replaying the candidate onto it",
                short(&best)
            );
            if let Replay::Conflicts(paths) = repo.replay_onto(&best, &refname)? {
                return stale(&runner, &repo, &state, &on, &best, c, paths, lane, rule);
            }
            on = best.clone();
            // Replayed more than once: the best keeps moving under it, so
            // the next measurement reserves the best (the keep lock, which
            // other lanes wait for only when they would keep) and is
            // decided against it: no candidate is starved by a stream of
            // other lanes' keeps.
            if c.replayed_from.len() >= 2 && c.held.is_none() {
                c.held = Some(crate::io::ratchet::lock_keep(&state)?);
            }
            let records = crate::io::state::journal(&state, WARN).read()?;
            let seg = crate::kernel::segment::current(&records, &objective.segment_id())
                .ok_or_else(|| anyhow::anyhow!("the journal no longer has this segment"))?;
            let Some(now) = seg.kept.as_ref().map(|k| k.commit.clone()) else {
                return Err(anyhow::anyhow!(
                    "the journal no longer has a best for this segment"
                ));
            };
            if now == best {
                break seg;
            }
            // Yet another lane kept meanwhile: replay again.
            c.replayed_from.push(best.clone());
            best = now;
        };
        segment = newest;
        kept = best;
        candidate = repo.candidate(&kept)?;
        protected = repo.protected_paths(&candidate, &objective.protect)?;
        carry = Some(c);
    }
}

/// `--lane NAME`: work from the lane's directory, as if run there.
fn enter_lane(ctx: &Ctx, name: &str) -> Result<()> {
    crate::ops::lanes::check_name(name)?;
    let lanes = crate::io::git::lane::Lanes::open(&ctx.cwd()?)?;
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

/// Before a lane's try: take up the keeps other lanes made since its work
/// started (its work replayed onto the best). A conflict stops the try and
/// changes nothing.
fn take_up_best(repo: &RatchetRepo, lane: &LaneCtx, best: &str) -> Result<()> {
    let refname = lane.before_sync_ref();
    match repo.replay_onto(best, &refname)? {
        Replay::Already => Ok(()),
        Replay::Replayed { .. } => {
            eprintln!(
                "arx: lane {}: took up the best {} (the work as it was is under {refname})",
                lane.name,
                short(best)
            );
            Ok(())
        }
        Replay::Conflicts(paths) => Err(Hinted::error(
            format!(
                "lane {}'s work conflicts with the best {} in {}; nothing was changed",
                lane.name,
                short(best),
                paths.join(", ")
            ),
            "merge the best into the lane by hand (git merge), or drop the conflicting change, then arx try again",
        )),
    }
}

/// What a candidate's measurement came to.
enum Tried {
    Done(Exit),
    /// It won, but another lane kept first: replay it onto `best` and
    /// measure it again, carrying the try's record on.
    Moved {
        carry: Carry,
        best: String,
    },
}

/// The try's record so far, when it is measured again.
struct Carry {
    run_id: String,
    start: jiff::Timestamp,
    wall: std::time::Instant,
    outcomes: Vec<crate::io::process::RunOutcome>,
    replayed_from: Vec<String>,
    /// The keep lock, held through the measurement (see `run`).
    held: Option<crate::io::ratchet::KeepLock>,
}

impl Carry {
    /// The try so far, measured against `kept` (added to the bests it was
    /// measured against, `replayed_from`), to go on onto a newer best.
    fn after(
        run_id: String,
        start: jiff::Timestamp,
        wall: std::time::Instant,
        outcomes: Vec<crate::io::process::RunOutcome>,
        mut replayed_from: Vec<String>,
        kept: &str,
    ) -> Carry {
        replayed_from.push(kept.to_string());
        Carry {
            run_id,
            start,
            wall,
            outcomes,
            replayed_from,
            held: None,
        }
    }
}

/// A candidate that won against a best that another lane replaced, and
/// does not apply to the new one: `stale`, set aside (restorable), and the
/// lane brought to the new best.
#[allow(clippy::too_many_arguments)]
fn stale(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    kept: &str,
    best: &str,
    carry: Carry,
    conflicts: Vec<String>,
    lane: &LaneCtx,
    rule: Rule,
) -> Result<Exit> {
    let description = runner.args.description.as_deref().map(subject);
    let mut i = info(runner.objective, TryStatus::Stale, kept, rule, description);
    i.lane = Some(lane.name.clone());
    // `kept` is the best it was last measured against; the field holds
    // the ones before.
    let mut replayed_from = carry.replayed_from;
    replayed_from.pop();
    i.replayed_from = replayed_from;
    let rec = record(
        runner,
        carry.run_id,
        carry.start,
        carry.wall.elapsed(),
        &carry.outcomes,
        Vec::new(),
        i,
    )?;
    let line = format!(
        "stale: another lane kept {} and the candidate conflicts with it in {} \u{2192} set aside, lane at the best",
        short(best),
        conflicts.join(", ")
    );
    let exit = discard(runner, repo, state, kept, rec, line, Exit::No)?;
    repo.replay_onto(best, &lane.before_sync_ref())?;
    Ok(exit)
}

#[allow(clippy::too_many_arguments)]
fn try_candidate(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    segment: &Segment,
    kept: &str,
    candidate: Candidate,
    protected: Vec<String>,
    rule: Rule,
    peers: Vec<Points>,
    lane: Option<&LaneCtx>,
    carry: Option<Carry>,
) -> Result<Tried> {
    let objective = runner.objective;
    let description = runner.args.description.as_deref().map(subject);
    let (run_id, start, wall, earlier, replayed_from, held) = match carry {
        Some(c) => (
            c.run_id,
            c.start,
            c.wall,
            c.outcomes,
            c.replayed_from,
            c.held,
        ),
        None => (
            attempts::new_run_id(),
            timestamp(runner.ctx.global.now.as_deref())?,
            std::time::Instant::now(),
            Vec::new(),
            Vec::new(),
            None,
        ),
    };
    let best = segment.kept.as_ref().expect("a kept commit");
    let best_estimate = super::estimate_of(best, segment, INTERVAL_CONFIDENCE);
    let mut i = info(
        objective,
        TryStatus::Discard,
        kept,
        rule,
        description.clone(),
    );
    i.paths = candidate.paths.clone();
    i.best = best_estimate.as_ref().map(|e| e.value);
    i.lane = lane.map(|l| l.name.clone());
    i.replayed_from = replayed_from.clone();

    if !protected.is_empty() {
        i.status = TryStatus::Protected;
        i.protected = protected.clone();
        let rec = record(
            runner,
            run_id,
            start,
            wall.elapsed(),
            &earlier,
            Vec::new(),
            i,
        )?;
        let line = format!(
            "protected: the candidate changes {} \u{2192} set aside, {} restored",
            protected.join(", "),
            short(kept)
        );
        return discard(runner, repo, state, kept, rec, line, Exit::No).map(Tried::Done);
    }

    let mut events = Events::open(runner.args.events.as_deref(), &run_id, start)?;
    let mut reactive = runner.reactive(state, &run_id, start, peers)?;
    let first = earlier.len();
    let mut outcomes = earlier;
    let mut samples: Vec<f64> = Vec::new();
    let settings = Settings {
        direction: objective.direction,
        min_effect: objective.min_effect,
        confidence: objective.confidence,
        repeat: objective.repeat,
        max_runs: objective.repeat.max(ratchet::DEFAULT_MAX_RUNS),
    };
    // With two slots or more, the candidate is compared with the best as
    // it measures on the candidate's slot (see `kernel::slot_offset`).
    let slot_count = runner
        .spec
        .place
        .as_ref()
        .map_or(0, |p| p.placement.slots.len());
    let mut slots = SlotCompare::new(slot_count, segment);
    let decision: Option<Decision> = loop {
        let n = outcomes.len() - first + 1;
        let label = if first > 0 {
            format!("candidate run {n} on the new best")
        } else {
            format!("candidate run {n}")
        };
        let o = runner.once(&mut events, &label, &mut reactive)?;
        let interrupted = o.interrupted;
        if o.pruned {
            outcomes.push(o);
            break None;
        }
        let sample = runner.sample(&o);
        let slot = o.slot.clone();
        outcomes.push(o);
        if interrupted {
            break None;
        }
        let Some(x) = sample else {
            break None;
        };
        samples.push(x);
        slots.ran(slot);
        if slots.needs_remeasure(kept) {
            let index = reactive.slot_index.unwrap_or_default();
            let frame = slots.frame.clone().unwrap_or_default();
            let again = crate::ops::ratchet::remeasure(
                runner,
                repo,
                state,
                kept,
                &candidate,
                rule,
                lane.map(|l| l.name.as_str()),
                (index, &frame),
            )?;
            slots.remeasured(kept, again.runs);
            if again.interrupted {
                slots.interrupted = true;
                break None;
            }
        }
        let (reference, candidate_values) = slots.compare(best, &samples);
        let groups = slots.groups();
        // The candidate's own runs are a replicate group too (the very
        // slice the decision is given, so that it counts once).
        let mut replicates = groups.clone();
        if candidate_values.len() > 1 {
            replicates.push(&candidate_values);
        }
        let evidence = Evidence {
            best: &reference,
            candidate: &candidate_values,
            replicates: &replicates,
            segment_values: &segment.values,
        };
        match ratchet::next_step(rule, &settings, &evidence) {
            Step::RunAgain => {
                // Another lane kept while this candidate, leaning better
                // than its best, is still being measured: replay it now
                // rather than finish measuring it against a best that is
                // gone (a winner would have to win twice). Not while it
                // holds the best reserved.
                if lane.is_some()
                    && held.is_none()
                    && ratchet::leans_better(&candidate_values, &reference, settings.direction)
                {
                    let now = crate::ops::lanes::segment_best(state, Some(&segment.id), WARN)?;
                    if let Some(now) = now.filter(|b| b != kept) {
                        runner.spinner.finish();
                        drop(reactive);
                        eprintln!(
                            "arx: the candidate leads after {} and the best moved: no decision against {}",
                            crate::output::count(samples.len() as u64, "run", "runs"),
                            short(kept)
                        );
                        let carry =
                            Carry::after(run_id, start, wall, outcomes, i.replayed_from, kept);
                        return Ok(Tried::Moved { carry, best: now });
                    }
                }
                continue;
            }
            Step::Decide(d) => break Some(d),
        }
    };
    runner.spinner.finish();
    let elapsed = wall.elapsed();
    let interrupted = outcomes.iter().any(|o| o.interrupted) || slots.interrupted;
    let last = outcomes.last().cloned().unwrap_or_default();
    let progress = reactive
        .progress()
        .filter(|p| p.curves.iter().any(|c| !c.is_empty()));
    let record = |runner: &Runner<'_>,
                  run_id: String,
                  start,
                  elapsed,
                  outcomes: &[crate::io::process::RunOutcome],
                  samples,
                  i|
     -> Result<RunRecord> {
        let mut rec = record(runner, run_id, start, elapsed, outcomes, samples, i)?;
        rec.progress = progress.clone();
        Ok(rec)
    };

    if interrupted {
        i.status = TryStatus::Interrupted;
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit("finished", elapsed, json!({"status": "interrupted"}));
        journal::record_run(state, &rec, WARN)?;
        runner.ctx.out.emit(&TryReport {
            record: rec,
            notes: vec!["the working tree is left as the candidate left it".into()],
            line: "interrupted: the try was journaled; nothing was kept or restored".into(),
        })?;
        attempts::resend_interrupt();
        return Ok(Tried::Done(Exit::Inconclusive));
    }

    let quoted = description
        .as_deref()
        .map(|d| format!(" \"{d}\""))
        .unwrap_or_default();
    if let Some(p) = reactive.pruned.clone() {
        i.status = TryStatus::Pruned;
        let mut rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        rec.status = Some(crate::kernel::journal::RunStatus::Pruned);
        let line = format!(
            "pruned: {}{quoted} \u{2192} set aside, {} restored",
            p.describe(),
            short(kept)
        );
        rec.pruned = Some(p);
        events.emit(
            "finished",
            elapsed,
            json!({"status": "pruned", "pruned": rec.pruned}),
        );
        let exit = discard(runner, repo, state, kept, rec, line, Exit::No);
        drop(reactive);
        return exit.map(Tried::Done);
    }
    let Some(d) = decision else {
        i.status = TryStatus::Crash;
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit("finished", elapsed, json!({"status": "crash"}));
        let why = if last.effective_exit_code() != 0 {
            format!(
                "exit code {} [{} {}]",
                last.exit_code,
                last.failure_class,
                last.failure_class.describe()
            )
        } else {
            format!("no {} reported", objective.metric)
        };
        let line = format!(
            "crash: {why}{quoted} \u{2192} set aside, {} restored",
            short(kept)
        );
        return discard(runner, repo, state, kept, rec, line, Exit::Inconclusive).map(Tried::Done);
    };

    i.improvement = Some(d.improvement);
    i.noise = d.noise;
    i.blind = d.blind;
    i.confirmed = d.confirmed;
    i.record_from = d.record_from;
    // A keep's value is the mean of its confirmation runs (the record).
    let recorded = if d.verdict == Verdict::Supported && d.record_from < samples.len() {
        &samples[d.record_from..]
    } else {
        &samples[..]
    };
    let mean = summarize(recorded).map_or(f64::NAN, |s| s.mean);
    let segment_noise = ratchet::pooled_noise(&slots.groups()).map(|(sd, _)| sd);
    let dp = decimals(d.noise.or(segment_noise), mean);
    i.slot_best = slots.slot_best(best);
    // What the candidate was compared with: the best on its slot, or as
    // recorded.
    let against = i.slot_best.as_ref().map(|b| b.value).or(i.best);
    let vs = match (&i.slot_best, i.best) {
        (Some(b), _) => format!(" vs {} on slot {}", num(b.value, dp), b.slot),
        (None, Some(b)) => format!(" vs {}", num(b, dp)),
        (None, None) => String::new(),
    };
    let best_runs = slots.reference_runs(best);
    let noise = match (ratchet::standing(&d, samples.len(), best_runs), d.noise) {
        (ratchet::Standing::Blind, _) | (_, None) => ", blind to noise".to_string(),
        (ratchet::Standing::Better, Some(sd)) => format!(", beyond noise {}", num(sd, dp)),
        (ratchet::Standing::Worse, Some(sd)) => format!(", worse beyond noise {}", num(sd, dp)),
        (ratchet::Standing::WithinNoise, Some(sd)) => format!(", within noise {}", num(sd, dp)),
        (ratchet::Standing::BetterUnconfirmed, Some(sd)) => {
            format!(", better but unconfirmed, noise {}", num(sd, dp))
        }
    };
    let diff = against
        .map(|b| format!("{}{vs}", signed(mean - b, dp)))
        .unwrap_or_default();
    let noise = if diff.is_empty() {
        noise.trim_start_matches(", ").to_string()
    } else {
        noise
    };
    let change = format!(
        "{} {} ({diff}{noise}){quoted}",
        objective.metric,
        num(mean, dp)
    );

    if d.verdict == Verdict::Supported {
        let checks = run_checks(runner, &objective.checks)?;
        let failed = checks.iter().find(|c| c.exit_code != 0).cloned();
        i.checks = checks;
        if let Some(f) = failed {
            i.status = TryStatus::ChecksFailed;
            let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
            events.emit("finished", elapsed, json!({"status": "checks_failed"}));
            let line = format!(
                "checks_failed: {change}; `{}` exited {} \u{2192} set aside, {} restored",
                f.command,
                f.exit_code,
                short(kept)
            );
            return discard(runner, repo, state, kept, rec, line, Exit::No).map(Tried::Done);
        }
        i.status = TryStatus::Keep;
        let mut message = description
            .clone()
            .unwrap_or_else(|| format!("arx try {}", run_short(&run_id)));
        message.push_str(&format!(
            "\n\nArx-Run: {run_id}\nArx-Metric: {} {} ({} vs {})\n",
            objective.metric,
            fmt_number(mean),
            fmt_number(mean - i.best.unwrap_or(mean)),
            i.best.map_or("-".to_string(), fmt_number),
        ));
        if !d.confirmed {
            message.push_str("Arx-Unconfirmed: true\n");
        }
        // A keep is a compare-and-swap of the best: under the
        // repository's keep lock, the journal's best must still be the one
        // this candidate was measured against.
        let keep = crate::ops::ratchet::keep(
            repo,
            state,
            lane,
            &segment.id,
            kept,
            &candidate,
            &message,
            held,
            WARN,
        )?;
        let (commit, keep_lock, notes) = match keep {
            crate::ops::ratchet::Keep::Moved { best } => {
                drop(reactive);
                let carry = Carry::after(run_id, start, wall, outcomes, i.replayed_from, kept);
                return Ok(Tried::Moved { carry, best });
            }
            crate::ops::ratchet::Keep::Kept {
                commit,
                lock,
                notes,
                warning,
            } => {
                if let Some(w) = warning {
                    warn(w);
                }
                (commit, lock, notes)
            }
        };
        i.commit = Some(commit.clone());
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit(
            "finished",
            elapsed,
            json!({"status": "keep", "commit": commit}),
        );
        journal::record_run(state, &rec, WARN)?;
        drop(keep_lock);
        finding_from_result(runner.ctx, state, &rec);
        let unconfirmed = if d.confirmed { "" } else { " (unconfirmed)" };
        runner.ctx.out.emit(&TryReport {
            record: rec,
            notes,
            line: format!("keep: {change} \u{2192} {}{unconfirmed}", short(&commit)),
        })?;
        return Ok(Tried::Done(Exit::Ok));
    }
    i.status = TryStatus::Discard;
    let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
    events.emit("finished", elapsed, json!({"status": "discard"}));
    let exit = if d.verdict == Verdict::Refuted {
        Exit::No
    } else {
        Exit::Inconclusive
    };
    let word = if d.verdict == Verdict::Refuted {
        "discard"
    } else {
        "discard (inconclusive)"
    };
    let line = format!(
        "{word}: {change} \u{2192} set aside, {} restored",
        short(kept)
    );
    discard(runner, repo, state, kept, rec, line, exit).map(Tried::Done)
}

/// Journal the try (a marker first, so a crash loses nothing), store the
/// candidate under `refs/arx/discarded/<run-id>`, restore the kept commit.
fn discard(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    kept: &str,
    rec: RunRecord,
    line: String,
    exit: Exit,
) -> Result<Exit> {
    let (rec, restored) = crate::ops::ratchet::discard(repo, state, kept, rec, WARN)?;
    finding_from_result(runner.ctx, state, &rec);
    let mut notes = Vec::new();
    if !restored.restored.is_empty() {
        notes.push(format!("restored: {}", restored.restored.join(", ")));
    }
    if !restored.removed.is_empty() {
        notes.push(format!("removed: {}", restored.removed.join(", ")));
    }
    notes.push(format!(
        "to put it back: arx restore {}",
        run_short(&rec.run_id)
    ));
    runner.ctx.out.emit(&TryReport {
        record: rec,
        notes,
        line,
    })?;
    Ok(exit)
}
