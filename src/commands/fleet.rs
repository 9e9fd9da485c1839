//! `arx fleet status|sync`: the machines that share one best through a
//! git remote (`[fleet]`), and a sync now. The steps are `ops::fleet`
//! (`ops::fleet_status` for the status); a keep's push is `arx try`'s.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{short, Ctx, WARN};
use crate::cli::FleetCommand;
use crate::error::{Exit, Hinted};
use crate::kernel::fleet::Card;
use crate::ops::fleet::{Fleet, Synced};
use crate::ops::fleet_status::{self, Status};
use crate::ops::ratchet::{PendingSynced, Tended};
use crate::output::{bold, dim, Report};

pub fn run(ctx: &Ctx, cmd: &FleetCommand) -> Result<Exit> {
    let fleet = open(ctx)?;
    match cmd {
        FleetCommand::Status { fetch } => status(ctx, &fleet, *fetch),
        FleetCommand::Sync => sync(ctx, &fleet),
    }
}

fn open(ctx: &Ctx) -> Result<Fleet> {
    let config = ctx.config()?;
    let cwd = ctx.cwd()?;
    let root = crate::io::config::repo_root(&cwd).ok_or_else(|| {
        Hinted::error(
            "not inside a git repository",
            "run arx fleet in the clone the fleet shares",
        )
    })?;
    crate::ops::fleet::resolve(&config, &root, &ctx.state_dir()?, WARN)?.ok_or_else(|| {
        Hinted::error(
            "arx.toml has no [fleet]",
            "add [fleet] with remote = \"origin\" (see docs/fleet.md)",
        )
    })
}

impl Report for Status {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{b}fleet{b:#} {} {}: best {} (this machine: {}, {})",
            self.remote,
            self.branch,
            self.best.as_deref().map_or("-", short),
            self.machine,
            shown(&self.class)
        )?;
        if let Some(why) = &self.unreachable {
            writeln!(out, "{d}the remote did not answer: {}{d:#}", shown(why))?;
        }
        for m in &self.machines {
            machine_lines(out, m)?;
        }
        standing_lines(out, self)
    }
}

/// A machine's line, then with lanes one line for each lane's try.
fn machine_lines(out: &mut dyn Write, m: &Card) -> io::Result<()> {
    let lanes = m.tries.iter().any(|t| t.lane.is_some());
    let mut what = match &m.trying {
        _ if lanes => format!("{} tries", m.tries.len()),
        Some(t) => format!("trying {}", shown(t)),
        None => "idle".into(),
    };
    if let Some(p) = &m.pending {
        what.push_str(&format!(", keep {} pending", short(p)));
    }
    writeln!(
        out,
        "  {:<16} {:<28} seen {}  {what}",
        m.machine,
        shown(&m.class),
        if m.seen.is_empty() { "never" } else { &m.seen }
    )?;
    for t in m.tries.iter().filter(|_| lanes) {
        let tree = match &t.lane {
            Some(lane) => format!("{}/{}", m.machine, shown(lane)),
            None => m.machine.clone(),
        };
        writeln!(
            out,
            "    {tree:<28} trying {} (since {})",
            shown(&t.trying),
            shown(&t.since)
        )?;
    }
    Ok(())
}

/// Each class's best, the keeps waiting for classes and the claims.
fn standing_lines(out: &mut dyn Write, s: &Status) -> io::Result<()> {
    let d = dim();
    let fmt = |v: Option<f64>| v.map_or("-".into(), crate::kernel::number::fmt_number);
    for c in &s.classes {
        writeln!(
            out,
            "  {d}class{d:#} {}: best {} by {} ({}); the fleet's best measured here: {}",
            shown(&c.class),
            short(&c.commit),
            c.machine,
            fmt(c.value),
            fmt(c.fleet_best)
        )?;
    }
    for p in &s.pending {
        writeln!(
            out,
            "  {d}pending{d:#} keep of run {} (class {}, over {}): better on {}; waits for {} more class(es)",
            shown(&p.run),
            shown(&p.class),
            short(&p.kept),
            shown(&p.classes.join(", ")),
            p.needed
        )?;
    }
    for c in &s.claims {
        writeln!(
            out,
            "  {d}claim{d:#} idea {} by {} until {}{}",
            shown(&c.lease.idea),
            shown(&crate::kernel::fleet::holder(&c.lease)),
            shown(&c.lease.expires),
            if c.expired { " (expired)" } else { "" }
        )?;
    }
    Ok(())
}

fn shown(text: &str) -> String {
    crate::kernel::text::shown(text).to_string()
}

fn status(ctx: &Ctx, fleet: &Fleet, fetch: bool) -> Result<Exit> {
    let now = ctx.now()?;
    ctx.out.emit(&fleet_status::status(fleet, fetch, &now)?)?;
    Ok(Exit::Ok)
}

#[derive(Serialize)]
struct SyncReport {
    machine: String,
    #[serde(flatten)]
    synced: Synced,
    /// With `confirm_classes`: what the sync did with the keeps waiting
    /// for other classes (pushed again, made the fleet's best, pruned).
    #[serde(skip_serializing_if = "Tended::is_empty")]
    confirm: Tended,
    /// A keep held here while the remote did not answer: what the sync
    /// did with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<PendingSynced>,
}

impl Report for SyncReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let s = &self.synced;
        writeln!(
            out,
            "synced {}: {} record(s) of other machines merged in, {} of this machine's on the remote, best {}",
            self.machine,
            s.merged_in,
            s.published,
            s.best.as_deref().map_or("-", short)
        )?;
        for line in crate::ops::ratchet::confirm_lines(&self.confirm) {
            writeln!(out, "{line}")?;
        }
        if let Some(p) = &self.pending {
            match p.outcome {
                "pushed" => writeln!(
                    out,
                    "pushed the keep {} held while the remote did not answer: the fleet's best",
                    short(&p.commit)
                ),
                "replayed" if p.conflicts.is_empty() => writeln!(
                    out,
                    "the keep {} held here was overtaken by another machine's keep: its change is \
                     replayed onto the fleet's best as work; arx try measures it there",
                    short(&p.commit)
                ),
                "replayed" => writeln!(
                    out,
                    "the keep {} held here was overtaken by another machine's keep; its change \
                     conflicts with the fleet's best in {}: the working tree is as it was",
                    short(&p.commit),
                    shown(&p.conflicts.join(", "))
                ),
                _ => writeln!(
                    out,
                    "the keep {} is still pending: a try running here pushes it, or the next sync",
                    short(&p.commit)
                ),
            }?;
        }
        Ok(())
    }
}

fn sync(ctx: &Ctx, fleet: &Fleet) -> Result<Exit> {
    let root = crate::io::config::repo_root(&ctx.cwd()?).unwrap_or(ctx.cwd()?);
    let (synced, confirm, pending) =
        crate::ops::ratchet::sync_now(fleet, &root, &ctx.state_dir()?, &ctx.now()?, WARN)?;
    if let Some(why) = &synced.unreachable {
        return Err(Hinted::error(
            format!(
                "the fleet's remote {} did not answer: {why}",
                fleet.remote()
            ),
            "tries go on here meanwhile; arx try syncs again at its start and end, or run arx fleet sync later",
        ));
    }
    ctx.out.emit(&SyncReport {
        machine: fleet.machine.clone(),
        synced,
        confirm,
        pending,
    })?;
    Ok(Exit::Ok)
}
