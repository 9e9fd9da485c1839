//! `arx mcp`: serve arx's commands as Model Context Protocol tools over
//! stdio, for an MCP client to call (Claude Code, Codex, ...). Glue: the
//! server and its tool table live in [`crate::mcp`].

use anyhow::{Context, Result};

use super::Ctx;
use crate::error::Exit;
use crate::mcp::{serve, Setup};

/// The server's log lines, on stderr (stdout carries the protocol).
fn log(message: &str) {
    eprintln!("arx: {message}");
}

pub fn run(ctx: &Ctx, approve: bool) -> Result<Exit> {
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
