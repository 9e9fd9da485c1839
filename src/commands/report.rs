//! `arx report`: what the loop did, to look at. The journal is read into
//! report points (`io::report`), summarized by `kernel::report`, and drawn
//! by the exporters: the terminal view (or `--json`, `--markdown`) on
//! stdout, the chart, the HTML page and the JUnit file written to files.
//! It only reads the state (the precision cache excepted, which it may
//! bring up to date like every reader of it).

use std::path::Path;

use anyhow::Result;

use super::{Ctx, WARN};
use crate::cli::{ChartX, ReportArgs, SegmentChoice};
use crate::error::{Exit, Hinted};
use crate::io::history;
use crate::io::report::{fold, points_replaying, tail, write_file, JournalText};
use crate::io::state::JOURNAL_FILE;
use crate::kernel::report::{
    cases, chart, fold_all, last_in_scope, last_rows, millis, overview, table_rows, Context, Point,
    PrecisionSummary, Scope, XAxis,
};
use crate::ops::report_inputs;
use crate::output::export::html::TABLE_LIMIT;
use crate::output::export::{Exporter, Html, Junit, MarkdownReport, Page, Svg};

/// The precision engine's state: its cache, rebuilt in the reading of the
/// journal when stale (`rebuilt`), or loaded.
fn precision(state: &Path, rebuilt: Option<history::Cache>) -> Result<Option<PrecisionSummary>> {
    use crate::engine::precision::Level;
    let journal = state.join(JOURNAL_FILE);
    if !journal.exists() {
        return Ok(None);
    }
    let cache = match rebuilt {
        Some(cache) => {
            history::keep(state, &cache, WARN);
            cache
        }
        None => history::load(state, &journal, true, WARN)?,
    };
    let h = &cache.history.precision;
    Ok(Some(PrecisionSummary {
        runs: cache.history.runs,
        execution: h.get(Level::Execution).value(),
        planning: h.get(Level::Planning).value(),
        abstract_level: h.get(Level::Abstract).value(),
        adaptation_due: Level::ALL.iter().any(|&l| h.get(l).should_adapt()),
    }))
}

/// Export `value` to the file `path` (whole or not at all).
fn write_to<T: ?Sized>(path: &Path, exporter: &dyn Exporter<T>, value: &T) -> Result<()> {
    let mut bytes = Vec::new();
    exporter.export(value, &mut bytes)?;
    write_file(path, &bytes)
}

