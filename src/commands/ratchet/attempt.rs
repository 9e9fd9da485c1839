//! `arx try`: one iteration of the ratchet. Measures the baseline when the
//! segment has none, runs the candidate until the rule decides, then keeps
//! it as a commit or journals it, stores it under `refs/arx/discarded/` and
//! restores the last kept commit, in that order.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use serde_json::json;

use super::{decimals, load, num, recover, run_short, short, signed, Loaded};
use crate::cli::TryArgs;
use crate::commands::{pass_execute_gate, passthrough, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::clock::{parse_duration, parse_timeout, timestamp};
use crate::io::events::Events;
use crate::io::git::ratchet::{Candidate, RatchetRepo};
use crate::io::process::{self, RunEvent, RunOutcome, RunSpec, Sink};
use crate::kernel::journal::{GitState, RunRecord};
use crate::kernel::number::fmt_number;
use crate::kernel::objective::Objective;
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::outcome::Judgement;
use crate::kernel::ratchet::{self, Decision, Evidence, Rule, Settings, Step};
use crate::kernel::segment::{CheckResult, RatchetInfo, Segment, TryStatus};
use crate::kernel::stats::summarize;
use crate::kernel::verdict::Verdict;
use crate::ops::attempts::{self, AttemptEvent};
use crate::ops::journal;
use crate::output::{bold, dim, warn, Report, Spinner};

/// The report of one try: the journal record, and what happened to the tree.
#[derive(Serialize)]
struct TryReport {
    #[serde(flatten)]
    record: RunRecord,
    /// What a dry run would do, or what a discard restored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    #[serde(skip)]
    line: String,
}

impl Report for TryReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let d = dim();
        match self.line.split_once(": ") {
            Some((head, rest)) => writeln!(out, "{b}{head}{b:#}: {rest}")?,
            None => writeln!(out, "{}", self.line)?,
        }
        for n in &self.notes {
            writeln!(out, "  {d}{n}{d:#}")?;
        }
        Ok(())
    }
}

/// A dry run's answer.
#[derive(Serialize)]
struct DryRun {
    dry_run: bool,
    segment: String,
    baseline_needed: bool,
    kept: Option<String>,
    paths: Vec<String>,
    protected: Vec<String>,
    would: Vec<String>,
}

impl Report for DryRun {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(out, "{b}dry run{b:#}: nothing changed")?;
        for w in &self.would {
            writeln!(out, "  {w}")?;
        }
        Ok(())
    }
}

/// The settings of the runs of one try.
struct Runner<'a> {
    ctx: &'a Ctx,
    args: &'a TryArgs,
    objective: &'a Objective,
    spec: RunSpec,
    spinner: Spinner,
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The tree the runs see (read once from the candidate: a second
    /// status scan of a large tree is not free).
    git: GitState,
}

impl Runner<'_> {
    /// One run of the experiment, with live events.
    fn once(&self, events: &mut Events, label: &str) -> Result<RunOutcome> {
        self.spinner.set_message(label.to_string());
        let (mut outcomes, _) = attempts::run_attempts(&self.spec, 1, &self.interrupt, |e| {
            if let AttemptEvent::Run { event, elapsed } = e {
                match event {
                    RunEvent::Started { pid } => events.emit(
                        "started",
                        elapsed,
                        json!({"pid": pid, "command": self.spec.argv, "attempt": label}),
                    ),
                    RunEvent::Progress(m) => {
                        events.emit("progress", elapsed, json!({"metrics": m}))
                    }
                    RunEvent::Result(m) => events.emit("result", elapsed, json!({"metrics": m})),
                    RunEvent::Heartbeat { .. } => events.emit("heartbeat", elapsed, json!({})),
                }
            }
        })?;
        let outcome = outcomes.remove(0);
        if outcome.output_held {
            warn(crate::commands::OUTPUT_HELD);
        }
        if let Some(msg) = &outcome.spawn_error {
            warn(format_args!("cannot run the experiment: {msg}"));
        }
        self.spinner.inc();
        Ok(outcome)
    }

    /// The metric of a run that succeeded; `None` for a crash.
    fn sample(&self, o: &RunOutcome) -> Option<f64> {
        if o.effective_exit_code() != 0 {
            return None;
        }
        o.metrics
            .get(&self.objective.metric)
            .filter(|x| x.is_finite())
    }
}

