//! `arx round validate`: every error of a patch, without changing anything.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{head_tree_problems, read_patch, settings, validate_all};
use crate::commands::Ctx;
use crate::error::Exit;
use crate::io::git::RoundRepo;
use crate::kernel::round::patch_hash;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct ValidateReport {
    /// The patch file (`stdin` for `-`): each hook's line names its file.
    file: String,
    valid: bool,
    patch_hash: Option<String>,
    entries: usize,
    errors: Vec<String>,
}

impl Report for ValidateReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        if self.valid {
            writeln!(
                out,
                "{b}valid{b:#}: {}, patch hash {}",
                crate::output::count(self.entries as u64, "entry", "entries"),
                self.patch_hash.as_deref().unwrap_or("-")
            )
        } else {
            let n = crate::output::count(self.errors.len() as u64, "error", "errors");
            writeln!(out, "{b}invalid{b:#}: {n} in {}", self.file.escape_debug())?;
            for e in &self.errors {
                writeln!(out, "  - {e}")?;
            }
            Ok(())
        }
    }
}

pub fn run(ctx: &Ctx, patch_arg: &str) -> Result<Exit> {
    let value = read_patch(patch_arg)?;
    // Read only: a hook validates staged patches during a rebase or a
    // merge, and on a detached HEAD.
    let repo = RoundRepo::open_to_read(&ctx.cwd()?)?;
    let settings = settings(ctx, repo.workdir(), false)?;
    let (patch, mut errors) = validate_all(&value, &settings, repo.workdir());
    if let (Some(p), true) = (&patch, errors.is_empty()) {
        errors.extend(head_tree_problems(&repo, repo.head, p)?);
    }
    let report = ValidateReport {
        file: crate::io::input::Source::from_arg(Some(std::path::Path::new(patch_arg))).describe(),
        valid: errors.is_empty(),
        patch_hash: patch.as_ref().map(patch_hash),
        entries: patch.as_ref().map_or(0, |p| p.entries.len()),
        errors,
    };
    ctx.out.emit(&report)?;
    match report.errors.first() {
        None => ctx.answer(
            &format!("valid: {} entries", report.entries),
            "apply it (`arx round apply`)",
        ),
        Some(first) => ctx.answer(
            &format!(
                "invalid: {}, the first: {}",
                crate::output::count(report.errors.len() as u64, "error", "errors"),
                crate::kernel::text::shown(first.lines().next().unwrap_or(""))
            ),
            "fix the patch, then validate it again",
        ),
    }
    Ok(if report.valid { Exit::Ok } else { Exit::No })
}
