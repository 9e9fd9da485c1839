//! Outcomes and errors: the exit-code contract and the hinted error.
//!
//! Every command returns `Result<Exit>`. An `Err` is printed once, by the
//! entry point ([`crate::run`]), as `arx: error: ...` with its context chain
//! and an optional `hint:` line, and exits 2. This module imports nothing
//! else from the crate: every layer may use it.

use std::fmt;
use std::process::ExitCode;

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
