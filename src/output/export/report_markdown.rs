//! The report as Markdown, for `$GITHUB_STEP_SUMMARY` and pull-request
//! comments: the segment's facts and the last runs as pipe tables (the
//! shared [`Markdown`] table walk), the groups by metric and candidate.

use std::io::Write;

use super::overview::{
    facts, families_table, groups_table, last_heading, runs_table, table_metric,
};
use super::{Column, Exporter, Markdown, Table};
use crate::kernel::report::Overview;

/// The Markdown view of an [`Overview`].
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownReport;

impl Exporter<Overview> for MarkdownReport {
    fn export(&self, o: &Overview, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "## arx report")?;
        writeln!(out)?;
        writeln!(out, "{}; generated {}.", o.counts(), o.generated_at)?;
        for s in &o.segments {
            writeln!(out)?;
            writeln!(
                out,
                "### Segment {} (`{}`)",
                s.number,
                s.id.replace('`', "'")
            )?;
            writeln!(out)?;
            let mut t = Table::new([Column::text(""), Column::text("")]);
            for (label, value) in facts(s) {
                t.push([label.to_string(), value]);
            }
            Markdown.export(&t, out)?;
            if let Some(t) = families_table(s) {
                writeln!(out)?;
                writeln!(out, "By family:")?;
                writeln!(out)?;
                Markdown.export(&t, out)?;
            }
        }
        if !o.last_runs.is_empty() {
            writeln!(out)?;
            writeln!(out, "### Last {}", last_heading(&o.last_runs))?;
            writeln!(out)?;
            Markdown.export(&runs_table(&o.last_runs, &table_metric(o)), out)?;
        }
        if !o.groups.is_empty() {
            writeln!(out)?;
            writeln!(out, "### By metric and candidate")?;
            writeln!(out)?;
            Markdown.export(&groups_table(&o.groups), out)?;
        }
        Ok(())
    }
}
