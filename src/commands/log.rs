//! `arx log`: list journaled runs, newest last, as an aligned table or as
//! NDJSON (one record per line). It only reads the journal: it never
//! creates the state directory and never changes a record.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::cli::TableFormat;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::state::journal;
use crate::kernel::journal::{
    command_line, fmt_duration, outcome, select, short_id, short_id_len, RunRecord, SHORT_ID_LEN,
};
use crate::kernel::number::fmt_table_value;
use crate::kernel::segment::results;
use crate::output::export::{Column, Csv, Table, Tsv};
use crate::output::{dim, verdict_style, Report};

/// Longest description shown in a row, in characters.
const DESCRIPTION_WIDTH: usize = 60;

#[derive(Serialize)]
#[serde(transparent)]
struct LogReport {
    runs: Vec<RunRecord>,
    /// Characters of each run id shown (enough to tell every run apart).
    #[serde(skip)]
    id_len: usize,
    /// Runs in the journal, before `--candidate` and `--limit`.
    #[serde(skip)]
    recorded: usize,
}

/// One row of the table, as plain text (styles are added when written).
struct Line {
    cells: [String; 8],
    verdict: Option<crate::kernel::verdict::Verdict>,
    description: String,
}

impl LogReport {
    fn lines(&self) -> Vec<Line> {
        self.runs
            .iter()
            .map(|r| Line {
                cells: [
                    short_id(&r.run_id, self.id_len).to_string(),
                    start_time(&r.started_at),
                    fmt_duration(r.duration_ms),
                    match (&r.verdict, &r.ratchet) {
                        (Some(v), _) => v.verdict.to_string(),
                        // A try: what the ratchet did with it.
                        (None, Some(t)) => t.status.to_string(),
                        (None, None) => "-".to_string(),
                    },
                    one_line(&outcome(r)),
                    r.candidate.as_deref().map_or("-".to_string(), one_line),
                    try_field(r, |t| t.family.as_deref()),
                    try_field(r, |t| t.idea.as_deref()),
                ],
                verdict: r.verdict.as_ref().map(|v| v.verdict),
                description: crate::kernel::text::clip(&description(r), DESCRIPTION_WIDTH),
            })
            .collect()
    }
}

impl Report for LogReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        if self.runs.is_empty() {
            return match self.recorded {
                0 => writeln!(out, "{d}no runs recorded{d:#}"),
                n => writeln!(
                    out,
                    "{d}no runs selected ({n} run{} recorded){d:#}",
                    if n == 1 { "" } else { "s" }
                ),
            };
        }
        // The idea columns once a listed try names one (or its family).
        let ideas = self.runs.iter().any(|r| {
            r.ratchet
                .as_ref()
                .is_some_and(|t| t.idea.is_some() || (t.family.is_some() && !t.family_guessed))
        });
        let header = [
            "RUN",
            "STARTED (UTC)",
            "TIME",
            "VERDICT",
            "RESULT",
            "CANDIDATE",
            "FAMILY",
            "IDEA",
        ];
        let lines = self.lines();
        let mut widths = header.map(|h| h.chars().count());
        for line in &lines {
            for (w, cell) in widths.iter_mut().zip(&line.cells) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let shown = if ideas { 8 } else { 6 };
        let mut head = String::new();
        for (h, w) in header.iter().zip(widths).take(shown) {
            head.push_str(&pad(h, w));
            head.push_str("  ");
        }
        writeln!(out, "{d}{head}DESCRIPTION{d:#}")?;
        for line in &lines {
            let [id, started, time, verdict, result, candidate, family, idea] = &line.cells;
            let s = line.verdict.map(verdict_style).unwrap_or(d);
            let idea_cells = if ideas {
                format!("{}  {}  ", pad(family, widths[6]), pad(idea, widths[7]))
            } else {
                String::new()
            };
            writeln!(
                out,
                "{}  {d}{}{d:#}  {}  {s}{}{s:#}  {}  {}  {idea_cells}{}",
                pad(id, widths[0]),
                pad(started, widths[1]),
                pad_left(time, widths[2]),
                pad(verdict, widths[3]),
                pad(result, widths[4]),
                pad(candidate, widths[5]),
                line.description
            )?;
        }
        Ok(())
    }
}

