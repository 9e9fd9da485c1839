//! `arx idea add|list|drop` and `arx try --idea`, `--family`: the backlog
//! in `.arx/ideas.jsonl`, each try's idea, family and parent, the family a
//! try takes when it names none, the union of two branches' backlogs and
//! an idea in flight in a lane. The experiment's metric is the number in
//! `value.txt` (to be minimised); with `$ARX_HOLD` set, it waits for the
//! file `$ARX_HOLD/go` first.

use std::path::Path;
use std::process::Command as Std;

use serde_json::Value;

use crate::support::{commit_all, git_in, stderr, stdout_json, Sandbox};

const SCORE: &str = r#"#!/bin/sh
if [ -n "$ARX_HOLD" ]; then
  : > "$ARX_HOLD/started"
  i=0
  while [ ! -e "$ARX_HOLD/go" ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i + 1)); done
fi
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
    repo_at(&sb, sb.path());
    sb
}

fn repo_at(sb: &Sandbox, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let rel = dir.strip_prefix(sb.path()).unwrap();
    for (name, text) in [
        ("score.sh", SCORE),
        ("value.txt", "10"),
        ("arx.toml", CONFIG),
        (".gitignore", ".arx/\n"),
    ] {
        sb.write(rel.join(name).to_str().unwrap(), text);
    }
    commit_all(dir);
}

/// `arx ARGS` in `dir`.
fn arx_in(sb: &Sandbox, dir: &Path, args: &[&str]) -> std::process::Output {
    sb.arx().current_dir(dir).args(args).output().unwrap()
}

fn arx(sb: &Sandbox, args: &[&str]) -> std::process::Output {
    arx_in(sb, sb.path(), args)
}

/// `arx idea add ARGS`: the id it prints alone on stdout.
fn add(sb: &Sandbox, args: &[&str]) -> String {
    let mut all = vec!["idea", "add"];
    all.extend(args);
    let out = arx(sb, &all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let id = text.strip_suffix('\n').expect("one line").to_string();
    assert!(
        id.starts_with("i-") && id.len() == 12 && !id.contains(char::is_whitespace),
        "{text:?}"
    );
    id
}

/// `arx --json idea list`.
fn list(sb: &Sandbox) -> Vec<Value> {
    let out = arx(sb, &["--json", "idea", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout_json(&out).as_array().unwrap().clone()
}

fn idea<'a>(ideas: &'a [Value], id: &str) -> &'a Value {
    ideas
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("no idea {id} in {ideas:?}"))
}

