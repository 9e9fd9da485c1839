//! Outcomes and errors: the exit-code contract and how failures are shown.
//!
//! Every command returns `Result<Exit>`. An `Err` is printed once, here, as
//! `arx: error: ...` with its context chain and an optional `hint:` line,
//! and exits 2. A broken pipe on stdout is a quiet exit.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use crate::cli::Cli;

/// The exit-code contract shared by every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Yes / ok: supported, proceed, found, done.
    Ok = 0,
    /// A "no": refuted, paused, known dead end, nothing found.
    No = 1,
    /// An error: bad input, usage, I/O.
    Error = 2,
    /// Inconclusive.
    Inconclusive = 3,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// An error with a suggested next step, shown as a `hint:` line.
#[derive(Debug)]
pub struct Hinted {
    pub message: String,
    pub hint: String,
}

impl Hinted {
    pub fn error(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(Hinted {
            message: message.into(),
            hint: hint.into(),
        })
    }
}

impl fmt::Display for Hinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Hinted {}

/// Is this error (anywhere in its chain) a closed stdout pipe?
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Print an error the one way arx prints errors.
pub fn report_error(err: &anyhow::Error) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "arx: error: {err:#}");
    if let Some(h) = err.chain().find_map(|e| e.downcast_ref::<Hinted>()) {
        let _ = writeln!(stderr, "hint: {}", h.hint);
    }
}

/// Run a parsed command line and return its exit code.
pub fn run(cli: Cli) -> Exit {
    match crate::commands::dispatch(cli) {
        Ok(exit) => exit,
        Err(err) if is_broken_pipe(&err) => Exit::Ok,
        Err(err) => {
            report_error(&err);
            Exit::Error
        }
    }
}
