//! `arx init --agent`: arx's section of AGENTS.md, filled from arx.toml and
//! updated in place.

use crate::support::{json, stderr, Sandbox};

const BEGIN: &str = "<!-- arx:begin";

fn repo_with_objective() -> Sandbox {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"uv run train.py\"\nprotect = [\"prepare.py\", \"eval/**\"]\n\n[objective.stop]\nmax_runs = 200\n",
    );
    sb
}

#[test]
fn writes_the_loop_with_this_repositorys_objective() {
    let sb = repo_with_objective();
    let out = sb
        .arx()
        .args(["init", "--agent", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = json(&out);
    let item = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["path"] == "AGENTS.md")
        .expect("an AGENTS.md item");
    assert_eq!(item["status"], "created");
    let text = sb.read("AGENTS.md");
    for needle in [
        "`val_bpb` (min: lower is better)",
        "`uv run train.py`",
        "`prepare.py`, `eval/**`",
        "`max_runs = 200`",
        "arx try --json --idea",
        "arx idea add --family",
        "id=$(arx next)",
        "arx status",
        "arx best",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
}

#[test]
fn a_second_run_updates_the_section_and_keeps_the_rest() {
    let sb = repo_with_objective();
    sb.write("AGENTS.md", "# Agents\n\nRun the linter first.\n");
    sb.arx().args(["init", "--agent"]).assert().code(0);
    let first = sb.read("AGENTS.md");
    assert!(first.starts_with("# Agents\n\nRun the linter first.\n\n"));
    assert_eq!(first.matches(BEGIN).count(), 1);

    // Unchanged objective: nothing to do.
    sb.arx()
        .args(["init", "--agent"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("present  AGENTS.md"));
    assert_eq!(sb.read("AGENTS.md"), first);

    // A new objective replaces the section in place; text after it stays.
    let with_tail = format!("{first}\n## Mine\nkeep me\n");
    sb.write("AGENTS.md", &with_tail);
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"acc\"\ndirection = \"max\"\ncommand = \"python eval.py\"\n",
    );
    sb.arx()
        .args(["init", "--agent"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("updated  AGENTS.md"));
    let second = sb.read("AGENTS.md");
    assert_eq!(second.matches(BEGIN).count(), 1);
    assert!(second.contains("`acc` (max: higher is better)"));
    assert!(!second.contains("val_bpb"));
    assert!(second.starts_with("# Agents\n\nRun the linter first.\n\n"));
    assert!(second.ends_with("\n## Mine\nkeep me\n"), "{second}");
}

#[test]
fn without_an_objective_the_section_says_what_to_fill_in() {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.arx().args(["init", "--agent"]).assert().code(0);
    assert!(sb.read("AGENTS.md").contains("not set yet"));
}

#[test]
fn plain_init_leaves_agents_md_alone() {
    let sb = repo_with_objective();
    sb.arx().arg("init").assert().code(0);
    assert!(!sb.path().join("AGENTS.md").exists());
}

#[cfg(unix)]
#[test]
fn never_writes_through_a_symbolic_link() {
    let sb = repo_with_objective();
    sb.write("elsewhere.md", "theirs\n");
    std::os::unix::fs::symlink(sb.path().join("elsewhere.md"), sb.path().join("AGENTS.md"))
        .unwrap();
    sb.arx().args(["init", "--agent"]).assert().code(2);
    assert_eq!(sb.read("elsewhere.md"), "theirs\n");
}

#[test]
fn a_broken_arx_toml_stops_before_anything_is_created() {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.write("arx.toml", "[objective\n");
    sb.arx().args(["init", "--agent"]).assert().code(2);
    assert!(!sb.path().join(".arx").exists());
    assert!(!sb.path().join("AGENTS.md").exists());
}

/// What AGENTS.md tells an agent to do for each `ratchet.status`: its
/// table's rows, status -> does the agent go on (`Go on`) or stop (`Stop`).
fn actions(agents_md: &str) -> Vec<(String, bool)> {
    agents_md
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("| `") && l.ends_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let status = cells.first()?.trim_matches('`').to_string();
            let action = cells.last()?;
            let go_on = if action.to_lowercase().starts_with("go on") {
                true
            } else if action.to_lowercase().starts_with("stop") {
                false
            } else {
                return None;
            };
            Some((status, go_on))
        })
        .collect()
}

/// The try command of the loop's step 4, as words after `arx`, with the
/// idea's id where the step has `"$id"`.
fn try_words(agents_md: &str, id: &str) -> Vec<String> {
    let step = agents_md
        .lines()
        .find(|l| l.starts_with("4. "))
        .expect("step 4");
    let cmd = step.split('`').nth(1).expect("a command in step 4");
    let words: Vec<String> = cmd
        .split_whitespace()
        .map(|w| w.replace("\"$id\"", id))
        .collect();
    assert_eq!(words[..2], ["arx", "try"], "{cmd}");
    // Everything up to the description, which the agent fills in.
    words[1..words.iter().position(|w| w == "-m").expect("-m") + 1].to_vec()
}

fn git(sb: &Sandbox, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(sb.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Uncommitted changes outside the state directory.
fn dirty(sb: &Sandbox) -> String {
    git(sb, &["status", "--porcelain", "--", ".", ":!.arx"])
}

#[test]
fn a_scripted_agent_following_agents_md_never_edits_on_top_of_an_undone_candidate() {
    let sb = Sandbox::new();
    sb.git_init(".");
    git(&sb, &["config", "user.email", "a@example.com"]);
    git(&sb, &["config", "user.name", "a"]);
    sb.write(
        "score.sh",
        "awk -v v=\"$(cat value.txt)\" 'BEGIN { if (v == \"boom\") exit 1; printf \"__RESULT__ {\\\"loss\\\": %s}\\n\", v }'\n",
    );
    sb.write("value.txt", "1.0");
    // A fresh `arx init --agent` with the objective from its flags; the
    // gates as init writes them (execute on).
    let init = sb
        .arx()
        .args([
            "init",
            "--agent",
            "--metric",
            "loss",
            "--direction",
            "min",
            "--command",
            "sh score.sh",
        ])
        .output()
        .unwrap();
    assert_eq!(init.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&init.stderr).contains("the execute gate is on"),
        "init --agent warns about the gate"
    );
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "start"]);
    let doc = sb.read("AGENTS.md");
    let table = actions(&doc);
    // The agent writes its ideas down first, and tries each by its id.
    let id = |sb: &Sandbox, n: usize| -> String {
        let out = sb
            .arx()
            .args(["idea", "add", "--family", "value", &format!("idea {n}")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let ids: Vec<String> = (1..=5).map(|n| id(&sb, n)).collect();
    assert!(try_words(&doc, "X").contains(&"--idea".to_string()));
    for status in ["keep", "baseline", "discard", "crash", "paused"] {
        assert!(
            table.iter().any(|(s, _)| s == status),
            "{status} in {table:?}"
        );
    }
    // The agent's ideas, in order: values of the loss (lower is better).
    let ideas = ["0.5", "0.50", "2.0", "boom", "0.2"];
    let mut edits = 0;
    let agent = |sb: &Sandbox, edits: &mut usize| -> Option<String> {
        for idea in &ideas[*edits..] {
            // The property: the agent edits only on a tree where the last
            // candidate was kept or undone.
            assert_eq!(
                dirty(sb),
                "",
                "the agent is about to edit on top of a candidate"
            );
            sb.write("value.txt", idea);
            *edits += 1;
            let out = sb
                .arx()
                .args(try_words(&doc, &ids[*edits - 1]))
                .arg(format!("idea {edits}"))
                .output()
                .unwrap();
            let report: serde_json::Value =
                serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
            // The answer names its outcome, the table's first column.
            let status = report["outcome"].as_str().unwrap_or("(none: an error)");
            let go_on = table
                .iter()
                .find(|(s, _)| s == status)
                .map(|(_, g)| *g)
                .unwrap_or(false);
            if !go_on {
                return Some(status.to_string());
            }
        }
        None
    };
    // With the gate on, the first try pauses: the agent stops, and its
    // change is still there, nothing journaled.
    let stopped_on = agent(&sb, &mut edits);
    assert_eq!(stopped_on.as_deref(), Some("paused"));
    assert_eq!(edits, 1);
    assert_eq!(sb.read("value.txt"), "0.5");
    assert!(dirty(&sb).contains("value.txt"));
    assert!(sb.read(".arx/journal.jsonl").is_empty());
    // The person turns the gate off for the unattended loop (committed) and
    // tells the agent to go on: it runs the same try again, then goes on.
    let config = sb
        .read("arx.toml")
        .replace("execute = true", "execute = false");
    sb.write("arx.toml", config);
    git(&sb, &["commit", "-qm", "gate off", "arx.toml"]);
    let out = sb
        .arx()
        .args(try_words(&doc, &ids[0]))
        .arg("idea 1")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The first try of a segment measures the baseline, then the candidate.
    assert_eq!(report["ratchet"]["status"], "keep", "{report}");
    let stopped = agent(&sb, &mut edits);
    assert_eq!(stopped, None, "the loop ran every idea");
    assert_eq!(edits, ideas.len());
    let statuses: Vec<String> = sb
        .read(".arx/journal.jsonl")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["ratchet"]["status"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert!(statuses.contains(&"discard".to_string()), "{statuses:?}");
    assert!(statuses.contains(&"crash".to_string()), "{statuses:?}");
    // Each try names its idea: the backlog tells each one tried.
    let out = sb.arx().args(["--json", "idea", "list"]).output().unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tried: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert_eq!(tried, ["tried"; 5], "{listed}");
}

/// Every `arx ...` command the generated section names in code, with its
/// placeholders filled in (`ID`, `"$id"`, `WORD`, `N`, `TEXT`), parses as
/// arx's command line: an agent that knows only AGENTS.md never runs one
/// arx refuses (as `arx try --idea ID --because ...` without `--retry`).
#[test]
fn every_command_agents_md_names_is_one_arx_accepts() {
    use clap::Parser;
    let objective = serde_json::json!({
        "metric": "val_bpb", "direction": "min", "command": "uv run train.py",
        "checks": ["pytest -q"], "protect": ["eval/**"], "slots": 4,
        "guards": ["latency"], "holdout": {"command": "sh holdout.sh"},
        "stop": {"max_discards_in_a_row": 20},
    });
    let section = arx::kernel::agents::section(&arx::kernel::agents::from_config(Some(&objective)));
    // Code spans may cross a line break of the text.
    let joined: String = section.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    let spans = regex::Regex::new(r"``? ?(arx [^`]+?) ?``?").unwrap();
    let mut seen = 0;
    for m in spans.captures_iter(&joined) {
        let command = &m[1];
        let filled = command
            .replace("\"$id\"", "i-0000000001")
            .replace(" ID", " i-0000000001")
            .replace(" WORD", " lr")
            .replace(" NAME", " gpu0")
            .replace("--repeat N", "--repeat 3")
            .replace(" TEXT", " more-runs")
            .replace(" STATEMENT", " halve-it");
        let mut words = vec![];
        let mut quoted: Option<String> = None;
        for w in filled.split(' ') {
            match (&mut quoted, w.starts_with('"'), w.ends_with('"')) {
                (None, true, true) if w.len() > 1 => words.push(w.trim_matches('"').to_string()),
                (None, true, _) => quoted = Some(w.trim_start_matches('"').to_string()),
                (Some(q), _, true) => {
                    q.push(' ');
                    q.push_str(w.trim_end_matches('"'));
                    words.push(quoted.take().unwrap());
                }
                (Some(q), _, _) => {
                    q.push(' ');
                    q.push_str(w);
                }
                (None, _, _) => words.push(w.to_string()),
            }
        }
        // A command with a shell's `...` or a placeholder of its own is
        // an example of a shape, not a line to run.
        if words.iter().any(|w| w.contains("...") || w.contains('$')) {
            continue;
        }
        if let Err(e) = arx::cli::Cli::try_parse_from(&words) {
            // A command or a flag named, not run: `arx idea drop`, `arx
            // try --idea`, with no value.
            let last = words.last().map_or("", String::as_str);
            let named = matches!(
                e.kind(),
                clap::error::ErrorKind::MissingRequiredArgument
                    | clap::error::ErrorKind::InvalidValue
            ) && !command.contains('"')
                && (last.starts_with("--") || !command.contains(" -"));
            assert!(
                named,
                "AGENTS.md names `{command}`, which arx refuses:\n{e}"
            );
        }
        seen += 1;
    }
    assert!(seen >= 15, "only {seen} commands found in:\n{section}");
}
