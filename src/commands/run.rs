//! `arx run`: the loop's RUN and MEASURE steps. Checks the `execute` gate
//! and the dead-end registry, runs the experiment (once, or `--repeat` N
//! times) through `io::process`, judges it through the kernel, journals it
//! and reports the verdict.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::json;

use super::{verdict_exit, Ctx};
use crate::cli::RunArgs;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::clock::{millis, parse_duration, parse_timeout, timestamp};
use crate::io::process::{self, RunEvent, RunOutcome, RunSpec, Sink};
use crate::io::state::{dead_ends, journal, Appended};
use crate::kernel::contract::{MetricSpec, Metrics};
use crate::kernel::gate::{check_gate, resolve_gates, Gate};
use crate::kernel::journal::{Attempt, RunRecord};
use crate::kernel::number::fmt_number;
use crate::kernel::promote::{approach_hash, build_dead_end_record};
use crate::kernel::stats::{check_confidence, interval_verdict};
use crate::kernel::verdict::{measure, ExperimentResult, Verdict, VerdictRecord};
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
}

fn plan(ctx: &Ctx, args: &RunArgs) -> Result<Plan> {
    let (spec, file_hypothesis) = if args.spec.given() {
        let (s, h) = args.spec.resolve()?;
        (Some(s), h)
    } else {
        (None, None)
    };
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
    let heartbeat = parse_duration(&args.heartbeat, "--heartbeat")?;
    if heartbeat.is_zero() {
        return Err(Hinted::error(
            "--heartbeat must be greater than zero",
            "e.g. --heartbeat 5s",
        ));
    }
    let spinner = if args.repeat > 1 {
        Spinner::bar(!ctx.out.quiet && !ctx.out.json, u64::from(args.repeat))
    } else {
        Spinner::new(!ctx.out.quiet && !ctx.out.json)
    };
    let data_on_stdout = ctx.out.json || args.events.as_deref() == Some("-");
    let (stdout_to, stderr_to) = if ctx.out.quiet {
        (Sink::Discard, Sink::Discard)
    } else if data_on_stdout {
        (Sink::Stderr, Sink::Stderr)
    } else {
        (Sink::Stdout, Sink::Stderr)
    };
    Ok(Plan {
        spec,
        hypothesis: args.hypothesis.clone().or(file_hypothesis),
        run: RunSpec {
            argv: args.command.clone(),
            shell: args.shell,
            cwd: None,
            timeout,
            grace,
            stop_after_result: args.stop_on_result.then_some(RESULT_GRACE),
            heartbeat,
            stdout_to,
            stderr_to,
            passthrough: super::passthrough(&spinner),
        },
        spinner,
        repeat: args.repeat,
        confidence,
    })
}

/// The loop's state (`--state KEY=VALUE`... or `--state-json`) and its
/// policy-cache fingerprint.
fn loop_state(args: &RunArgs) -> Result<Option<(serde_json::Value, String)>> {
    let features = if let Some(text) = &args.state_json {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Hinted::error(
                format!("--state-json is not valid JSON: {e}"),
                "e.g. --state-json '{\"task\": \"deploy\"}'",
            )
        })?;
        if !v.is_object() {
            return Err(Hinted::error(
                "--state-json must be a JSON object",
                "e.g. --state-json '{\"task\": \"deploy\"}'",
            ));
        }
        v
    } else if !args.state.is_empty() {
        let mut map = serde_json::Map::new();
        for pair in &args.state {
            let Some((k, v)) = pair.split_once('=') else {
                return Err(Hinted::error(
                    format!("--state {pair:?} is not KEY=VALUE"),
                    "e.g. --state task=deploy",
                ));
            };
            if k.is_empty() {
                return Err(Hinted::error(
                    format!("--state {pair:?} has an empty key"),
                    "e.g. --state task=deploy",
                ));
            }
            let value = match serde_json::from_str::<serde_json::Value>(v) {
                Ok(
                    x @ (serde_json::Value::Number(_)
                    | serde_json::Value::Bool(_)
                    | serde_json::Value::Null),
                ) => x,
                _ => serde_json::Value::String(v.to_string()),
            };
            map.insert(k.to_string(), value);
        }
        serde_json::Value::Object(map)
    } else {
        return Ok(None);
    };
    let fp = crate::engine::policy_cache::fingerprint(&features, None, None)
        .map_err(anyhow::Error::msg)?;
    Ok(Some((features, fp)))
}

