//! Operations the commands share: the steps between parsing flags and
//! rendering a report. A command builds options and calls these; these
//! call the kernel and engines to decide and `io` to act. Nothing here
//! prints: outcomes come back as values, progress through callbacks.

pub mod scan;
pub mod spec;
