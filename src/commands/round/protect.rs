//! `arx round protect-check FILES...`: the files `[objective] protect`
//! covers, refused (a pre-commit hook). A person's commit to a protected
//! path would be set aside by the next `arx try` as part of the candidate;
//! the hook says so before the commit is made.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use crate::commands::Ctx;
use crate::error::Exit;
use crate::io::git::ratchet::protected_among;
use crate::ops::objective::{resolve, ObjectiveFlags};
use crate::output::{bold, Report};

#[derive(Serialize)]
struct ProtectReport {
    /// The files refused.
    protected: Vec<String>,
    /// The patterns of `[objective] protect` (and the held-out check's).
    patterns: Vec<String>,
}

impl Report for ProtectReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        if self.protected.is_empty() {
            return writeln!(out, "ok: no protected file");
        }
        for f in &self.protected {
            writeln!(
                out,
                "{b}refused{b:#}: {}: protected by [objective] protect ({})",
                f.escape_debug(),
                self.patterns.join(", ").escape_debug()
            )?;
        }
        Ok(())
    }
}

/// `file` from the repository root: pre-commit passes such paths; one
/// given from a subdirectory is joined to it.
fn from_root(file: &str, prefix: &str) -> String {
    let file = file.trim_start_matches("./");
    if prefix.is_empty() {
        file.to_string()
    } else {
        format!("{prefix}/{file}")
    }
}

pub fn run(ctx: &Ctx, files: &[String]) -> Result<Exit> {
    let config = ctx.config()?;
    let patterns = match config.objective.as_ref() {
        None => Vec::new(),
        Some(file) => resolve(&ObjectiveFlags::default(), Some(file))?.0.protect,
    };
    let cwd = ctx.cwd()?;
    let root = crate::io::config::repo_root(&cwd).unwrap_or_else(|| cwd.clone());
    let prefix = cwd
        .canonicalize()
        .ok()
        .zip(root.canonicalize().ok())
        .and_then(|(c, r)| {
            c.strip_prefix(&r)
                .ok()
                .map(|p| p.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let paths: Vec<String> = files.iter().map(|f| from_root(f, &prefix)).collect();
    let protected = protected_among(&patterns, &paths)?;
    for f in &protected {
        crate::output::warn(format_args!(
            "{}: protected by [objective] protect; the next arx try would set this change aside (change [objective] protect first, or commit it with SKIP=arx-protect-check if it is meant)",
            f.escape_debug()
        ));
    }
    let refused = !protected.is_empty();
    ctx.out.emit(&ProtectReport {
        protected,
        patterns,
    })?;
    Ok(if refused { Exit::No } else { Exit::Ok })
}
