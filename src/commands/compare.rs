//! `arx compare`: placeholder until implemented.

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

pub fn run(_ctx: &Ctx, _args: &crate::cli::CompareArgs) -> Result<Exit> {
    anyhow::bail!("`arx compare` is not implemented yet")
}