/// Ask on the terminal; `false` when there is no terminal to ask on.
fn confirm(question: &str) -> bool {
    if !(io::stdin().is_terminal() && io::stderr().is_terminal()) {
        return false;
    }
    eprint!("{question} [y/N] ");
    let _ = io::stderr().flush();
    let mut answer = String::new();
    if io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES")
}

/// The `execute` gate before running `what`: proceed when it is off,
/// approved, or confirmed at an interactive prompt; otherwise report the
/// pause and return false.
pub(super) fn pass_execute_gate(
    ctx: &Ctx,
    approve: bool,
    no_gates: bool,
    what: &str,
) -> Result<bool> {
    let config = ctx.config()?;
    let gates = resolve_gates(&config.grd, no_gates);
    let check = check_gate(&gates, Gate::Execute, approve);
    if check.proceed || confirm(&format!("Run `{what}`?")) {
        return Ok(true);
    }
    ctx.out.emit(&Refusal {
        proceed: false,
        reason: "paused",
        pending_gate: check.pending_gate,
        approach_hash: None,
        detail: "pending gate execute (approve with --approve, or turn it off in arx.toml)".into(),
    })?;
    Ok(false)
}

/// Install the Ctrl-C / SIGTERM flag the runner polls.
pub(super) fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let interrupt = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&interrupt))
            .context("cannot install the signal handler")?;
    }
    Ok(interrupt)
}

#[derive(Serialize)]
struct Refusal {
    proceed: bool,
    reason: &'static str,
    pending_gate: Option<Gate>,
    approach_hash: Option<String>,
    detail: String,
}

impl Report for Refusal {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(out, "{b}{}{b:#}: {}", self.reason, self.detail)
    }
}

/// Events for `--events`, one JSON object per line, flushed as they happen.
struct Events {
    out: Option<Box<dyn Write>>,
    run_id: String,
    start: jiff::Timestamp,
}

impl Events {
    fn open(target: Option<&str>, run_id: &str, start: jiff::Timestamp) -> Result<Self> {
        let out: Option<Box<dyn Write>> = match target {
            None => None,
            Some("-") => Some(Box::new(io::stdout())),
            Some(path) => Some(Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open the events file {path}"))?,
            )),
        };
        Ok(Events {
            out,
            run_id: run_id.to_string(),
            start,
        })
    }

    fn emit(&mut self, event: &str, elapsed: Duration, mut fields: serde_json::Value) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        let time = self
            .start
            .checked_add(jiff::SignedDuration::try_from(elapsed).unwrap_or_default())
            .unwrap_or(self.start);
        if let Some(map) = fields.as_object_mut() {
            map.insert("event".into(), json!(event));
            map.insert("run_id".into(), json!(self.run_id));
            map.insert("time".into(), json!(millis(time)));
            map.insert("elapsed_ms".into(), json!(elapsed.as_millis() as u64));
        }
        let line = serde_json::to_string(&fields).unwrap_or_default();
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            // A reader that went away must not stop the experiment.
            self.out = None;
        }
    }
}

