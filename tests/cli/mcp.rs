//! `arx mcp` spoken to directly in JSON-RPC over its stdin and stdout (the
//! external tests drive it with the official Python client as well).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use predicates::prelude::*;
use serde_json::{json, Value};

use crate::support::Sandbox;

pub(crate) struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

impl Session {
    fn start(sb: &Sandbox) -> Session {
        Session::start_with(sb, &[])
    }

    /// [`Session::start`] with more variables in the server's environment.
    pub(crate) fn start_with(sb: &Sandbox, env: &[(&str, &std::path::Path)]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arx"))
            .arg("mcp")
            .current_dir(sb.path())
            .env_remove("ARX_STATE_DIR")
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut s = Session {
            child,
            stdin,
            lines,
            next_id: 1,
        };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "arx-tests", "version": "0"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "arx", "{init}");
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Send a request and return its response (notifications before it are
    /// skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("a response from arx mcp");
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC on stdout");
            if message["id"] == id {
                return message;
            }
        }
    }

    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        response["result"].clone()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn lists_the_tools_with_their_schemas() {
    let sb = Sandbox::new();
    let mut s = Session::start(&sb);
    let tools = s.request("tools/list", json!({}));
    let tools = tools["result"]["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for name in [
        "try",
        "best",
        "status",
        "log",
        "measure",
        "run",
        "next",
        "deadend_check",
        "finding_rank",
        "report",
        "idea_add",
        "idea_list",
        "idea_drop",
        "deadend_add",
        "journal_verify",
        "ps",
        "report_write",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    // Every tool declares what it returns and how it acts.
    for tool in &tools {
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
        let a = &tool["annotations"];
        assert!(a["readOnlyHint"].is_boolean(), "{tool}");
    }
    let annotated = |name: &str| {
        let t = tools.iter().find(|t| t["name"] == name).unwrap();
        (
            t["annotations"]["readOnlyHint"].as_bool(),
            t["annotations"]["destructiveHint"].as_bool(),
        )
    };
    assert_eq!(annotated("ps"), (Some(true), Some(false)));
    assert_eq!(annotated("journal_verify"), (Some(true), Some(false)));
    assert_eq!(annotated("deadend_add"), (Some(false), Some(false)));
    assert_eq!(annotated("report_write"), (Some(false), Some(false)));
    let try_tool = tools.iter().find(|t| t["name"] == "try").unwrap();
    assert_eq!(try_tool["inputSchema"]["type"], "object");
    for key in ["description", "command", "repeat", "dry_run"] {
        assert!(
            try_tool["inputSchema"]["properties"].get(key).is_some(),
            "{key}"
        );
    }
    // Gates are for a person: no tool lets its caller approve one.
    for tool in &tools {
        let props = &tool["inputSchema"]["properties"];
        for key in ["approve", "no_gates"] {
            assert!(props.get(key).is_none(), "{} takes {key}", tool["name"]);
        }
    }
}

#[test]
fn a_caller_cannot_approve_a_gate_and_an_mcp_approve_that_is_not_a_boolean_is_an_error() {
    let sb = Sandbox::new();
    let mut s = Session::start(&sb);
    for (tool, args) in [
        ("try", json!({"approve": true})),
        ("run", json!({"no_gates": true, "command": ["true"]})),
    ] {
        let refused = s.call(tool, args);
        assert_eq!(refused["isError"], true, "{refused}");
    }
    drop(s);
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
    sb.write("arx.toml", "[mcp]\napprove = \"yes\"\n");
    sb.arx().arg("mcp").write_stdin("").assert().code(2).stderr(
        predicates::str::contains("mcp.approve = \"yes\" is not a boolean")
            .and(predicates::str::contains("hint:")),
    );
}

#[test]
fn a_no_is_a_result_and_an_error_is_a_tool_error() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "bm25 alone",
            "--reason",
            "r",
            "--no-gates",
        ])
        .assert()
        .code(0);
    let mut s = Session::start(&sb);

    let known = s.call("deadend_check", json!({"statement": "BM25  Alone"}));
    assert_eq!(known["isError"], false, "{known}");
    assert_eq!(known["structuredContent"]["known"], true);
    assert_eq!(known["_meta"]["exit_code"], 1);
    // The text starts with what it means and what to do, then the record
    // in short.
    let text = known["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("known dead end: do not try it"), "{text}");
    let short: Value = serde_json::from_str(text.split_once('\n').unwrap().1).unwrap();
    assert_eq!(short["known"], true, "{text}");

    let fresh = s.call("deadend_check", json!({"statement": "--rerank"}));
    assert_eq!(fresh["structuredContent"]["known"], false, "{fresh}");
    assert_eq!(fresh["_meta"]["exit_code"], 0);

    let measured = s.call(
        "measure",
        json!({"metric": "acc", "cmp": ">=", "target": 0.8, "input": "__RESULT__ {\"acc\": 0.83}\n"}),
    );
    assert_eq!(
        measured["structuredContent"]["verdict"], "supported",
        "{measured}"
    );

    // Not a repository: `best` fails with the command's message and hint.
    let error = s.call("best", json!({}));
    assert_eq!(error["isError"], true, "{error}");
    let text = error["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("arx: error:"), "{text}");

    let wrong = s.call("log", json!({"lmit": 1}));
    assert_eq!(wrong["isError"], true, "{wrong}");

    let log = s.call("log", json!({"last": 5}));
    assert_eq!(log["structuredContent"]["runs"], json!([]), "{log}");
}

#[test]
fn no_client_is_an_error_with_a_hint() {
    Sandbox::new()
        .arx()
        .arg("mcp")
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicates::str::contains("arx: error: the MCP client did not initialize")
                .and(predicates::str::contains("hint:")),
        );
}

