//! `arx try`: one iteration of the ratchet. The flags become one
//! [`TryRequest`], `ops::ratchet` makes it into an answer (see
//! `ops/ratchet/attempt.rs` for its steps), and the answer is rendered.

use anyhow::Result;

use super::{dry_run, Shown, TryReport};
use crate::cli::TryArgs;
use crate::commands::{paused_try, refuse_screened, Ctx, WARN};
use crate::error::Exit;
use crate::ops::attempts;
use crate::ops::ratchet::{self as ops_ratchet, Attempted, Planned, TryRequest};
use crate::output::Spinner;

pub fn run(ctx: &Ctx, args: &TryArgs) -> Result<Exit> {
    let req = request(ctx, args);
    let shown = Shown {
        spinner: Spinner::new(!ctx.out.quiet && !ctx.out.json),
        quiet: ctx.out.quiet,
    };
    let description = req.description.as_deref().unwrap_or_default();
    if args.dry_run {
        return match ops_ratchet::plan(&req, &shown, WARN)? {
            Planned::Plan(plan) => dry_run(ctx, *plan),
            Planned::Refused(m) => refuse_screened(ctx, description, &m),
        };
    }
    match ops_ratchet::attempt(&req, &shown, WARN)? {
        Attempted::Done(done) => tell(ctx, *done),
        Attempted::Paused { pending_gate } => paused_try(ctx, pending_gate),
        Attempted::Refused(m) => refuse_screened(ctx, description, &m),
    }
}

/// The request `arx try`'s flags and the global flags make.
pub fn request(ctx: &Ctx, args: &TryArgs) -> TryRequest {
    let g = &ctx.global;
    TryRequest {
        description: args.description.clone(),
        rule: args.rule.clone(),
        new_segment: args.new_segment,
        lane: args.lane.clone(),
        strict: args.strict,
        approve: args.approve,
        no_gates: args.no_gates,
        grace: args.grace.clone(),
        heartbeat: args.heartbeat.clone(),
        events: args.events.clone(),
        prune: args.prune.clone(),
        launch: args.launch.clone(),
        objective: args.objective.clone(),
        config: g.config.clone(),
        state_dir: g.state_dir.clone(),
        now: g.now.clone(),
        quiet: ctx.out.quiet,
        data_on_stdout: ctx.out.json || args.events.as_deref() == Some("-"),
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
