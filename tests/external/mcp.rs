//! `arx mcp` driven by a client arx did not write: the official MCP Python
//! SDK (PyPI `mcp`), through `mcp_client.py` beside this file. It
//! initializes, lists the tools, calls `status`, `try` (baseline, keep,
//! discard), `best`, `log` and failing calls on a scratch repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Failed, Trial};

use crate::needs;

/// A scratch git repository whose experiment prints the score in
/// `score.txt`, with arx set up and everything committed.
pub fn scratch_repo(dir: &Path) -> Result<(), Failed> {
    let git = |args: &[&str]| -> Result<(), Failed> {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("git: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into())
        }
    };
    git(&["init", "-q", "-b", "main"])?;
    git(&["config", "user.email", "test@example.com"])?;
    git(&["config", "user.name", "test"])?;
    git(&["config", "commit.gpgsign", "false"])?;
    std::fs::write(dir.join("score.txt"), "0.5\n")?;
    std::fs::write(
        dir.join("arx.toml"),
        r#"[objective]
metric = "score"
direction = "max"
command = "echo \"__RESULT__ {\\\"score\\\": $(cat score.txt)}\""
baseline_repeat = 2
protect = ["eval/**"]

[gates]
execute = false
"#,
    )?;
    let out = Command::new(needs::arx())
        .arg("init")
        .current_dir(dir)
        .output()?;
    if !out.status.success() {
        return Err(format!("arx init: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    git(&["add", "-A"])?;
    git(&["commit", "-q", "-m", "start"])
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/external/mcp_client.py")
}

fn python_client_drives_the_server(python: &Path) -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    scratch_repo(dir.path())?;
    let out = Command::new(python)
        .arg(script())
        .arg(needs::arx())
        .arg(dir.path())
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| format!("running {}: {e}", python.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "the MCP client failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("client summary {stdout:?}: {e}"))?;
    if summary["ok"] != true || summary["progress"].as_u64().unwrap_or(0) == 0 {
        return Err(format!("client summary: {summary}").into());
    }
    Ok(())
}

/// A scratch repository like [`scratch_repo`]'s, with the `execute` gate
/// on (the default) and `extra` appended to arx.toml.
fn gated_repo(dir: &Path, extra: &str) -> Result<(), Failed> {
    scratch_repo(dir)?;
    let config = std::fs::read_to_string(dir.join("arx.toml"))?;
    let config = config.replace("[gates]\nexecute = false\n", "");
    if config.contains("execute = false") {
        return Err("the scratch repository's gate stayed off".into());
    }
    std::fs::write(dir.join("arx.toml"), format!("{config}{extra}"))?;
    let out = Command::new("git")
        .args(["commit", "-qam", "gate on"])
        .current_dir(dir)
        .output()?;
    if !out.status.success() {
        return Err(format!("git commit: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(())
}

/// `mcp_gate_client.py` in `mode` against a fresh gated repository.
fn gate(python: &Path, mode: &str) -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let extra = if mode == "config" {
        "\n[mcp]\napprove = true\n"
    } else {
        ""
    };
    gated_repo(dir.path(), extra)?;
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/external/mcp_gate_client.py");
    let out = Command::new(python)
        .arg(script)
        .arg(needs::arx())
        .arg(dir.path())
        .arg(mode)
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| format!("running {}: {e}", python.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "the MCP gate client ({mode}) failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("client summary {stdout:?}: {e}"))?;
    if summary["ok"] != true || summary["mode"] != mode {
        return Err(format!("client summary: {summary}").into());
    }
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    let mut trials = vec![needs::trial(
        "mcp::python_client_drives_the_server",
        needs::mcp_client,
        python_client_drives_the_server,
    )];
    // Who may approve the `execute` gate over MCP: the person, asked through
    // the client, or the operator; never the caller.
    for (name, mode) in [
        ("mcp::gate_the_person_approves_through_the_client", "accept"),
        (
            "mcp::gate_the_person_declines_and_the_call_pauses",
            "decline",
        ),
        (
            "mcp::gate_the_person_dismisses_the_question_and_the_call_pauses",
            "cancel",
        ),
        ("mcp::gate_a_client_that_cannot_ask_pauses", "unable"),
        (
            "mcp::gate_the_operator_approves_with_mcp_approve",
            "operator",
        ),
        ("mcp::gate_the_operator_approves_in_arx_toml", "config"),
    ] {
        trials.push(needs::trial(name, needs::mcp_client, move |python| {
            gate(python, mode)
        }));
    }
    trials
}
