//! Who opens a call's gate (`execute` before an experiment, `kg_write`
//! before a dead end is written): never the caller. The operator may have
//! approved every call (`arx mcp --approve`, `[mcp] approve` in the
//! committed arx.toml); otherwise the person is asked through the client
//! (MCP elicitation), shown the command and the change, after the call's
//! arguments were checked. A refusal, a dismissed question and a client
//! that cannot ask are three different results, each a pause.

use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::service::ElicitationError;
use rmcp::{Peer, RoleServer};

use super::tools::{Call, Entry};
use super::{answer, exit_meta, run_child, subcommand_words, tool_error, Setup};
use crate::kernel::gate::Gate;
use crate::kernel::try_outcome;

/// What the person is asked when a call would pause at the `execute` gate.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GateAnswer {
    /// Run the experiment (true), or leave the call paused (false).
    approve: bool,
}

rmcp::elicit_safe!(GateAnswer);

/// What became of a gated call before it runs.
pub enum Approval {
    /// Run it with the gate approved (by the operator or the person).
    Approved,
    /// Run it as it is: the gate is off.
    Open,
    /// Answer this instead: a pause, or the error its arguments are.
    Answer(Box<CallToolResult>),
}

/// Decide the gate of `call` (see the module's doc).
pub async fn approval(
    setup: &Setup,
    peer: &Peer<RoleServer>,
    entry: &Entry,
    call: &Call,
    listed: bool,
) -> Approval {
    let gate = call.gate.unwrap_or(Gate::Execute);
    // A command that is neither the objective's nor listed is the
    // person's to approve, whatever the gate and the operator say.
    let question = if !listed {
        unlisted_question(setup, call)
    } else {
        if setup.approve {
            return Approval::Approved;
        }
        let check = Call {
            args: vec!["gate".into(), "check".into(), gate.as_str().into()],
            ..Call::default()
        };
        let pending = match run_child(setup, &check, None, std::future::pending()).await {
            Ok(outcome) => outcome.code == Some(1),
            Err(_) => false,
        };
        if !pending {
            return Approval::Open;
        }
        // The arguments are checked (and the change summed up) before
        // anyone is asked.
        match preview(setup, call).await {
            Ok(q) => q,
            Err(result) => return Approval::Answer(result),
        }
    };
    let log = setup.log;
    let asked = peer.elicit::<GateAnswer>(question).await;
    let outcome = match asked {
        Ok(Some(GateAnswer { approve: true })) => {
            log(&format!(
                "mcp: {}: the {} gate approved by the person",
                entry.name,
                gate.as_str()
            ));
            return Approval::Approved;
        }
        Ok(_) | Err(ElicitationError::UserDeclined) => "paused: declined",
        Err(ElicitationError::UserCancelled) => "paused: cancelled",
        Err(e) => {
            log(&format!("mcp: {}: cannot ask the person ({e})", entry.name));
            "paused: no person to ask"
        }
    };
    log(&format!("mcp: {}: {outcome}", entry.name));
    Approval::Answer(Box::new(paused(outcome, gate)))
}

/// May `call` run without asking the person for its command? Yes for a
/// call that names no command (a `try`), and for a `run` of the
/// objective's command or of one the committed `[mcp] commands` lists
/// (each a shell line or a list of words); a configuration that cannot be
/// read lists nothing.
pub fn listed(setup: &Setup, config: Option<&std::path::Path>, call: &Call) -> bool {
    let Some((words, shell)) = &call.command else {
        return true;
    };
    let Ok(config) = crate::io::config::load(config, &setup.dir) else {
        return false;
    };
    let wanted = one_line(words, *shell);
    let objective = config.objective.as_ref().and_then(|o| o.get("command"));
    let listed = config
        .grd
        .get("mcp")
        .and_then(|m| m.get("commands"))
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten();
    objective
        .into_iter()
        .chain(listed)
        .filter_map(command_line_of)
        .any(|line| line == wanted)
}

/// A command as one line: a shell line as it is, words joined by spaces.
fn one_line(words: &[String], shell: bool) -> String {
    if shell {
        words.join(" ").trim().to_string()
    } else {
        words.join(" ")
    }
}

/// A command as the configuration writes it: a shell line (a string) or
/// words (a list of strings).
fn command_line_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.trim().to_string()),
        serde_json::Value::Array(a) => {
            let words: Option<Vec<String>> =
                a.iter().map(|w| w.as_str().map(str::to_string)).collect();
            words.map(|w| one_line(&w, false))
        }
        _ => None,
    }
}

