//! `arx policy show|crystallize|cycles`: the policy cache learned from the
//! journal.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{pass_kg_write_gate, Ctx};
use crate::cli::PolicyCommand;
use crate::commands::WARN;
use crate::engine::policy_cache::{
    crystallizes, weekday_cycle_of_counts, wilson_lower, WeekdayCycle, WILSON_Z,
};
use crate::error::Exit;
use crate::io::history;
use crate::io::state::{knowhow, Appended, JOURNAL_FILE};
use crate::kernel::promote::KnowhowRecord;
use crate::output::{bold, dim, Report, Row, Rows};

#[derive(Serialize)]
struct Entry {
    fingerprint: String,
    candidate: String,
    q: f64,
    successes: u64,
    total: u64,
    wilson_lower: f64,
    crystallizes: bool,
}

impl Row for Entry {
    fn row(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        let mark = if self.crystallizes {
            "  crystallizes"
        } else {
            ""
        };
        writeln!(
            out,
            "{} {:<20} q {:>7.4}  {d}{}/{} wilson {:.3}{d:#}{mark}",
            self.fingerprint, self.candidate, self.q, self.successes, self.total, self.wilson_lower
        )
    }
}

fn entries(h: &crate::engine::history::History) -> Vec<Entry> {
    let mut out = Vec::new();
    for (fp, actions) in h.settled_policy() {
        for (action, v) in actions {
            out.push(Entry {
                wilson_lower: wilson_lower(v.successes, v.total, WILSON_Z),
                crystallizes: crystallizes(v.successes, v.total),
                fingerprint: fp.clone(),
                candidate: action,
                q: v.q,
                successes: v.successes,
                total: v.total,
            });
        }
    }
    out
}

#[derive(Serialize)]
struct CrystallizeReport {
    added: Vec<KnowhowRecord>,
    already: usize,
}

impl Report for CrystallizeReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        for k in &self.added {
            writeln!(out, "{b}knowhow{b:#}: {}: {}", k.statement, k.content)?;
        }
        writeln!(
            out,
            "{} new knowhow {} ({} already known)",
            self.added.len(),
            if self.added.len() == 1 {
                "entry"
            } else {
                "entries"
            },
            self.already
        )
    }
}

#[derive(Serialize)]
struct CyclesReport {
    failures: u64,
    cycle: Option<WeekdayCycle>,
    message: String,
}

impl Report for CyclesReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.message)?;
        if let Some(c) = &self.cycle {
            let d = dim();
            writeln!(
                out,
                "{d}Mon..Sun {:?}  chi-squared {:.2} (critical {:.3}){d:#}",
                c.counts, c.statistic, c.critical
            )?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, cmd: &PolicyCommand) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let cache = history::load(&state, &state.join(JOURNAL_FILE), state.is_dir(), WARN)?;
    let h = &cache.history;
    match cmd {
        PolicyCommand::Show => {
            ctx.out.emit(&Rows {
                items: entries(h),
                empty: "no policy yet (runs need --candidate and --state)",
            })?;
            Ok(Exit::Ok)
        }
        PolicyCommand::Crystallize { gates } => {
            let now = ctx.now()?;
            if !pass_kg_write_gate(ctx, *gates, "crystallized policies as knowhow")? {
                return Ok(Exit::No);
            }
            let registry = knowhow(&state, WARN);
            let mut added = Vec::new();
            let mut already = 0;
            for e in entries(h).into_iter().filter(|e| e.crystallizes) {
                let record = KnowhowRecord {
                    statement: format!("policy: {} in state {}", e.candidate, e.fingerprint),
                    content: format!(
                        "succeeded {} of {} runs (Wilson lower bound {:.3})",
                        e.successes, e.total, e.wilson_lower
                    ),
                    iteration: 0,
                    created_at: Some(now.clone()),
                };
                let statement = record.statement.clone();
                match registry.append_unless(record, |known| {
                    known.iter().find(|k| k.statement == statement).cloned()
                })? {
                    Appended::Added(r) => added.push(r),
                    Appended::Existing(_) => already += 1,
                }
            }
            ctx.out.emit(&CrystallizeReport { added, already })?;
            Ok(Exit::Ok)
        }
        PolicyCommand::Cycles => {
            let counts = h.failure_weekdays;
            let failures: u64 = counts.iter().sum();
            let cycle = weekday_cycle_of_counts(counts);
            let (message, clustered) = match &cycle {
                None => (
                    format!(
                        "too few failing runs for a weekday test ({failures}; at least 7 needed)"
                    ),
                    false,
                ),
                Some(c) if c.significant => (
                    format!(
                        "failures cluster on {}",
                        c.phrase().unwrap_or_else(|| format!("{}s", c.peak))
                    ),
                    true,
                ),
                Some(_) => ("no weekday pattern in failures".to_string(), false),
            };
            ctx.out.emit(&CyclesReport {
                failures,
                cycle,
                message,
            })?;
            Ok(if clustered { Exit::Ok } else { Exit::No })
        }
    }
}
