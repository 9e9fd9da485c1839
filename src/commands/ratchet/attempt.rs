//! `arx try`: one iteration of the ratchet. Measures the baseline when the
//! segment has none, runs the candidate until the rule decides, then keeps
//! it as a commit or journals it, stores it under `refs/arx/discarded/` and
//! restores the last kept commit, in that order.

use anyhow::{Context, Result};

use super::{dry_run, load, load_summary, recover, rule_of, short, Loaded, Summary, TryReport};
use crate::cli::TryArgs;
use crate::commands::{pass_execute_gate_for_try, passthrough, screen_description, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_duration, parse_timeout, timestamp};
use crate::io::git::ratchet::{RatchetRepo, Replay};
use crate::io::process::RunSpec;
use crate::io::ratchet::{lock_try, TryHolder, TryLock};
use crate::kernel::journal::GitState;
use crate::kernel::report::SegmentFold;
use crate::kernel::segment::Segment;
use crate::ops::attempts::{self};
use crate::ops::journal;
use crate::ops::lanes::LaneCtx;
use crate::ops::ratchet::{self as ops_ratchet, Tried};
use crate::ops::reactive::{self, Follow};
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
    // With two slots or more: where the best has runs to compare with.
    let slots = crate::ops::placement::resolve(
        &args.launch,
        crate::io::config::load(ctx.global.config.as_deref(), &cwd)?
            .objective
            .as_ref(),
        &state,
    )?
    .map_or(0, |p| p.placement.slots.len());
    let on_slots = match &segment {
        Some(seg) if slots >= 2 && seg.noise().is_some() => {
            let mut on: Vec<&str> = seg
                .slot_runs
                .iter()
                .find(|c| c.commit == kept)
                .map(|c| c.by_slot.keys().map(String::as_str).collect())
                .unwrap_or_default();
            on.sort_unstable();
            Some(format!(
                "compare it with the best as it measures on the slot it runs on (the best has runs on {}); \
                 on a slot whose offset to those is not known, first measure the best there ({})",
                if on.is_empty() {
                    "no slot yet".to_string()
                } else {
                    format!("slot {}", on.join(", "))
                },
                crate::output::count(objective.baseline_repeat, "run", "runs")
            ))
        }
        _ => None,
    };
    dry_run(
        ctx,
        &objective,
        baseline_needed,
        &kept,
        &candidate,
        protected,
        first,
        on_slots,
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
        quiet: ctx.out.quiet,
    };
    let runner = ops_ratchet::Runner {
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
        description: args.description.clone(),
        quiet: ctx.out.quiet,
        new_segment: args.new_segment,
    };

    if baseline_needed {
        let measured =
            ops_ratchet::baseline(&runner, &repo, &state, &records, &kept, &candidate, rule)?;
        if let Some(done) = measured.done {
            return tell(ctx, done);
        }
        segment = measured.segment;
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
        let tried = ops_ratchet::try_candidate(
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
        let (c, best) = match tried {
            Tried::Done(done) => return tell(ctx, *done),
            Tried::Moved { carry, best } => (carry, best),
        };
        let lane = lane.as_ref().expect("only a lane's best moves");
        let (newest, best, c) = match ops_ratchet::replay_moved(
            &runner,
            &repo,
            &state,
            lane,
            &kept,
            (best, c),
            rule,
        )? {
            ops_ratchet::Replayed::Stale(done) => return tell(ctx, done),
            ops_ratchet::Replayed::Onto {
                segment,
                best,
                carry,
            } => (segment, best, carry),
        };
        segment = newest;
        kept = best;
        candidate = repo.candidate(&kept)?;
        protected = repo.protected_paths(&candidate, &objective.protect)?;
        carry = Some(c);
    }
}

/// Tell how a try ended (its report on stdout), then exit with its code
/// (or as the Ctrl-C that stopped it would have).
fn tell(ctx: &Ctx, done: ops_ratchet::Done) -> Result<Exit> {
    ctx.out.emit(&TryReport {
        record: done.record,
        notes: done.notes,
        line: done.line,
    })?;
    if done.interrupted {
        attempts::resend_interrupt();
    }
    Ok(done.exit)
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
