//! `arx compare`: a baseline and a candidate command, run interleaved
//! (A B A B ...) so that drift affects both, judged by Welch's t-test on the
//! candidate's improvement. Running goes through `io::process`, the verdict
//! through `kernel::stats`; both sides are journaled.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use super::{pass_execute_gate, passthrough, verdict_exit, Ctx, WARN};
use crate::cli::CompareArgs;
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_timeout, timestamp};
use crate::io::process::{RunOutcome, RunSpec, Sink};
use crate::kernel::journal::RunRecord;
use crate::kernel::journal::{short_id, short_id_len, SHORT_ID_LEN};
use crate::kernel::number::fmt_sig;
use crate::kernel::stats::{check_confidence, welch_verdict, Direction, Summary, WelchVerdict};
use crate::kernel::verdict::VerdictRecord;
use crate::ops::attempts::{self, AttemptEvent};
use crate::ops::journal;
use crate::output::{dim, verdict_style, warn, Report, Spinner};

#[derive(Serialize)]
struct CompareReport {
    #[serde(flatten)]
    record: VerdictRecord,
    baseline: Option<Summary>,
    candidate: Option<Summary>,
    improvement: Option<f64>,
    interval: Option<(f64, f64)>,
    df: Option<f64>,
    t: Option<f64>,
    p_value: Option<f64>,
    direction: Direction,
    min_effect: f64,
    baseline_samples: Vec<f64>,
    candidate_samples: Vec<f64>,
    /// Run ids of the journal records (baseline, candidate).
    run_ids: Vec<String>,
}

impl Report for CompareReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = &self.record;
        let (s, d) = (verdict_style(r.verdict), dim());
        writeln!(out, "{s}{}{s:#}: {}", r.verdict, r.detail)?;
        if let (Some(b), Some(c)) = (&self.baseline, &self.candidate) {
            writeln!(
                out,
                "{d}baseline  mean {} sd {} (n={}){d:#}",
                fmt_sig(b.mean, 6),
                fmt_sig(b.sd, 6),
                b.n
            )?;
            writeln!(
                out,
                "{d}candidate mean {} sd {} (n={}){d:#}",
                fmt_sig(c.mean, 6),
                fmt_sig(c.sd, 6),
                c.n
            )?;
        }
        if let [b, c] = &self.run_ids[..] {
            let len = short_id_len([b.as_str(), c.as_str()], SHORT_ID_LEN);
            writeln!(
                out,
                "{d}journaled: baseline run {}, candidate run {}{d:#}",
                short_id(b, len),
                short_id(c, len)
            )?;
        }
        Ok(())
    }
}

fn samples(outcomes: &[RunOutcome], key: &str) -> Vec<f64> {
    outcomes
        .iter()
        .filter(|o| o.exit_code == 0)
        .filter_map(|o| o.metrics.get(key))
        .collect()
}

impl CompareReport {
    /// The report of the test's `result` on the two sides' samples.
    fn new(
        result: WelchVerdict,
        direction: Direction,
        min_effect: f64,
        (baseline_samples, candidate_samples): (Vec<f64>, Vec<f64>),
        run_ids: Vec<String>,
    ) -> CompareReport {
        let WelchVerdict {
            record,
            baseline,
            candidate,
            improvement,
            interval,
            df,
            t,
            p_value,
        } = result;
        CompareReport {
            record,
            baseline,
            candidate,
            improvement,
            interval,
            df,
            t,
            p_value,
            direction,
            min_effect,
            baseline_samples,
            candidate_samples,
            run_ids,
        }
    }
}

