use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{json, Sandbox};

/// Run `n` experiments of `candidate` whose verdict is supported when `ok`.
fn runs(sb: &Sandbox, candidate: &str, ok: bool, n: usize, state: &str) {
    let acc = if ok { "0.9" } else { "0.5" };
    for _ in 0..n {
        sb.arx()
            .args([
                "run",
                "--approve",
                "--quiet",
                "--candidate",
                candidate,
                "--state",
                state,
            ])
            .args(["--metric", "acc", "--cmp", ">=", "--target", "0.8", "--"])
            .args(["sh", "-c", &format!("echo '__RESULT__ {{\"acc\": {acc}}}'")])
            .assert()
            .code(if ok { 0 } else { 1 });
    }
}

const CANDIDATES: &str = r#"
[[candidate]]
name = "hybrid"
statement = "Hybrid retrieval reaches 0.8"

[[candidate]]
name = "bm25"
statement = "BM25 alone reaches 0.8"
preferences = { success = 2.0 }

[[candidate]]
name = "pipeline"
statement = "Rerank after hybrid"
steps = ["hybrid", "rerank"]
"#;

#[test]
fn next_prints_a_name_and_explains() {
    let sb = Sandbox::new();
    let file = sb.write("c.toml", CANDIDATES);
    runs(&sb, "hybrid", true, 4, "task=a");
    runs(&sb, "bm25", false, 4, "task=a");
    let out = sb
        .arx()
        .args(["next", "--greedy", "--model", "lrs", "--candidates"])
        .arg(&file)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).unwrap(), "hybrid\n");
    let out = sb
        .arx()
        .args(["next", "--json", "--model", "lrs", "--candidates"])
        .arg(&file)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let cands = v["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 3);
    let total: f64 = cands
        .iter()
        .map(|c| c["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert_eq!(cands[0]["runs"], serde_json::json!([4]));
    assert_eq!(cands[2]["success"].as_array().unwrap().len(), 2);
    assert_eq!(v["journal_runs"], 8);
    sb.arx()
        .args(["next", "--explain", "--candidates"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(contains("epistemic").and(contains("bm25")));
}

#[test]
fn the_same_state_and_seed_give_the_same_pick() {
    let sb = Sandbox::new();
    let file = sb.write("c.toml", CANDIDATES);
    runs(&sb, "hybrid", true, 2, "task=a");
    let pick = |seed: &str| {
        let out = sb
            .arx()
            .args(["next", "--seed", seed, "--candidates"])
            .arg(&file)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(pick("7"), pick("7"));
    let picks: std::collections::HashSet<String> = (0..40).map(|s| pick(&s.to_string())).collect();
    assert!(picks.len() > 1, "sampling explores: {picks:?}");
}

#[test]
fn dead_ends_are_excluded_and_all_dead_exits_1() {
    let sb = Sandbox::new();
    let file = sb.write(
        "c.json",
        r#"[{"name": "a", "statement": "A works"}, {"name": "b", "statement": "B works"}]"#,
    );
    sb.arx()
        .args(["deadend", "add", "--approve", "A works", "--reason", "r"])
        .assert()
        .code(0);
    for seed in 0..10 {
        sb.arx()
            .args(["next", "--seed", &seed.to_string(), "--candidates"])
            .arg(&file)
            .assert()
            .code(0)
            .stdout("b\n");
    }
    sb.arx()
        .args(["deadend", "add", "--approve", "b  WORKS", "--reason", "r"])
        .assert()
        .code(0);
    sb.arx()
        .args(["next", "--candidates"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("dead end"));
}

#[test]
fn bad_candidates_and_flags_exit_2() {
    let sb = Sandbox::new();
    let cases = [
        ("empty.json", "[]"),
        (
            "dup.json",
            r#"[{"name": "a", "statement": "x"}, {"name": "a", "statement": "y"}]"#,
        ),
        ("noname.toml", "[[candidate]]\nstatement = \"x\"\n"),
        (
            "typo.toml",
            "[[candidate]]\nname = \"a\"\nstatment = \"x\"\n",
        ),
        (
            "steps.json",
            r#"[{"name": "a", "statement": "x", "steps": []}]"#,
        ),
        ("bad.toml", "[[candidate]\n"),
    ];
    for (name, text) in cases {
        let p = sb.write(name, text);
        sb.arx()
            .args(["next", "--candidates"])
            .arg(&p)
            .assert()
            .code(2)
            .stderr(contains("arx: error:"));
    }
    let p = sb.write("ok.json", r#"[{"name": "a", "statement": "x"}]"#);
    for args in [
        &["--temperature", "0"][..],
        &["--temperature", "-1"],
        &["--model", "magic"],
    ] {
        sb.arx()
            .args(["next", "--candidates"])
            .arg(&p)
            .args(args)
            .assert()
            .code(2);
    }
    sb.arx()
        .args(["next", "--candidates", "missing.toml"])
        .assert()
        .code(2);
}

#[test]
fn precision_show_rebuild_reset() {
    let sb = Sandbox::new();
    runs(&sb, "a", false, 4, "task=a");
    let show = |sb: &Sandbox| {
        let out = sb
            .arx()
            .args(["precision", "show", "--json"])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        json(&out)
    };
    let before = show(&sb);
    assert_eq!(before["runs"], 4);
    let levels = before["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    assert_eq!(levels[2]["level"], "abstract");
    assert!(
        levels[2]["value"].as_f64().unwrap() < 0.5,
        "a plateau lowers abstract precision"
    );
    assert_ne!(levels[1]["value"], 0.5, "verdicts move planning precision");
    // The state kept by each run equals a rebuild from the journal.
    std::fs::remove_file(sb.path().join(".arx/precision.json")).unwrap();
    sb.arx().args(["precision", "rebuild"]).assert().code(0);
    assert_eq!(show(&sb)["levels"], before["levels"]);
    // A merged journal (changed bytes) is noticed and rebuilt.
    let journal = sb.read(".arx/journal.jsonl");
    sb.write(".arx/journal.jsonl", format!("{journal}{journal}"));
    assert_eq!(show(&sb)["runs"], 8);
    // Reset forgets, and survives a rebuild.
    sb.arx().args(["precision", "reset"]).assert().code(0);
    let reset = show(&sb);
    assert_eq!(reset["levels"][1]["value"], 0.5);
    assert_eq!(reset["levels"][2]["value"], 0.5);
    sb.arx().args(["precision", "rebuild"]).assert().code(0);
    assert_eq!(show(&sb)["levels"][1]["value"], 0.5);
    sb.arx()
        .arg("precision")
        .assert()
        .code(0)
        .stdout(contains("planning"));
}

#[test]
fn policy_show_crystallize_cycles() {
    let sb = Sandbox::new();
    runs(&sb, "hybrid", true, 6, "task=deploy");
    let out = sb
        .arx()
        .args(["policy", "show", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let e = &v.as_array().unwrap()[0];
    assert_eq!(e["candidate"], "hybrid");
    assert_eq!(e["total"], 6);
    assert_eq!(e["crystallizes"], true);
    // The fingerprint of {"task": "deploy"} is the reference's.
    assert_eq!(e["fingerprint"], "c0ec4f6d2679a33d");
    sb.arx()
        .args(["policy", "crystallize", "--approve"])
        .assert()
        .code(0)
        .stdout(contains("1 new"));
    sb.arx()
        .args(["policy", "crystallize", "--approve"])
        .assert()
        .code(0)
        .stdout(contains("0 new"));
    assert_eq!(sb.read(".arx/knowhow.jsonl").lines().count(), 1);
    sb.arx()
        .args(["policy", "cycles"])
        .assert()
        .code(1)
        .stdout(contains("too few"));
}

#[test]
fn run_state_flags() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "run",
            "--approve",
            "--quiet",
            "--state-json",
            r#"{"env":"staging","task":"deploy"}"#,
            "--",
            "true",
        ])
        .assert()
        .code(0);
    let rec: serde_json::Value =
        serde_json::from_str(sb.read(".arx/journal.jsonl").lines().next().unwrap()).unwrap();
    assert_eq!(rec["state_fingerprint"], "86e6b7501eb99c29");
    for bad in [
        &["--state", "novalue"][..],
        &["--state", "=x"],
        &["--state-json", "[1]"],
        &["--state-json", "{"],
    ] {
        sb.arx()
            .args(["run", "--approve"])
            .args(bad)
            .args(["--", "true"])
            .assert()
            .code(2);
    }
}

#[test]
fn read_only_commands_work_on_a_read_only_state_dir() {
    let sb = Sandbox::new();
    let file = sb.write("c.toml", CANDIDATES);
    runs(&sb, "hybrid", true, 2, "task=a");
    // A stale cache: these commands rebuild it, and cannot save it.
    std::fs::remove_file(sb.path().join(".arx/precision.json")).unwrap();
    let ro = "mount --bind .arx .arx && mount -o remount,bind,ro .arx";
    for args in [
        format!("next --greedy --candidates '{}'", file.display()),
        "precision show".to_string(),
        "policy show".to_string(),
    ] {
        let Some(out) = crate::support::in_namespace(&sb, ro, &args) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args}: {stderr}");
    }
    assert!(!sb.path().join(".arx/precision.json").exists());
}

#[test]
fn the_engines_cache_follows_the_journal_content_and_is_validated() {
    let sb = Sandbox::new();
    runs(&sb, "aaaa", true, 3, "task=a");
    // A same-size edit of the journal is seen.
    let journal = sb
        .read(".arx/journal.jsonl")
        .replace("\"aaaa\"", "\"bbbb\"");
    sb.write(".arx/journal.jsonl", journal);
    let out = sb
        .arx()
        .args(["policy", "show", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("bbbb") && !text.contains("aaaa"), "{text}");

    // A forged cache that matches the journal is checked before it is used.
    let mut cache: serde_json::Value =
        serde_json::from_str(&sb.read(".arx/precision.json")).unwrap();
    cache["history"]["precision"]["execution"]["alpha"] = serde_json::json!(-5.0);
    sb.write(".arx/precision.json", cache.to_string());
    let out = sb
        .arx()
        .args(["precision", "show", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let alpha = v["levels"][0]["alpha"].as_f64().unwrap();
    assert!(alpha > 0.0, "{v}");
}

#[test]
fn counts_of_one_are_singular() {
    let sb = Sandbox::new();
    runs(&sb, "hybrid", true, 6, "task=a");
    sb.arx()
        .args(["policy", "crystallize", "--approve"])
        .assert()
        .code(0)
        .stdout(contains("1 new knowhow entry ("));
    let sb = Sandbox::new();
    runs(&sb, "hybrid", true, 1, "task=a");
    sb.arx()
        .args(["precision", "show"])
        .assert()
        .code(0)
        .stdout(contains("1 run observed"));
}
