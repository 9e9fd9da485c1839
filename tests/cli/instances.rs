//! `arx try` with per-instance scores (`[objective] instances`): an
//! evaluation that prints the same score per instance on every run (a
//! suite at temperature 0), decided by the paired per-instance test, and
//! the aggregate rule on the same runs for contrast.

use serde_json::Value;

use crate::support::{commit_all, stderr, stdout_json, Sandbox};

/// Prints `acc`, the mean of the scores in `scores.txt` (`name score` per
/// line), and `per`, the scores by instance — or, when `per.json` exists,
/// its text as `per`.
const SUITE: &str = r#"#!/bin/sh
per=$(awk '{ printf "%s\"%s\": %s", (NR > 1 ? ", " : ""), $1, $2 }' scores.txt)
acc=$(awk '{ s += $2; n++ } END { printf "%.6f", s / n }' scores.txt)
[ -f per.json ] && per=$(cat per.json) || per="{$per}"
echo "__RESULT__ {\"acc\": $acc, \"per\": $per}"
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "acc"
direction = "max"
command = "sh suite.sh"
baseline_repeat = 2
"#;

/// 200 pass/fail instances `t0`..`t199`: the first 100 pass, then
/// `better` more pass and the first `worse` fail.
fn scores(better: usize, worse: usize) -> String {
    (0..200)
        .map(|i| {
            let pass = (i < 100 && i >= worse) || (100..100 + better).contains(&i);
            format!("t{i} {}\n", u8::from(pass))
        })
        .collect()
}

fn suite(extra_config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("suite.sh", SUITE);
    sb.write("scores.txt", scores(0, 0));
    sb.write(".gitignore", "per.json\n");
    sb.write("arx.toml", format!("{CONFIG}{extra_config}"));
    commit_all(sb.path());
    sb
}

/// `arx --json try`: its exit code, report and stderr.
fn try_(sb: &Sandbox) -> (i32, Value, String) {
    let out = sb.arx().args(["--json", "try"]).output().unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(!out.stdout.is_empty(), "no report: {}", stderr(&out));
    (code, stdout_json(&out), stderr(&out))
}

/// The runs of the candidate in the journal's last record.
fn candidate_runs(sb: &Sandbox) -> usize {
    let last = sb.journal().pop().unwrap();
    last["attempts"].as_array().map_or(1, Vec::len)
}

const PER_INSTANCE: &str = "instances = \"per\"\n";

#[test]
fn twenty_better_and_five_worse_of_two_hundred_is_kept_on_one_run() {
    let sb = suite(PER_INSTANCE);
    sb.write("scores.txt", scores(20, 5));
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["status"], "keep");
    let p = &report["ratchet"]["per_instance"];
    assert_eq!(
        (p["better"].as_u64(), p["worse"].as_u64()),
        (Some(20), Some(5))
    );
    assert_eq!(
        (p["common"].as_u64(), p["runs"].as_u64()),
        (Some(200), Some(1))
    );
    assert_eq!(candidate_runs(&sb), 1);
    // The record keeps every run's scores, the names once.
    let journal = sb.journal();
    let kept = &journal[1]["ratchet"]["instances"];
    assert_eq!(kept["names"].as_array().unwrap().len(), 200);
    assert_eq!(kept["runs"].as_array().unwrap().len(), 1);
    assert_eq!(
        journal[0]["ratchet"]["instances"]["runs"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // The line people read says the decision was per instance.
    sb.write("scores.txt", scores(40, 5));
    let out = sb.arx().arg("try").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("per instance: 20 better, 0 worse of 200"),
        "{text}{}",
        stderr(&out)
    );
}