/// What a row says the run was: a try's description (else the paths it
/// changed: every try runs the same command), a run's hypothesis, else
/// its command (a plain `arx run` is what it ran).
fn description(r: &RunRecord) -> String {
    let given = |d: &Option<String>| d.clone().filter(|d| !d.trim().is_empty());
    match &r.ratchet {
        Some(t) => given(&t.description).unwrap_or_else(|| match t.paths.as_slice() {
            [] => "-".to_string(),
            paths => paths.join(", "),
        }),
        None => given(&r.hypothesis).unwrap_or_else(|| command_line(r)),
    }
}

/// A try's field (its family, its idea) for a cell, `-` when absent.
fn try_field(
    r: &RunRecord,
    field: impl Fn(&crate::kernel::ratchet_record::RatchetInfo) -> Option<&str>,
) -> String {
    r.ratchet
        .as_ref()
        .and_then(field)
        .map_or("-".to_string(), one_line)
}

/// `2026-11-21 10:00:03` from an RFC 3339 time (UTC); other text as is.
fn start_time(text: &str) -> String {
    match text.parse::<jiff::Timestamp>() {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        Err(_) => one_line(text),
    }
}

/// Control characters (newlines, escapes, bidirectional controls) shown
/// by their escapes, so a row stays one line and drives no terminal.
fn one_line(text: &str) -> String {
    crate::kernel::text::shown(text)
}

fn pad(text: &str, width: usize) -> String {
    format!("{text:<width$}")
}

fn pad_left(text: &str, width: usize) -> String {
    format!("{text:>width$}")
}

pub fn run(
    ctx: &Ctx,
    limit: Option<usize>,
    candidate: Option<&str>,
    format: Option<TableFormat>,
) -> Result<Exit> {
    let registry = journal(&ctx.state_dir()?, WARN);
    if let (None, None, Some(n @ 1..)) = (format, candidate, limit) {
        // The last runs only: the journal's tail, read from its end. Their
        // ids are shown as long as tells them apart (13 characters, 48
        // bits, tell a million runs apart but once in hundreds of
        // journals; `arx show` names an ambiguous prefix).
        let runs = registry.read_last(n)?;
        let report = LogReport {
            id_len: short_id_len(runs.iter().map(|r| r.run_id.as_str()), SHORT_ID_LEN),
            recorded: runs.len(),
            runs,
        };
        ctx.out.emit_lines(&report, &report.runs)?;
        return Ok(Exit::Ok);
    }
    let records = registry.read()?;
    if let Some(format) = format {
        if ctx.out.json {
            return Err(Hinted::error(
                "--format and --json are two output formats",
                "pass one of them",
            ));
        }
        let mut table = results_table(&select(records, candidate, None));
        if let Some(n) = limit {
            table.keep_last(n);
        }
        match format {
            TableFormat::Tsv => ctx.out.emit_as(&Tsv, &table)?,
            TableFormat::Csv => ctx.out.emit_as(&Csv, &table)?,
        }
        return Ok(Exit::Ok);
    }
    let id_len = short_id_len(records.iter().map(|r| r.run_id.as_str()), SHORT_ID_LEN);
    let recorded = records.len();
    let report = LogReport {
        runs: select(records, candidate, limit),
        id_len,
        recorded,
    };
    ctx.out.emit_lines(&report, &report.runs)?;
    Ok(Exit::Ok)
}

/// The ratchet's results table: commit, the metric, status, description,
/// then the other metrics (karpathy's `results.tsv` columns first), then
/// the lane and the slot.
fn results_table(records: &[RunRecord]) -> Table {
    let r = results(records);
    let mut columns = vec![Column::text("commit"), Column::number(r.metric.clone())];
    columns.push(Column::text("status"));
    columns.push(Column::text("description"));
    columns.extend(r.others.iter().map(|k| Column::number(k.clone())));
    columns.push(Column::text("lane"));
    columns.push(Column::text("slot"));
    columns.push(Column::text("idea"));
    columns.push(Column::text("family"));
    let mut table = Table::new(columns);
    let cell = |x: Option<f64>| x.map(fmt_table_value).unwrap_or_default();
    for row in &r.rows {
        let mut cells = vec![
            row.commit.clone(),
            cell(row.value),
            row.status.to_string(),
            row.description.clone(),
        ];
        cells.extend(row.others.iter().map(|x| cell(*x)));
        cells.push(row.lane.clone());
        cells.push(row.slot.clone());
        cells.push(row.idea.clone());
        cells.push(row.family.clone());
        table.push(cells);
    }
    table
}