/// `arx --json try ARGS`: exit code and report (and stderr).
fn try_(sb: &Sandbox, args: &[&str]) -> (i32, Value, String) {
    let out = sb
        .arx()
        .args(["--json", "try"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        !out.stdout.is_empty(),
        "no report ({code}): {}",
        stderr(&out)
    );
    (code, stdout_json(&out), stderr(&out))
}

/// `arx ARGS` fails with exit 2, an error and a hint; its stderr.
fn fails(sb: &Sandbox, args: &[&str]) -> String {
    let out = arx(sb, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains("arx: error:"), "{err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    err
}

#[test]
fn an_added_idea_prints_its_id_alone_and_is_listed_open() {
    let sb = repo();
    let lr = add(&sb, &["--family", "LR", "halve the learning rate"]);
    // As a shell script takes it.
    let out = Std::new("sh")
        .arg("-c")
        .arg(format!(
            "id=$({} idea add --family batch 'double the batch size') && echo \"got $id\"",
            assert_cmd::cargo::cargo_bin("arx").display()
        ))
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .output()
        .unwrap();
    let said = String::from_utf8(out.stdout).unwrap();
    let batch = said.trim().strip_prefix("got ").unwrap().to_string();
    let ideas = list(&sb);
    assert_eq!(ideas.len(), 2);
    let first = idea(&ideas, &lr);
    assert_eq!(first["status"], "open");
    assert_eq!(first["family"], "lr", "a family is stored lowercase");
    assert_eq!(first["statement"], "halve the learning rate");
    assert_eq!(idea(&ideas, &batch)["family"], "batch");
    // The human list: one line per idea with its id, family, statement, status.
    let out = arx(&sb, &["idea", "list"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines().next().unwrap().contains(&lr) && text.contains("open"),
        "{text}"
    );
    // Filters.
    let out = arx(&sb, &["--json", "idea", "list", "--family", "batch"]);
    assert_eq!(stdout_json(&out).as_array().unwrap().len(), 1);
    // The backlog is a JSONL file beside the journal.
    let lines = sb.read_jsonl(".arx/ideas.jsonl");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "add");
}

#[test]
fn a_try_of_an_idea_records_its_idea_family_and_parent_and_takes_its_statement() {
    let sb = repo();
    let (code, report, _) = try_(&sb, &["-m", "baseline"]);
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (0, Some("baseline"))
    );
    let parent = git_in(sb.path(), &["rev-parse", "HEAD"]);
    let id = add(&sb, &["--family", "value", "lower the value to 7"]);
    sb.write("value.txt", "7");
    // A unique prefix of the id is enough.
    let (code, report, _) = try_(&sb, &["--idea", &id[..7]]);
    assert_eq!(code, 0, "{report}");
    let r = &report["ratchet"];
    assert_eq!(r["status"], "keep");
    assert_eq!(r["idea"], id.as_str());
    assert_eq!(r["family"], "value");
    assert_eq!(r["parent"], parent.as_str());
    assert_eq!(r["description"], "lower the value to 7");
    assert!(r.get("family_guessed").is_none(), "{r}");
    let journaled = sb.journal();
    assert_eq!(journaled.last().unwrap()["ratchet"]["idea"], id.as_str());
    // The backlog tells it tried, with the run.
    let ideas = list(&sb);
    let tried = idea(&ideas, &id);
    assert_eq!(tried["status"], "tried");
    assert_eq!(tried["last"], "keep");
    assert_eq!(tried["tries"][0]["run_id"], report["run_id"]);
    assert_eq!(tried["tries"][0]["parent"], parent.as_str());
    let text = String::from_utf8(arx(&sb, &["idea", "list"]).stdout).unwrap();
    assert!(text.contains("tried: kept"), "{text}");
    // -m replaces the statement as the description; the idea stays.
    let second = add(&sb, &["--family", "value", "lower the value to 5"]);
    sb.write("value.txt", "5");
    let (code, report, _) = try_(&sb, &["--idea", &second, "-m", "value 5, said otherwise"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["ratchet"]["description"], "value 5, said otherwise");
    assert_eq!(report["ratchet"]["idea"], second.as_str());
    assert_eq!(
        report["ratchet"]["parent"],
        journaled.last().unwrap()["ratchet"]["commit"]
    );
}

#[test]
fn an_ad_hoc_try_adds_its_idea_once_and_a_discard_is_told_in_the_backlog() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    sb.write("value.txt", "12");
    let (code, report, _) = try_(&sb, &["-m", "raise the value to 12", "--family", "value"]);
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (1, Some("discard"))
    );
    let id = report["ratchet"]["idea"].as_str().unwrap().to_string();
    let ideas = list(&sb);
    assert_eq!(ideas.len(), 1);
    let i = idea(&ideas, &id);
    assert_eq!(i["statement"], "raise the value to 12");
    assert_eq!(i["family"], "value");
    assert_eq!(i["ad_hoc"], true);
    assert_eq!(i["last"], "discard");
    // The same statement and family again: the same idea, tried twice.
    sb.write("value.txt", "12");
    let (_, report, err) = try_(&sb, &["-m", "raise the value to 12", "--family", "value"]);
    assert_eq!(report["ratchet"]["idea"], id.as_str());
    assert!(err.contains("tried already"), "{err}");
    assert_eq!(list(&sb).len(), 1);
    assert_eq!(idea(&list(&sb), &id)["tries"].as_array().unwrap().len(), 2);
    // A family without a description: recorded, no idea added.
    sb.write("value.txt", "13");
    let (_, report, _) = try_(&sb, &["--family", "value"]);
    assert_eq!(report["ratchet"]["family"], "value");
    assert!(report["ratchet"].get("idea").is_none());
    assert_eq!(list(&sb).len(), 1);
}

