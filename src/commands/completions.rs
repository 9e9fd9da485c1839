//! `arx completions`: shell completion scripts from the clap definition.

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::Cli;
use crate::error::Exit;

/// The completion script for `shell`.
pub fn script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "arx", &mut buf);
    buf
}

pub fn run(shell: clap_complete::Shell) -> Result<Exit> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(&script(shell))?;
    out.flush()?;
    Ok(Exit::Ok)
}