fn describe_metrics(m: &Metrics) -> String {
    m.iter()
        .take(3)
        .map(|(k, v)| format!("{k}={}", fmt_number(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One attempt, with live events and spinner messages.
fn attempt(
    plan: &Plan,
    events: &mut Events,
    interrupt: &Arc<AtomicBool>,
    label: &str,
    offset: Duration,
) -> Result<RunOutcome> {
    let spinner = plan.spinner.clone();
    spinner.set_message(label.to_string());
    let mut started = Duration::ZERO;
    let mut clock = std::time::Instant::now();
    process::run(&plan.run, interrupt, |event| match event {
        RunEvent::Started { pid } => {
            clock = std::time::Instant::now();
            started = offset;
            events.emit(
                "started",
                started,
                json!({"pid": pid, "command": plan.run.argv, "attempt": label}),
            );
        }
        RunEvent::Progress(m) => {
            spinner.set_message(format!("{label} · {}", describe_metrics(m)));
            events.emit("progress", offset + clock.elapsed(), json!({"metrics": m}));
        }
        RunEvent::Result(m) => {
            spinner.set_message(format!("{label} · result {}", describe_metrics(m)));
            events.emit("result", offset + clock.elapsed(), json!({"metrics": m}));
        }
        RunEvent::Heartbeat { elapsed } => {
            events.emit("heartbeat", offset + *elapsed, json!({}));
        }
    })
}

/// The human and JSON view of a finished run.
#[derive(Serialize)]
struct RunReport {
    #[serde(flatten)]
    record: RunRecord,
}

impl Report for RunReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = &self.record;
        let d = dim();
        match &r.verdict {
            Some(v) => {
                let s = verdict_style(v.verdict);
                write!(out, "{s}{}{s:#}: {}", v.verdict, v.detail)?;
            }
            None => {
                let b = bold();
                let what = if r.exit_code == 0 { "ok" } else { "failed" };
                write!(out, "{b}{what}{b:#}: exit code {}", r.exit_code)?;
                if !r.metrics.is_empty() {
                    write!(out, ", {}", describe_metrics(&r.metrics))?;
                }
            }
        }
        if r.failure_class != crate::kernel::failure::FailureClass::None && r.exit_code != 0 {
            write!(
                out,
                " {d}[{} {}]{d:#}",
                r.failure_class,
                r.failure_class.describe()
            )?;
        }
        if r.timed_out {
            write!(out, " {d}(timed out){d:#}")?;
        }
        if r.interrupted {
            write!(out, " {d}(interrupted){d:#}")?;
        }
        writeln!(out, " {d}run {}{d:#}", short_id(&r.run_id))
    }
}

fn short_id(id: &str) -> &str {
    id.get(..13).unwrap_or(id)
}

pub fn run(ctx: &Ctx, args: &RunArgs) -> Result<Exit> {
    let plan = plan(ctx, args)?;
    let loop_state = loop_state(args)?;
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;

    // The gate, then the dead-end registry: both before anything runs.
    if !pass_execute_gate(ctx, args.approve, args.no_gates, &plan.run.argv.join(" "))? {
        return Ok(Exit::No);
    }
    let hash = plan.hypothesis.as_deref().map(approach_hash);
    if let Some(h) = &hash {
        let known = dead_ends(&state, WARN)
            .read()?
            .into_iter()
            .find(|r| &r.approach_hash == h);
        if let Some(dead) = known {
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
                return Ok(Exit::No);
            }
            warn(format_args!(
                "running a known dead end ({}): {}",
                dead.approach_hash, dead.reason
            ));
        }
    }

    // Fail before the experiment, not after it, when the journal cannot be written.
    if !args.no_journal {
        journal(&state, WARN)
            .check_writable()
            .context("cannot write the run journal")?;
    }

    let interrupt = interrupt_flag()?;

    let run_id = uuid::Uuid::now_v7().to_string();
    let start = timestamp(ctx.global.now.as_deref())?;
    let mut events = Events::open(args.events.as_deref(), &run_id, start)?;
    let git = crate::io::git::state(&cwd, &state);
    let wall = std::time::Instant::now();

    let mut outcomes: Vec<RunOutcome> = Vec::new();
    for i in 0..plan.repeat {
        let label = if plan.repeat > 1 {
            format!("run {}", i + 1)
        } else {
            plan.run.argv.join(" ")
        };
        let outcome = attempt(&plan, &mut events, &interrupt, &label, wall.elapsed())?;
        if let Some(msg) = &outcome.spawn_error {
            warn(format_args!("cannot run the experiment: {msg}"));
        }
        let stop = outcome.interrupted || outcome.spawn_error.is_some();
        outcomes.push(outcome);
        plan.spinner.inc();
        if stop {
            break;
        }
    }
    plan.spinner.finish();
    let elapsed = wall.elapsed();
    let interrupted = outcomes.iter().any(|o| o.interrupted);

    let (verdict, samples, summary, interval, more_runs) = judge(&plan, &outcomes);
    let mut record = outcome_record(
        &Origin {
            run_id: run_id.clone(),
            start,
            elapsed,
            cwd: &cwd,
            git,
        },
        &plan.run,
        &outcomes,
        plan.repeat > 1,
    );
    record.hypothesis = plan.hypothesis.clone();
    record.approach_hash = hash;
    record.candidate = args.candidate.clone();
    record.tags = args.tags.clone();
    if let Some((features, fingerprint)) = loop_state.clone() {
        record.state = Some(features);
        record.state_fingerprint = Some(fingerprint);
    }
    record.spec = plan.spec.clone();
    record.verdict = verdict;
    record.samples = samples;
    record.summary = summary;
    record.interval = interval;
    record.more_runs = more_runs;
    events.emit(
        "finished",
        elapsed,
        json!({
            "exit_code": record.exit_code,
            "timed_out": record.timed_out,
            "interrupted": record.interrupted,
            "failure_class": record.failure_class,
            "metrics": record.metrics,
            "verdict": record.verdict,
        }),
    );
    if !args.no_journal {
        let span = journal(&state, WARN)
            .append(&record)
            .context("cannot write the run journal")?;
        // The engines' state follows the journal; a failure here is not the
        // run's: the state is rebuilt from the journal next time.
        if let Err(e) =
            crate::io::history::record_run(&state, &journal(&state, WARN).path, span, &record)
        {
            warn(format_args!("cannot update the precision state: {e:#}"));
        }
    }
    if args.promote {
        promote(ctx, &record, args.iteration)?;
    }
    ctx.out.emit(&RunReport {
        record: record.clone(),
    })?;
    if interrupted {
        // Let the shell see that we were interrupted (a loop stops).
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGINT);
    }
    Ok(match &record.verdict {
        Some(v) => verdict_exit(v.verdict),
        None if record.exit_code == 0 => Exit::Ok,
        None => Exit::Inconclusive,
    })
}

