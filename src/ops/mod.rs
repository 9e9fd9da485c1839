//! Operations the commands share: the steps between parsing flags and
//! rendering a report. A command builds options and calls these; these
//! call the kernel and engines to decide and `io` to act. Nothing here
//! prints: outcomes come back as values, warnings go to the caller's
//! [`crate::io::Warn`], progress through callbacks.

pub mod attempts;
pub mod deadend;
pub mod finding;
pub mod fleet;
pub mod fleet_status;
pub mod gate;
pub mod ideas;
pub mod import;
pub mod journal;
pub mod lanes;
pub mod loop_state;
pub mod next_idea;
pub mod objective;
pub mod placement;
pub mod ratchet;
pub mod reactive;
pub mod report_inputs;
pub mod result_format;
pub mod scan;
pub mod slot_compare;
pub mod spec;
