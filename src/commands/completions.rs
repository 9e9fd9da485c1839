//! `arx completions`: shell completion scripts from the clap definition.

use std::io::{self, Write};

use anyhow::Result;
use clap::CommandFactory;
use serde::Serialize;

use super::Ctx;
use crate::cli::Cli;
use crate::error::Exit;
use crate::output::Report;

/// The completion script for `shell`.
pub fn script(shell: clap_complete::Shell) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "arx", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

#[derive(Serialize)]
struct CompletionsReport {
    shell: String,
    script: String,
}

impl Report for CompletionsReport {
    fn styled(&self) -> bool {
        false
    }

    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.script.as_bytes())
    }
}

pub fn run(ctx: &Ctx, shell: clap_complete::Shell) -> Result<Exit> {
    ctx.out.emit(&CompletionsReport {
        shell: shell.to_string(),
        script: script(shell),
    })?;
    Ok(Exit::Ok)
}