#[test]
fn three_better_and_one_worse_is_not_kept_where_the_aggregate_rule_keeps_it() {
    let sb = suite(PER_INSTANCE);
    sb.write("scores.txt", scores(3, 1));
    let (code, report, err) = try_(&sb);
    // Not better across instances, not worse either: an inconclusive
    // discard, exit 1.
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(report["outcome"], "discard (inconclusive)");
    assert_eq!(report["ratchet"]["status"], "discard");
    let p = &report["ratchet"]["per_instance"];
    assert_eq!(
        (p["better"].as_u64(), p["worse"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(candidate_runs(&sb), 1);

    // The same runs under the aggregate rule: the noise of the mean is
    // zero, so a gain of one instance in 200 is kept — after every
    // confirmation run.
    let sb = suite("");
    sb.write("scores.txt", scores(3, 1));
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["status"], "keep");
    assert_eq!(report["ratchet"]["noise"].as_f64(), Some(0.0));
    assert!(report["ratchet"]["per_instance"].is_null());
    assert!(candidate_runs(&sb) >= 4, "{}", candidate_runs(&sb));
}

#[test]
fn instances_some_runs_do_not_score_are_dropped_and_counted() {
    let sb = suite(PER_INSTANCE);
    // The candidate scores t0..t189 only, and 20 more pass.
    let text: String = scores(20, 0)
        .lines()
        .take(190)
        .map(|l| format!("{l}\n"))
        .collect();
    sb.write("scores.txt", text);
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    let p = &report["ratchet"]["per_instance"];
    assert_eq!(
        (p["common"].as_u64(), p["dropped"].as_u64()),
        (Some(190), Some(10))
    );
    assert_eq!(p["better"].as_u64(), Some(20));
}

#[test]
fn scores_that_are_not_numbers_leave_the_decision_to_the_aggregate_rule() {
    for (per, why) in [
        ("\"all passed\"", "its value is a string"),
        ("{}", "it holds no instance"),
        (
            "{\"t0\": \"pass\"}",
            "instance \"t0\" has a string for a score",
        ),
        ("[1, null]", "instance \"1\" has null for a score"),
    ] {
        let sb = suite(PER_INSTANCE);
        sb.write("per.json", per);
        sb.write("scores.txt", scores(3, 1));
        let (code, report, err) = try_(&sb);
        assert!(
            err.contains(&format!("per-instance scores not read from per: {why}")),
            "{per}: {err}"
        );
        assert!(err.contains("this run counts by acc only"), "{err}");
        // No scores: the aggregate rule decides (and keeps, as above).
        assert_eq!(code, 0, "{per}: {report}");
        assert!(report["ratchet"]["per_instance"].is_null());
        assert!(sb.journal()[0]["ratchet"]["instances"].is_null());
    }
}

#[test]
fn an_instances_key_of_the_wrong_type_is_refused_at_load() {
    for (value, says) in [
        ("3", "invalid type: integer `3`, expected a string"),
        ("\"\"", "instances must name a key of the result line"),
        ("\"acc\"", "instances must name another key than the metric"),
    ] {
        let sb = suite(&format!("instances = {value}\n"));
        let out = sb.arx().arg("try").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{value}");
        let err = stderr(&out);
        assert!(err.contains(says), "{value}: {err}");
        assert!(sb.journal().is_empty());
    }
}

#[test]
fn scores_with_no_instance_in_common_warn_and_end_inconclusive() {
    // The baseline prints a list (instances named by index) ...
    let sb = suite(PER_INSTANCE);
    let list: Vec<String> = (0..200).map(|_| "0".to_string()).collect();
    sb.write("per.json", format!("[{}]", list.join(", ")));
    sb.write("scores.txt", scores(0, 0));
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    // ... the candidate an object keyed q0..q199, far better by the mean.
    let object: Vec<String> = (0..200).map(|i| format!("\"q{i}\": 1")).collect();
    sb.write("per.json", format!("{{{}}}", object.join(", ")));
    sb.write("scores.txt", scores(60, 0));
    let (code, report, err) = try_(&sb);
    // An inconclusive discard is a discard: exit 1.
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(report["ratchet"]["status"], "discard");
    assert_eq!(report["ratchet"]["per_instance"]["common"], 0, "{report}");
    assert!(
        err.contains("arx: warning:")
            && err.contains("no instance in common")
            && err.contains("the best's: 0, 1, 2, … (200 instances)")
            && err.contains("the candidate's: q0, q1, q2, … (200 instances)"),
        "{err}"
    );
    assert_eq!(
        sb.read("scores.txt"),
        scores(0, 0),
        "the candidate was set aside"
    );
}

/// 200 pass/fail instances whose pass line every run moves by an effect
/// shared by all of them (`effects.txt`, one line a run, in order), plus
/// the change's `gain.txt`.
const SHARED: &str = r#"#!/bin/sh
n=$(cat .run 2>/dev/null || echo 0)
echo $((n + 1)) > .run
e=$(sed -n "$((n + 1))p" effects.txt)
g=$(cat gain.txt)
awk -v e="$e" -v g="$g" 'BEGIN { line = 100 + e + g; per = ""; t = 0
  for (i = 0; i < 200; i++) { s = (i < line) ? 1 : 0; t += s; per = per (i ? "," : "") s }
  printf "__RESULT__ {\"acc\": %.4f, \"per\": [%s]}\n", t / 200, per }'
"#;

#[test]
fn a_run_effect_shared_by_every_instance_is_tested_over_runs_not_instances() {
    let sb = Sandbox::new();
    sb.write("suite.sh", SHARED);
    // The baseline's three runs, then the candidates'.
    sb.write("effects.txt", "0\n-4\n4\n12\n-4\n-4\n4\n");
    sb.write("gain.txt", "0");
    sb.write(".gitignore", ".run\n");
    sb.write(
        "arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"acc\"\ndirection = \"max\"\n\
         command = \"sh suite.sh\"\nbaseline_repeat = 3\ninstances = \"per\"\n",
    );
    commit_all(sb.path());
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    // A change that does nothing, on a lucky run: 12 better, 0 worse of
    // 200 against the baseline's first run. The baseline's runs differ, so
    // the candidate runs twice and is tested over runs.
    sb.write("note.txt", "a change that does nothing\n");
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(report["ratchet"]["status"], "discard", "{report}");
    let p = &report["ratchet"]["per_instance"];
    assert_eq!(p["runs"].as_u64(), Some(2), "{report}");
    assert_eq!(p["over_runs"]["best_runs"].as_u64(), Some(3), "{report}");
    assert_eq!(p["over_runs"]["df"].as_f64(), Some(3.0), "{report}");
    assert_eq!(candidate_runs(&sb), 2);
    // A real gain of 40 instances, through the same run effects: kept
    // over runs.
    sb.write("gain.txt", "40");
    let (code, report, err) = try_(&sb);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["status"], "keep", "{report}");
    assert!(report["ratchet"]["per_instance"]["over_runs"].is_object());
    assert_eq!(candidate_runs(&sb), 2);
}