#[test]
fn a_try_that_names_no_idea_takes_the_nearest_family_or_unsorted_and_says_which() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    let lr = add(&sb, &["--family", "lr", "halve the learning rate"]);
    add(&sb, &["--family", "batch", "double the batch size"]);
    sb.write("value.txt", "11");
    let (_, report, err) = try_(&sb, &["-m", "a smaller learning rate with warmup"]);
    let r = &report["ratchet"];
    assert_eq!(r["family"], "lr", "{err}");
    assert_eq!(r["family_guessed"], true);
    assert!(r.get("idea").is_none(), "{r}");
    assert!(err.contains("family lr") && err.contains(&lr), "{err}");
    sb.write("value.txt", "11");
    let (_, report, err) = try_(&sb, &["-m", "rewrite the tokenizer"]);
    assert_eq!(report["ratchet"]["family"], "unsorted");
    assert!(err.contains("family unsorted"), "{err}");
    // An idea added without a family takes one alike, and says so.
    let out = arx(&sb, &["idea", "add", "batch size 512"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("family batch"), "{}", stderr(&out));
    let id = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let ideas = list(&sb);
    assert_eq!(idea(&ideas, &id)["family"], "batch");
    assert_eq!(idea(&ideas, &id)["family_guessed"], true);
}

#[test]
fn a_retry_links_a_tried_idea_with_what_changed_and_a_dropped_idea_is_not_tried() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    let id = add(&sb, &["--family", "value", "raise the value to 12"]);
    sb.write("value.txt", "12");
    let (code, _, _) = try_(&sb, &["--idea", &id]);
    assert_eq!(code, 1);
    let err = fails(&sb, &["idea", "add", "--retry", &id]);
    assert!(err.contains("--because") && err.contains("hint:"), "{err}");
    let err = fails(&sb, &["idea", "add", "--because", "x", "a statement"]);
    assert!(err.contains("--retry"), "{err}");
    let retry = add(
        &sb,
        &["--retry", &id, "--because", "the scorer is fixed now"],
    );
    let ideas = list(&sb);
    let r = idea(&ideas, &retry);
    assert_eq!(r["retry_of"], id.as_str());
    assert_eq!(r["because"], "the scorer is fixed now");
    assert_eq!(r["statement"], "raise the value to 12");
    assert_eq!(r["family"], "value");
    assert_eq!(r["status"], "open");
    // An idea never tried has nothing to retry.
    let fresh = add(&sb, &["--family", "value", "something new"]);
    let err = fails(&sb, &["idea", "add", "--retry", &fresh, "--because", "x"]);
    assert!(err.contains("never tried"), "{err}");
    // Dropped: listed so, and refused by a try; dropping again is no change.
    let out = arx(&sb, &["idea", "drop", &fresh, "--reason", "superseded"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(idea(&list(&sb), &fresh)["status"], "dropped");
    let out = arx(&sb, &["--json", "idea", "drop", &fresh]);
    assert_eq!(stdout_json(&out)["dropped"], false);
    assert_eq!(sb.read_jsonl(".arx/ideas.jsonl").len(), 4);
    sb.write("value.txt", "9");
    let err = fails(&sb, &["try", "--idea", &fresh]);
    assert!(
        err.contains("was dropped") && err.contains("hint:"),
        "{err}"
    );
}

#[test]
fn bad_input_is_a_clear_error_with_a_hint_and_changes_nothing() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    let err = fails(&sb, &["idea", "add", ""]);
    assert!(err.contains("empty") && err.contains("hint:"), "{err}");
    let err = fails(&sb, &["idea", "add", &"x".repeat(4097)]);
    assert!(err.contains("4096"), "{err}");
    let err = fails(
        &sb,
        &["idea", "add", "--family", "learning rate", "lower it"],
    );
    assert!(
        err.contains("plain word") && err.contains("--family learning_rate"),
        "{err}"
    );
    let err = fails(&sb, &["idea", "add"]);
    assert!(err.contains("STATEMENT"), "{err}");
    assert_eq!(sb.read(".arx/ideas.jsonl"), "", "nothing was added");
    let err = fails(&sb, &["idea", "drop", "i-0000000000"]);
    assert!(
        err.contains("no idea") && err.contains("arx idea add"),
        "{err}"
    );
    add(&sb, &["--family", "value", "lower the value"]);
    sb.write("value.txt", "9");
    let err = fails(&sb, &["try", "--idea", "i-0000000000"]);
    assert!(
        err.contains("no idea") && err.contains("arx idea list"),
        "{err}"
    );
    let err = fails(&sb, &["try", "-m", "x", "--family", "a/b"]);
    assert!(err.contains("plain word"), "{err}");
    let err = fails(&sb, &["try", "-m", "", "--family", "value"]);
    assert!(err.contains("empty"), "{err}");
    assert_eq!(sb.journal().len(), 1, "no try ran");
    assert_eq!(git_in(sb.path(), &["status", "--porcelain"]), "M value.txt");
}

