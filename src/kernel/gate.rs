//! Approval gates: which gates are on, and whether a step may proceed.
//!
//! Configuration is tolerant in the reference's way: a gate is on unless its
//! setting is literally `false`; a `research_gates` value that is not an
//! object is ignored; `--no-gates` turns every gate off.

use super::names::str_enum;
use serde::Serialize;
use serde_json::Value;

str_enum! {
    /// A gate name.
    Gate, "gate" {
        /// Running an experiment (configured as `experiment_execution`).
        Execute => "execute",
        /// Writing to the knowledge graph.
        KgWrite => "kg_write",
    }
}

impl Gate {
    /// The key of this gate in a GRD `research_gates` object.
    pub fn config_key(self) -> &'static str {
        match self {
            Gate::Execute => "experiment_execution",
            Gate::KgWrite => "kg_write",
        }
    }
}

/// Which gates are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GateState {
    pub execute: bool,
    pub kg_write: bool,
}

impl GateState {
    pub fn is_on(&self, gate: Gate) -> bool {
        match gate {
            Gate::Execute => self.execute,
            Gate::KgWrite => self.kg_write,
        }
    }
}

/// Gate state from a GRD-shaped configuration object.
pub fn resolve_gates(config: &Value, no_gates: bool) -> GateState {
    if no_gates {
        return GateState {
            execute: false,
            kg_write: false,
        };
    }
    let gates = config.get("research_gates").and_then(Value::as_object);
    let on = |gate: Gate| {
        gates
            .and_then(|g| g.get(gate.config_key()))
            .is_none_or(|v| *v != Value::Bool(false))
    };
    GateState {
        execute: on(Gate::Execute),
        kg_write: on(Gate::KgWrite),
    }
}

/// Whether to proceed at a gate, and which gate is pending when not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GateCheck {
    pub proceed: bool,
    pub pending_gate: Option<Gate>,
}

/// Proceed when the gate is off or a person approved; otherwise pause.
pub fn check_gate(gates: &GateState, gate: Gate, approved: bool) -> GateCheck {
    if !gates.is_on(gate) || approved {
        GateCheck {
            proceed: true,
            pending_gate: None,
        }
    } else {
        GateCheck {
            proceed: false,
            pending_gate: Some(gate),
        }
    }
}
