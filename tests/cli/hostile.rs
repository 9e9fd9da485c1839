//! What an agent writes (a try's description, an idea) never drives the
//! reader's terminal: every human view and text export shows control and
//! bidirectional characters by their escapes, and long text is cut; and a
//! closed stderr ends the lines written there, never the command (no
//! panic: the command's own exit code).

use std::process::Stdio;

use crate::support::{commit_all, stderr, Sandbox};

const SCORE: &str = r#"#!/bin/sh
echo "__RESULT__ {\"m\": $(cat value.txt)}"
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
repeat = 1
baseline_repeat = 1
rule = "strict"
"#;

/// A repository on `main` with the experiment committed, `value.txt` = 10.
fn repo() -> Sandbox {
    let sb = Sandbox::new();
    for (name, text) in [
        ("score.sh", SCORE),
        ("value.txt", "10"),
        ("arx.toml", CONFIG),
        (".gitignore", ".arx/\n"),
    ] {
        sb.write(name, text);
    }
    commit_all(sb.path());
    sb
}

/// Text that clears the screen, sets the window title, rings the bell,
/// overwrites its line, forges a new one and reverses what follows.
const HOSTILE: &str =
    "a \u{1b}[2J\u{1b}]0;T\u{7} ok\rEVIL\nforged \u{202e}txt.exe \u{2066}x\u{2069} \u{9b}31m \u{7f}";

/// The first character of `text` that must not reach a terminal (beside
/// the line breaks and tabs of the formats themselves).
fn hazard(text: &str) -> Option<char> {
    text.replace("\r\n", "\n").chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

fn out(sb: &Sandbox, args: &[&str]) -> (String, String) {
    let o = sb.arx().args(args).output().unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 100),
        "arx {args:?}: {}",
        stderr(&o)
    );
    (String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
}

#[test]
fn agent_text_is_shown_by_its_escapes_in_every_human_view_and_text_export() {
    let sb = repo();
    let (_, _) = out(&sb, &["try", "-m", "baseline"]);
    let idea = out(&sb, &["idea", "add", "--family", "lr", HOSTILE]).0;
    let idea = idea.trim().to_string();
    sb.write("value.txt", "9");
    let (try_out, try_err) = out(&sb, &["try", "--idea", &idea, "-m", HOSTILE]);
    let mut seen = vec![
        ("try stdout".to_string(), try_out),
        ("try stderr".into(), try_err),
    ];
    // The line says the description, escaped.
    assert!(seen[0].1.contains("\\u{1b}[2J"), "{}", seen[0].1);
    sb.write("value.txt", "8");
    let (next_out, _) = out(&sb, &["try", "-m", HOSTILE]);
    seen.push(("second try".into(), next_out));
    sb.write("page.html", "");
    for args in [
        &["log"][..],
        &["log", "--format", "tsv"],
        &["log", "--format", "csv"],
        &["report"],
        &["report", "--markdown"],
        &["report", "--html", "page.html"],
        &["idea", "list"],
        &["idea", "add", "--family", "lr", "x \u{202e}y\rz"],
        &["idea", "list"],
        &["next", "--explain"],
        &["status"],
        &["best"],
    ] {
        let (o, e) = out(&sb, args);
        seen.push((format!("arx {} (stdout)", args.join(" ")), o));
        seen.push((format!("arx {} (stderr)", args.join(" ")), e));
    }
    seen.push(("report.html".into(), sb.read("page.html")));
    for (what, text) in &seen {
        assert_eq!(hazard(text), None, "{what}:\n{text}");
    }
    let log = &seen
        .iter()
        .find(|(w, _)| w == "arx log --format tsv (stdout)")
        .unwrap()
        .1;
    assert!(
        log.contains("a \\u{1b}[2J\\u{1b}]0;T\\u{7} ok EVIL forged \\u{202e}txt.exe"),
        "{log}"
    );
    let list = &seen
        .iter()
        .find(|(w, _)| w == "arx idea list (stdout)")
        .unwrap()
        .1;
    assert_eq!(list.lines().count(), 1, "one line an idea:\n{list}");
}

#[test]
fn a_long_description_is_cut_in_the_human_views() {
    let sb = repo();
    out(&sb, &["try", "-m", "baseline"]);
    sb.write("value.txt", "9");
    // As long as one argument may be.
    let long = "word ".repeat(24_000);
    out(&sb, &["try", "-m", &long]);
    for args in [&["report", "--markdown"][..], &["report"], &["log"]] {
        let (o, _) = out(&sb, args);
        assert!(o.len() < 8_000, "arx {args:?} printed {} bytes", o.len());
        assert!(o.contains("word word"), "arx {args:?}: {o}");
    }
    let (o, _) = out(&sb, &["--json", "log"]);
    assert!(o.len() > 100_000, "the data keeps the whole text");
}

/// `arx ARGS` with stdout and stderr closed before it writes (as in
/// `arx try 2>&1 | true`): its exit code, `None` when a signal ended it.
fn closed(sb: &Sandbox, args: &[&str]) -> Option<i32> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arx"))
        .args(args)
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    child.wait().unwrap().code()
}

#[test]
fn a_closed_stderr_ends_quietly_with_the_commands_own_code() {
    let sb = repo();
    // No baseline yet: `best` says so on stderr and answers "no".
    assert_eq!(closed(&sb, &["best"]), Some(1));
    // The baseline, then a keep and a discard, each told on stderr.
    assert_eq!(closed(&sb, &["try", "-m", "baseline"]), Some(0));
    sb.write("value.txt", "9");
    assert_eq!(closed(&sb, &["try", "-m", "lower"]), Some(0));
    sb.write("value.txt", "12");
    assert_eq!(closed(&sb, &["try", "-m", "higher"]), Some(1));
    let statuses: Vec<String> = sb
        .journal()
        .iter()
        .map(|r| r["ratchet"]["status"].as_str().unwrap_or("-").to_string())
        .collect();
    assert_eq!(statuses, ["baseline", "keep", "discard"]);
    assert_eq!(sb.read("value.txt"), "9", "the discard was undone");
    // Other commands that write on stderr.
    assert_eq!(closed(&sb, &["idea", "add", "lower the value"]), Some(0));
    assert_eq!(closed(&sb, &["report", "--html", "r.html"]), Some(0));
    assert_eq!(closed(&sb, &["lane", "add", "l1"]), Some(0));
    assert_eq!(closed(&sb, &["show", "nope"]), Some(2));
    assert_eq!(closed(&sb, &["no-such-command"]), Some(2));
}
