//! `arx show RUN_ID`: one journaled run in full, found by its id or a
//! unique prefix of it. It only reads the journal; finding the run is the
//! kernel's `find_run`.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::commands::WARN;
use crate::error::Exit;
use crate::io::state::journal;
use crate::kernel::failure::FailureClass;
use crate::kernel::journal::{command_line, fmt_duration, RunRecord};
use crate::kernel::number::{fmt_compact, fmt_number};
use crate::kernel::text::visible;
use crate::output::{bold, dim, verdict_style, Report};

#[derive(Serialize)]
#[serde(transparent)]
struct ShowReport {
    record: RunRecord,
}

/// Width of the label column.
const LABEL: usize = 11;

fn field(out: &mut dyn Write, label: &str, value: impl std::fmt::Display) -> io::Result<()> {
    let d = dim();
    writeln!(out, "{d}{label:<LABEL$}{d:#} {value}")
}

fn numbers(xs: impl IntoIterator<Item = f64>) -> String {
    xs.into_iter().map(fmt_number).collect::<Vec<_>>().join(" ")
}

fn metrics_line(m: &crate::kernel::contract::Metrics) -> String {
    if m.is_empty() {
        return "(none)".to_string();
    }
    m.iter()
        .map(|(k, v)| format!("{}={}", visible(k), fmt_number(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn tail(out: &mut dyn Write, label: &str, text: &str) -> io::Result<()> {
    let d = dim();
    if text.is_empty() {
        return writeln!(out, "{d}{label}: (empty){d:#}");
    }
    writeln!(out, "{d}{label}:{d:#}")?;
    for line in text.trim_end_matches('\n').split('\n') {
        writeln!(out, "    {}", visible(line.trim_end_matches('\r')))?;
    }
    Ok(())
}

impl Report for ShowReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = &self.record;
        origin(out, r)?;
        tried(out, r)?;
        outcome(out, r)?;
        repeats(out, r)?;
        tail(out, "stdout (tail)", &r.stdout_tail)?;
        tail(out, "stderr (tail)", &r.stderr_tail)
    }
}

/// What ran, where, and what it was for.
fn origin(out: &mut dyn Write, r: &RunRecord) -> io::Result<()> {
    let b = bold();
    field(out, "run", format_args!("{b}{}{b:#}", r.run_id))?;
    field(out, "started", &r.started_at)?;
    field(
        out,
        "ended",
        format_args!("{} ({})", r.ended_at, fmt_duration(r.duration_ms)),
    )?;
    let via = if r.shell { "  (via /bin/sh -c)" } else { "" };
    field(out, "command", format_args!("{}{via}", command_line(r)))?;
    field(out, "cwd", visible(&r.cwd))?;
    if let Some(host) = &r.host {
        field(out, "host", visible(host))?;
    }
    if let Some(git) = &r.git {
        let head = git.head.as_deref().unwrap_or("(no commit)");
        let branch = git
            .branch
            .as_deref()
            .map_or(" (detached)".to_string(), |b| format!(" on {b}"));
        let dirty = if git.dirty { ", dirty" } else { "" };
        field(out, "git", format_args!("{head}{branch}{dirty}"))?;
    }
    if let Some(h) = &r.hypothesis {
        field(out, "hypothesis", visible(h))?;
    }
    if let Some(h) = &r.approach_hash {
        field(out, "approach", visible(h))?;
    }
    if let Some(c) = &r.candidate {
        field(out, "candidate", visible(c))?;
    }
    if !r.tags.is_empty() {
        field(out, "tags", visible(&r.tags.join(", ")))?;
    }
    if let Some(spec) = &r.spec {
        field(
            out,
            "spec",
            format_args!(
                "{} {} {}",
                spec.metric_key,
                spec.comparator,
                fmt_number(spec.target)
            ),
        )?;
    }
    Ok(())
}

/// A try of the ratchet: what became of it, its description, the idea
/// and family it tested, the commit it was measured against.
fn tried(out: &mut dyn Write, r: &RunRecord) -> io::Result<()> {
    let Some(t) = &r.ratchet else {
        return Ok(());
    };
    let b = bold();
    field(out, "try", format_args!("{b}{}{b:#}", t.status))?;
    if let Some(d) = &t.description {
        field(out, "description", visible(d))?;
    }
    if let Some(i) = &t.idea {
        field(out, "idea", visible(i))?;
    }
    if let Some(f) = &t.family {
        let how = if t.family_guessed {
            " (of the most similar idea)"
        } else {
            ""
        };
        field(out, "family", format_args!("{f}{how}"))?;
    }
    if !matches!(
        t.status,
        crate::kernel::ratchet_record::TryStatus::Baseline
            | crate::kernel::ratchet_record::TryStatus::Remeasure
    ) {
        field(out, "parent", t.parent_commit())?;
    }
    if let Some(l) = &t.lane {
        field(out, "lane", visible(l))?;
    }
    Ok(())
}

/// How it ended: its metrics, exit, failure class and verdict.
fn outcome(out: &mut dyn Write, r: &RunRecord) -> io::Result<()> {
    field(out, "metrics", metrics_line(&r.metrics))?;
    let mut how = Vec::new();
    if r.timed_out {
        how.push("timed out");
    }
    if r.interrupted {
        how.push("interrupted");
    }
    if r.stopped_on_result {
        how.push("stopped once the result was in");
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(" ({})", how.join(", "))
    };
    field(out, "exit code", format_args!("{}{how}", r.exit_code))?;
    match r.failure_class {
        FailureClass::None => field(out, "failure", "none")?,
        c => field(
            out,
            "failure",
            format_args!("{} ({})", c.as_str(), c.describe_run(r.timed_out)),
        )?,
    }
    match &r.verdict {
        Some(v) => {
            let (s, d) = (verdict_style(v.verdict), dim());
            field(
                out,
                "verdict",
                format_args!(
                    "{s}{}{s:#}: {} {d}({} evidence){d:#}",
                    v.verdict,
                    v.detail,
                    v.evidence_level.as_str()
                ),
            )?;
        }
        None => field(out, "verdict", "- (no metric spec)")?,
    }
    Ok(())
}

/// A repeated run: its attempts, samples, summary and interval.
fn repeats(out: &mut dyn Write, r: &RunRecord) -> io::Result<()> {
    if !r.attempts.is_empty() {
        // A try's seeds, one per attempt in order (`[objective] seeds`).
        let seeds = r.ratchet.as_ref().map_or(&[][..], |t| &t.seeds[..]);
        let runs = r
            .attempts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut run = format!("exit {} in {}", a.exit_code, fmt_duration(a.duration_ms));
                if let Some(slot) = &a.slot {
                    run.push_str(&format!(" on slot {slot}"));
                }
                if let Some(job) = &a.job_id {
                    run.push_str(&format!(" (job {job})"));
                }
                if let Some(Some(seed)) = seeds.get(i) {
                    run.push_str(&format!(" seed {seed}"));
                }
                run
            })
            .collect::<Vec<_>>()
            .join(", ");
        field(
            out,
            "attempts",
            format_args!("{}: {runs}", r.attempts.len()),
        )?;
    }
    if !r.samples.is_empty() {
        field(out, "samples", numbers(r.samples.iter().copied()))?;
    }
    if let Some(s) = &r.summary {
        let outliers = if s.outliers.is_empty() {
            String::new()
        } else {
            let at: Vec<String> = s.outliers.iter().map(|i| (i + 1).to_string()).collect();
            format!(", outliers at {}", at.join(" "))
        };
        field(
            out,
            "summary",
            format_args!(
                "n={} mean={} sd={} median={} min={} max={}{outliers}",
                s.n,
                fmt_compact(s.mean),
                fmt_compact(s.sd),
                fmt_compact(s.median),
                fmt_compact(s.min),
                fmt_compact(s.max)
            ),
        )?;
    }
    if let Some((lo, hi)) = r.interval {
        field(
            out,
            "interval",
            format_args!("[{}, {}]", fmt_compact(lo), fmt_compact(hi)),
        )?;
    }
    if let Some(n) = r.more_runs {
        field(
            out,
            "more runs",
            format_args!("about {n} more may decide it"),
        )?;
    }
    Ok(())
}

pub fn run(ctx: &Ctx, run_id: &str) -> Result<Exit> {
    let registry = journal(&ctx.state_dir()?, WARN);
    let records = registry.read()?;
    let record = super::lookup_run(ctx, &records, &registry.path, run_id)?;
    ctx.out.emit(&ShowReport { record })?;
    Ok(Exit::Ok)
}
