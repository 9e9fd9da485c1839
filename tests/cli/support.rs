//! Helpers for the CLI tests: a sandbox to run `arx` in, readers for its
//! JSON output and JSONL state files, and realistic journal records.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::assert::Assert;
use assert_cmd::Command;
use git2::{Repository, RepositoryInitOptions};
use serde_json::{json, Value};
use tempfile::TempDir;

#[path = "../common/barrier.rs"]
mod barrier;
#[path = "../common/fixture.rs"]
mod fixture;

pub use barrier::with_barrier;
pub use fixture::fixture;

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

    /// A file of the sandbox as text; empty when it does not exist.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path().join(name)).unwrap_or_default()
    }

    /// The records of a JSONL file of the sandbox (none when it does not
    /// exist); every line must be a complete record.
    pub fn read_jsonl(&self, name: &str) -> Vec<Value> {
        json_lines(self.read(name))
    }

    /// The records of the default journal, `.arx/journal.jsonl`.
    pub fn journal(&self) -> Vec<Value> {
        self.read_jsonl(".arx/journal.jsonl")
    }

    /// A new git repository at `rel` inside the sandbox (`"."` for the
    /// sandbox itself), its first branch named `main`.
    pub fn git_init(&self, rel: &str) -> Repository {
        Repository::init_opts(
            self.path().join(rel),
            RepositoryInitOptions::new().initial_head("main"),
        )
        .unwrap()
    }
}

/// Parse stdout as one JSON document.
pub fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", String::from_utf8_lossy(out)))
}

/// JSON lines (a JSONL file or NDJSON output): one complete record a line.
pub fn json_lines(text: impl AsRef<[u8]>) -> Vec<Value> {
    String::from_utf8_lossy(text.as_ref())
        .lines()
        .enumerate()
        .map(|(n, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| {
                panic!("line {} is not a complete JSON record ({e}): {line}", n + 1)
            })
        })
        .collect()
}

/// The captured output of a finished `arx`: an `Output`, or the `Assert`
/// that checked it.
pub trait Captured {
    fn output(&self) -> &Output;
}

impl Captured for Output {
    fn output(&self) -> &Output {
        self
    }
}

impl Captured for Assert {
    fn output(&self) -> &Output {
        self.get_output()
    }
}

impl<T: Captured + ?Sized> Captured for &T {
    fn output(&self) -> &Output {
        (**self).output()
    }
}

/// Stdout of a finished run as one JSON document.
pub fn stdout_json(run: impl Captured) -> Value {
    json(&run.output().stdout)
}

/// Stderr of a finished run as text, for assertion messages.
pub fn stderr(run: impl Captured) -> String {
    String::from_utf8_lossy(&run.output().stderr).into_owned()
}

/// A realistic journaled run: a single attempt judged against a spec.
pub fn record(id: &str, started_at: &str) -> Value {
    json!({
        "run_id": id,
        "started_at": started_at,
        "ended_at": started_at,
        "duration_ms": 12_345,
        "command": ["python", "train.py", "--lr", "1e-3"],
        "shell": false,
        "cwd": "/home/ci/repo",
        "host": "runner-7",
        "git": {"head": "3f2a9c1d0e4b5a6978877665544332211aabbccd", "branch": "main", "dirty": false},
        "hypothesis": "Hybrid BM25+dense retrieval reaches accuracy 0.8 on eval-v3",
        "approach_hash": "adf460601cafce90",
        "candidate": "hybrid",
        "tags": ["seed-0"],
        "spec": {"metric_key": "acc", "comparator": ">=", "target": 0.8},
        "metrics": {"acc": 0.8312, "loss": 0.2607},
        "exit_code": 0,
        "timed_out": false,
        "interrupted": false,
        "failure_class": "none",
        "verdict": {
            "verdict": "supported",
            "strategy": "deterministic",
            "evidence_level": "deterministic",
            "detail": "acc=0.8312 >= 0.8 → pass",
            "raw_evidence_ref": null
        },
        "stdout_tail": "epoch 3/3\n__RESULT__ {\"acc\": 0.8312, \"loss\": 0.2607}\n",
        "stderr_tail": ""
    })
}

/// A UUID v7-shaped run id, `n` in its last digits.
pub fn id(n: u32) -> String {
    format!("0196c0de-1a2b-7c3d-8e4f-{n:012x}")
}

/// Run `n`, started `n` minutes after ten.
pub fn run(n: u32) -> Value {
    record(&id(n), &format!("2026-11-21T10:{n:02}:00.000Z"))
}

/// JSON lines, one per record, each ending in a newline.
pub fn jsonl(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

/// Run `arx ARX_ARGS` (a shell word list) in the sandbox inside a private
/// user and mount namespace, after the shell commands `setup` (mounts that
/// make a directory full or read-only). `None`, with a note, where this
/// system does not allow such namespaces.
pub fn in_namespace(sb: &Sandbox, setup: &str, arx_args: &str) -> Option<std::process::Output> {
    let probe = std::process::Command::new("unshare")
        .args(["-rm", "true"])
        .output()
        .ok()?;
    if !probe.status.success() {
        eprintln!("skipped: unshare -rm is not available");
        return None;
    }
    let script = format!("{setup} && exec '{}' {arx_args}", env!("CARGO_BIN_EXE_arx"));
    Some(
        std::process::Command::new("unshare")
            .args(["-rm", "sh", "-c", &script])
            .current_dir(sb.path())
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1")
            .output()
            .unwrap(),
    )
}

/// `git ARGS` in the sandbox; its stdout, trimmed. Fails the test, with
/// git's stderr, when git does.
pub fn git(sb: &Sandbox, args: &[&str]) -> String {
    git_in(sb.path(), args)
}

/// `git ARGS` in `dir` (a sandbox's subdirectory, a lane's worktree).
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A repository on `main` holding `files` (name, contents), committed as
/// its first commit: the set-up of the ratchet's tests.
pub fn committed_repo(files: &[(&str, &str)]) -> Sandbox {
    let sb = Sandbox::new();
    for (name, contents) in files {
        sb.write(name, contents);
    }
    commit_all(sb.path());
    sb
}

/// A repository on `main` in `dir` with everything there committed as its
/// first commit.
pub fn commit_all(dir: &Path) {
    git_in(dir, &["init", "-q", "-b", "main"]);
    git_in(dir, &["config", "user.email", "t@example.com"]);
    git_in(dir, &["config", "user.name", "T"]);
    git_in(dir, &["add", "-A"]);
    git_in(dir, &["commit", "-qm", "start"]);
}

/// `arx --json try ARGS`: its exit code, its JSON report and its stderr.
pub fn try_json(sb: &Sandbox, args: &[&str]) -> (i32, Value, String) {
    let out = sb
        .arx()
        .args(["--json", "try"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let err = stderr(&out);
    assert!(!out.stdout.is_empty(), "no report (exit {code}): {err}");
    (code, stdout_json(&out), err)
}

/// The ratchet status of a try's report (`""` without one).
pub fn try_status(report: &Value) -> &str {
    report["ratchet"]["status"].as_str().unwrap_or("")
}
