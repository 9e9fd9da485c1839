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

/// A repository for the scripted agent: a noisy score (a counter outside
/// the repository alternates ±0.01), a file that crashes the experiment,
/// one that makes it slow, a protected `eval/`, the `execute` gate on and
/// a stop rule of 6 tries without a keep, all committed.
fn agent_repo(dir: &Path) -> Result<PathBuf, Failed> {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("eval"))?;
    std::fs::write(repo.join("eval/data.txt"), "data\n")?;
    std::fs::write(repo.join("score.txt"), "0.5\n")?;
    let counter = dir.join("counter");
    let command = format!(
        "test -e crash && exit 1; test -e slow && sleep 30; n=$(cat {c} 2>/dev/null || echo 0); \
         echo $((n+1)) > {c}; awk -v s=\"$(cat score.txt)\" -v n=\"$n\" \
         'BEGIN {{ printf \"__RESULT__ {{\\\"score\\\": %.4f}}\\n\", s + (n % 2 ? 0.01 : -0.01) }}'",
        c = counter.display()
    );
    let config = format!(
        "[gates]\nexecute = true\n\n[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = {}\nbaseline_repeat = 4\nprotect = [\"eval/**\"]\n\n[objective.stop]\nmax_discards_in_a_row = 6\n",
        toml_string(&command)
    );
    std::fs::write(repo.join("arx.toml"), config)?;
    let run = |program: &str, args: &[&str]| -> Result<(), Failed> {
        let program = if program == "arx" {
            needs::arx()
        } else {
            PathBuf::from(program)
        };
        let out = Command::new(&program)
            .args(args)
            .current_dir(&repo)
            .output()?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{args:?}: {}", String::from_utf8_lossy(&out.stderr)).into())
        }
    };
    run("git", &["init", "-q", "-b", "main"])?;
    run("git", &["config", "user.email", "test@example.com"])?;
    run("git", &["config", "user.name", "test"])?;
    run("git", &["config", "commit.gpgsign", "false"])?;
    run("arx", &["init"])?;
    run("git", &["add", "-A"])?;
    run("git", &["commit", "-q", "-m", "start"])?;
    Ok(repo)
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

fn a_scripted_agent_takes_the_right_step_at_every_outcome(python: &Path) -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let repo = agent_repo(dir.path())?;
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/external/mcp_agent_client.py");
    let out = Command::new(python)
        .arg(script)
        .arg(needs::arx())
        .arg(&repo)
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| format!("running {}: {e}", python.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "the scripted agent failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("agent summary {stdout:?}: {e}"))?;
    if summary["ok"] != true || summary["tries"].as_u64().unwrap_or(0) < 20 {
        return Err(format!("agent summary: {summary}").into());
    }
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    let mut trials = vec![
        needs::trial(
            "mcp::python_client_drives_the_server",
            needs::mcp_client,
            python_client_drives_the_server,
        ),
        needs::trial(
            "mcp::a_scripted_agent_takes_the_right_step_at_every_outcome",
            needs::mcp_client,
            a_scripted_agent_takes_the_right_step_at_every_outcome,
        ),
    ];
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