/// The question for a `run` of a command nobody listed.
fn unlisted_question(setup: &Setup, call: &Call) -> String {
    let words = call
        .command
        .as_ref()
        .map(|(w, _)| w.join(" "))
        .unwrap_or_default();
    answer::cut(
        &format!(
            "arx: the `run` tool was asked to run a command that is neither the objective's \
             nor one the operator listed ([mcp] commands). Approve running it in {}?\ncommand: {}",
            setup.dir.display(),
            crate::kernel::text::shown(&words)
        ),
        4000,
    )
}

/// The question for `call`: the command, and for a `try` the change and
/// what would happen, from a dry run (which checks the arguments: an
/// error is the call's answer, and nobody is asked).
async fn preview(setup: &Setup, call: &Call) -> Result<String, Box<CallToolResult>> {
    let mut lines = vec![match call.gate {
        Some(Gate::KgWrite) => format!(
            "arx: the `kg_write` gate is on. Approve writing this to the loop's memory (the dead ends) in {}?",
            setup.dir.display()
        ),
        _ => format!(
            "arx: the `execute` gate is on. Approve running this experiment in {}?",
            setup.dir.display()
        ),
    }];
    if call.args.first().map(String::as_str) != Some("try") {
        lines.push(format!("command: arx {}", call.args.join(" ")));
        return Ok(lines.join("\n"));
    }
    let mut dry = Call {
        args: call.args.clone(),
        ..Call::default()
    };
    dry.args
        .insert(subcommand_words(&dry.args), "--dry-run".into());
    let outcome = run_child(setup, &dry, None, std::future::pending())
        .await
        .map_err(|e| Box::new(tool_error(&format!("arx: error: {e:#}"), None)))?;
    let value: serde_json::Value =
        serde_json::from_slice(&outcome.stdout).unwrap_or(serde_json::Value::Null);
    match outcome.code {
        Some(0) => {}
        Some(1) if value.get("outcome").is_some() => {
            // Refused before anything would run (a repeat): that is the answer.
            return Err(Box::new(super::result_of(
                "try",
                "items",
                None,
                super::Outcome {
                    code: Some(1),
                    stdout: outcome.stdout,
                    stdout_cut: false,
                    stderr: outcome.stderr,
                },
            )));
        }
        code => {
            return Err(Box::new(tool_error(
                &super::error_text(&outcome.stderr),
                code,
            )))
        }
    }
    lines.extend(dry_run_lines(&value));
    Ok(answer::cut(&lines.join("\n"), 4000))
}

/// What a dry run of a `try` says to the person: the command, the paths
/// changed since the best, what the try would do.
fn dry_run_lines(value: &serde_json::Value) -> Vec<String> {
    let mut lines = Vec::new();
    let text = |key: &str| value.get(key).and_then(|v| v.as_str()).unwrap_or("");
    lines.push(format!("command: {}", text("command")));
    let paths: Vec<&str> = value
        .get("paths")
        .and_then(|p| p.as_array())
        .map(|a| a.iter().filter_map(|p| p.as_str()).collect())
        .unwrap_or_default();
    if !paths.is_empty() {
        let shown: Vec<&str> = paths.iter().take(20).copied().collect();
        lines.push(format!(
            "changed since the best ({} paths): {}{}",
            paths.len(),
            shown.join(", "),
            if paths.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        ));
    }
    for w in value
        .get("would")
        .and_then(|w| w.as_array())
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str())
    {
        lines.push(format!("- {w}"));
    }
    lines
}

/// A call paused at the gate: nothing ran, nothing was undone.
pub fn paused(name: &str, gate: Gate) -> CallToolResult {
    let o = try_outcome::find(name).unwrap_or(&try_outcome::OUTCOMES[0]);
    let line = format!("{}: {}", o.name, o.happened);
    let head = format!("{line}; next: {}", o.next_mcp);
    let structured = serde_json::json!({
        "outcome": o.name,
        "exit": o.exit,
        "line": line,
        "next": o.next_mcp,
        "proceed": false,
        "reason": o.name.trim_start_matches("paused: "),
        "pending_gate": gate.as_str(),
        "ratchet": {"status": "paused"},
        "undone": false,
    });
    let mut result = CallToolResult::success(vec![ContentBlock::text(head)]);
    result.structured_content = Some(structured);
    result.meta = Some(exit_meta(i32::from(o.exit)));
    result
}
