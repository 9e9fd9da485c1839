//! arx: a toolkit for autoresearch loops.
//!
//! An experiment prints `__RESULT__ {"metric": 0.83}` on stdout; arx turns that
//! output into a deterministic decision (supported / refuted / inconclusive),
//! classifies failures from stderr, checks approval gates, and keeps registries
//! of dead ends and knowhow.
//!
//! Layers, from the bottom up:
//! - [`kernel`]: pure decisions. Values in, values out: no files, clocks,
//!   environment, processes or printing. This is where parity with the
//!   reference kernel lives and is tested.
//! - [`io`]: the one place that touches the outside world: input streams,
//!   configuration files and the `.arx/` state directory.
//! - [`commands`]: glue, one file per subcommand: read through `io`, decide
//!   through `kernel`, render a report through [`output`].
//! - [`cli`]: the clap definition; `main.rs` only parses and calls [`run`].

pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod io;
pub mod kernel;
pub mod output;

pub use error::{run, Exit};
