use predicates::prelude::*;
use predicates::str::contains;
use serde_json::{json, Value};

use crate::support::{id, json_lines, jsonl, run, Sandbox};

/// Three runs of two candidates, the second refuted, the third without a spec.
fn journal(sb: &Sandbox) {
    let mut second = run(2);
    second["candidate"] = json!("bm25");
    second["metrics"]["acc"] = json!(0.61);
    second["verdict"]["verdict"] = json!("refuted");
    let mut third = run(3);
    third["spec"] = Value::Null;
    third["verdict"] = Value::Null;
    third["exit_code"] = json!(2);
    third["command"] = json!(["sh", "-c", "echo 'a b'"]);
    third["hypothesis"] = Value::Null;
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), second, third]));
}

#[test]
fn lists_runs_oldest_first_in_aligned_columns() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb
        .arx()
        .arg("log")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 4, "a header and three runs:\n{text}");
    assert!(rows[0].starts_with("RUN"));
    // Short ids (enough to tell the runs apart), in journal order.
    assert!(rows[1].starts_with(&id(1)[..13]));
    assert!(rows[3].starts_with(&id(3)[..13]));
    assert!(rows[1].contains("2026-11-21 10:01:00") && rows[1].contains("12.3s"));
    assert!(rows[1].contains("supported") && rows[1].contains("acc=0.8312"));
    // The description column: the hypothesis, not the command again.
    assert!(rows[1].contains("hybrid") && rows[1].contains("Hybrid BM25+dense retrieval"));
    assert!(!rows[1].contains("python train.py"), "{text}");
    assert!(
        rows[2].contains("refuted") && rows[2].contains("acc=0.61") && rows[2].contains("bm25")
    );
    assert!(rows[3].contains(" - ") && rows[3].contains("exit=2"));
    assert!(rows[3].contains("sh -c 'echo '\\''a b'\\'''"));
    // Columns line up: the verdict column starts at the same place on every row.
    let col = rows[0].find("VERDICT").unwrap();
    assert_eq!(rows[1].find("supported"), Some(col), "{text}");
    assert_eq!(rows[2].find("refuted"), Some(col), "{text}");
    assert_eq!(&rows[3][col..col + 2], "- ", "{text}");
    let desc = rows[0].find("DESCRIPTION").unwrap();
    assert!(rows[1..]
        .iter()
        .all(|r| r[desc..].starts_with("Hybrid") || r[desc..].starts_with("sh")));
}

#[test]
fn a_protected_try_is_not_run_and_numbers_read_one_way() {
    let sb = Sandbox::new();
    let try_record = |n: u32, status: &str, description: &str| {
        let mut r = run(n);
        r["spec"] = Value::Null;
        r["verdict"] = Value::Null;
        r["hypothesis"] = Value::Null;
        r["ratchet"] = json!({
            "segment": "s", "status": status, "description": description,
            "metric": "loss", "direction": "min", "kept": "abc", "best": 0.2
        });
        r
    };
    let mut protected = try_record(1, "protected", "edit the data");
    protected["metrics"] = json!({});
    let mut one = try_record(2, "discard", "a wider model");
    one["metrics"] = json!({"loss": 0.16541318370667127});
    let mut five = try_record(3, "discard", "a deeper model");
    five["samples"] = json!([0.0908468, 0.0908468, 0.0908468, 0.0908468, 0.0908468]);
    five["summary"] = json!({"n": 5, "mean": 0.0908468, "sd": 0.0, "median": 0.0908468,
        "min": 0.0908468, "max": 0.0908468, "outliers": []});
    sb.write(".arx/journal.jsonl", jsonl(&[protected, one, five]));
    let out = sb
        .arx()
        .arg("log")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert!(
        rows[1].contains("protected") && rows[1].contains("not run"),
        "{text}"
    );
    assert!(!rows[1].contains("exit=0"), "{text}");
    assert!(rows[1].contains("edit the data"), "{text}");
    // Six significant digits, with or without repeats.
    assert!(rows[2].contains("loss=0.165413 "), "{text}");
    assert!(rows[3].contains("loss=0.0908468 (n=5)"), "{text}");
    assert!(!text.contains("python train.py"), "{text}");
}

#[test]
fn limit_and_candidate_select_runs() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb
        .arx()
        .args(["log", "--limit", "2", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let runs = json_lines(&out);
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["run_id"], id(2));
    assert_eq!(runs[1]["run_id"], id(3));

    let out = sb
        .arx()
        .args(["log", "--candidate", "hybrid", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let runs = json_lines(&out);
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r["candidate"] == "hybrid"));

    sb.arx()
        .args(["log", "--candidate", "bm25", "--limit", "5"])
        .assert()
        .code(0)
        .stdout(contains("refuted").and(contains("supported").not()));
    sb.arx()
        .args(["log", "--candidate", "nobody"])
        .assert()
        .code(0)
        .stdout(contains("no runs selected (3 runs recorded)"));
}

