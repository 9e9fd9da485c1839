//! `arx try`: one iteration of the ratchet. The flags become one
//! [`TryRequest`], `ops::ratchet` makes it into an answer (see
//! `ops/ratchet/attempt.rs` for its steps), and the answer is rendered.

use anyhow::Result;

use super::{answer_with, dry_run, paused_try, refuse_repeat, refuse_screened, Shown, TryReport};
use crate::cli::TryArgs;
use crate::commands::{Ctx, WARN};
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
            Planned::Repeat { idea, detail } => refuse_repeat(ctx, &idea, detail),
        };
    }
    match ops_ratchet::attempt(&req, &shown, WARN)? {
        Attempted::Done(done) => tell(ctx, *done),
        Attempted::Paused { pending_gate } => paused_try(ctx, pending_gate),
        Attempted::Refused(m) => refuse_screened(ctx, description, &m),
        Attempted::Repeat { idea, detail } => refuse_repeat(ctx, &idea, detail),
        Attempted::ConfigChange {
            kept,
            config,
            in_lane,
        } => super::config_change(ctx, &kept, config, in_lane),
    }
}

/// The request `arx try`'s flags and the global flags make.
pub fn request(ctx: &Ctx, args: &TryArgs) -> TryRequest {
    let g = &ctx.global;
    TryRequest {
        description: args.description.clone(),
        idea: args.idea.clone(),
        retry_because: args.because.clone().filter(|_| args.retry),
        family: args.family.clone(),
        rule: args.rule.clone(),
        new_segment: args.new_segment,
        lane: args.lane.clone(),
        strict: args.strict,
        approve: args.approve,
        no_repeat: args.no_repeat,
        because: args.because.clone().filter(|_| args.retry),
        no_gates: args.no_gates,
        grace: args.grace.clone(),
        heartbeat: args.heartbeat.clone(),
        events: anchored_events(args.events.as_deref()),
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

/// `--events FILE` names a file where arx was started, lane or not (`-`
/// is stdout).
fn anchored_events(events: Option<&str>) -> Option<String> {
    match (events, std::env::current_dir()) {
        (Some(path), Ok(start)) if path != "-" => Some(
            crate::commands::anchored(std::path::Path::new(path), &start)
                .display()
                .to_string(),
        ),
        (other, _) => other.map(str::to_string),
    }
}

/// Tell how a try ended (its report on stdout), then exit with its code
/// (or as the Ctrl-C that stopped it would have).
fn tell(ctx: &Ctx, done: ops_ratchet::Done) -> Result<Exit> {
    let outcome = done.outcome();
    let line = done.line.clone();
    let exit = answer_with(
        ctx,
        outcome,
        line,
        &TryReport {
            record: done.record,
            notes: done.notes,
            line: done.line,
        },
    )?;
    if done.interrupted {
        attempts::resend_interrupt();
    }
    Ok(exit)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};
    use crate::output::{Color, Output};

    /// The request a command line makes.
    fn request_of(argv: &[&str]) -> TryRequest {
        let cli = Cli::try_parse_from(argv).unwrap();
        let ctx = Ctx {
            out: Output::new(cli.global.json, cli.global.quiet, Color::Never),
            global: cli.global,
        };
        let Command::Try(args) = &cli.command else {
            panic!("not a try: {argv:?}");
        };
        request(&ctx, args)
    }

    #[test]
    fn the_command_line_the_mcp_server_runs_makes_one_request_with_every_field() {
        // As the MCP server's `try` tool runs it: its global flags, --json,
        // the events flags, then the call's flags.
        let req = request_of(&[
            "arx",
            "--state-dir=/s",
            "--now=2026-01-01T00:00:00Z",
            "--color",
            "never",
            "--json",
            "try",
            "--events=/tmp/e.ndjson",
            "--heartbeat=2s",
            "--approve",
            "--description=lower lr",
            "--rule=mad",
            "--new-segment",
            "--lane=a",
            "--metric=loss",
            "--direction=min",
            "--repeat=2",
            "--check=true",
        ]);
        assert_eq!(req.description.as_deref(), Some("lower lr"));
        assert_eq!(req.rule.as_deref(), Some("mad"));
        assert!(req.new_segment && req.approve && !req.no_gates && !req.strict);
        assert_eq!(req.lane.as_deref(), Some("a"));
        assert_eq!(req.events.as_deref(), Some("/tmp/e.ndjson"));
        assert_eq!((req.heartbeat.as_str(), req.grace.as_str()), ("2s", "5s"));
        assert_eq!(req.objective.metric.as_deref(), Some("loss"));
        assert_eq!(req.objective.direction.as_deref(), Some("min"));
        assert_eq!(req.objective.repeat, Some(2));
        assert_eq!(req.objective.checks, ["true"]);
        assert_eq!(req.state_dir.as_deref(), Some(std::path::Path::new("/s")));
        assert_eq!(req.now.as_deref(), Some("2026-01-01T00:00:00Z"));
        // --json: the answer is data on stdout, the experiment's output
        // goes to stderr.
        assert!(req.data_on_stdout && !req.quiet);
        let plain = request_of(&["arx", "try"]);
        assert!(!plain.data_on_stdout && plain.description.is_none());
        assert!(request_of(&["arx", "try", "--events", "-"]).data_on_stdout);
    }
}
