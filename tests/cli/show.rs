use predicates::prelude::*;
use predicates::str::contains;
use serde_json::json;

use crate::support::{id, json, jsonl, record, run, Sandbox};

#[test]
fn shows_a_run_by_full_id_or_prefix() {
    let sb = Sandbox::new();
    let mut other = record(
        "0196c0df-0000-7000-8000-000000000009",
        "2026-11-21T11:00:00.000Z",
    );
    other["stderr_tail"] =
        json!("Traceback (most recent call last):\nModuleNotFoundError: No module named 'faiss'\n");
    other["failure_class"] = json!("H2");
    other["exit_code"] = json!(1);
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), other]));

    let out = sb
        .arx()
        .args(["show", "--json", &id(1)])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out), run(1));

    // A unique prefix is enough (and case does not matter).
    let text = sb
        .arx()
        .args(["show", "0196C0DF"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    for expected in [
        "0196c0df-0000-7000-8000-000000000009",
        "2026-11-21T11:00:00.000Z",
        "12.3s",
        "python train.py --lr 1e-3",
        "/home/ci/repo",
        "runner-7",
        "3f2a9c1d0e4b5a6978877665544332211aabbccd on main",
        "Hybrid BM25+dense retrieval",
        "adf460601cafce90",
        "hybrid",
        "seed-0",
        "acc >= 0.8",
        "acc=0.8312 loss=0.2607",
        "H2 (missing dependency)",
        "supported: acc=0.8312 >= 0.8 → pass",
        "    __RESULT__ {\"acc\": 0.8312, \"loss\": 0.2607}",
        "    ModuleNotFoundError: No module named 'faiss'",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

#[test]
fn repeated_runs_show_samples_and_summary() {
    let sb = Sandbox::new();
    let mut r = run(1);
    r["samples"] = json!([0.81, 0.83, 0.85]);
    r["summary"] = json!({"n": 3, "mean": 0.83, "sd": 0.02, "median": 0.83, "min": 0.81, "max": 0.85, "outliers": []});
    r["interval"] = json!([0.78, 0.88]);
    r["more_runs"] = json!(4);
    r["attempts"] = json!([
        {"exit_code": 0, "timed_out": false, "failure_class": "none", "metrics": {"acc": 0.81}, "duration_ms": 4000},
        {"exit_code": 0, "timed_out": false, "failure_class": "none", "metrics": {"acc": 0.83}, "duration_ms": 4100},
        {"exit_code": 0, "timed_out": false, "failure_class": "none", "metrics": {"acc": 0.85}, "duration_ms": 4200}
    ]);
    sb.write(".arx/journal.jsonl", jsonl(&[r]));
    sb.arx()
        .args(["show", &id(1)[..8]])
        .assert()
        .code(0)
        .stdout(
            contains("0.81 0.83 0.85")
                .and(contains("n=3 mean=0.83 sd=0.02"))
                .and(contains("[0.78, 0.88]"))
                .and(contains("about 4 more"))
                .and(contains("exit 0 in 4.0s")),
        );
    sb.arx()
        .arg("log")
        .assert()
        .code(0)
        .stdout(contains("acc=0.83 (n=3)"));
}

#[test]
fn ambiguous_unknown_and_short_ids_are_errors() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), run(2), run(1)]));
    sb.arx().args(["show", "0196c0de"]).assert().code(2).stderr(
        contains("arx: error:")
            .and(contains("matches 2 runs"))
            .and(contains(id(1)))
            .and(contains(id(2)))
            .and(contains("hint:")),
    );
    sb.arx().args(["show", "ffffffff"]).assert().code(2).stderr(
        contains("no run \"ffffffff\"").and(contains("hint: list the runs with `arx log`")),
    );
    sb.arx()
        .args(["show", "019"])
        .assert()
        .code(2)
        .stderr(contains("at least 4").and(contains("hint:")));
    // Copies of one run (a union merge before dedupe) are one run.
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), run(1)]));
    sb.arx()
        .args(["show", "0196c0de"])
        .assert()
        .code(0)
        .stdout(contains(id(1)));
}

#[test]
fn a_missing_journal_has_no_runs() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["show", "0196c0de"])
        .assert()
        .code(2)
        .stderr(contains("no run"));
    assert!(!sb.path().join(".arx").exists());
}