#[test]
fn json_is_one_record_per_line() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb
        .arx()
        .args(["log", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(!text.starts_with('['));
    assert_eq!(text.lines().count(), 3);
    assert!(text.ends_with('\n'));
    let runs = json_lines(&out);
    assert_eq!(runs[0], run(1));
    assert_eq!(runs[2]["exit_code"], 2);
}

#[test]
fn empty_or_missing_journal_lists_nothing() {
    let sb = Sandbox::new();
    sb.arx()
        .arg("log")
        .assert()
        .code(0)
        .stdout(contains("no runs recorded"));
    sb.arx().args(["log", "--json"]).assert().code(0).stdout("");
    assert!(!sb.path().join(".arx").exists());
    sb.write(".arx/journal.jsonl", "");
    sb.arx()
        .arg("log")
        .assert()
        .code(0)
        .stdout(contains("no runs recorded"));
}

#[test]
fn a_torn_last_line_is_skipped_with_a_warning() {
    let sb = Sandbox::new();
    sb.write(
        ".arx/journal.jsonl",
        format!("{}{{\"run_id\": \"0196", jsonl(&[run(1)])),
    );
    let out = sb
        .arx()
        .args(["log", "--json"])
        .assert()
        .code(0)
        .stderr(contains("torn"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(json_lines(&out).len(), 1);
}

#[test]
fn quiet_prints_nothing_and_state_dir_is_honoured() {
    let sb = Sandbox::new();
    sb.write("elsewhere/journal.jsonl", jsonl(&[run(7)]));
    sb.arx()
        .args(["log", "--quiet", "--state-dir", "elsewhere"])
        .assert()
        .code(0)
        .stdout("");
    sb.arx()
        .env("ARX_STATE_DIR", sb.path().join("elsewhere"))
        .args(["log", "--json"])
        .assert()
        .code(0)
        .stdout(contains(id(7)));
}

#[test]
fn an_empty_selection_is_not_an_empty_journal() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve", "--candidate", "a", "--", "true"])
        .assert()
        .code(0);
    for args in [
        &["log", "--limit", "0"][..],
        &["log", "--candidate", "none"],
    ] {
        sb.arx()
            .args(args)
            .assert()
            .code(0)
            .stdout(contains("no runs recorded").not())
            .stdout(contains("1 run recorded"));
    }
    sb.arx()
        .args(["log"])
        .current_dir(sb.path())
        .env("ARX_STATE_DIR", sb.path().join("elsewhere"))
        .assert()
        .stdout(contains("no runs recorded"));
}

#[test]
fn run_ids_differ_early_and_an_unjournaled_run_shows_none() {
    let sb = Sandbox::new();
    sb.write("v", "0.5\n");
    let side = "echo \"__RESULT__ {\\\"acc\\\": $(cat v)}\"";
    let out = sb
        .arx()
        .args([
            "compare",
            "--approve",
            "--json",
            "--metric",
            "acc",
            "--direction",
            "max",
        ])
        .args([
            "--runs",
            "2",
            "--baseline-cmd",
            side,
            "--candidate-cmd",
            side,
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v["run_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0][..23], ids[1][..23], "{ids:?}");
    sb.arx()
        .args(["run", "--approve", "--no-journal", "--", "true"])
        .assert()
        .code(0)
        .stdout(contains("not journaled"))
        .stdout(contains(" run 0").not());
}

/// `--last N` reads the journal's tail, not the whole journal: a line
/// far before the last runs (here an unreadable one) is never read.
#[test]
fn the_last_runs_are_read_from_the_journals_end() {
    let sb = Sandbox::new();
    let mut text = format!("{{not a record {}\n", "x".repeat(1 << 20));
    for i in 1..=3 {
        text.push_str(&serde_json::to_string(&crate::support::run(i)).unwrap());
        text.push('\n');
    }
    sb.write(".arx/journal.jsonl", text);
    let out = sb
        .arx()
        .args(["log", "--last", "2", "--json"])
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!stderr.contains("unreadable"), "{stderr}");
    let lines = crate::support::json_lines(&out.get_output().stdout);
    let ids: Vec<&str> = lines
        .iter()
        .map(|r| r["run_id"].as_str().unwrap())
        .collect();
    let want = [crate::support::run(2), crate::support::run(3)];
    assert_eq!(
        ids,
        want.iter()
            .map(|r| r["run_id"].as_str().unwrap())
            .collect::<Vec<_>>()
    );
    // The whole journal is read without `--last`, and its bad line named.
    sb.arx()
        .args(["log"])
        .assert()
        .code(0)
        .stderr(contains(":1: skipped an unreadable record"));
}
