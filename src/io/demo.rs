//! The demo's door to the outside: its files, `git`, and `arx` itself as a
//! child process (the demo drives the real commands).

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result};

/// What a child command left.
pub struct Captured {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Write `name` in `dir` (a new file of the demo's).
pub fn write_file(dir: &Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    super::rounds::write_bytes_atomic(&path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

fn capture(cmd: &mut Command, what: &str) -> Result<Captured> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {what}"))?;
    Ok(Captured {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// `git ARGS` in `dir`; an error unless it exits 0.
pub fn git(dir: &Path, args: &[&str]) -> Result<()> {
    let out = capture(
        Command::new("git").args(args).current_dir(dir),
        "git (the demo needs git on PATH)",
    )?;
    anyhow::ensure!(
        out.code == 0,
        "git {}: {}",
        args.join(" "),
        out.stderr.trim()
    );
    Ok(())
}

/// `arx ARGS` (the binary `exe`) in `dir`, with the repository's own state
/// directory and no colour.
pub fn arx(exe: &Path, dir: &Path, args: &[&str]) -> Result<Captured> {
    capture(
        Command::new(exe)
            .args(args)
            .current_dir(dir)
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1"),
        "arx",
    )
}
