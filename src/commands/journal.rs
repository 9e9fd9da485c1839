//! `arx journal`: placeholder until implemented.

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

pub fn run(_ctx: &Ctx, _cmd: &crate::cli::JournalCommand) -> Result<Exit> {
    anyhow::bail!("`arx journal` is not implemented yet")
}
