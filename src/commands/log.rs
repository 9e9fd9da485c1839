//! `arx log`: placeholder until implemented.

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

pub fn run(_ctx: &Ctx, _limit: Option<usize>, _candidate: Option<&str>) -> Result<Exit> {
    anyhow::bail!("`arx log` is not implemented yet")
}
