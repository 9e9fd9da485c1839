//! arx: a toolkit for autoresearch loops.
//!
//! An experiment prints `__RESULT__ {"metric": 0.83}` on stdout; arx turns that
//! output into a deterministic decision (supported / refuted / inconclusive),
//! classifies failures from stderr, checks approval gates, and keeps registries
//! of dead ends and knowhow.
//!
//! Layers, from the bottom up (ARCHITECTURE.md has the map and the import
//! rules, which `tests/architecture.rs` enforces):
//! - [`error`]: the exit-code contract and the hinted error; imports nothing.
//! - [`kernel`]: pure decisions. Values in, values out: no files, clocks,
//!   environment, processes or printing. This is where parity with the
//!   reference kernel lives and is tested.
//! - [`engine`]: pure engines over the journal's history (precision,
//!   expected free energy, selection, the policy cache).
//! - [`io`]: the one place that touches the outside world: processes, git,
//!   input streams, configuration files and the `.arx/` state directory.
//!   It never prints.
//! - [`ops`]: the steps commands share (spec resolution, the execute gate,
//!   running and journaling attempts).
//! - [`output`]: reports as JSON or a human view, styles, progress.
//! - [`cli`] and [`commands`]: the clap definition, and glue, one file per
//!   subcommand. [`run`] dispatches a parsed command line and maps errors
//!   to exit codes; `main.rs` only parses and calls it.
//! - [`mcp`]: the other front end, `arx mcp`: the Model Context Protocol
//!   server, whose tools run the commands as child `arx --json` processes.

pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod io;
pub mod kernel;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod ops;
pub mod output;

pub use error::Exit;

use std::io::Write;

use error::Hinted;

/// Print an error the one way arx prints errors.
pub fn report_error(err: &anyhow::Error) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "arx: error: {err:#}");
    if let Some(h) = err.chain().find_map(|e| e.downcast_ref::<Hinted>()) {
        let _ = writeln!(stderr, "hint: {}", h.hint);
    }
}

/// Run a parsed command line and return its exit code: the one place that
/// dispatches and maps errors to exit codes.
pub fn run(cli: cli::Cli) -> Exit {
    match commands::dispatch(cli) {
        Ok(exit) => exit,
        Err(err) if output::is_broken_pipe(&err) => Exit::Ok,
        Err(err) => {
            report_error(&err);
            Exit::Error
        }
    }
}