pub fn run(ctx: &Ctx, args: &ReportArgs) -> Result<Exit> {
    let state = ctx.state_dir()?;
    if args.holdout {
        return held_out(ctx, &state, args.last);
    }
    let now = crate::io::clock::now(ctx.global.now.as_deref())?;
    let stop = report_inputs::stop_rules(&ctx.config()?)?;
    let text = JournalText::open(&state.join(JOURNAL_FILE))?;
    let bytes = text.bytes();
    // The chart, the page, the test cases and one segment's runs need every
    // record; the summary alone comes from the cached fold and the
    // journal's last lines.
    let every_run = args.svg.is_some()
        || args.html.is_some()
        || args.junit.is_some()
        || matches!(args.segment, Some(SegmentChoice::Number(_)));
    // A stale precision history is rebuilt in the same reading.
    let replay = history::current(&state, &state.join(JOURNAL_FILE))
        .err()
        .map(|r| *r);
    let (points, fold, unreadable, rebuilt) = if every_run {
        let (mut points, unreadable, rebuilt) = points_replaying(bytes, replay)?;
        let fold = fold_all(&mut points);
        (points, fold, unreadable, rebuilt)
    } else {
        let (fold, unreadable, rebuilt) = fold(&state, bytes, WARN, replay)?;
        (Vec::new(), fold, unreadable, rebuilt)
    };
    if unreadable > 0 {
        WARN(&format!(
            "{unreadable} journal line(s) are not run records; skipped (`arx journal verify` checks the journal)"
        ));
    }
    if let Some(line) = crate::ops::ratchet::pending_line(&state) {
        WARN(&line);
    }
    let scope = scope_of(args.segment, fold.segments.len())?;
    let context = Context {
        now_ms: millis(&now),
        now,
        stop,
        precision: precision(&state, rebuilt)?,
        dead_ends: report_inputs::dead_ends(&state, WARN)?,
        rounds: report_inputs::rounds(&state, WARN)?,
        last: args.last,
        unreadable,
    };
    let last_runs = if every_run {
        last_rows(&last_in_scope(&points, scope, args.last), &fold)
    } else {
        let tail = tail(bytes, &fold, args.last);
        let refs: Vec<(usize, &Point<'_>)> = tail.iter().map(|(i, p)| (*i, p)).collect();
        last_rows(&refs, &fold)
    };
    let report = overview(&fold, scope, &context, last_runs);
    write_files(args, &points, scope, &report, context.stop.target)?;
    // A page, a chart or test cases written to files are what was asked
    // for: the terminal report is not printed beside them (`--json` and
    // `--markdown` still are).
    let to_files = args.html.is_some() || args.svg.is_some() || args.junit.is_some();
    if args.markdown {
        ctx.out.emit_as(&MarkdownReport, &report)?;
    } else if ctx.out.json || !to_files {
        ctx.out.emit(&report)?;
    }
    Ok(Exit::Ok)
}

/// The segments `--segment` reports, of the journal's `segments`.
fn scope_of(choice: Option<SegmentChoice>, segments: usize) -> Result<Scope> {
    Ok(match choice {
        None => Scope::Latest,
        Some(SegmentChoice::All) => Scope::All,
        Some(SegmentChoice::Number(n)) if n <= segments => Scope::Segment(n),
        Some(SegmentChoice::Number(n)) => {
            return Err(Hinted::error(
                format!(
                    "no segment {n}: the journal has {}",
                    crate::output::count(segments as u64, "segment", "segments")
                ),
                if segments == 0 {
                    "segments are what `arx try` records; leave out --segment to report every run"
                        .to_string()
                } else {
                    format!("give a number from 1 to {segments}, or `all`")
                },
            ))
        }
    })
}

/// The files asked for: the chart (`--svg`), the page (`--html`), the test
/// cases (`--junit`).
fn write_files(
    args: &ReportArgs,
    points: &[Point<'_>],
    scope: Scope,
    report: &crate::kernel::report::Overview,
    target: Option<f64>,
) -> Result<()> {
    let x_axis = match args.x_axis {
        ChartX::Run => XAxis::Run,
        ChartX::Time => XAxis::Time,
    };
    if args.svg.is_some() || args.html.is_some() {
        let chart = chart(points, scope, x_axis, target);
        let mut svg = Vec::new();
        Svg.export(&chart, &mut svg)?;
        let svg = String::from_utf8(svg)?;
        if let Some(path) = &args.svg {
            write_file(path, svg.as_bytes())?;
            crate::errln!("arx: wrote the chart to {}", path.display());
        }
        if let Some(path) = &args.html {
            let (rows, rows_total) = table_rows(points, scope, TABLE_LIMIT);
            let page = Page {
                overview: report,
                chart: &chart,
                svg: &svg,
                rows: &rows,
                rows_total,
            };
            write_to(
                path,
                &Html {
                    refresh: args.refresh,
                },
                &page,
            )?;
            crate::errln!("arx: wrote the page to {}", path.display());
        }
    }
    if let Some(path) = &args.junit {
        let cases = cases(points, scope);
        write_to(path, &Junit, &cases[..])?;
        crate::errln!(
            "arx: wrote {} test cases to {}",
            cases.len(),
            path.display()
        );
    }
    Ok(())
}

/// `arx report --holdout`: this repository's entries of the operator's
/// held-out journal, the last `last`.
#[derive(serde::Serialize)]
struct HeldOutReport {
    journal: String,
    entries: Vec<crate::kernel::holdout::Entry>,
}

impl crate::output::Report for HeldOutReport {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        use crate::kernel::number::fmt_number;
        let list = |xs: &[f64]| {
            xs.iter()
                .map(|x| fmt_number(*x))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(out, "held-out journal: {}", self.journal)?;
        if self.entries.is_empty() {
            writeln!(out, "no held-out check of this repository yet")?;
        }
        for e in &self.entries {
            let run = e
                .run_id
                .get(..crate::kernel::journal::SHORT_ID_LEN)
                .unwrap_or(&e.run_id);
            write!(
                out,
                "{}  {run}  {:<9}  {:<7}  {} [{}]",
                e.at,
                e.kind,
                e.verdict,
                e.metric,
                list(&e.values)
            )?;
            if !e.best.is_empty() {
                write!(out, " vs best [{}]", list(&e.best))?;
            }
            if let Some(sd) = e.noise {
                write!(out, ", noise {}", fmt_number(sd))?;
            }
            if e.no_reference {
                write!(out, " (no reference: the first)")?;
            }
            if e.exit_code != 0 {
                write!(out, ", exit code {}", e.exit_code)?;
            }
            if let Some(d) = &e.description {
                write!(out, "  \"{}\"", crate::ops::ratchet::subject(d))?;
            }
            writeln!(out)?;
            if !e.verdict.passed() && e.values.is_empty() {
                for line in e
                    .stderr_tail
                    .lines()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                {
                    writeln!(out, "    {line}")?;
                }
            }
        }
        Ok(())
    }
}

fn held_out(ctx: &Ctx, state: &Path, last: usize) -> Result<Exit> {
    let path = crate::io::holdout::path()?;
    let key = crate::ops::ratchet::holdout::state_key(state);
    let mut entries: Vec<_> = crate::io::holdout::read(&path)?
        .into_iter()
        .filter(|e| e.state == key)
        .collect();
    let skip = entries.len().saturating_sub(last);
    entries.drain(..skip);
    ctx.out.emit(&HeldOutReport {
        journal: path.display().to_string(),
        entries,
    })?;
    Ok(Exit::Ok)
}
