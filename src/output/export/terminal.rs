//! The report in the terminal: the segment's facts, the last runs, the
//! groups by metric and candidate, precision, dead ends and rounds, in at
//! most [`WIDTH`] columns. Styles are stripped when colour is off.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};

use super::overview::{
    facts, families_table, groups_table, num, one_line, runs_table, short_run, table_metric,
    truncate,
};
use super::{Align, Table};
use crate::kernel::report::{Class, Overview, SegmentSummary, Status};
use crate::output::{bold, dim, Report};

/// Columns the view fits in.
pub const WIDTH: usize = 100;

/// The style of a status word.
fn status_style(status: &str) -> Style {
    let class = Status::from_try(status)
        .map(Status::class)
        .unwrap_or(match status {
            "supported" | "ok" => Class::Pass,
            "refuted" => Class::Fail,
            "failed" => Class::Crash,
            "inconclusive" => Class::Inconclusive,
            _ => Class::Other,
        });
    match class {
        Class::Pass => Style::new().fg_color(Some(AnsiColor::Green.into())).bold(),
        Class::Fail => Style::new().dimmed(),
        Class::Crash => Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
        Class::Inconclusive | Class::Other => Style::new().fg_color(Some(AnsiColor::Yellow.into())),
    }
}

/// Draw `table` indented by two spaces in at most [`WIDTH`] columns: the
/// last column takes what is left and is cut; `styled` names the column
/// whose cells are coloured by status.
fn draw(out: &mut dyn Write, table: &Table, styled: Option<usize>) -> io::Result<()> {
    let columns = table.columns();
    let n = columns.len();
    let mut widths: Vec<usize> = columns.iter().map(|c| c.header.chars().count()).collect();
    for row in table.rows() {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(one_line(cell).chars().count()).min(40);
        }
    }
    let used: usize = 2 + widths[..n - 1].iter().map(|w| w + 2).sum::<usize>();
    widths[n - 1] = widths[n - 1].min(WIDTH.saturating_sub(used).max(8));
    let cell = |text: &str, i: usize| -> String {
        let text = truncate(text, widths[i]);
        match columns[i].align {
            Align::Left if i == n - 1 => text,
            Align::Left => format!("{text:<w$}", w = widths[i]),
            Align::Right => format!("{text:>w$}", w = widths[i]),
        }
    };
    let d = dim();
    let head: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| cell(&c.header, i))
        .collect();
    writeln!(out, "  {d}{}{d:#}", head.join("  ").trim_end())?;
    for row in table.rows() {
        let mut line = String::from("  ");
        for (i, c) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let text = cell(c, i);
            if styled == Some(i) {
                let s = status_style(c);
                line.push_str(&format!("{s}{text}{s:#}"));
            } else {
                line.push_str(&text);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

impl Report for Overview {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{b}arx report{b:#}: {} {d}({}){d:#}",
            self.counts(),
            self.generated_at
        )?;
        if self.journal.unreadable > 0 {
            writeln!(
                out,
                "  {d}{} journal lines are not run records (skipped){d:#}",
                self.journal.unreadable
            )?;
        }
        for s in &self.segments {
            segment(out, s)?;
            if let Some(t) = families_table(s) {
                writeln!(out, "  {b}by family{b:#}")?;
                draw(out, &t, None)?;
            }
        }
        if !self.last_runs.is_empty() {
            writeln!(out)?;
            writeln!(
                out,
                "{b}last {}{b:#}",
                super::overview::last_heading(&self.last_runs)
            )?;
            draw(
                out,
                &runs_table(&self.last_runs, &table_metric(self)),
                Some(4),
            )?;
        }
        if !self.groups.is_empty() {
            writeln!(out)?;
            writeln!(out, "{b}by metric and candidate{b:#}")?;
            draw(out, &groups_table(&self.groups), None)?;
        }
        if let Some(p) = &self.precision {
            writeln!(out)?;
            writeln!(
                out,
                "{b}precision{b:#}: execution {}, planning {}, abstract {} {d}({} runs observed){d:#}{}",
                num(p.execution),
                num(p.planning),
                num(p.abstract_level),
                p.runs,
                if p.adaptation_due { " — adaptation due" } else { "" }
            )?;
            writeln!(
                out,
                "  {d}0 to 1: how often runs ran cleanly, verdicts came out as predicted, no plateau began{d:#}"
            )?;
        }
        dead_ends_and_rounds(out, self)?;
        if self.journal.runs == 0 {
            writeln!(out, "{d}no runs recorded{d:#}")?;
        }
        Ok(())
    }
}

/// One segment's heading and facts.
fn segment(out: &mut dyn Write, s: &SegmentSummary) -> io::Result<()> {
    let (b, d) = (bold(), dim());
    writeln!(out)?;
    writeln!(
        out,
        "{b}segment {}{b:#} {d}({}, {} to {}){d:#}",
        s.number,
        truncate(&s.id, 16),
        truncate(&s.started_at, 24),
        truncate(&s.last_at, 24)
    )?;
    for (label, value) in facts(s) {
        let text = truncate(&value, WIDTH - 20);
        if label == "advice" {
            let st = if s.advice.stop {
                Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold()
            } else {
                Style::new()
            };
            writeln!(out, "  {label:<16}  {st}{text}{st:#}")?;
        } else {
            writeln!(out, "  {label:<16}  {text}")?;
        }
    }
    Ok(())
}

/// The dead ends and the rounds recorded, when there are any.
fn dead_ends_and_rounds(out: &mut dyn Write, o: &Overview) -> io::Result<()> {
    let (b, d) = (bold(), dim());
    if o.dead_ends_total > 0 {
        writeln!(out)?;
        writeln!(
            out,
            "{b}dead ends{b:#} {d}({} recorded){d:#}",
            o.dead_ends_total
        )?;
        for de in &o.dead_ends {
            writeln!(
                out,
                "  {}",
                truncate(&format!("{} — {}", de.statement, de.reason), WIDTH - 2)
            )?;
        }
    }
    if o.rounds_total > 0 {
        writeln!(out)?;
        writeln!(out, "{b}rounds{b:#} {d}({} recorded){d:#}", o.rounds_total)?;
        for r in &o.rounds {
            writeln!(
                out,
                "  {}",
                truncate(
                    &format!("{}  {}  {}", short_run(&r.round_id), r.status, r.detail),
                    WIDTH - 2
                )
            )?;
        }
    }
    Ok(())
}
