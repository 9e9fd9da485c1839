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
    assert_eq!(plan["cost"]["candidate_max_runs"], 5, "{plan}");
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
        text.contains("each candidate: 1 to 5 runs, about "),
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
            && said[0].contains("; each candidate: 1 to 5 runs, about "),
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
