//! The cost said up front: `arx try --dry-run` and the first `arx try` of
//! a segment say how many runs the try takes and about how long.

use crate::support::{committed_repo, stderr, stdout_json, Sandbox};

/// An experiment that takes about a quarter of a second and prints its
/// result.
const EXPERIMENT: &str = "sleep 0.25; echo '__RESULT__ {\"loss\": 1.0}'\n";

fn sb_config() -> String {
    "[gates]\nexecute = false\n\n[objective]\nmetric = \"loss\"\ndirection = \"min\"\n\
     command = \"sh exp.sh\"\nbaseline_repeat = 3\n"
        .to_string()
}

fn repo() -> Sandbox {
    committed_repo(&[("exp.sh", EXPERIMENT), ("arx.toml", &sb_config())])
}

#[test]
fn a_dry_run_says_the_runs_and_after_a_baseline_how_long() {
    let sb = repo();
    let plan = stdout_json(
        sb.arx()
            .args(["--json", "try", "--dry-run"])
            .assert()
            .success(),
    );
    assert_eq!(plan["cost"]["baseline_runs"], 3, "{plan}");
    assert_eq!(plan["cost"]["candidate_min_runs"], 1, "{plan}");
    // The default rule, `sequential`: up to 8 runs, and 5 that record a
    // keep.
    assert_eq!(plan["cost"]["candidate_max_runs"], 13, "{plan}");
    assert!(plan["cost"].get("run_ms").is_none(), "{plan}");
    let out = sb.arx().args(["try", "--dry-run"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("how long one run takes is known after the first"),
        "{text}"
    );
    assert!(text.contains("  baseline: 3 runs\n"), "{text}");

    sb.arx().arg("try").assert().success();
    sb.write("exp.sh", EXPERIMENT.replace("1.0", "0.5"));
    let plan = stdout_json(
        sb.arx()
            .args(["--json", "try", "--dry-run"])
            .assert()
            .success(),
    );
    assert!(plan["cost"].get("baseline_runs").is_none(), "{plan}");
    let ms = plan["cost"]["run_ms"].as_u64().unwrap();
    assert!((200..5000).contains(&ms), "{plan}");
    let out = sb.arx().args(["try", "--dry-run"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cost: one run takes about "), "{text}");
    assert!(
        text.contains("each candidate: 1 to 13 runs, about "),
        "{text}"
    );
}

#[test]
fn the_first_try_of_a_segment_says_the_baseline_s_cost_after_its_first_run() {
    let sb = repo();
    sb.write("exp.sh", EXPERIMENT.replace("1.0", "0.5"));
    let out = sb.arx().args(["try", "-m", "lower"]).output().unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("baseline: 3 runs"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].starts_with("arx: baseline: 3 runs, about ")
            && said[0].contains("; each candidate: 1 to 13 runs, about "),
        "{err}"
    );
    // --quiet: not said.
    let sb = repo();
    let out = sb.arx().args(["try", "--quiet"]).output().unwrap();
    assert!(
        !stderr(&out).contains("baseline: 3 runs"),
        "{}",
        stderr(&out)
    );

    // A baseline a crash stopped: the next try says it from the record,
    // before its first run.
    let sb = committed_repo(&[
        (
            "exp.sh",
            &format!("test -f .ok || {{ sleep 0.25; exit 1; }}\n{EXPERIMENT}"),
        ),
        (".gitignore", ".ok\n"),
        ("arx.toml", &sb_config()),
    ]);
    sb.arx().args(["try"]).assert().code(3);
    sb.write(".ok", "");
    let out = sb.arx().arg("try").output().unwrap();
    let err = stderr(&out);
    assert!(err.contains("arx: baseline: 3 runs, about "), "{err}");
}

/// The loss varies from run to run (a count kept in `.n`).
const NOISY: &str = r#"n=$(cat .n 2>/dev/null || echo 0); n=$((n + 1)); echo $n > .n
echo "__RESULT__ {\"loss\": 1.$(( (n * 37) % 10 ))}"
"#;

#[test]
fn a_dry_run_states_the_rules_operating_point_at_the_segments_noise() {
    let sb = repo();
    // A noisy experiment: the loss varies from run to run.
    let noisy = NOISY;
    sb.write("exp.sh", noisy);
    sb.write(".gitignore", ".n\n");
    crate::support::commit_all(sb.path());
    sb.arx().arg("try").assert().success();
    sb.write("exp.sh", format!("{noisy}# a change\n"));
    let plan = stdout_json(
        sb.arx()
            .args(["--json", "try", "--dry-run"])
            .assert()
            .success(),
    );
    let p = &plan["operating_point"];
    assert_eq!(p["rule"], "sequential", "{plan}");
    assert_eq!(p["confidence"], 0.95, "{plan}");
    assert_eq!(p["best_runs"], 3, "{plan}");
    assert_eq!(p["record_runs"], 5, "{plan}");
    let f = |k: &str| p[k].as_f64().unwrap_or_else(|| panic!("{k} in {plan}"));
    // The false-keep rate is the confidence's; a 1σ gain is kept about
    // 40% of the time, 2σ 85% or more, against a best of three runs.
    assert!((f("false_keep") - 0.05).abs() < 0.002, "{plan}");
    assert!((0.3..0.6).contains(&f("keep_1_sigma")), "{plan}");
    assert!(f("keep_2_sigma") > 0.8, "{plan}");
    assert!((1.0..8.0).contains(&f("runs_null")), "{plan}");
    assert!(f("noise") > 0.0, "{plan}");
    let out = sb.arx().args(["try", "--dry-run"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "decide at confidence 0.95: a change no better than the best is kept 5% of the time, \
             a gain of 1σ "
        ),
        "{text}"
    );
    assert!(text.contains("against a best of 3 runs"), "{text}");
    // Another rule states none.
    sb.write("arx.toml", format!("{}rule = \"confirm\"\n", sb_config()));
    let plan = stdout_json(
        sb.arx()
            .args(["--json", "try", "--dry-run"])
            .assert()
            .success(),
    );
    assert!(plan.get("operating_point").is_none(), "{plan}");
}
