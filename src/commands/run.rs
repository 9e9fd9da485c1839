//! `arx run`: the loop's RUN and MEASURE steps. Checks the `execute` gate
//! and the dead-end registry, runs the experiment (once, or `--repeat` N
//! times), judges it through the kernel, journals it and reports the
//! verdict.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use serde_json::json;

use super::{pass_execute_gate, pass_kg_write_gate, passthrough, verdict_exit, Ctx, Refusal, WARN};
use crate::cli::RunArgs;
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_duration, parse_timeout, timestamp};
use crate::io::events::Events;
use crate::io::process::{RunEvent, RunSpec};
use crate::kernel::contract::{MetricSpec, Metrics};
use crate::kernel::journal::RunRecord;
use crate::kernel::number::fmt_number;
use crate::kernel::outcome::{explain_unreported, judge, RunOutcome};
use crate::kernel::promote::approach_hash;
use crate::kernel::stats::check_confidence;
use crate::ops::attempts::{self, AttemptEvent};
use crate::ops::deadend::{self, Promotion};
use crate::ops::gate::GateFlags;
use crate::ops::journal;
use crate::ops::loop_state::loop_state;
use crate::ops::reactive::{self, LiveInfo, Reactive};
use crate::ops::result_format;
use crate::output::{bold, dim, verdict_style, warn, Report, Spinner};

/// Grace between a result line and the end of the experiment with
/// `--stop-on-result`.
const RESULT_GRACE: Duration = Duration::from_secs(1);

/// Validated settings of one `arx run`.
struct Plan {
    spec: Option<MetricSpec>,
    hypothesis: Option<String>,
    run: RunSpec,
    spinner: Spinner,
    repeat: u32,
    confidence: f64,
    /// The metric whose progress is followed (and the pruning rule).
    follow: Option<reactive::Follow>,
}

fn plan(ctx: &Ctx, args: &RunArgs) -> Result<Plan> {
    let (spec, file_hypothesis) = if args.spec.given() {
        let (s, h) = args.spec.resolve()?;
        (Some(s), h)
    } else {
        (None, None)
    };
    if let Some(h) = &args.hypothesis {
        super::require_text(h, "--hypothesis", "omit it, or state the hypothesis")?;
    }
    if args.repeat == 0 {
        return Err(Hinted::error(
            "--repeat must be at least 1",
            "omit it to run once",
        ));
    }
    if args.repeat > 1 && spec.is_none() {
        return Err(Hinted::error(
            "--repeat needs a metric spec to judge",
            "pass --metric KEY --cmp OP --target X, or --spec FILE",
        ));
    }
    let confidence = check_confidence(args.confidence)
        .map_err(|e| Hinted::error(format!("invalid --confidence: {e}"), "use e.g. 0.95"))?;
    let timeout = parse_timeout(args.timeout.as_deref())?;
    let grace = parse_duration(&args.grace, "--grace")?;
    let heartbeat = attempts::heartbeat(&args.heartbeat)?;
    let follow = reactive::follow_spec(&args.prune, spec.as_ref())?;
    let spinner = if args.repeat > 1 {
        Spinner::bar(!ctx.out.quiet && !ctx.out.json, u64::from(args.repeat))
    } else {
        Spinner::new(!ctx.out.quiet && !ctx.out.json)
    };
    let data_on_stdout = ctx.out.json || args.events.as_deref() == Some("-");
    let (stdout_to, stderr_to) = attempts::sinks(ctx.out.quiet, data_on_stdout);
    let config = ctx.config()?;
    let file = config.objective.as_ref();
    let place = crate::ops::placement::resolve(&args.launch, file, &ctx.state_dir()?)?;
    let result = result_format::for_output(&args.result, file)?;
    Ok(Plan {
        spec,
        hypothesis: args.hypothesis.clone().or(file_hypothesis),
        run: RunSpec {
            argv: args.command.clone(),
            shell: args.shell,
            env: Vec::new(),
            cwd: None,
            timeout,
            grace,
            stop_after_result: args.stop_on_result.then_some(RESULT_GRACE),
            heartbeat,
            stdout_to,
            stderr_to,
            passthrough: passthrough(&spinner),
            place,
            result,
            instances: None,
        },
        spinner,
        repeat: args.repeat,
        confidence,
        follow,
    })
}

