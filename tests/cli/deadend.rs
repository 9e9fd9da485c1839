use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{json, Sandbox};

const NOW: &str = "2026-11-21T10:00:00Z";

#[test]
fn add_check_list_and_dedupe() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "BM25 alone reaches recall@10 ≥ 0.8 on the eval set",
        ])
        .args(["--reason", "recall 0.61", "--iteration", "3", "--now", NOW])
        .assert()
        .code(0);
    // Same approach, other case and spacing: kept once.
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "  bm25  alone reaches RECALL@10 ≥ 0.8 on the eval set ",
        ])
        .args(["--reason", "again"])
        .assert()
        .code(0)
        .stdout(contains("already"));
    let recs = sb.read_jsonl(".arx/dead-ends.jsonl");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["approach_hash"], "bbae81fd7db63f6a");
    assert_eq!(recs[0]["iteration"], 3);
    assert_eq!(recs[0]["evidence_level"], "manual");
    assert_eq!(recs[0]["created_at"], NOW);

    sb.arx()
        .args([
            "deadend",
            "check",
            "BM25   ALONE reaches recall@10 ≥ 0.8 on the eval set",
        ])
        .assert()
        .code(1)
        .stdout(contains("known dead end"));
    sb.arx()
        .args(["deadend", "check", "something new"])
        .assert()
        .code(0);

    let out = sb
        .arx()
        .args(["deadend", "list", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out).as_array().unwrap().len(), 1);
}

#[test]
fn check_without_state_does_not_create_it() {
    let sb = Sandbox::new();
    sb.arx().args(["deadend", "check", "x"]).assert().code(0);
    sb.arx().args(["deadend", "list"]).assert().code(0);
    assert!(!sb.path().join(".arx").exists());
}

#[test]
fn promote_only_deterministic_refutations() {
    let sb = Sandbox::new();
    let refuted = sb
        .arx()
        .args([
            "measure", "--json", "--metric", "acc", "--cmp", ">=", "--target", "0.8",
        ])
        .write_stdin("__RESULT__ {\"acc\": 0.5}")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let supported = sb
        .arx()
        .args([
            "measure", "--json", "--metric", "acc", "--cmp", ">=", "--target", "0.8",
        ])
        .write_stdin("__RESULT__ {\"acc\": 0.9}")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();

    sb.arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--verdict",
            "-",
            "--statement",
            "idea A",
        ])
        .write_stdin(supported)
        .assert()
        .code(1)
        .stdout(contains("not promoted"));
    let llm = sb.write(
        "llm.json",
        r#"{"verdict": "refuted", "strategy": "llm", "evidence_level": "llm", "detail": "judge says no"}"#,
    );
    sb.arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--statement",
            "idea A",
            "--verdict",
        ])
        .arg(&llm)
        .assert()
        .code(1);
    assert!(!sb.path().join(".arx/dead-ends.jsonl").exists());

    let out = sb
        .arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--json",
            "--verdict",
            "-",
            "--statement",
            "idea A",
            "--iteration",
            "4",
        ])
        .write_stdin(refuted.clone())
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["promoted"], true);
    assert_eq!(v["record"]["reason"], "acc=0.5 >= 0.8 → fail");
    assert_eq!(v["record"]["evidence_level"], "deterministic");
    // Twice: still one record.
    sb.arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--verdict",
            "-",
            "--statement",
            "IDEA a",
        ])
        .write_stdin(refuted)
        .assert()
        .code(0);
    assert_eq!(sb.read_jsonl(".arx/dead-ends.jsonl").len(), 1);
}

#[test]
fn promote_bad_input_exits_2() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--verdict",
            "-",
            "--statement",
            "x",
        ])
        .write_stdin("not json")
        .assert()
        .code(2)
        .stderr(contains("arx: error:").and(contains("verdict record")));
    sb.arx()
        .args(["deadend", "promote", "--approve", "--verdict", "-"])
        .write_stdin(r#"{"verdict": "refuted", "evidence_level": "deterministic", "detail": "d"}"#)
        .assert()
        .code(2)
        .stderr(contains("--statement"));
    sb.arx()
        .args([
            "deadend",
            "promote",
            "--approve",
            "--verdict",
            "missing.json",
            "--statement",
            "x",
        ])
        .assert()
        .code(2);
}

#[test]
fn state_dir_flag_env_and_repo_root() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "a",
            "--reason",
            "r",
            "--state-dir",
            "custom",
        ])
        .assert()
        .code(0);
    assert!(sb.path().join("custom/dead-ends.jsonl").exists());
    sb.arx()
        .env("ARX_STATE_DIR", sb.path().join("from-env"))
        .args(["deadend", "add", "--approve", "a", "--reason", "r"])
        .assert()
        .code(0);
    assert!(sb.path().join("from-env/dead-ends.jsonl").exists());
    // Inside a repository, .arx/ sits at its root.
    std::fs::create_dir_all(sb.path().join("repo/.git")).unwrap();
    std::fs::create_dir_all(sb.path().join("repo/src/deep")).unwrap();
    sb.arx()
        .current_dir(sb.path().join("repo/src/deep"))
        .args(["deadend", "add", "--approve", "a", "--reason", "r"])
        .assert()
        .code(0);
    assert!(sb.path().join("repo/.arx/dead-ends.jsonl").exists());
}