pub fn run(ctx: &Ctx, args: &CompareArgs) -> Result<Exit> {
    let (direction, confidence) = check_args(args)?;
    let timeout = parse_timeout(args.timeout.as_deref())?;
    if !pass_execute_gate(
        ctx,
        args.approve,
        args.no_gates,
        &format!("{} / {}", args.baseline, args.candidate),
    )? {
        return Ok(Exit::No);
    }
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;
    if !args.no_journal {
        journal::check_writable(&state, WARN)?;
    }
    let start = timestamp(ctx.global.now.as_deref())?;
    let git = crate::io::git::state(&cwd, &state);
    let sides = Sides::run(ctx, args, timeout)?;
    let (b, c) = (
        samples(&sides.base_runs, &args.metric),
        samples(&sides.cand_runs, &args.metric),
    );
    let result = welch_verdict(&b, &c, direction, args.min_effect, confidence);

    let tag = format!("compare:{}", uuid::Uuid::now_v7());
    let mut run_ids = Vec::new();
    let mut records = Vec::new();
    for (name, spec, runs, samples) in [
        ("baseline", &sides.base_spec, &sides.base_runs, &b),
        ("candidate", &sides.cand_spec, &sides.cand_runs, &c),
    ] {
        let origin = attempts::origin(
            attempts::new_run_id(),
            start,
            sides.elapsed,
            &cwd,
            git.clone(),
        );
        let record = RunRecord::builder(origin, spec.argv.clone(), spec.shell, runs, true)
            .candidate(Some(name.to_string()))
            .tags(vec![tag.clone(), name.to_string()])
            .samples(samples.clone(), crate::kernel::stats::summarize(samples))
            .verdict((name == "candidate").then(|| result.record.clone()))
            .build();
        run_ids.push(record.run_id.clone());
        records.push(record);
    }
    if !args.no_journal {
        journal::append(&state, &records, WARN)?;
    }
    let interrupted = sides
        .base_runs
        .iter()
        .chain(&sides.cand_runs)
        .any(|o| o.interrupted);
    let verdict = result.record.verdict;
    ctx.out.emit(&CompareReport::new(
        result,
        direction,
        args.min_effect,
        (b, c),
        run_ids,
    ))?;
    if interrupted {
        attempts::resend_interrupt();
    }
    Ok(verdict_exit(verdict))
}

/// The direction and confidence, once the arguments are checked.
fn check_args(args: &CompareArgs) -> Result<(Direction, f64)> {
    let direction: Direction = args.direction.parse().map_err(anyhow::Error::msg)?;
    let confidence = check_confidence(args.confidence)
        .map_err(|e| Hinted::error(format!("invalid --confidence: {e}"), "use e.g. 0.95"))?;
    if args.metric.is_empty() {
        return Err(Hinted::error(
            "--metric must not be empty",
            "e.g. --metric acc",
        ));
    }
    if !args.min_effect.is_finite() {
        return Err(Hinted::error(
            "--min-effect must be a finite number",
            "e.g. --min-effect 0.01",
        ));
    }
    if args.runs < 2 {
        return Err(Hinted::error(
            "--runs must be at least 2 (a t-test needs two samples a side)",
            "e.g. --runs 8",
        ));
    }
    Ok((direction, confidence))
}

/// The two sides' commands and their runs, interleaved.
struct Sides {
    base_spec: RunSpec,
    cand_spec: RunSpec,
    base_runs: Vec<RunOutcome>,
    cand_runs: Vec<RunOutcome>,
    elapsed: Duration,
}

impl Sides {
    /// Run baseline and candidate in turn, `--runs` times each (fewer when
    /// interrupted).
    fn run(ctx: &Ctx, args: &CompareArgs, timeout: Option<Duration>) -> Result<Sides> {
        let interrupt = attempts::interrupt_flag()?;
        let spinner = Spinner::bar(!ctx.out.quiet && !ctx.out.json, 2 * u64::from(args.runs));
        let sink = if ctx.out.quiet {
            Sink::Discard
        } else {
            Sink::Stderr
        };
        let side = |cmd: &str| RunSpec {
            argv: vec![cmd.to_string()],
            shell: true,
            env: Vec::new(),
            cwd: None,
            timeout,
            grace: Duration::from_secs(5),
            stop_after_result: None,
            heartbeat: Duration::from_secs(3600),
            stdout_to: sink,
            stderr_to: sink,
            passthrough: passthrough(&spinner),
            place: None,
            result: Default::default(),
            instances: None,
        };
        let (base_spec, cand_spec) = (side(&args.baseline), side(&args.candidate));
        let wall = Instant::now();
        let mut base_runs = Vec::new();
        let mut cand_runs = Vec::new();
        'runs: for i in 0..args.runs {
            for (name, spec, runs) in [
                ("baseline", &base_spec, &mut base_runs),
                ("candidate", &cand_spec, &mut cand_runs),
            ] {
                spinner.set_message(format!("run {}/{} {name}", i + 1, args.runs));
                let (mut outcome, _) = attempts::run_attempts(spec, 1, &interrupt, |e| {
                    if let AttemptEvent::End { outcome } = e {
                        if outcome.output_held {
                            warn(super::OUTPUT_HELD);
                        }
                        if let Some(msg) = &outcome.spawn_error {
                            warn(format_args!("cannot run the {name}: {msg}"));
                        }
                    }
                })?;
                let outcome = outcome.remove(0);
                let stop = outcome.interrupted;
                runs.push(outcome);
                spinner.inc();
                if stop {
                    break 'runs;
                }
            }
        }
        spinner.finish();
        Ok(Sides {
            base_spec,
            cand_spec,
            base_runs,
            cand_runs,
            elapsed: wall.elapsed(),
        })
    }
}
