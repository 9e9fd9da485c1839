//! `arx mcp`: serve arx's commands as Model Context Protocol tools over
//! stdio, for an MCP client to call (Claude Code, Codex, ...). Glue: the
//! server and its tool table live in [`crate::mcp`].

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;

/// Built without the `mcp` cargo feature: the command stays (so scripts
/// and completions see the same interface) and says how to get it.
#[cfg(not(feature = "mcp"))]
pub fn run(_ctx: &Ctx, _approve: bool) -> Result<Exit> {
    Err(crate::error::Hinted::error(
        "this arx was built without the MCP server (the cargo feature `mcp` is off)",
        "reinstall with the default features: cargo install --path . (or --features mcp)",
    ))
}

#[cfg(feature = "mcp")]
use crate::mcp::{serve, Setup};

/// The server's log lines, on stderr (stdout carries the protocol).
#[cfg(feature = "mcp")]
fn log(message: &str) {
    crate::errln!("arx: {message}");
}

#[cfg(feature = "mcp")]
pub fn run(ctx: &Ctx, approve: bool) -> Result<Exit> {
    use anyhow::Context;
    let exe = std::env::current_exe().context("cannot find the arx binary to run tools with")?;
    let cwd = ctx.cwd()?;
    let mut global = Vec::new();
    // Paths given at start are made absolute, so every call finds the same
    // files whatever its working directory.
    if let Some(dir) = &ctx.global.state_dir {
        global.push(format!("--state-dir={}", cwd.join(dir).display()));
    }
    if let Some(config) = &ctx.global.config {
        global.push(format!("--config={}", cwd.join(config).display()));
    }
    if let Some(now) = &ctx.global.now {
        global.push(format!("--now={now}"));
    }
    // Checked now, so a wrong value stops the server before a client
    // connects instead of failing every call.
    let approve = approve || crate::io::config::mcp_approve(&ctx.config()?)?;
    if approve {
        log("mcp: the execute gate is approved for every call (operator)");
    }
    serve(Setup {
        exe,
        global,
        dir: cwd,
        log,
        approve,
    })?;
    Ok(Exit::Ok)
}
