//! Every command with an outcome starts its answer the way `arx try` does:
//! under `--json`, one stderr line `arx: OUTCOME...; next: STEP` beside
//! the JSON on stdout, and the exit code of the outcome. And `arx best`
//! before a baseline answers, rather than printing nothing.

use serde_json::Value;

use crate::support::*;

/// A repository whose experiment prints the score in `score.txt`, gates off.
fn repo() -> Sandbox {
    committed_repo(&[
        ("score.txt", "0.5\n"),
        (
            "score.sh",
            "echo \"__RESULT__ {\\\"score\\\": $(cat score.txt)}\"\n",
        ),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 2\n",
        ),
    ])
}

/// `arx --json ARGS`: exit code, stdout as JSON, and the answer's line (the
/// stderr line that starts with `arx: ` and says `; next: `), which must be
/// there, and once.
fn answer(sb: &Sandbox, args: &[&str], stdin: Option<&str>) -> (i32, Value, String) {
    let mut cmd = sb.arx();
    cmd.arg("--json").args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.output().unwrap();
    let err = stderr(&out);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("arx: ") && l.contains("; next: "))
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "arx {args:?}: one answer line on stderr:\n{err}"
    );
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("arx {args:?}: stdout is no JSON ({e}): {err}"));
    (out.status.code().unwrap_or(-1), json, lines[0].to_string())
}

#[test]
fn best_before_a_baseline_says_there_is_none_and_what_to_run() {
    let sb = repo();
    let (code, json, line) = answer(&sb, &["best"], None);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["best"], Value::Null, "{json}");
    assert_eq!(json["metric"], "score", "{json}");
    assert!(json["next"].as_str().unwrap().contains("arx try"), "{json}");
    assert!(line.starts_with("arx: no best yet:"), "{line}");
    // The human view says it on stdout, with the command to run.
    let out = sb.arx().arg("best").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("no best yet:") && text.contains("`arx try`"),
        "{text}"
    );
    // With a baseline, the best and the next step.
    let (code, _, err) = try_json(&sb, &["-m", "baseline"]);
    assert_eq!(code, 0, "{err}");
    let (code, json, line) = answer(&sb, &["best"], None);
    assert_eq!((code, json["value"].as_f64()), (0, Some(0.5)), "{json}");
    assert!(line.starts_with("arx: best: score 0.5"), "{line}");
}

#[test]
fn status_next_and_deadend_check_start_with_their_outcome_under_json() {
    let sb = repo();
    let (code, _, line) = answer(&sb, &["status"], None);
    assert_eq!(code, 1);
    assert!(line.starts_with("arx: go on: no baseline yet"), "{line}");
    assert!(line.contains("; next: `arx try`"), "{line}");
    let (code, _, err) = try_json(&sb, &["-m", "baseline"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, line) = answer(&sb, &["status"], None);
    assert_eq!(code, 1);
    assert!(
        line.starts_with("arx: go on: no stop rule fired (0 not kept in a row); next: `arx next`"),
        "{line}"
    );

    let (code, json, line) = answer(&sb, &["next"], None);
    assert_eq!((code, &json["idea"]), (1, &Value::Null));
    assert!(
        line.starts_with("arx: no open idea in the backlog; next: add ideas"),
        "{line}"
    );
    sb.arx()
        .args(["idea", "add", "--family", "s", "raise the score"])
        .assert()
        .success();
    let (code, json, line) = answer(&sb, &["next", "--explain"], None);
    let id = json["idea"].as_str().unwrap().to_string();
    assert_eq!(code, 0);
    assert!(
        line.starts_with(&format!("arx: next idea: {id} \"raise the score\"")),
        "{line}"
    );
    assert!(line.ends_with(&format!("`arx try --idea {id}`")), "{line}");
    // --explain under --json says what the scores mean.
    let legend = json["legend"].as_str().unwrap_or_default();
    for field in ["keep_rate", "epistemic", "g:", "probability"] {
        assert!(legend.contains(field), "{field}: {legend}");
    }
    let (_, json, _) = answer(&sb, &["next"], None);
    assert!(json.get("legend").is_none(), "only with --explain: {json}");

    let (code, _, line) = answer(&sb, &["deadend", "check", "raise the score"], None);
    assert_eq!(code, 0);
    assert!(line.starts_with("arx: not a known dead end"), "{line}");
}

#[test]
fn measure_run_and_decide_start_with_their_verdict_under_json() {
    let sb = repo();
    let spec = ["--metric", "score", "--cmp", ">=", "--target", "0.9"];
    let (code, _, line) = answer(
        &sb,
        &[&["measure"][..], &spec].concat(),
        Some("__RESULT__ {\"score\": 0.95}\n"),
    );
    assert_eq!(code, 0);
    assert!(line.starts_with("arx: supported: score=0.95"), "{line}");
    let (code, _, line) = answer(
        &sb,
        &[&["run"][..], &spec, &["--", "sh", "score.sh"]].concat(),
        None,
    );
    assert_eq!(code, 1);
    assert!(line.starts_with("arx: refuted: score=0.5"), "{line}");
    assert!(line.contains("; next: try another approach"), "{line}");
    let (code, _, line) = answer(
        &sb,
        &[
            "decide",
            "--iteration",
            "3",
            "--max-iterations",
            "3",
            "--verdict",
            "refuted",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert!(line.starts_with("arx: revise: exhausted"), "{line}");
    assert!(line.contains("; next: stop:"), "{line}");
}

#[test]
fn without_json_the_answer_line_is_not_repeated_on_stderr() {
    let sb = repo();
    let out = sb.arx().arg("status").output().unwrap();
    assert!(!stderr(&out).contains("; next: "), "{}", stderr(&out));
    let out = sb.arx().args(["--json", "-q", "status"]).output().unwrap();
    assert!(!stderr(&out).contains("; next: "), "{}", stderr(&out));
}
