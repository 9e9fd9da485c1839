//! `arx man`: the man page, generated from the clap definition.

use std::io::{self, Write};

use anyhow::Result;
use clap::CommandFactory;
use serde::Serialize;

use super::Ctx;
use crate::cli::Cli;
use crate::error::Exit;
use crate::output::Report;

/// The roff source of `arx.1`: the page of `arx` itself, then one section
/// per subcommand (its synopsis, description and options), so the one page
/// documents every command.
pub fn page() -> Result<String> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut buf)?;
    let mut page = String::from_utf8_lossy(&buf).into_owned();
    fn walk(cmd: &clap::Command, page: &mut String) -> Result<()> {
        for sub in cmd.get_subcommands() {
            page.push_str(&section(sub)?);
            walk(sub, page)?;
        }
        Ok(())
    }
    walk(&cmd, &mut page)?;
    Ok(in_page_references(&page))
}

/// The subcommand lists name pages of their own (`arx\\-try(1)`); in this
/// one page they name the sections below (`arx try`).
fn in_page_references(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for line in page.lines() {
        match line
            .strip_prefix("arx\\-")
            .and_then(|l| l.strip_suffix("(1)"))
        {
            Some(path) => {
                out.push_str("arx ");
                out.push_str(&path.replace("\\-", " "));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// One subcommand's section: a heading with its full name, then its
/// synopsis, description, options and notes as subsections.
fn section(cmd: &clap::Command) -> Result<String> {
    // The global flags are described once, on the page of `arx` itself.
    let globals: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set() || a.get_id() == "help")
        .map(|a| a.get_id().to_string())
        .collect();
    let mut cmd = cmd.clone();
    for id in globals {
        cmd = cmd.mut_arg(id, |a| a.hide(true));
    }
    let cmd = &cmd;
    let man = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    man.render_synopsis_section(&mut buf)?;
    man.render_description_section(&mut buf)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buf)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut buf)?;
    }
    if cmd.get_after_help().is_some() || cmd.get_after_long_help().is_some() {
        man.render_extra_section(&mut buf)?;
    }
    let name = cmd.get_bin_name().unwrap_or(cmd.get_name()).to_uppercase();
    let mut out = format!(".SH \"{name}\"\n");
    for line in String::from_utf8_lossy(&buf).lines() {
        match line.strip_prefix(".SH ") {
            Some(title) => out.push_str(&format!(".SS {title}\n")),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Ok(out)
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