/// Where and when an invocation ran.
pub(super) struct Origin<'a> {
    pub run_id: String,
    pub start: jiff::Timestamp,
    pub elapsed: Duration,
    pub cwd: &'a std::path::Path,
    pub git: Option<crate::kernel::journal::GitState>,
}

/// A journal record of the attempts of one command; the caller adds the
/// spec, verdict and labels.
pub(super) fn outcome_record(
    origin: &Origin<'_>,
    run: &RunSpec,
    outcomes: &[RunOutcome],
    keep_attempts: bool,
) -> RunRecord {
    let last = outcomes.last().cloned().unwrap_or_default();
    let end = origin
        .start
        .checked_add(jiff::SignedDuration::try_from(origin.elapsed).unwrap_or_default())
        .unwrap_or(origin.start);
    RunRecord {
        run_id: origin.run_id.clone(),
        started_at: millis(origin.start),
        ended_at: millis(end),
        duration_ms: origin.elapsed.as_millis() as u64,
        command: run.argv.clone(),
        shell: run.shell,
        cwd: origin.cwd.display().to_string(),
        host: nix::unistd::gethostname()
            .ok()
            .map(|h| h.to_string_lossy().into_owned()),
        git: origin.git.clone(),
        hypothesis: None,
        approach_hash: None,
        candidate: None,
        tags: Vec::new(),
        state: None,
        state_fingerprint: None,
        spec: None,
        metrics: last.metrics,
        exit_code: last.exit_code,
        timed_out: last.timed_out,
        interrupted: outcomes.iter().any(|o| o.interrupted),
        stopped_on_result: last.stopped_on_result,
        failure_class: last.failure_class,
        verdict: None,
        stdout_tail: last.stdout_tail,
        stderr_tail: last.stderr_tail,
        attempts: if keep_attempts {
            outcomes
                .iter()
                .map(|o| Attempt {
                    exit_code: o.exit_code,
                    timed_out: o.timed_out,
                    failure_class: o.failure_class,
                    metrics: o.metrics.clone(),
                    duration_ms: o.duration.as_millis() as u64,
                })
                .collect()
        } else {
            Vec::new()
        },
        samples: Vec::new(),
        summary: None,
        interval: None,
        more_runs: None,
    }
}