#[test]
fn the_backlog_tools_add_list_and_drop_ideas() {
    let sb = Sandbox::new();
    let mut s = Session::start(&sb);
    let added = s.call(
        "idea_add",
        json!({"statement": "--halve the learning rate", "family": "lr"}),
    );
    assert_eq!(added["isError"], false, "{added}");
    let id = added["structuredContent"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        added["structuredContent"]["statement"],
        "--halve the learning rate"
    );
    let listed = s.call("idea_list", json!({"status": "open"}));
    let ideas = listed["structuredContent"]["ideas"].as_array().unwrap();
    assert_eq!(ideas.len(), 1, "{listed}");
    assert_eq!(ideas[0]["id"], id.as_str());
    assert_eq!(ideas[0]["family"], "lr");
    let dropped = s.call("idea_drop", json!({"id": id}));
    assert_eq!(dropped["structuredContent"]["dropped"], true, "{dropped}");
    let retry = s.call("idea_add", json!({"retry": id}));
    assert_eq!(retry["isError"], true, "{retry}");
    let text = retry["content"][0]["text"].as_str().unwrap();
    // The hint names the tool's fields, not the command line's flags.
    assert!(text.contains("retry needs because"), "{text}");
    assert!(!text.contains("--"), "{text}");
}

#[test]
fn next_ranks_the_backlog_and_a_lane_is_never_given_an_idea_in_flight() {
    let sb = Sandbox::new();
    let add = |id: &str, statement: &str| {
        json!({"type": "add", "id": id, "at": "2026-11-21T09:00:00Z",
               "statement": statement, "family": "opt"})
        .to_string()
            + "\n"
    };
    sb.write(
        ".arx/ideas.jsonl",
        add("i-00000000a1", "adamw") + &add("i-00000000b2", "lion"),
    );
    let mut s = Session::start(&sb);
    let first = s.call("next", json!({"lane": "gpu0", "greedy": true}));
    assert_eq!(first["isError"], false, "{first}");
    assert_eq!(first["_meta"]["exit_code"], 0);
    let chosen = &first["structuredContent"];
    assert_eq!(chosen["idea"], "i-00000000a1", "{first}");
    assert_eq!(
        (&chosen["statement"], &chosen["family"]),
        (&json!("adamw"), &json!("opt"))
    );
    assert!(chosen["scores"]["g"].is_number());
    let second = s.call("next", json!({"lane": "gpu1", "greedy": true}));
    assert_eq!(
        second["structuredContent"]["idea"], "i-00000000b2",
        "{second}"
    );
    // Nothing left for a third lane: a "no", not an error.
    let none = s.call("next", json!({"lane": "gpu2"}));
    assert_eq!(
        (&none["isError"], &none["_meta"]["exit_code"]),
        (&json!(false), &json!(1)),
        "{none}"
    );
}

