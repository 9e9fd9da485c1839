//! `arx finding ...`, and the findings that `arx try`, `arx run` and
//! `arx round evidence` write and read.

use std::process::Command as Std;

use serde_json::Value;

use crate::support::{stderr, stdout_json, Sandbox};

const T0: &str = "2026-01-01T00:00:00Z";

/// `arx --json finding ARGS --approve --now NOW`: exit code and JSON report.
fn finding(sb: &Sandbox, now: &str, args: &[&str]) -> (i32, Value) {
    let out = sb
        .arx()
        .args(["--json", "--now", now, "finding"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let v = if out.stdout.is_empty() {
        Value::Null
    } else {
        stdout_json(&out)
    };
    (code, v)
}

fn add(sb: &Sandbox, now: &str, text: &str, extra: &[&str]) -> Value {
    let mut args = vec!["add", text, "--approve"];
    args.extend_from_slice(extra);
    let (code, v) = finding(sb, now, &args);
    assert_eq!(code, 0, "{v}");
    v
}

fn store(sb: &Sandbox) -> Vec<Value> {
    sb.read_jsonl(".arx/findings.jsonl")
}

#[test]
fn add_dedupes_reinforces_and_refuses_what_is_too_long() {
    let sb = Sandbox::new();
    let a = add(
        &sb,
        T0,
        "batch size 64 always improves accuracy",
        &["--source", "me"],
    );
    assert_eq!(a["outcome"], "new");
    assert_eq!(a["finding"]["confidence"], 0.7);
    assert_eq!(a["finding"]["status"], "active");
    assert_eq!(a["finding"]["source"], "me");
    // A paraphrase this close (similarity >= 0.95) is the same finding.
    let b = add(
        &sb,
        "2026-01-01T00:05:00Z",
        "Batch size 64 always improves the accuracy!",
        &[],
    );
    assert_eq!(b["outcome"], "reinforced", "{b}");
    assert_eq!(b["finding"]["id"], a["finding"]["id"]);
    // Five minutes of decay first, then + 0.1.
    let expect = 0.7 * 0.995f64.powf(5.0 / 60.0) + 0.1;
    assert!((b["finding"]["confidence"].as_f64().unwrap() - expect).abs() < 1e-9);
    // Within the 60 s cooldown: unchanged.
    let c = add(
        &sb,
        "2026-01-01T00:05:30Z",
        "batch size 64 always improves accuracy",
        &[],
    );
    assert_eq!(c["outcome"], "unchanged");
    assert_eq!(store(&sb).len(), 1);
    // The opposite claim is a new finding, in tension with the first.
    let d = add(&sb, T0, "batch size 64 never improves accuracy", &[]);
    assert_eq!(d["outcome"], "new");
    assert_eq!(d["contradicts"][0]["id"], a["finding"]["id"]);
    assert!(d["finding"]["tension"].as_f64().unwrap() > 0.9);

    // Over 2,000 characters: refused, nothing written.
    let before = sb.read(".arx/findings.jsonl");
    let long = "x".repeat(2001);
    let out = sb
        .arx()
        .args(["finding", "add", &long, "--approve"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("2001 characters"), "{}", stderr(&out));
    assert_eq!(sb.read(".arx/findings.jsonl"), before);
    // A bad confidence too.
    let (code, _) = finding(
        &sb,
        T0,
        &["add", "x y z", "--confidence", "1.5", "--approve"],
    );
    assert_eq!(code, 2);
}

#[test]
fn add_respects_the_kg_write_gate() {
    let sb = Sandbox::new();
    let (code, v) = finding(&sb, T0, &["add", "the eval leaks labels"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["reason"], "paused");
    assert!(!sb.path().join(".arx/findings.jsonl").exists());
    sb.write("arx.toml", "[gates]\nkg_write = false\n");
    let (code, _) = finding(&sb, T0, &["add", "the eval leaks labels"]);
    assert_eq!(code, 0);
    assert_eq!(store(&sb).len(), 1);
}

#[test]
fn ingest_extracts_claims_and_a_dry_run_writes_nothing() {
    let sb = Sandbox::new();
    sb.write(
        "notes.txt",
        "2026-01-31 12:00:01 INFO doubling the LR made val_bpb worse.\n\
         user: thanks!\n\
         $ python train.py --lr 2e-3\n\
         TODO: try a cosine schedule with restarts\n\
         [12:03] assistant: Doubling the LR made val_bpb worse\n",
    );
    let (code, v) = finding(&sb, T0, &["ingest", "notes.txt", "--dry-run"]);
    assert_eq!(code, 0, "{v}");
    let claims: Vec<(&str, &str)> = v["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["kind"].as_str().unwrap(), c["content"].as_str().unwrap()))
        .collect();
    assert_eq!(
        claims,
        [
            ("takeaway", "doubling the LR made val_bpb worse."),
            ("todo", "try a cosine schedule with restarts"),
        ]
    );
    assert!(!sb.path().join(".arx/findings.jsonl").exists());
    // The kg_write gate: not approved, nothing written.
    let (code, v) = finding(&sb, T0, &["ingest", "notes.txt"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["reason"], "paused");
    assert!(!sb.path().join(".arx/findings.jsonl").exists());
    let (code, v) = finding(&sb, T0, &["ingest", "notes.txt", "--approve"]);
    assert_eq!(code, 0, "{v}");
    let s = store(&sb);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0]["source"], "file:notes.txt");
    assert_eq!(s[0]["confidence"], 0.5);
    // Nothing but small talk: exit 1.
    sb.write("chat.txt", "hi\nthanks!\nok\n");
    assert_eq!(finding(&sb, T0, &["ingest", "chat.txt", "--approve"]).0, 1);
}

#[test]
fn maintain_decays_and_refuses_a_pass_that_deprecates_too_much() {
    let sb = Sandbox::new();
    for (i, topic) in ["tokenizer", "dropout", "warmup", "optimizer"]
        .iter()
        .enumerate()
    {
        let c = if i == 0 { "0.31" } else { "0.9" };
        add(
            &sb,
            T0,
            &format!("the {topic} setting changes throughput"),
            &["--confidence", c],
        );
    }
    // Ten hours later: 0.31 × 0.995^10 = 0.295 < 0.3 → decaying.
    let (code, v) = finding(&sb, "2026-01-01T10:00:00Z", &["maintain"]);
    assert_eq!(code, 0, "{v}");
    let s = store(&sb);
    assert_eq!(s[0]["status"], "decaying");
    let expect = 0.31 * 0.995f64.powi(10);
    assert!((s[0]["confidence"].as_f64().unwrap() - expect).abs() < 1e-9);
    assert!(v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["what"] == "decaying" && c["id"] == s[0]["id"]));
    // 31 days later every finding is unused and too old: 4 of 4 would be
    // deprecated, more than 30%: refused, nothing written.
    let before = sb.read(".arx/findings.jsonl");
    let (code, v) = finding(&sb, "2026-02-01T01:00:00Z", &["maintain"]);
    assert_eq!(code, 1, "{v}");
    assert!(v["refused"].as_str().unwrap().contains("4 of 4"), "{v}");
    assert_eq!(sb.read(".arx/findings.jsonl"), before);
    let (code, _) = finding(&sb, "2026-02-01T01:00:00Z", &["maintain", "--force"]);
    assert_eq!(code, 0);
    assert!(store(&sb).iter().all(|f| f["status"] == "deprecated"));
}

#[test]
fn maintain_mutates_a_contested_weak_finding_and_explain_shows_the_lineage() {
    let sb = Sandbox::new();
    for topic in ["tokenizer", "dropout", "warmup", "optimizer"] {
        add(
            &sb,
            T0,
            &format!("the {topic} setting changes throughput"),
            &[],
        );
    }
    let strong = add(
        &sb,
        T0,
        "batch size 64 always improves accuracy",
        &["--confidence", "0.9"],
    );
    let weak = add(
        &sb,
        T0,
        "batch size 64 never improves accuracy",
        &["--confidence", "0.4"],
    );
    let (code, v) = finding(&sb, T0, &["maintain"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["mutated"], 1, "{v}");
    let s = store(&sb);
    let child = s.last().unwrap();
    assert_eq!(
        child["content"],
        "It may be that batch size 64 never improves accuracy"
    );
    assert_eq!(child["parent_id"], weak["finding"]["id"]);
    assert_eq!(child["confidence"], 0.5);

    let id = child["id"].as_str().unwrap();
    let (code, e) = finding(
        &sb,
        T0,
        &["explain", &id[..6], "--context", "batch size accuracy"],
    );
    assert_eq!(code, 0, "{e}");
    assert_eq!(e["ancestors"][0]["id"], weak["finding"]["id"]);
    assert_eq!(e["contradicts_now"][0]["id"], strong["finding"]["id"]);
    assert!(e["position"].as_u64().is_some(), "{e}");
    let (code, e) = finding(
        &sb,
        T0,
        &["explain", weak["finding"]["id"].as_str().unwrap()],
    );
    assert_eq!(code, 0);
    assert_eq!(e["children"][0]["id"], child["id"]);
    assert_eq!(e["why_not"], "deprecated findings are not ranked");
    // An unknown id is an error.
    assert_eq!(finding(&sb, T0, &["show", "fzzzz"]).0, 2);
}

#[test]
fn rank_json_is_stable_and_drops_the_irrelevant() {
    let sb = Sandbox::new();
    add(
        &sb,
        T0,
        "doubling the learning rate made val_bpb worse",
        &[],
    );
    add(
        &sb,
        T0,
        "warmup of 500 steps stabilizes the early loss",
        &[],
    );
    add(&sb, T0, "the eval set leaks labels from training", &[]);
    let (code, v) = finding(
        &sb,
        "2026-01-04T12:00:00Z",
        &[
            "rank",
            "--context",
            "raise the learning rate",
            "--limit",
            "5",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["context", "now", "limit", "considered", "findings"]);
    let list = v["findings"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{v}");
    let f = &list[0];
    let keys: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "rank",
            "id",
            "kind",
            "content",
            "source",
            "status",
            "score",
            "relevance",
            "confidence",
            "recency",
            "tension",
            "created_at",
            "last_reinforced",
            "tags"
        ]
    );
    assert!((f["recency"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    let expect = 0.4 * f["relevance"].as_f64().unwrap() + 0.3 * 0.7 + 0.2 * 0.5;
    assert!((f["score"].as_f64().unwrap() - expect).abs() < 1e-9);
    let (code, _) = finding(&sb, T0, &["rank", "--context", "tokenizer vocabulary"]);
    assert_eq!(code, 1);
}

#[test]
fn merge_is_a_union_by_id_with_the_newer_version_winning() {
    let a = Sandbox::new();
    let b = Sandbox::new();
    let x = add(&a, T0, "the eval set leaks labels", &[]);
    add(&b, T0, "the eval set leaks labels", &[]);
    add(&b, "2026-01-01T01:00:00Z", "the eval set leaks labels", &[]); // reinforced
    add(&b, T0, "warmup stabilizes the early loss", &[]);
    let other = b.path().join(".arx/findings.jsonl");
    let (code, v) = finding(&a, T0, &["merge", other.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    let s = store(&a);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0]["id"], x["finding"]["id"]);
    assert!((s[0]["confidence"].as_f64().unwrap() - (0.7 * 0.995 + 0.1)).abs() < 1e-9);
    // A line-union of two versions reads as the newer one.
    let mut text = a.read(".arx/findings.jsonl");
    text.push_str(&std::fs::read_to_string(&other).unwrap());
    a.write(".arx/findings.jsonl", text);
    let (_, list) = finding(&a, T0, &["list"]);
    assert_eq!(list.as_array().unwrap().len(), 2);
}

#[test]
fn round_evidence_draws_active_findings_in_selection_order() {
    let sb = Sandbox::new();
    add(
        &sb,
        "2026-01-01T00:00:00Z",
        "should we tune dropout on the eval split",
        &["--kind", "question"],
    );
    add(
        &sb,
        "2026-01-01T01:00:00Z",
        "warmup stabilizes the early loss",
        &["--kind", "insight"],
    );
    add(
        &sb,
        "2026-01-01T02:00:00Z",
        "doubling the learning rate made val_bpb worse",
        &[],
    );
    add(
        &sb,
        "2026-01-01T03:00:00Z",
        "the learning rate schedule matters most",
        &[],
    );
    let out = sb
        .arx()
        .args(["--json", "round", "evidence", "--min", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = stdout_json(&out);
    let got: Vec<&str> = v["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        got,
        [
            "the learning rate schedule matters most",
            "doubling the learning rate made val_bpb worse",
            "warmup stabilizes the early loss",
            "should we tune dropout on the eval split",
        ]
    );
    assert!(v["selected"][0]["source"]
        .as_str()
        .unwrap()
        .starts_with("finding:f"));
    // Ranked by a context: only the relevant ones; too few → exit 1.
    let out = sb
        .arx()
        .args([
            "--json",
            "round",
            "evidence",
            "--context",
            "learning rate",
            "--min",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = stdout_json(&out);
    assert_eq!(v["available"], 2);
    let out = sb
        .arx()
        .args([
            "--json",
            "round",
            "evidence",
            "--context",
            "learning rate",
            "--min",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout_json(&out)["selected"].as_array().unwrap().len(), 2);
}

#[test]
fn a_deterministic_run_verdict_adds_a_finding() {
    let sb = Sandbox::new();
    let run = |target: &str| {
        sb.arx()
            .args([
                "run",
                "--no-gates",
                "--metric",
                "acc",
                "--cmp",
                ">=",
                "--target",
                target,
            ])
            .args(["--hypothesis", "label smoothing lifts accuracy", "--"])
            .args(["sh", "-c", "echo '__RESULT__ {\"acc\": 0.83}'"])
            .output()
            .unwrap()
    };
    let out = run("0.8");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("finding f"), "{}", stderr(&out));
    let out = run("0.9");
    assert_eq!(out.status.code(), Some(1));
    let s = store(&sb);
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(s[0]["content"]
        .as_str()
        .unwrap()
        .starts_with("`label smoothing lifts accuracy` holds ("));
    assert!(s[1]["content"]
        .as_str()
        .unwrap()
        .starts_with("`label smoothing lifts accuracy` does not hold ("));
    assert!(s[0]["source"].as_str().unwrap().starts_with("run:"));
    // The later result contradicts the earlier: both in tension.
    assert!(s[0]["tension"].as_f64().unwrap() > 0.6, "{s:?}");
    assert!(s[1]["tags"]
        .as_array()
        .unwrap()
        .contains(&Value::from("refuted")));
}

const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"val_bpb\": %.6f}\n", v + j }'
"#;

fn git(sb: &Sandbox, args: &[&str]) {
    let out = Std::new("git")
        .args(args)
        .current_dir(sb.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
}

fn try_(sb: &Sandbox, args: &[&str]) -> (i32, Value, String) {
    let out = sb
        .arx()
        .args(["--json", "try"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    (code, stdout_json(&out), stderr(&out))
}

#[test]
fn try_records_keeps_and_discards_and_screens_failed_descriptions() {
    let sb = Sandbox::new();
    sb.write("score.sh", SCORE);
    sb.write("value.txt", "1.0");
    sb.write(".gitignore", ".noise\n");
    sb.write(
        "arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 5\n",
    );
    git(&sb, &["init", "-q", "-b", "main"]);
    git(&sb, &["config", "user.email", "t@example.com"]);
    git(&sb, &["config", "user.name", "T"]);
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "start"]);

    sb.write("value.txt", "0.9");
    let (code, r, _) = try_(&sb, &["-m", "lower the value"]);
    assert_eq!(code, 0, "{r}");
    let s = store(&sb);
    assert_eq!(s.len(), 1);
    let content = s[0]["content"].as_str().unwrap();
    // By the change the decision weighed: 0.1, give or take the runs'
    // jitter of ±0.002.
    let gain: f64 = content
        .strip_prefix("`lower the value` improved val_bpb by ")
        .unwrap_or_else(|| panic!("{content}"))
        .parse()
        .unwrap_or_else(|_| panic!("{content}"));
    assert!((gain - 0.1).abs() <= 0.002, "{content}");
    assert_eq!(
        s[0]["source"],
        format!("run:{}", r["run_id"].as_str().unwrap())
    );

    // Worse by half the jitter's step over the two runs it gets.
    sb.write("value.txt", "0.901");
    let (code, r, _) = try_(&sb, &["-m", "nudge the value up"]);
    // An inconclusive discard is a discard: exit 1.
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["outcome"], "discard (inconclusive)", "{r}");
    let s = store(&sb);
    assert_eq!(s.len(), 2);
    let content = s[1]["content"].as_str().unwrap();
    assert!(
        content.starts_with("`nudge the value up` did not improve val_bpb (+"),
        "{content}"
    );
    assert!(content.ends_with("within noise)"), "{content}");

    // The same idea again: a warning quoting the refuted finding ...
    sb.write("value.txt", "0.9004");
    let (code, r, err) = try_(&sb, &["-m", "Nudge the value up", "--dry-run"]);
    assert_eq!(code, 0, "{r}");
    assert!(err.contains("matches refuted finding"), "{err}");
    assert!(err.contains("did not improve val_bpb"), "{err}");
    // ... and with --strict, a refusal: nothing runs.
    let journaled = sb.journal().len();
    let (code, r, _) = try_(&sb, &["-m", "nudge the value up", "--strict"]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["reason"], "matches a failed approach");
    assert_eq!(sb.journal().len(), journaled);
}

#[test]
fn round_apply_with_evidence_skips_without_enough_and_saves_evidence_md() {
    let sb = Sandbox::new();
    sb.write("README.md", "# p\n");
    sb.write("arx.toml", "[harness]\nmin_interval_hours = 0\n");
    sb.write(".gitignore", ".arx/\n");
    git(&sb, &["init", "-q", "-b", "main"]);
    git(&sb, &["config", "user.email", "t@example.com"]);
    git(&sb, &["config", "user.name", "T"]);
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "start"]);
    sb.write(
        "patch.json",
        r##"{"summary": "document warmup", "confidence": 0.9, "entries": [{"path": "README.md", "kind": "markdown", "op": "modify", "content": "# p\nwarmup helps\n", "rationale": "the findings say so", "evidence_refs": []}]}"##,
    );
    let apply = |id: &str| {
        let out = sb
            .arx()
            .args([
                "--json",
                "--now",
                "2026-03-01T10:00:00Z",
                "round",
                "apply",
                "patch.json",
            ])
            .args(["--evidence", "--round-id", id])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout_json(&out)
    };
    add(&sb, T0, "warmup stabilizes the early loss", &[]);
    let r = apply("20260301-100000");
    assert_eq!(r["status"], "skipped", "{r}");
    assert_eq!(
        r["detail"],
        "too little evidence: 1 active findings, a round needs 3"
    );
    assert!(!sb.path().join(".arx/rounds/20260301-100000").exists());
    add(
        &sb,
        T0,
        "doubling the learning rate made val_bpb worse",
        &[],
    );
    add(
        &sb,
        T0,
        "batch size 64 improves accuracy",
        &["--kind", "decision"],
    );
    let r = apply("20260301-100001");
    assert_eq!(r["status"], "evaluated", "{r}");
    assert_eq!(r["evidence_count"], 3);
    let md = sb.read(".arx/rounds/20260301-100001/evidence.md");
    assert!(
        md.starts_with("# Evidence for round 20260301-100001\n"),
        "{md}"
    );
    // takeaways first, then the decision.
    let at = |t: &str| md.find(t).unwrap_or(usize::MAX);
    assert!(at("warmup stabilizes") < at("batch size 64"), "{md}");
    assert!(
        at("doubling the learning rate") < at("batch size 64"),
        "{md}"
    );
}

#[test]
fn a_torn_last_line_is_skipped_and_a_symlinked_store_is_refused() {
    let sb = Sandbox::new();
    add(&sb, T0, "the eval set leaks labels", &[]);
    let mut text = sb.read(".arx/findings.jsonl");
    text.push_str("{\"id\": \"f00\", \"kind\": \"ins");
    sb.write(".arx/findings.jsonl", &text);
    let out = sb
        .arx()
        .args(["--json", "finding", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("torn last line"), "{}", stderr(&out));
    assert_eq!(stdout_json(&out).as_array().unwrap().len(), 1);
    // The next write leaves only complete lines.
    add(&sb, T0, "warmup stabilizes the early loss", &[]);
    assert_eq!(store(&sb).len(), 2);
    assert!(sb.read(".arx/findings.jsonl").ends_with("}\n"));

    let other = Sandbox::new();
    other.write("elsewhere.jsonl", "");
    std::fs::create_dir_all(other.path().join(".arx")).unwrap();
    std::os::unix::fs::symlink(
        other.path().join("elsewhere.jsonl"),
        other.path().join(".arx/findings.jsonl"),
    )
    .unwrap();
    let out = other
        .arx()
        .args(["finding", "add", "the eval set leaks labels", "--approve"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(other.read("elsewhere.jsonl"), "");
}

#[test]
fn a_run_without_a_hypothesis_adds_no_finding() {
    // A command line is not a claim: nothing is added, nothing said.
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .args([
            "run",
            "--no-gates",
            "--metric",
            "a",
            "--cmp",
            ">=",
            "--target",
            "0",
        ])
        .args(["--", "sh", "-c", "echo '__RESULT__ {\"a\": 1}'"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("finding"));
    let listed = sb
        .arx()
        .args(["--json", "finding", "list"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("holds"));
    // With a hypothesis the verdict is a finding about it.
    let out = sb
        .arx()
        .args([
            "run",
            "--no-gates",
            "--metric",
            "a",
            "--cmp",
            ">=",
            "--target",
            "0",
        ])
        .args(["--hypothesis", "warmup helps"])
        .args(["--", "sh", "-c", "echo '__RESULT__ {\"a\": 1}'"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("`warmup helps` holds"));
}
