//! `arx gate check|show`: approval gates from configuration.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::cli::GateCommand;
use crate::error::{Exit, Hinted};
use crate::kernel::gate::{check_gate, resolve_gates, Gate, GateState};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct CheckReport {
    gate: Gate,
    on: bool,
    approved: bool,
    proceed: bool,
    pending_gate: Option<Gate>,
    config: Option<String>,
}

impl Report for CheckReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        if self.proceed {
            let why = if !self.on { "gate is off" } else { "approved" };
            writeln!(out, "{b}proceed{b:#}: {} ({why})", self.gate)
        } else {
            writeln!(
                out,
                "{b}paused{b:#}: pending gate {} (approve with --approve)",
                self.gate
            )
        }
    }
}

#[derive(Serialize)]
struct ShowReport {
    gates: GateState,
    no_gates: bool,
    config: Option<String>,
}

impl Report for ShowReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        for &gate in Gate::ALL {
            let state = if self.gates.is_on(gate) { "on" } else { "off" };
            writeln!(out, "{:<9}{state}", gate.as_str())?;
        }
        let source = match (&self.config, self.no_gates) {
            (_, true) => "--no-gates".to_string(),
            (Some(p), false) => p.clone(),
            (None, false) => "defaults (no arx.toml found)".to_string(),
        };
        writeln!(out, "{d}source: {source}{d:#}")
    }
}

pub fn run(ctx: &Ctx, cmd: &GateCommand) -> Result<Exit> {
    match cmd {
        GateCommand::Check {
            gate,
            approved,
            no_gates,
        } => {
            let gate: Gate = gate.parse().map_err(|e: String| {
                Hinted::error(
                    e,
                    "use `arx gate check execute` or `arx gate check kg_write`",
                )
            })?;
            let config = ctx.config()?;
            let gates = resolve_gates(&config.grd, *no_gates);
            let check = check_gate(&gates, gate, *approved);
            ctx.out.emit(&CheckReport {
                gate,
                on: gates.is_on(gate),
                approved: *approved,
                proceed: check.proceed,
                pending_gate: check.pending_gate,
                config: config.path.map(|p| p.display().to_string()),
            })?;
            Ok(if check.proceed { Exit::Ok } else { Exit::No })
        }
        GateCommand::Show { no_gates } => {
            let config = ctx.config()?;
            ctx.out.emit(&ShowReport {
                gates: resolve_gates(&config.grd, *no_gates),
                no_gates: *no_gates,
                config: config.path.map(|p| p.display().to_string()),
            })?;
            Ok(Exit::Ok)
        }
    }
}