type Judgement = (
    Option<VerdictRecord>,
    Vec<f64>,
    Option<crate::kernel::stats::Summary>,
    Option<(f64, f64)>,
    Option<u64>,
);

/// The verdict of the attempts: deterministic for one run, a confidence
/// interval over the samples for several.
fn judge(plan: &Plan, outcomes: &[RunOutcome]) -> Judgement {
    let Some(spec) = &plan.spec else {
        return (None, Vec::new(), None, None, None);
    };
    let last = outcomes.last().cloned().unwrap_or_default();
    if plan.repeat <= 1 {
        let result = ExperimentResult {
            exit_code: effective_exit_code(&last),
            metrics: last.metrics,
            failure_class: last.failure_class,
        };
        return (Some(measure(spec, &result)), Vec::new(), None, None, None);
    }
    let samples: Vec<f64> = outcomes
        .iter()
        .filter(|o| effective_exit_code(o) == 0)
        .filter_map(|o| o.metrics.get(&spec.metric_key))
        .collect();
    let mut v = interval_verdict(spec, &samples, plan.confidence);
    let failed = outcomes
        .iter()
        .filter(|o| effective_exit_code(o) != 0)
        .count();
    if failed > 0 {
        v.record.detail = format!(
            "{} ({failed} of {} runs failed)",
            v.record.detail,
            outcomes.len()
        );
    }
    (Some(v.record), samples, v.summary, v.interval, v.more_runs)
}

/// The exit code the verdict sees: an experiment that arx itself ended
/// after its result came in (`--stop-on-result`) did not fail.
fn effective_exit_code(o: &RunOutcome) -> i64 {
    if o.stopped_on_result && !o.metrics.is_empty() {
        0
    } else {
        o.exit_code
    }
}

/// `--promote`: a deterministic refutation goes to the dead-end registry.
fn promote(ctx: &Ctx, record: &RunRecord, iteration: i64) -> Result<()> {
    let (Some(verdict), Some(statement)) = (&record.verdict, &record.hypothesis) else {
        if record.hypothesis.is_none() {
            warn(
                "--promote needs a hypothesis (--hypothesis or the spec file's); nothing promoted",
            );
        }
        return Ok(());
    };
    let Some(dead) = build_dead_end_record(statement, iteration, verdict, Some(ctx.now()?)) else {
        if verdict.verdict == Verdict::Refuted {
            warn("only a deterministic refutation may promote a dead end; nothing promoted");
        }
        return Ok(());
    };
    let hash = dead.approach_hash.clone();
    let appended = dead_ends(&ctx.state_dir()?, WARN).append_unless(dead, |existing| {
        existing.iter().find(|r| r.approach_hash == hash).cloned()
    })?;
    if let Appended::Added(r) = appended {
        let mut err = io::stderr().lock();
        let _ = writeln!(
            err,
            "arx: promoted {} to dead end: {}",
            r.approach_hash, r.statement
        );
    }
    Ok(())
}