#[test]
fn torn_last_line_is_skipped_then_repaired() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["deadend", "add", "--approve", "one", "--reason", "r"])
        .assert()
        .code(0);
    let path = sb.path().join(".arx/dead-ends.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"approach_hash\": \"abc\", \"stat");
    std::fs::write(&path, &text).unwrap();

    let out = sb
        .arx()
        .args(["deadend", "list", "--json"])
        .assert()
        .code(0)
        .stderr(contains("torn"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out).as_array().unwrap().len(), 1);

    sb.arx()
        .args(["deadend", "add", "--approve", "two", "--reason", "r"])
        .assert()
        .code(0);
    let recs = sb.read_jsonl(".arx/dead-ends.jsonl");
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1]["statement"], "two");
}

#[test]
fn a_bad_line_in_the_middle_is_skipped_with_a_warning() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["deadend", "add", "--approve", "one", "--reason", "r"])
        .assert()
        .code(0);
    let path = sb.path().join(".arx/dead-ends.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("<<<<<<< HEAD\n");
    std::fs::write(&path, &text).unwrap();
    sb.arx()
        .args(["deadend", "add", "--approve", "two", "--reason", "r"])
        .assert()
        .code(0);
    let out = sb
        .arx()
        .args(["deadend", "list", "--json"])
        .assert()
        .code(0)
        .stderr(contains(":2:"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out).as_array().unwrap().len(), 2);
}

#[test]
fn concurrent_writers_lose_nothing() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let children: Vec<_> = (0..8)
        .map(|w| {
            let script = (0..15)
                .map(|i| {
                    format!(
                        "'{}' deadend add --approve 'approach {w}-{i} {}' --reason r --quiet",
                        bin.display(),
                        "x".repeat(2000)
                    )
                })
                .collect::<Vec<_>>()
                .join(" && ");
            std::process::Command::new("sh")
                .arg("-c")
                .arg(script)
                .current_dir(sb.path())
                .env_remove("ARX_STATE_DIR")
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let recs = sb.read_jsonl(".arx/dead-ends.jsonl");
    assert_eq!(recs.len(), 120);
    let mut hashes: Vec<_> = recs
        .iter()
        .map(|r| r["approach_hash"].to_string())
        .collect();
    hashes.sort();
    hashes.dedup();
    assert_eq!(hashes.len(), 120);
}

#[test]
fn state_dir_that_is_a_file_is_an_error() {
    let sb = Sandbox::new();
    sb.write(".arx", "not a directory");
    sb.arx()
        .args(["deadend", "add", "--approve", "a", "--reason", "r"])
        .assert()
        .code(2)
        .stderr(contains("not a directory"));
    assert_eq!(sb.read(".arx"), "not a directory");
}

#[test]
fn bad_now_is_an_error() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "a",
            "--reason",
            "r",
            "--now",
            "yesterday",
        ])
        .assert()
        .code(2)
        .stderr(contains("--now").and(contains("hint:")));
    assert!(!sb.path().join(".arx").exists());
}

#[test]
fn scan_finds_dead_ends_named_by_hypothesis_and_candidate_files() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "BM25 alone",
            "--reason",
            "recall 0.61",
            "--no-gates",
        ])
        .assert()
        .code(0);
    sb.write(
        "spec.toml",
        "metric_key = \"acc\"\nhypothesis = \"bm25   ALONE\"\n",
    );
    sb.write(
        "candidates.toml",
        "[[candidate]]\nname = \"r\"\nstatement = \"rerank\"\n",
    );
    sb.write("hypotheses.md", "# Ideas\n- rerank\n- dense only\n");
    let out = sb
        .arx()
        .args([
            "deadend",
            "scan",
            "spec.toml",
            "candidates.toml",
            "hypotheses.md",
            "--json",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report = crate::support::json(&out);
    assert_eq!(report["files"], 3);
    assert_eq!(report["statements"], 4);
    let hits = report["dead_ends"].as_array().unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["file"], "spec.toml");
    assert_eq!(hits[0]["record"]["reason"], "recall 0.61");

    sb.arx()
        .args(["deadend", "scan", "candidates.toml", "hypotheses.md"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains(
            "no known dead end in 3 statements of 2 files",
        ));
}

#[test]
fn scan_of_a_broken_or_missing_file_is_an_error() {
    let sb = Sandbox::new();
    sb.write("spec.toml", "hypothesis = \n");
    sb.arx()
        .args(["deadend", "scan", "spec.toml"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("spec.toml: invalid TOML"));
    sb.arx()
        .args(["deadend", "scan", "missing.md"])
        .assert()
        .code(2);
    sb.arx().args(["deadend", "scan"]).assert().code(2);
}
