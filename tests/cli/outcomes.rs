//! How a try's answer starts (its outcome, exit code, line and next step),
//! the repeat guard, a dead end a discard makes, and `arx status`'s words
//! for a wrong metric and a stale AGENTS.md.

use crate::support::*;

/// A repository whose experiment prints the score in `score.txt` plus a
/// noise that alternates ±0.01 from a counter outside the tree, gates off.
fn noisy_repo() -> (Sandbox, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    let counter = outside.path().join("n");
    let command = format!(
        "test -e crash && exit 1; n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; awk -v s=\"$(cat score.txt)\" -v n=\"$n\" 'BEGIN {{ printf \"__RESULT__ {{\\\"score\\\": %.4f}}\\n\", s + (n % 2 ? 0.01 : -0.01) }}'",
        c = counter.display()
    );
    let config = format!(
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = {}\nbaseline_repeat = 4\n",
        serde_json::to_string(&command).unwrap()
    );
    let sb = committed_repo(&[("score.txt", "0.5\n"), ("arx.toml", &config)]);
    (sb, outside)
}

#[test]
fn an_inconclusive_discard_exits_1_and_every_answer_starts_with_its_outcome() {
    let (sb, _outside) = noisy_repo();
    let (code, r, err) = try_json(&sb, &["-m", "baseline"]);
    assert_eq!(
        (code, r["outcome"].as_str()),
        (0, Some("baseline")),
        "{err}"
    );
    // Within the noise: a discard, exit 1, named inconclusive.
    sb.write("score.txt", "0.501\n");
    let (code, r, err) = try_json(&sb, &["-m", "a nudge"]);
    assert_eq!(r["outcome"], "discard (inconclusive)", "{r}");
    assert_eq!((code, r["exit"].as_i64()), (1, Some(1)), "{err}");
    assert!(r["line"]
        .as_str()
        .unwrap()
        .starts_with("discard (inconclusive): score"));
    // Under --json the line and the next step are on stderr too.
    assert!(
        err.contains("arx: discard (inconclusive): score") && err.contains("; next: go on:"),
        "{err}"
    );
    // A crash is 3.
    sb.write("crash", "1\n");
    let out = sb.arx().args(["try", "-m", "broken"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("next: go on: fix the change"), "{text}");
}

#[test]
fn a_protected_edit_is_said_on_stderr_under_json_and_offers_no_restore() {
    let sb = committed_repo(&[
        ("score.txt", "0.5\n"),
        ("eval/x", "x\n"),
        (
            "score.sh",
            "echo \"__RESULT__ {\\\"score\\\": $(cat score.txt)}\"\n",
        ),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = \"sh score.sh\"\nprotect = [\"eval/**\"]\n",
        ),
    ]);
    let (code, _, err) = try_json(&sb, &["-m", "baseline"]);
    assert_eq!(code, 0, "{err}");
    sb.write("eval/x", "y\n");
    let (code, r, err) = try_json(&sb, &["-m", "tune eval"]);
    assert_eq!((code, r["outcome"].as_str()), (1, Some("protected")), "{r}");
    assert!(
        err.contains("arx: protected: the candidate changes eval/x"),
        "{err}"
    );
    let notes = r["notes"].to_string();
    assert!(!notes.contains("arx restore"), "{notes}");
}

#[test]
fn no_repeat_refuses_an_idea_discarded_at_this_parent_until_retried() {
    let (sb, _outside) = noisy_repo();
    try_json(&sb, &["-m", "baseline"]);
    let out = sb
        .arx()
        .args(["idea", "add", "--family", "score", "lower the score"])
        .output()
        .unwrap();
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    sb.write("score.txt", "0.1\n");
    let (code, r, _) = try_json(&sb, &["--idea", &id, "--no-repeat"]);
    assert_eq!((code, r["outcome"].as_str()), (1, Some("discard")), "{r}");
    sb.write("score.txt", "0.1\n");
    let (code, r, err) = try_json(&sb, &["--idea", &id, "--no-repeat"]);
    assert_eq!(
        (code, r["outcome"].as_str()),
        (1, Some("refused: a repeat")),
        "{r}"
    );
    assert_eq!(r["ratchet"]["status"], "refused");
    assert!(err.contains("arx: refused: a repeat"), "{err}");
    assert_eq!(
        sb.read("score.txt"),
        "0.1\n",
        "nothing ran, nothing was undone"
    );
    // A dry run says so too, before anything would run.
    let (code, r, _) = try_json(&sb, &["--idea", &id, "--no-repeat", "--dry-run"]);
    assert_eq!(
        (code, r["outcome"].as_str()),
        (1, Some("refused: a repeat"))
    );
    // Retried with a reason, it runs as a new idea naming the first.
    let (code, r, err) = try_json(
        &sb,
        &[
            "--idea",
            &id,
            "--no-repeat",
            "--retry",
            "--because",
            "less noise",
        ],
    );
    assert_eq!((code, r["outcome"].as_str()), (1, Some("discard")), "{err}");
    assert_ne!(r["ratchet"]["idea"].as_str(), Some(id.as_str()));
    // Adding the same idea again warns of the repeat.
    let out = sb
        .arx()
        .args(["idea", "add", "--family", "score", "Lower the score"])
        .output()
        .unwrap();
    assert!(stderr(&out).contains("a repeat: idea"), "{}", stderr(&out));
    // The discarded change is a dead end.
    let out = sb
        .arx()
        .args(["--json", "deadend", "check", "lower the score"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = stdout_json(&out);
    assert_eq!(v["known"], true, "{v}");
    assert!(v["discarded"]["run_id"].is_string(), "{v}");
}

#[test]
fn status_names_the_metrics_it_has_and_a_stale_agents_md() {
    let (sb, _outside) = noisy_repo();
    try_json(&sb, &["-m", "baseline"]);
    let out = sb
        .arx()
        .args(["status", "--metric", "acc", "--direction", "max"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("its segments measure score"), "{err}");
    let init = sb.arx().args(["init", "--agent"]).output().unwrap();
    assert_eq!(init.status.code(), Some(0), "{}", stderr(&init));
    let out = sb.arx().arg("status").output().unwrap();
    assert!(!stderr(&out).contains("AGENTS.md"), "{}", stderr(&out));
    // A guard set after AGENTS.md was written: its section is stale.
    let config = sb.read("arx.toml").replace(
        "baseline_repeat = 4\n",
        "baseline_repeat = 4\nguards = [\"score <= 10\"]\n",
    );
    sb.write("arx.toml", config);
    let out = sb.arx().arg("status").output().unwrap();
    assert!(
        stderr(&out).contains("arx init --agent"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn init_writes_a_stop_rule_and_help_shows_the_outcome_table() {
    let sb = Sandbox::new();
    sb.git_init(".");
    let out = sb.arx().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(sb.read("arx.toml").contains("\nmax_discards_in_a_row = 20"));
    let help = sb.arx().args(["try", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("  3  crash, interrupted"), "{text}");
    assert!(text.contains("discard (inconclusive)"), "{text}");
}