fn describe_metrics(m: &Metrics) -> String {
    m.iter()
        .take(3)
        .map(|(k, v)| format!("{k}={}", fmt_number(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The human and JSON view of a finished run.
#[derive(Serialize)]
struct RunReport {
    #[serde(flatten)]
    record: RunRecord,
    /// The record is in the journal (`arx show` finds it).
    #[serde(skip)]
    journaled: bool,
}

impl Report for RunReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = &self.record;
        let d = dim();
        if let Some(p) = &r.pruned {
            let b = bold();
            write!(out, "{b}pruned{b:#}: {}", p.describe())?;
        } else {
            match &r.verdict {
                Some(v) => {
                    let s = verdict_style(v.verdict);
                    write!(out, "{s}{}{s:#}: {}", v.verdict, v.detail)?;
                }
                None => {
                    let b = bold();
                    if r.succeeded() && r.exit_code != 0 {
                        write!(out, "{b}ok{b:#}: ended after its result")?;
                    } else {
                        let what = if r.succeeded() { "ok" } else { "failed" };
                        write!(out, "{b}{what}{b:#}: exit code {}", r.exit_code)?;
                    }
                    if !r.metrics.is_empty() {
                        write!(out, ", {}", describe_metrics(&r.metrics))?;
                    }
                }
            }
        }
        if r.failure_class != crate::kernel::failure::FailureClass::None && !r.succeeded() {
            write!(
                out,
                " {d}[{} {}]{d:#}",
                r.failure_class,
                r.failure_class.describe_run(r.timed_out)
            )?;
        }
        if r.timed_out {
            write!(out, " {d}(timed out){d:#}")?;
        }
        if r.interrupted {
            write!(out, " {d}(interrupted){d:#}")?;
        }
        if self.journaled {
            writeln!(out, " {d}run {}{d:#}", short_id(&r.run_id))
        } else {
            writeln!(out, " {d}(not journaled){d:#}")
        }
    }
}

fn short_id(id: &str) -> &str {
    id.get(..13).unwrap_or(id)
}

pub fn run(ctx: &Ctx, args: &RunArgs) -> Result<Exit> {
    let plan = plan(ctx, args)?;
    let loop_state = loop_state(args.state_json.as_deref(), &args.state)?;
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;
    let hash = plan.hypothesis.as_deref().map(approach_hash);
    if !pass_gates(ctx, args, &plan, &state, hash.as_deref())? {
        return Ok(Exit::No);
    }
    if !args.no_journal {
        journal::check_writable(&state, WARN)?;
    }

    let interrupt = attempts::interrupt_flag()?;
    let run_id = attempts::new_run_id();
    let start = timestamp(ctx.global.now.as_deref())?;
    let mut events = Events::open(args.events.as_deref(), &run_id, start)?;
    let git = crate::io::git::state(&cwd, &state);
    let info = LiveInfo {
        run_id: &run_id,
        kind: "run",
        command: &plan.run.argv,
        shell: plan.run.shell,
        cwd: &cwd,
        start,
        since: std::time::Instant::now(),
        heartbeat: plan.run.heartbeat,
    };
    let mut reactive = start_reactive(args, &plan, &state, info)?;
    let (outcomes, elapsed) = run_attempts(&plan, &interrupt, &mut reactive, &mut events)?;
    let interrupted = outcomes.iter().any(|o| o.interrupted);
    if let Some(note) = outcomes.iter().find_map(|o| o.ignored.as_deref()) {
        warn(format_args!("{}", plan.run.result.ignored_warning(note)));
    }

    let mut judgement = judge(plan.spec.as_ref(), plan.repeat, plan.confidence, &outcomes);
    if let (Some(v), Some(spec), Some(last)) =
        (judgement.verdict.as_mut(), &plan.spec, outcomes.last())
    {
        explain_unreported(v, &plan.run.result, &spec.metric_key, &last.metrics);
        say_other_format(&plan.run.result, &spec.metric_key, last);
    }
    let record = RunRecord::builder(
        attempts::origin(run_id, start, elapsed, &cwd, git),
        plan.run.argv.clone(),
        plan.run.shell,
        &outcomes,
        plan.repeat > 1,
    )
    .hypothesis(plan.hypothesis.clone(), hash)
    .candidate(args.candidate.clone())
    .tags(args.tags.clone())
    .loop_state(loop_state)
    .spec(plan.spec.clone())
    .judgement(judgement)
    .pruned(reactive.pruned.clone())
    .progress(reactive.progress())
    .build();
    events.emit(
        "finished",
        elapsed,
        json!({
            "status": record.status,
            "pruned": record.pruned,
            "exit_code": record.exit_code,
            "timed_out": record.timed_out,
            "interrupted": record.interrupted,
            "failure_class": record.failure_class,
            "metrics": record.metrics,
            "verdict": record.verdict,
        }),
    );
    let exit = finish(ctx, args, &state, record)?;
    drop(reactive); // the live file goes once the run is journaled
    if interrupted {
        attempts::resend_interrupt();
    }
    Ok(exit)
}

/// The gate, then the dead-end registry: both before anything runs. False
/// when the run is refused (the refusal is reported).
fn pass_gates(
    ctx: &Ctx,
    args: &RunArgs,
    plan: &Plan,
    state: &Path,
    hash: Option<&str>,
) -> Result<bool> {
    if !pass_execute_gate(ctx, args.approve, args.no_gates, &plan.run.argv.join(" "))? {
        return Ok(false);
    }
    // `--promote` writes a dead end: its gate too, before anything runs.
    let kg = GateFlags {
        approve: args.approve,
        no_gates: args.no_gates,
    };
    if args.promote && !pass_kg_write_gate(ctx, kg, "a refuted hypothesis as a dead end")? {
        return Ok(false);
    }
    if let Some(h) = hash {
        if let Some(dead) = deadend::known(state, h, WARN)? {
            if !args.force {
                ctx.out.emit(&Refusal {
                    proceed: false,
                    reason: "known dead end",
                    pending_gate: None,
                    approach_hash: Some(dead.approach_hash.clone()),
                    detail: format!(
                        "{} ({}); use --force to run it anyway",
                        dead.statement, dead.reason
                    ),
                })?;
                return Ok(false);
            }
            warn(format_args!(
                "running a known dead end ({}): {}",
                dead.approach_hash, dead.reason
            ));
        }
    }
    Ok(true)
}

/// The run's live file and progress follower (off with `--no-journal`).
fn start_reactive(
    args: &RunArgs,
    plan: &Plan,
    state: &Path,
    info: LiveInfo<'_>,
) -> Result<Reactive> {
    if args.no_journal {
        return Ok(Reactive::off());
    }
    let peers = match plan.follow.as_ref().filter(|f| f.rule.is_some()) {
        Some(f) => reactive::peers(&crate::io::state::journal(state, WARN).read()?, f),
        None => Vec::new(),
    };
    Ok(Reactive::start(
        state,
        info,
        plan.follow.clone(),
        peers,
        WARN,
    ))
}

/// Run the experiment `plan.repeat` times, its progress on the spinner and
/// in the event stream.
fn run_attempts(
    plan: &Plan,
    interrupt: &Arc<AtomicBool>,
    reactive: &mut Reactive,
    events: &mut Events,
) -> Result<(Vec<RunOutcome>, Duration)> {
    let mut label = String::new();
    let run_label = plan.run.argv.join(" ");
    let done = attempts::run_attempts_reacting(
        &plan.run,
        plan.repeat,
        interrupt,
        reactive,
        &run_label,
        |e| match e {
            AttemptEvent::Begin { index } => {
                label = if plan.repeat > 1 {
                    format!("run {}", index + 1)
                } else {
                    plan.run.argv.join(" ")
                };
                plan.spinner.set_message(label.clone());
            }
            AttemptEvent::Run { event, elapsed } => {
                match event {
                    // Formatting is not free at thousands of lines a second:
                    // only for a spinner that is drawn.
                    RunEvent::Progress(m) if plan.spinner.visible() => plan
                        .spinner
                        .set_message(format!("{label} · {}", describe_metrics(m))),
                    RunEvent::Result(m) => plan
                        .spinner
                        .set_message(format!("{label} · result {}", describe_metrics(m))),
                    _ => {}
                }
                events.emit_run(event, elapsed, &plan.run.argv, &label);
            }
            AttemptEvent::End { outcome } => {
                if outcome.output_held {
                    warn(super::OUTPUT_HELD);
                }
                if let Some(msg) = &outcome.spawn_error {
                    warn(format_args!("cannot run the experiment: {msg}"));
                }
                plan.spinner.inc();
            }
        },
    )?;
    plan.spinner.finish();
    Ok(done)
}

/// Journal the record (and its finding), promote it with `--promote`,
/// report it; the exit its verdict gives.
fn finish(ctx: &Ctx, args: &RunArgs, state: &Path, record: RunRecord) -> Result<Exit> {
    if !args.no_journal {
        journal::record_run(state, &record, WARN)?;
        super::finding_from_result(ctx, state, &record);
    }
    if args.promote {
        promote(ctx, &record, args.iteration)?;
    }
    let report = RunReport {
        record: record.clone(),
        journaled: !args.no_journal,
    };
    if args.events.as_deref() == Some("-") {
        // stdout is the event stream: it stays pure NDJSON.
        ctx.out.emit_stderr(&report)?;
    } else {
        ctx.out.emit(&report)?;
    }
    answer_of_run(ctx, &record);
    if record.pruned.is_some() {
        return Ok(Exit::No);
    }
    Ok(match &record.verdict {
        Some(v) => verdict_exit(v.verdict),
        None if record.succeeded() => Exit::Ok,
        None => Exit::Inconclusive,
    })
}

/// The answer's line of a run (under `--json`): its verdict and the next
/// step, or that it was pruned, or how it ended without a metric spec.
fn answer_of_run(ctx: &Ctx, record: &RunRecord) {
    let id = &record.run_id;
    if record.pruned.is_some() {
        return ctx.answer(
            &format!("pruned: run {id} was hopeless and ended"),
            "try another approach",
        );
    }
    match &record.verdict {
        Some(v) => ctx.answer(
            &format!("{}: {} (run {id})", v.verdict, v.detail),
            super::verdict_next(v.verdict),
        ),
        None if record.succeeded() => ctx.answer(
            &format!("ran: run {id} exited 0 (no metric spec, no verdict)"),
            "read its metrics (`arx show`)",
        ),
        None => ctx.answer(
            &format!("failed: run {id} did not succeed"),
            "fix what its output says (`arx show`)",
        ),
    }
}

/// `--promote`: a deterministic refutation goes to the dead-end registry.
fn promote(ctx: &Ctx, record: &RunRecord, iteration: i64) -> Result<()> {
    match deadend::promote(&ctx.state_dir()?, record, iteration, ctx.now()?, WARN)? {
        Promotion::NoHypothesis => {
            warn("--promote needs a hypothesis (--hypothesis or the spec file's); nothing promoted")
        }
        Promotion::NotDeterministic => {
            warn("only a deterministic refutation may promote a dead end; nothing promoted")
        }
        Promotion::Added(r) => {
            let mut err = io::stderr().lock();
            let _ = writeln!(
                err,
                "arx: promoted {} to dead end: {}",
                r.approach_hash, r.statement
            );
        }
        Promotion::NoVerdict | Promotion::NotRefuted | Promotion::Existing(_) => {}
    }
    Ok(())
}

/// Output with no result read in the default format that another format
/// reads: that format said on stderr (the verdict's detail stays the
/// reference's).
fn say_other_format(
    format: &crate::kernel::contract::ResultFormat,
    metric: &str,
    last: &RunOutcome,
) {
    if let Some((name, keys)) = crate::kernel::objective::other_format(
        format,
        !last.metrics.is_empty(),
        metric,
        &last.stdout_tail,
    ) {
        warn(format_args!(
            "the output has no __RESULT__ line but looks like format = \"{name}\" \
             ({keys} found): pass --result-format {name}, or set format = \"{name}\" \
             under [objective] in arx.toml"
        ));
    }
}