fn rule_of(args: &TryArgs, file_rule: Option<&str>) -> Result<Rule> {
    match args.rule.as_deref().or(file_rule) {
        None => Ok(Rule::default()),
        Some(text) => text.parse().map_err(|e: String| {
            Hinted::error(
                format!("invalid rule: {e}"),
                "use --rule confirm (the default), strict or mad",
            )
        }),
    }
}

/// One line for a commit message: no line breaks (which could forge
/// trailer lines), trimmed.
fn subject(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(ctx: &Ctx, args: &TryArgs) -> Result<Exit> {
    let Loaded {
        objective,
        file_rule,
        cwd,
        state,
        records,
        segment,
    } = load(ctx, &args.objective)?;
    let rule = rule_of(args, file_rule.as_deref())?;
    let repo = RatchetRepo::open(&cwd, &state)?;
    let segment = if args.new_segment { None } else { segment };

    if !args.dry_run {
        for line in recover(&repo, &state, &records)? {
            warn(line);
        }
    }
    let baseline_needed = segment.as_ref().is_none_or(|s| s.kept.is_none());
    let kept = match &segment {
        Some(Segment { kept: Some(k), .. }) if !args.new_segment => k.commit.clone(),
        _ => repo.head(),
    };
    if !repo.descends_from(&kept)? {
        return Err(Hinted::error(
            format!(
                "the branch no longer contains the kept commit {} of this segment",
                short(&kept)
            ),
            "check out the branch the loop runs on, or start over with arx try --new-segment",
        ));
    }
    let candidate = repo.candidate(&kept)?;
    let protected = repo.protected_paths(&candidate, &objective.protect)?;

    if args.dry_run {
        return dry_run(
            ctx,
            &objective,
            baseline_needed,
            &kept,
            &candidate,
            protected,
        );
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
    let what = objective.command.join(" ");
    if !pass_execute_gate(ctx, args.approve, args.no_gates, &what)? {
        return Ok(Exit::No);
    }
    journal::check_writable(&state, WARN)?;

    let timeout = parse_timeout(objective.timeout.as_deref())?;
    let grace = parse_duration(&args.grace, "--grace")?;
    let heartbeat = parse_duration(&args.heartbeat, "--heartbeat")?;
    if heartbeat.is_zero() {
        return Err(Hinted::error(
            "--heartbeat must be greater than zero",
            "e.g. --heartbeat 5s",
        ));
    }
    let spinner = Spinner::new(!ctx.out.quiet && !ctx.out.json);
    let data_on_stdout = ctx.out.json || args.events.as_deref() == Some("-");
    let (stdout_to, stderr_to) = if ctx.out.quiet {
        (Sink::Discard, Sink::Discard)
    } else if data_on_stdout {
        (Sink::Stderr, Sink::Stderr)
    } else {
        (Sink::Stdout, Sink::Stderr)
    };
    let runner = Runner {
        ctx,
        args,
        objective: &objective,
        spec: RunSpec {
            argv: objective.command.clone(),
            shell: objective.shell,
            cwd: None,
            timeout,
            grace,
            stop_after_result: None,
            heartbeat,
            stdout_to,
            stderr_to,
            passthrough: passthrough(&spinner),
        },
        spinner,
        interrupt: attempts::interrupt_flag()?,
        git: GitState {
            head: Some(candidate.head.clone()),
            branch: Some(repo.branch().to_string()),
            dirty: candidate.dirty,
        },
    };

    let mut segment = segment;
    if baseline_needed {
        let (exit, measured) = baseline(&runner, &repo, &state, &records, &kept, &candidate, rule)?;
        let Some(seg) = measured else {
            return Ok(exit);
        };
        if candidate.is_empty() {
            return Ok(exit);
        }
        segment = Some(seg);
    }
    let segment = segment.expect("a segment with a kept commit");
    try_candidate(
        &runner, &repo, &state, &segment, &kept, candidate, protected, rule,
    )
}

fn dry_run(
    ctx: &Ctx,
    objective: &Objective,
    baseline_needed: bool,
    kept: &str,
    candidate: &Candidate,
    protected: Vec<String>,
) -> Result<Exit> {
    let mut would = Vec::new();
    if baseline_needed {
        would.push(format!(
            "measure the baseline: {} of {}{}",
            crate::output::count(objective.baseline_repeat, "run", "runs"),
            short(kept),
            if candidate.dirty {
                " (the changes in the working tree set aside meanwhile)"
            } else {
                ""
            }
        ));
    }
    if candidate.is_empty() {
        would.push("nothing to try: no change since the kept commit".into());
    } else if !protected.is_empty() {
        would.push(format!(
            "refuse the candidate: it changes protected paths ({}); restore {}",
            protected.join(", "),
            short(kept)
        ));
    } else {
        would.push(format!(
            "run the candidate ({} changed, {}) at least {}",
            crate::output::count(candidate.paths.len() as u64, "path", "paths"),
            crate::output::count(candidate.commits.len() as u64, "commit", "commits"),
            crate::output::count(objective.repeat, "time", "times")
        ));
        would.push(format!(
            "keep: {}; otherwise store it under refs/arx/discarded/<run-id> and restore {} ({})",
            if candidate.dirty {
                "commit the changes"
            } else {
                "keep the commits as they are"
            },
            short(kept),
            candidate.paths.join(", ")
        ));
    }
    ctx.out.emit(&DryRun {
        dry_run: true,
        segment: objective.segment_id(),
        baseline_needed,
        kept: Some(kept.to_string()),
        paths: candidate.paths.clone(),
        protected,
        would,
    })?;
    Ok(Exit::Ok)
}

/// The ratchet part of a record, before the outcome is known.
fn info(
    objective: &Objective,
    status: TryStatus,
    kept: &str,
    rule: Rule,
    description: Option<String>,
) -> RatchetInfo {
    RatchetInfo {
        segment: objective.segment_id(),
        new_segment: false,
        status,
        description,
        metric: objective.metric.clone(),
        direction: objective.direction,
        rule: rule.name().to_string(),
        kept: kept.to_string(),
        commit: None,
        discarded_ref: None,
        paths: Vec::new(),
        protected: Vec::new(),
        best: None,
        improvement: None,
        noise: None,
        blind: false,
        record_from: 0,
        confirmed: true,
        checks: Vec::new(),
    }
}

/// The journal record of the runs of one try.
fn record(
    runner: &Runner<'_>,
    run_id: String,
    start: jiff::Timestamp,
    elapsed: Duration,
    outcomes: &[RunOutcome],
    samples: Vec<f64>,
    info: RatchetInfo,
) -> Result<RunRecord> {
    let cwd = runner.ctx.cwd()?;
    let summary = if samples.len() > 1 {
        summarize(&samples)
    } else {
        None
    };
    Ok(RunRecord::builder(
        attempts::origin(run_id, start, elapsed, &cwd, Some(runner.git.clone())),
        runner.spec.argv.clone(),
        runner.spec.shell,
        outcomes,
        outcomes.len() > 1,
    )
    .judgement(Judgement {
        samples: if samples.len() > 1 {
            samples
        } else {
            Vec::new()
        },
        summary,
        ..Judgement::default()
    })
    .ratchet(info)
    .build())
}

/// Measure the kept commit `baseline_repeat` times, with any candidate in
/// the tree set aside meanwhile. Returns the exit code and, when the
/// baseline was measured, the new segment.
#[allow(clippy::too_many_arguments)]
fn baseline(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    records: &[RunRecord],
    kept: &str,
    candidate: &Candidate,
    rule: Rule,
) -> Result<(Exit, Option<Segment>)> {
    let objective = runner.objective;
    let aside = candidate.dirty;
    if aside {
        let refname = "refs/arx/aside".to_string();
        crate::io::ratchet::write_aside(
            state,
            &crate::io::ratchet::Aside {
                refname: refname.clone(),
                head: repo.head(),
            },
        )?;
        repo.snapshot(&refname, "arx: set aside for the baseline")?;
        repo.restore_to(kept)?;
        eprintln!("arx: set the working tree's changes aside to measure the baseline");
    }
    let runner = &Runner {
        git: GitState {
            head: Some(kept.to_string()),
            dirty: false,
            ..runner.git.clone()
        },
        spec: runner.spec.clone(),
        spinner: runner.spinner.clone(),
        interrupt: runner.interrupt.clone(),
        ..*runner
    };
    let run_id = attempts::new_run_id();
    let start = timestamp(runner.ctx.global.now.as_deref())?;
    let mut events = Events::open(runner.args.events.as_deref(), &run_id, start)?;
    let wall = std::time::Instant::now();
    let mut outcomes = Vec::new();
    let mut samples = Vec::new();
    for i in 0..objective.baseline_repeat {
        let o = runner.once(
            &mut events,
            &format!("baseline {}/{}", i + 1, objective.baseline_repeat),
        )?;
        let interrupted = o.interrupted;
        if let Some(x) = runner.sample(&o) {
            samples.push(x);
        }
        outcomes.push(o);
        if interrupted {
            break;
        }
    }
    runner.spinner.finish();
    let interrupted = outcomes.iter().any(|o| o.interrupted);
    let status = if interrupted {
        TryStatus::Interrupted
    } else if samples.is_empty() {
        TryStatus::Crash
    } else {
        TryStatus::Baseline
    };
    let mut i = info(objective, status, kept, rule, Some("baseline".into()));
    i.new_segment = runner.args.new_segment;
    i.commit = Some(kept.to_string());
    let rec = record(
        runner,
        run_id,
        start,
        wall.elapsed(),
        &outcomes,
        samples.clone(),
        i,
    )?;
    events.emit(
        "finished",
        wall.elapsed(),
        json!({"status": status, "metrics": rec.metrics}),
    );
    journal::record_run(state, &rec, WARN)?;
    if aside {
        repo.put_back("refs/arx/aside")?;
        repo.delete_ref("refs/arx/aside")?;
        crate::io::ratchet::clear_aside(state)?;
    }
    let line = match status {
        TryStatus::Baseline => {
            let s = summarize(&samples);
            let mean = s.as_ref().map_or(samples[0], |s| s.mean);
            let sd = s.as_ref().filter(|s| s.n > 1).map(|s| s.sd);
            let d = decimals(sd, mean);
            let spread = sd.map_or(String::new(), |sd| format!(" \u{b1} {} sd", num(sd, d)));
            format!(
                "baseline: {} {}{spread} (n={}) at {}",
                objective.metric,
                num(mean, d),
                samples.len(),
                short(kept)
            )
        }
        TryStatus::Interrupted => "interrupted: the baseline was interrupted".to_string(),
        _ => format!(
            "crash: the baseline reported no {} (exit code {})",
            objective.metric, rec.exit_code
        ),
    };
    let exit = match status {
        TryStatus::Baseline => Exit::Ok,
        _ => Exit::Inconclusive,
    };
    if status != TryStatus::Baseline || candidate.is_empty() {
        runner.ctx.out.emit(&TryReport {
            record: rec.clone(),
            notes: Vec::new(),
            line,
        })?;
        if interrupted {
            attempts::resend_interrupt();
        }
        if status != TryStatus::Baseline {
            return Ok((exit, None));
        }
    } else {
        eprintln!("arx: {line}");
    }
    let mut all = records.to_vec();
    all.push(rec);
    let seg = crate::kernel::segment::current(&all, &objective.segment_id());
    Ok((exit, seg))
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
) -> Result<Exit> {
    let objective = runner.objective;
    let description = runner.args.description.as_deref().map(subject);
    let run_id = attempts::new_run_id();
    let start = timestamp(runner.ctx.global.now.as_deref())?;
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

    if !protected.is_empty() {
        i.status = TryStatus::Protected;
        i.protected = protected.clone();
        let rec = record(runner, run_id, start, Duration::ZERO, &[], Vec::new(), i)?;
        let line = format!(
            "protected: the candidate changes {} \u{2192} set aside, {} restored",
            protected.join(", "),
            short(kept)
        );
        return discard(runner, repo, state, kept, rec, line, Exit::No);
    }

    let mut events = Events::open(runner.args.events.as_deref(), &run_id, start)?;
    let wall = std::time::Instant::now();
    let mut outcomes = Vec::new();
    let mut samples: Vec<f64> = Vec::new();
    let groups: Vec<&[f64]> = segment.replicates.iter().map(Vec::as_slice).collect();
    let settings = Settings {
        direction: objective.direction,
        min_effect: objective.min_effect,
        confidence: objective.confidence,
        repeat: objective.repeat,
        max_runs: objective.repeat.max(ratchet::DEFAULT_MAX_RUNS),
    };
    let decision: Option<Decision> = loop {
        let n = outcomes.len() + 1;
        let o = runner.once(&mut events, &format!("candidate run {n}"))?;
        let interrupted = o.interrupted;
        let sample = runner.sample(&o);
        outcomes.push(o);
        if interrupted {
            break None;
        }
        let Some(x) = sample else {
            break None;
        };
        samples.push(x);
        let mut replicates = groups.clone();
        if samples.len() > 1 {
            replicates.push(&samples);
        }
        let evidence = Evidence {
            best: &best.samples,
            candidate: &samples,
            replicates: &replicates,
            segment_values: &segment.values,
        };
        match ratchet::next_step(rule, &settings, &evidence) {
            Step::RunAgain => continue,
            Step::Decide(d) => break Some(d),
        }
    };
    runner.spinner.finish();
    let elapsed = wall.elapsed();
    let interrupted = outcomes.iter().any(|o| o.interrupted);
    let last = outcomes.last().cloned().unwrap_or_default();

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
        return Ok(Exit::Inconclusive);
    }

    let quoted = description
        .as_deref()
        .map(|d| format!(" \"{d}\""))
        .unwrap_or_default();
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
        return discard(runner, repo, state, kept, rec, line, Exit::Inconclusive);
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
    let segment_noise = ratchet::pooled_noise(&groups).map(|(sd, _)| sd);
    let dp = decimals(d.noise.or(segment_noise), mean);
    let vs = i
        .best
        .map(|b| format!(" vs {}", num(b, dp)))
        .unwrap_or_default();
    let noise = match (d.blind, d.noise) {
        (true, _) => ", blind to noise".to_string(),
        (false, Some(sd)) => format!(
            ", {} noise {}",
            if d.verdict == Verdict::Supported {
                "beyond"
            } else {
                "within"
            },
            num(sd, dp)
        ),
        (false, None) => String::new(),
    };
    let diff = i
        .best
        .map(|b| format!("{}{vs}", signed(mean - b, dp)))
        .unwrap_or_default();
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
            return discard(runner, repo, state, kept, rec, line, Exit::No);
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
        let commit = repo.keep_candidate(&candidate, &message)?;
        i.commit = Some(commit.clone());
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit(
            "finished",
            elapsed,
            json!({"status": "keep", "commit": commit}),
        );
        journal::record_run(state, &rec, WARN)?;
        let unconfirmed = if d.confirmed { "" } else { " (unconfirmed)" };
        runner.ctx.out.emit(&TryReport {
            record: rec,
            notes: Vec::new(),
            line: format!("keep: {change} \u{2192} {}{unconfirmed}", short(&commit)),
        })?;
        return Ok(Exit::Ok);
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
    discard(runner, repo, state, kept, rec, line, exit)
}

/// Run the checks in order, stopping at the first that fails.
fn run_checks(runner: &Runner<'_>, checks: &[String]) -> Result<Vec<CheckResult>> {
    let mut results = Vec::new();
    for check in checks {
        eprintln!("arx: check: {check}");
        let spec = RunSpec {
            argv: vec![check.clone()],
            shell: true,
            stop_after_result: None,
            stdout_to: if runner.ctx.out.quiet {
                Sink::Discard
            } else {
                Sink::Stderr
            },
            ..runner.spec.clone()
        };
        let o = process::run(&spec, &runner.interrupt, |_| {})?;
        results.push(CheckResult {
            command: check.clone(),
            exit_code: o.exit_code,
            duration_ms: o.duration.as_millis() as u64,
        });
        if o.exit_code != 0 || o.interrupted {
            break;
        }
    }
    Ok(results)
}

/// Journal the try (a marker first, so a crash loses nothing), store the
/// candidate under `refs/arx/discarded/<run-id>`, restore the kept commit.
fn discard(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    kept: &str,
    mut rec: RunRecord,
    line: String,
    exit: Exit,
) -> Result<Exit> {
    let refname = format!("refs/arx/discarded/{}", rec.run_id);
    if let Some(info) = rec.ratchet.as_mut() {
        info.discarded_ref = Some(refname.clone());
    }
    crate::io::ratchet::write_pending(
        state,
        &crate::io::ratchet::Pending {
            kept: kept.to_string(),
            discarded_ref: refname.clone(),
            record: rec.clone(),
        },
    )?;
    journal::record_run(state, &rec, WARN)?;
    let (_, restored) = repo.discard(kept, &refname, &format!("arx: discarded {}", rec.run_id))?;
    crate::io::ratchet::clear_pending(state)?;
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
