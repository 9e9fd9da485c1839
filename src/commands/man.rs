//! `arx man`: the man page, generated from the clap definition.

use std::io::{self, Write};

use anyhow::Result;
use clap::CommandFactory;
use serde::Serialize;

use super::Ctx;
use crate::cli::Cli;
use crate::error::Exit;
use crate::output::Report;

/// The roff source of `arx.1`.
pub fn page() -> Result<String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[derive(Serialize)]
struct ManReport {
    page: String,
}

impl Report for ManReport {
    fn styled(&self) -> bool {
        false
    }

    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.page.as_bytes())
    }
}

pub fn run(ctx: &Ctx) -> Result<Exit> {
    ctx.out.emit(&ManReport { page: page()? })?;
    Ok(Exit::Ok)
}
