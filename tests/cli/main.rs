//! Integration tests: the real binary, one file per command.

mod classify;
mod compare;
mod completions;
mod deadend;
mod decide;
mod errors;
mod gate;
mod init;
mod journal;
mod knowhow;
mod log;
mod measure;
mod next;
mod parse;
mod plateau;
mod round;
mod run;
mod show;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// A temporary working directory for one test.
pub struct Sandbox {
    pub dir: TempDir,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `arx` running in the sandbox, with no inherited arx settings.
    pub fn arx(&self) -> Command {
        let mut cmd = Command::cargo_bin("arx").expect("arx binary");
        cmd.current_dir(self.path())
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1");
        cmd
    }

    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path().join(name)).unwrap_or_default()
    }
}

/// A fixture file of the project.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// Parse stdout as one JSON document.
pub fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", String::from_utf8_lossy(out)))
}

#[test]
fn cli_definition_is_consistent() {
    use clap::CommandFactory;
    arx::cli::Cli::command().debug_assert();
}
