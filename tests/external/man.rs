//! The checked-in man page, rendered by the system's `man` (man-db) with
//! groff warnings on: it must render cleanly and show every command.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Failed, Trial};

use crate::needs;

/// `man` that can render a local file.
fn man() -> Result<PathBuf, String> {
    let ok = Command::new("man")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if ok {
        Ok(PathBuf::from("man"))
    } else {
        Err("man not found (apt-get install man-db)".into())
    }
}

fn renders_without_warnings(man: &Path) -> Result<(), Failed> {
    let page = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions/arx.1");
    let out = Command::new(man)
        .args(["--warnings", "-l"])
        .arg(&page)
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let warnings = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !warnings.trim().is_empty() {
        return Err(format!("man -l {}: {warnings}", page.display()).into());
    }
    for needle in [
        "NAME", "SYNOPSIS", "ARX TRY", "ARX MCP", "ARX INIT", "--agent",
    ] {
        if !text.contains(needle) {
            return Err(format!("the rendered page lacks {needle:?}").into());
        }
    }
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "man::checked_in_page_renders_without_warnings",
        man,
        renders_without_warnings,
    )]
}
