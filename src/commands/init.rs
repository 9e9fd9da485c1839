//! `arx init`: placeholder until implemented.

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

pub fn run(_ctx: &Ctx) -> Result<Exit> {
    anyhow::bail!("`arx init` is not implemented yet")
}
