//! `arx ps`: every live run (from the live files in the state directory)
//! with its elapsed time, last progress and heartbeat age; `--reap`
//! journals the lost ones as `lost` and ends their orphaned experiments.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::error::Exit;
use crate::io::clock::timestamp;
use crate::kernel::live::Liveness;
use crate::kernel::number::fmt_number;
use crate::ops::reactive::{self, Reaped, Seen};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct PsReport {
    runs: Vec<Seen>,
    /// With `--reap`: what was done to each lost run.
    #[serde(skip_serializing_if = "Option::is_none")]
    reaped: Option<Vec<Reaped>>,
}

/// A run id as `arx log` shows it.
pub fn short(id: &str) -> &str {
    id.get(..crate::kernel::journal::SHORT_ID_LEN).unwrap_or(id)
}

/// `1h02m`, `3m05s`, `4.2s`.
pub fn age(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", ms as f64 / 1000.0)
    }
}

impl Report for PsReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let d = dim();
        if self.runs.is_empty() {
            writeln!(out, "no live runs")?;
        }
        for r in &self.runs {
            let l = &r.live;
            let state = r.state.as_str();
            let progress = l
                .last_progress
                .as_ref()
                .map(|m| {
                    m.iter()
                        .take(4)
                        .map(|(k, v)| format!("{k}={}", fmt_number(v)))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_else(|| "-".into());
            writeln!(
                out,
                "{} {b}{state}{b:#} {} {}, heartbeat {} ago {d}{}{d:#}",
                short(&l.run_id),
                l.kind,
                age(r.elapsed_ms),
                age(r.heartbeat_age_ms),
                l.command.join(" ")
            )?;
            writeln!(out, "  {d}progress:{d:#} {progress}")?;
            if l.slot.is_some() || l.job_id.is_some() {
                writeln!(
                    out,
                    "  {d}slot:{d:#} {}  {d}job:{d:#} {}",
                    l.slot.as_deref().unwrap_or("-"),
                    l.job_id.as_deref().unwrap_or("-")
                )?;
            }
            if let Some(p) = &l.pruning {
                writeln!(out, "  {d}pruning:{d:#} {p}")?;
            }
        }
        if let Some(reaped) = &self.reaped {
            for r in reaped {
                writeln!(
                    out,
                    "reaped {}: journaled as lost{}{}",
                    short(&r.run_id),
                    if r.journaled {
                        ""
                    } else {
                        " (already journaled)"
                    },
                    if r.group_killed {
                        ", its orphaned experiment ended"
                    } else {
                        ""
                    }
                )?;
                if let Some(name) = &r.job_cancelled {
                    writeln!(out, "  job {name} cancelled")?;
                }
                if let Some(why) = &r.job_error {
                    writeln!(out, "  its job could not be cancelled: {why}")?;
                }
                if let Some(why) = &r.not_signalled {
                    writeln!(out, "  nothing signalled: {why}")?;
                }
            }
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, reap: bool) -> Result<Exit> {
    super::note_outside_git(ctx, "; the live runs of the state directory here")?;
    let state = ctx.state_dir()?;
    let now = timestamp(ctx.global.now.as_deref())?.as_millisecond();
    let mut runs = reactive::survey(&state, now, WARN)?;
    let reaped = if reap {
        let mut done = Vec::new();
        for seen in runs.iter().filter(|s| s.state == Liveness::Lost) {
            done.push(reactive::reap(&state, seen, WARN)?);
        }
        runs.retain(|s| s.state != Liveness::Lost);
        Some(done)
    } else {
        None
    };
    ctx.out.emit(&PsReport { runs, reaped })?;
    Ok(Exit::Ok)
}
