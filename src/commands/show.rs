//! `arx show`: placeholder until implemented.

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

pub fn run(_ctx: &Ctx, _run_id: &str) -> Result<Exit> {
    anyhow::bail!("`arx show` is not implemented yet")
}
