//! The `execute` gate before an experiment runs.

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

/// The `execute` gate: proceed when it is off (in the config or by
/// `no_gates`), approved, or when `confirm` (a prompt) says yes; `confirm`
/// is asked only when nothing else lets the run proceed.
pub fn execute_gate(
    config: &Config,
    approve: bool,
    no_gates: bool,
    confirm: impl FnOnce() -> bool,
) -> GateOutcome {
    let gates = resolve_gates(&config.grd, no_gates);
    let check = check_gate(&gates, Gate::Execute, approve);
    if check.proceed || confirm() {
        GateOutcome::Proceed
    } else {
        GateOutcome::Paused {
            pending_gate: check.pending_gate,
        }
    }
}
