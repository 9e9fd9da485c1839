//! `arx compare`: a baseline and a candidate command, run interleaved
//! (A B A B ...) so that drift affects both, judged by Welch's t-test on the
//! candidate's improvement. Running goes through `io::process`, the verdict
//! through `kernel::stats`; both sides are journaled.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use super::run::{interrupt_flag, outcome_record, pass_execute_gate, Origin};
use super::{verdict_exit, Ctx};
use crate::cli::CompareArgs;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_timeout, timestamp};
use crate::io::process::{self, RunOutcome, RunSpec, Sink};
use crate::io::state::journal;
use crate::kernel::stats::{check_confidence, welch_verdict, Direction, Summary, WelchVerdict};
use crate::kernel::verdict::VerdictRecord;
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
                "{d}baseline  mean {:.6} sd {:.6} (n={}){d:#}",
                b.mean, b.sd, b.n
            )?;
            writeln!(
                out,
                "{d}candidate mean {:.6} sd {:.6} (n={}){d:#}",
                c.mean, c.sd, c.n
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

pub fn run(ctx: &Ctx, args: &CompareArgs) -> Result<Exit> {
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
        journal(&state, WARN)
            .check_writable()
            .context("cannot write the run journal")?;
    }
    let interrupt = interrupt_flag()?;
    let spinner = Spinner::bar(!ctx.out.quiet && !ctx.out.json, 2 * u64::from(args.runs));
    let sink = if ctx.out.quiet {
        Sink::Discard
    } else {
        Sink::Stderr
    };
    let side = |cmd: &str| RunSpec {
        argv: vec![cmd.to_string()],
        shell: true,
        cwd: None,
        timeout,
        grace: Duration::from_secs(5),
        stop_after_result: None,
        heartbeat: Duration::from_secs(3600),
        stdout_to: sink,
        stderr_to: sink,
        passthrough: super::passthrough(&spinner),
    };
    let (base_spec, cand_spec) = (side(&args.baseline), side(&args.candidate));
    let start = timestamp(ctx.global.now.as_deref())?;
    let git = crate::io::git::state(&cwd, &state);
    let wall = Instant::now();
    let mut base_runs = Vec::new();
    let mut cand_runs = Vec::new();
    'runs: for i in 0..args.runs {
        for (name, spec, runs) in [
            ("baseline", &base_spec, &mut base_runs),
            ("candidate", &cand_spec, &mut cand_runs),
        ] {
            spinner.set_message(format!("run {}/{} {name}", i + 1, args.runs));
            let outcome = process::run(spec, &interrupt, |_| {})?;
            if let Some(msg) = &outcome.spawn_error {
                warn(format_args!("cannot run the {name}: {msg}"));
            }
            let stop = outcome.interrupted;
            runs.push(outcome);
            spinner.inc();
            if stop {
                break 'runs;
            }
        }
    }
    spinner.finish();
    let elapsed = wall.elapsed();
    let (b, c) = (
        samples(&base_runs, &args.metric),
        samples(&cand_runs, &args.metric),
    );
    let result = welch_verdict(&b, &c, direction, args.min_effect, confidence);

    let tag = format!("compare:{}", uuid::Uuid::now_v7());
    let mut run_ids = Vec::new();
    let mut records = Vec::new();
    for (name, spec, runs, samples) in [
        ("baseline", &base_spec, &base_runs, &b),
        ("candidate", &cand_spec, &cand_runs, &c),
    ] {
        let mut record = outcome_record(
            &Origin {
                run_id: uuid::Uuid::now_v7().to_string(),
                start,
                elapsed,
                cwd: &cwd,
                git: git.clone(),
            },
            spec,
            runs,
            true,
        );
        record.candidate = Some(name.to_string());
        record.tags = vec![tag.clone(), name.to_string()];
        record.samples = samples.clone();
        record.summary = crate::kernel::stats::summarize(samples);
        if name == "candidate" {
            record.verdict = Some(result.record.clone());
        }
        run_ids.push(record.run_id.clone());
        records.push(record);
    }
    if !args.no_journal {
        let registry = journal(&state, WARN);
        for record in &records {
            registry
                .append(record)
                .context("cannot write the run journal")?;
        }
    }
    let interrupted = base_runs.iter().chain(&cand_runs).any(|o| o.interrupted);
    let verdict = result.record.verdict;
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
    ctx.out.emit(&CompareReport {
        record,
        baseline,
        candidate,
        improvement,
        interval,
        df,
        t,
        p_value,
        direction,
        min_effect: args.min_effect,
        baseline_samples: b,
        candidate_samples: c,
        run_ids,
    })?;
    if interrupted {
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGINT);
    }
    Ok(verdict_exit(verdict))
}