#[test]
fn the_memory_tools_ask_for_the_kg_write_gate_verify_the_journal_and_write_the_report() {
    let config = "[gates]\nexecute = false\n\n[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 2\n";
    let sb = crate::support::committed_repo(&[
        ("score.txt", "0.5\n"),
        (
            "score.sh",
            "echo \"__RESULT__ {\\\"score\\\": $(cat score.txt)}\"\n",
        ),
        ("arx.toml", config),
    ]);
    let mut s = Session::start(&sb);
    // Before a baseline, best is a "no" that says what to call.
    let best = s.call("best", json!({}));
    assert_eq!(best["_meta"]["exit_code"], 1, "{best}");
    assert_eq!(best["structuredContent"]["best"], Value::Null, "{best}");
    let text = best["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("no best yet"), "{text}");

    // The kg_write gate is on and this client cannot ask a person: a
    // pause, and nothing written.
    let add = json!({"statement": "square the score", "reason": "it overflows"});
    let paused = s.call("deadend_add", add.clone());
    assert_eq!(paused["_meta"]["exit_code"], 1, "{paused}");
    let text = paused["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("paused: no person to ask"), "{text}");
    assert_eq!(paused["structuredContent"]["pending_gate"], "kg_write");
    let check = s.call("deadend_check", json!({"statement": "square the score"}));
    assert_eq!(check["structuredContent"]["known"], false, "{check}");
    let wrong = s.call(
        "deadend_add",
        json!({"statement": "x", "reason": "y", "evidence_level": "hunch"}),
    );
    assert_eq!(wrong["isError"], true, "{wrong}");
    drop(s);

    // A person turned the gate off in the committed arx.toml.
    sb.write(
        "arx.toml",
        config.replace("execute = false\n", "execute = false\nkg_write = false\n"),
    );
    crate::support::git(&sb, &["commit", "-qam", "kg_write off"]);
    let mut s = Session::start(&sb);
    let added = s.call("deadend_add", add);
    assert_eq!(added["_meta"]["exit_code"], 0, "{added}");
    assert_eq!(added["structuredContent"]["added"], true, "{added}");
    let text = added["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("added dead end"), "{text}");
    assert!(!text.contains("--") && !text.contains("arx "), "{text}");
    let check = s.call("deadend_check", json!({"statement": "square the score"}));
    assert_eq!(check["structuredContent"]["known"], true, "{check}");

    let verified = s.call("journal_verify", json!({}));
    assert_eq!(verified["_meta"]["exit_code"], 0, "{verified}");
    assert_eq!(verified["structuredContent"]["ok"], true, "{verified}");
    let text = verified["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("sound:"), "{text}");

    let ps = s.call("ps", json!({}));
    assert_eq!(ps["structuredContent"]["runs"], json!([]), "{ps}");

    let tried = s.call("try", json!({"description": "baseline"}));
    assert_eq!(tried["_meta"]["exit_code"], 0, "{tried}");
    let written = s.call("report_write", json!({}));
    assert_eq!(written["_meta"]["exit_code"], 0, "{written}");
    let text = written["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("wrote the page to .arx/report.html"),
        "{text}"
    );
    assert!(sb.read(".arx/report.html").contains("<html"));
    let chart = s.call("report_write", json!({"svg": "chart.svg"}));
    let text = chart["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("wrote the chart to chart.svg"), "{text}");
    let wrong = s.call("report_write", json!({"refresh": 5}));
    assert_eq!(wrong["isError"], true, "{wrong}");

    s.call(
        "idea_add",
        json!({"statement": "raise the score", "family": "s"}),
    );
    let explained = s.call("next", json!({"explain": true}));
    let legend = explained["structuredContent"]["legend"].as_str().unwrap();
    assert!(legend.contains("keep_rate"), "{legend}");
}
