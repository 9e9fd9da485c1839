//! The approval gates before a step: `execute` before an experiment runs,
//! `kg_write` before dead ends, knowhow or crystallized policies are
//! written; and the flags every gated command takes.

use crate::io::config::Config;
use crate::kernel::gate::{check_gate, resolve_gates, Gate};

/// What the gate says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateOutcome {
    Proceed,
    /// Not approved: the loop pauses on this gate.
    Paused {
        pending_gate: Option<Gate>,
    },
}

/// The approval flags, flattened into every command that passes a gate.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct GateFlags {
    /// Approve this step at its gate (`execute` before running,
    /// `kg_write` before writing dead ends and knowhow).
    #[arg(long, alias = "approved")]
    pub approve: bool,
    /// Turn every gate off.
    #[arg(long)]
    pub no_gates: bool,
}

/// The `execute` gate: proceed when it is off (in the config or by
/// `no_gates`), approved, or when `confirm` (a prompt) says yes; `confirm`
/// is asked only when nothing else lets the run proceed.
pub fn execute_gate(
    config: &Config,
    approve: bool,
    no_gates: bool,
    confirm: impl FnOnce() -> bool,
) -> GateOutcome {
    pass_gate(config, Gate::Execute, approve, no_gates, confirm)
}

/// Any gate, as [`execute_gate`] passes `execute`.
pub fn pass_gate(
    config: &Config,
    gate: Gate,
    approve: bool,
    no_gates: bool,
    confirm: impl FnOnce() -> bool,
) -> GateOutcome {
    let gates = resolve_gates(&config.grd, no_gates);
    let check = check_gate(&gates, gate, approve);
    if check.proceed || confirm() {
        GateOutcome::Proceed
    } else {
        GateOutcome::Paused {
            pending_gate: check.pending_gate,
        }
    }
}