#[test]
fn a_malformed_backlog_line_is_skipped_with_a_warning_and_kept() {
    let sb = repo();
    let a = add(&sb, &["--family", "x", "first"]);
    let mut text = sb.read(".arx/ideas.jsonl");
    text.push_str("{\"type\":\"add\",\"id\":\n");
    text.push_str("not json at all\n");
    sb.write(".arx/ideas.jsonl", &text);
    let b = add(&sb, &["--family", "x", "second"]);
    let out = arx(&sb, &["--json", "idea", "list"]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(
        err.contains("ideas.jsonl:2") && err.contains("ideas.jsonl:3"),
        "{err}"
    );
    let ideas = stdout_json(&out);
    let ids: Vec<&str> = ideas
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [a.as_str(), b.as_str()]);
    assert!(sb.read(".arx/ideas.jsonl").contains("not json at all\n"));
}

#[test]
fn two_branches_backlogs_merge_by_union() {
    let sb = Sandbox::new();
    git_in(sb.path(), &["init", "-q", "-b", "main"]);
    git_in(sb.path(), &["config", "user.email", "t@example.com"]);
    git_in(sb.path(), &["config", "user.name", "T"]);
    let out = arx(&sb, &["init", "--share-journal"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        sb.read(".gitattributes")
            .contains(".arx/ideas.jsonl merge=union"),
        "{}",
        sb.read(".gitattributes")
    );
    let base = add(&sb, &["--family", "x", "from the start"]);
    git_in(sb.path(), &["add", "-A"]);
    git_in(sb.path(), &["commit", "-qm", "start"]);
    git_in(sb.path(), &["checkout", "-qb", "other"]);
    let theirs: Vec<String> = (0..3)
        .map(|n| add(&sb, &["--family", "y", &format!("theirs {n}")]))
        .collect();
    git_in(sb.path(), &["commit", "-qam", "theirs"]);
    git_in(sb.path(), &["checkout", "-q", "main"]);
    let ours: Vec<String> = (0..3)
        .map(|n| add(&sb, &["--family", "z", &format!("ours {n}")]))
        .collect();
    git_in(sb.path(), &["commit", "-qam", "ours"]);
    git_in(sb.path(), &["merge", "-q", "--no-edit", "other"]);
    let ideas = list(&sb);
    assert_eq!(ideas.len(), 7);
    for id in std::iter::once(&base).chain(&theirs).chain(&ours) {
        assert_eq!(idea(&ideas, id)["status"], "open");
    }
}

#[test]
fn an_idea_is_in_flight_in_the_lane_whose_try_runs_it() {
    // The repository in `repo/`, so its lanes (`repo.lanes/`) are in the sandbox.
    let sb = Sandbox::new();
    let root = sb.path().join("repo");
    repo_at(&sb, &root);
    let out = arx_in(&sb, &root, &["try", "-m", "baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = arx_in(&sb, &root, &["lane", "add", "a"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = arx_in(
        &sb,
        &root,
        &["idea", "add", "--family", "value", "lower the value to 3"],
    );
    let id = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let lane = sb.path().join("repo.lanes/a");
    std::fs::write(lane.join("value.txt"), "3").unwrap();
    let hold = tempfile::tempdir().unwrap();
    let child = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["--json", "try", "--idea", &id])
        .current_dir(&lane)
        .env_remove("ARX_STATE_DIR")
        .env("ARX_HOLD", hold.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = hold.path().join("started");
    for _ in 0..1500 {
        if started.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(started.exists(), "the lane's try did not start");
    let listed = |dir: &Path| {
        let out = arx_in(&sb, dir, &["--json", "idea", "list"]);
        stdout_json(&out).as_array().unwrap().clone()
    };
    // Seen from the main working tree and from the lane alike.
    for dir in [&root, &lane] {
        let ideas = listed(dir);
        let flying = idea(&ideas, &id);
        assert_eq!(flying["status"], "in_flight", "{flying}");
        assert_eq!(flying["lane"], "a");
    }
    let text = String::from_utf8(arx_in(&sb, &root, &["idea", "list"]).stdout).unwrap();
    assert!(text.contains("in flight in lane a"), "{text}");
    std::fs::write(hold.path().join("go"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ideas = listed(&root);
    assert_eq!(idea(&ideas, &id)["status"], "tried");
    assert_eq!(idea(&ideas, &id)["tries"][0]["lane"], "a");
}

#[test]
fn log_show_and_report_carry_the_idea_and_family() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    let seven = add(&sb, &["--family", "value", "lower the value to 7"]);
    sb.write("value.txt", "7");
    let (_, kept, _) = try_(&sb, &["--idea", &seven]);
    sb.write("value.txt", "8");
    try_(&sb, &["-m", "value to 8", "--family", "value"]);
    sb.write("value.txt", "12");
    try_(&sb, &["-m", "raise it", "--family", "other"]);
    let run = kept["run_id"].as_str().unwrap();
    // The results table: the idea and the family last.
    let out = arx(&sb, &["log", "--format", "tsv"]);
    let tsv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0][lines[0].len() - 2..], ["idea", "family"], "{tsv}");
    assert_eq!(
        lines[2][lines[2].len() - 2..],
        [seven.as_str(), "value"],
        "{tsv}"
    );
    assert_eq!(lines[4].last(), Some(&"other"), "{tsv}");
    // The run list and one run.
    let text = String::from_utf8(arx(&sb, &["log"]).stdout).unwrap();
    assert!(text.contains("FAMILY") && text.contains(&seven), "{text}");
    let text = String::from_utf8(arx(&sb, &["show", run]).stdout).unwrap();
    assert!(text.contains(&format!("idea        {seven}")), "{text}");
    assert!(text.contains("family      value"), "{text}");
    assert!(text.contains("parent "), "{text}");
    // The report's family table.
    let out = arx(&sb, &["--json", "report"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout_json(&out);
    let families = report["segments"][0]["families"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(families.len(), 2, "{families:?}");
    let value = &families[0];
    assert_eq!(value["family"], "value");
    assert_eq!(
        (value["tries"].as_u64(), value["keeps"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(value["keep_rate"], 0.5);
    assert!(
        (value["gain"].as_f64().unwrap() - 3.0).abs() < 1e-9,
        "{value}"
    );
    let (lo, hi) = (
        value["interval"][0].as_f64().unwrap(),
        value["interval"][1].as_f64().unwrap(),
    );
    assert!(lo > 0.0 && lo < 0.5 && hi > 0.5 && hi < 1.0, "{value}");
    assert_eq!(families[1]["family"], "other");
    assert_eq!(families[1]["keeps"], 0);
    let text = String::from_utf8(arx(&sb, &["report"]).stdout).unwrap();
    assert!(
        text.contains("by family") && text.contains("50.0% ["),
        "{text}"
    );
    let text = String::from_utf8(arx(&sb, &["report", "--markdown"]).stdout).unwrap();
    assert!(
        text.contains("By family:") && text.contains("| value"),
        "{text}"
    );
    let out = arx(&sb, &["report", "--html", "r.html"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = sb.read("r.html");
    assert!(html.contains("By family") && html.contains("+3"), "{html}");
}

#[test]
fn a_journal_without_families_has_no_family_table() {
    let sb = repo();
    try_(&sb, &["-m", "baseline"]);
    sb.write("value.txt", "7");
    try_(&sb, &["-m", "lower"]);
    // As an older arx wrote it: no family in the try's record.
    let text = sb
        .read(".arx/journal.jsonl")
        .replace("\"family\":\"unsorted\",", "");
    let text = text
        .replace(",\"family\":\"unsorted\"", "")
        .replace("\"family_guessed\":true,", "")
        .replace(",\"family_guessed\":true", "");
    assert!(!text.contains("family"), "{text}");
    sb.write(".arx/journal.jsonl", text);
    let _ = std::fs::remove_file(sb.path().join(".arx/report.json"));
    let report = stdout_json(arx(&sb, &["--json", "report"]));
    assert!(report["segments"][0].get("families").is_none(), "{report}");
}
