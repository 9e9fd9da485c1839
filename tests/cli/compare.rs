use predicates::str::contains;

use crate::support::{json, stdout_json, Sandbox};

/// A command that appends `tag` to order.txt and prints the next value of
/// `file` as the metric.
fn side(tag: &str, file: &str) -> String {
    format!(
        "echo {tag} >> order.txt; n=$(grep -c {tag} order.txt); v=$(sed -n ${{n}}p {file}); echo \"__RESULT__ {{\\\"acc\\\": $v}}\""
    )
}

fn compare(sb: &Sandbox, base: &str, cand: &str, extra: &[&str], code: i32) -> serde_json::Value {
    stdout_json(
        sb.arx()
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
                "--baseline",
                &side("A", base),
                "--candidate",
                &side("B", cand),
            ])
            .args(extra)
            .assert()
            .code(code),
    )
}

#[test]
fn interleaved_runs_and_a_supported_improvement() {
    let sb = Sandbox::new();
    sb.write("base", "0.80\n0.81\n0.79\n0.80\n");
    sb.write("cand", "0.90\n0.91\n0.89\n0.90\n");
    let v = compare(
        &sb,
        "base",
        "cand",
        &["--runs", "4", "--min-effect", "0.05"],
        0,
    );
    assert_eq!(v["verdict"], "supported");
    assert_eq!(v["strategy"], "welch_t_test");
    assert_eq!(
        v["baseline_samples"],
        serde_json::json!([0.80, 0.81, 0.79, 0.80])
    );
    assert_eq!(
        sb.read("order.txt").split_whitespace().collect::<String>(),
        "ABABABAB"
    );
    // Both sides are journaled, the candidate's record carries the verdict.
    let lines: Vec<serde_json::Value> = sb
        .read(".arx/journal.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["candidate"], "candidate");
    assert_eq!(lines[1]["verdict"]["verdict"], "supported");
    assert_eq!(lines[0]["attempts"].as_array().unwrap().len(), 4);
}

#[test]
fn a_worse_candidate_is_refuted_and_noise_is_inconclusive() {
    let sb = Sandbox::new();
    sb.write("base", "0.80\n0.81\n0.79\n0.80\n");
    sb.write("worse", "0.70\n0.71\n0.69\n0.70\n");
    let v = compare(&sb, "base", "worse", &["--runs", "4"], 1);
    assert_eq!(v["verdict"], "refuted");
    let sb = Sandbox::new();
    sb.write("base", "0.80\n0.90\n0.70\n");
    sb.write("cand", "0.82\n0.70\n0.95\n");
    let v = compare(&sb, "base", "cand", &["--runs", "3"], 3);
    assert_eq!(v["verdict"], "inconclusive");
}

#[test]
fn direction_min_prefers_lower_values() {
    let sb = Sandbox::new();
    sb.write("base", "0.50\n0.51\n0.49\n");
    sb.write("cand", "0.30\n0.31\n0.29\n");
    let out = sb
        .arx()
        .args([
            "compare",
            "--approve",
            "--json",
            "--metric",
            "acc",
            "--direction",
            "min",
            "--runs",
            "3",
        ])
        .args([
            "--baseline",
            &side("A", "base"),
            "--candidate",
            &side("B", "cand"),
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(json(&out)["improvement"].as_f64().unwrap() > 0.19);
}

#[test]
fn bad_compare_flags_exit_2() {
    let sb = Sandbox::new();
    let base = [
        "compare",
        "--approve",
        "--baseline",
        "true",
        "--candidate",
        "true",
        "--metric",
        "acc",
    ];
    for extra in [
        &["--direction", "up"][..],
        &["--direction", "max", "--runs", "1"],
        &["--direction", "max", "--confidence", "0"],
        &["--direction", "max", "--timeout", "nope"],
    ] {
        sb.arx()
            .args(base)
            .args(extra)
            .assert()
            .code(2)
            .stderr(contains("arx: error:"));
    }
}

#[test]
fn tiny_and_huge_values_print_in_a_readable_form() {
    let sb = Sandbox::new();
    sb.write("base", "1.1e-9\n1.2e-9\n1.3e-9\n");
    sb.write("cand", "2.1e-9\n2.2e-9\n2.3e-9\n");
    let out = sb
        .arx()
        .args([
            "compare",
            "--approve",
            "--metric",
            "acc",
            "--direction",
            "max",
            "--runs",
            "3",
        ])
        .args([
            "--baseline",
            &side("A", "base"),
            "--candidate",
            &side("B", "cand"),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("0.000000"), "{text}");
    assert!(text.contains("mean 1.2e-09"), "{text}");

    let sb = Sandbox::new();
    sb.write("base", "1e300\n1.1e300\n1.2e300\n");
    sb.write("cand", "2e300\n2.1e300\n2.2e300\n");
    let out = sb
        .arx()
        .args([
            "compare",
            "--approve",
            "--metric",
            "acc",
            "--direction",
            "max",
            "--runs",
            "3",
        ])
        .args([
            "--baseline",
            &side("A", "base"),
            "--candidate",
            &side("B", "cand"),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("000000000000000000000"), "{text}");
    assert!(text.contains("e+300"), "{text}");
}

#[test]
fn commands_are_given_with_cmd_flags_and_the_old_spelling_still_works() {
    for (base_flag, cand_flag) in [
        ("--baseline-cmd", "--candidate-cmd"),
        ("--baseline", "--candidate"),
    ] {
        let sb = Sandbox::new();
        sb.write("base", "0.80\n0.81\n0.79\n");
        sb.write("cand", "0.90\n0.91\n0.89\n");
        sb.arx()
            .args([
                "compare",
                "--approve",
                "--metric",
                "acc",
                "--direction",
                "max",
            ])
            .args([
                "--runs",
                "3",
                base_flag,
                &side("A", "base"),
                cand_flag,
                &side("B", "cand"),
            ])
            .assert()
            .code(0);
    }
    // Help names the new spelling only; `--candidate` is a name elsewhere.
    let sb = Sandbox::new();
    let help = sb
        .arx()
        .args(["compare", "--help"])
        .output()
        .unwrap()
        .stdout;
    let help = String::from_utf8(help).unwrap();
    assert!(help.contains("--candidate-cmd <CMD>"), "{help}");
    assert!(!help.contains("--candidate <"), "{help}");
}
