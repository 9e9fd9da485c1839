use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{fixture, stdout_json, Sandbox};

fn measure_json(sb: &Sandbox, args: &[&str], stdin: &str, code: i32) -> serde_json::Value {
    stdout_json(
        sb.arx()
            .arg("measure")
            .arg("--json")
            .args(args)
            .write_stdin(stdin.to_string())
            .assert()
            .code(code),
    )
}

const SPEC: [&str; 6] = ["--metric", "acc", "--cmp", ">=", "--target", "0.8"];

#[test]
fn supported_refuted_inconclusive_exit_codes() {
    let sb = Sandbox::new();
    let v = measure_json(&sb, &SPEC, "__RESULT__ {\"acc\": 0.83}\n", 0);
    assert_eq!(v["verdict"], "supported");
    assert_eq!(v["detail"], "acc=0.83 >= 0.8 → pass");
    assert_eq!(v["metrics"]["acc"], 0.83);
    assert_eq!(v["promotable"], false);

    let v = measure_json(&sb, &SPEC, "__RESULT__ {\"acc\": 0.79}\n", 1);
    assert_eq!(v["verdict"], "refuted");
    assert_eq!(v["evidence_level"], "deterministic");
    assert_eq!(v["strategy"], "deterministic");
    assert_eq!(v["raw_evidence_ref"], serde_json::Value::Null);
    assert_eq!(v["promotable"], true);

    let v = measure_json(&sb, &SPEC, "__RESULT__ {\"other\": 1}\n", 3);
    assert_eq!(v["verdict"], "inconclusive");
    assert_eq!(v["detail"], "metric \"acc\" not reported");
}

#[test]
fn failed_runs_are_inconclusive() {
    let sb = Sandbox::new();
    let stderr = fixture("examples/missing-dep.stderr");
    let mut args = SPEC.to_vec();
    args.extend(["--exit-code", "1", "--stderr", stderr.to_str().unwrap()]);
    let v = measure_json(&sb, &args, "__RESULT__ {\"acc\": 0.95}\n", 3);
    assert_eq!(v["failure_class"], "H2");
    assert_eq!(v["detail"], "experiment run failed (H2)");

    let mut args = SPEC.to_vec();
    args.push("--timed-out");
    let v = measure_json(&sb, &args, "__RESULT__ {\"acc\": 0.95}\n", 3);
    assert_eq!(v["exit_code"], 124);
    assert_eq!(v["failure_class"], "H4");

    let mut args = SPEC.to_vec();
    args.extend(["--exit-code", "-9", "--failure-class", "H4"]);
    let v = measure_json(&sb, &args, "", 3);
    assert_eq!(v["detail"], "experiment run failed (H4)");
}

#[test]
fn human_output_is_one_line() {
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .arg("measure")
        .args(SPEC)
        .arg(fixture("examples/train.log"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "supported: acc=0.8312 >= 0.8 → pass\n");
}

#[test]
fn spec_files_toml_and_json_and_flag_override() {
    let sb = Sandbox::new();
    let v = measure_json(
        &sb,
        &["--spec", fixture("examples/spec.toml").to_str().unwrap()],
        "__RESULT__ {\"acc\": 0.9}",
        0,
    );
    assert_eq!(
        v["hypothesis"],
        "Hybrid BM25+dense retrieval reaches accuracy 0.8 on eval-v3"
    );
    assert_eq!(v["approach_hash"].as_str().unwrap().len(), 16);

    let spec = sb.write(
        "spec.json",
        r#"{"metric_key": "loss", "comparator": "<=", "target": 0.2}"#,
    );
    let v = measure_json(
        &sb,
        &["--spec", spec.to_str().unwrap()],
        "__RESULT__ {\"loss\": 0.1}",
        0,
    );
    assert_eq!(v["spec"]["comparator"], "<=");
    // A flag overrides the file.
    let v = measure_json(
        &sb,
        &["--spec", spec.to_str().unwrap(), "--target", "0.05"],
        "__RESULT__ {\"loss\": 0.1}",
        1,
    );
    assert_eq!(v["spec"]["target"], 0.05);
}

#[test]
fn invalid_specs_name_the_field_and_exit_2() {
    let sb = Sandbox::new();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--metric", "", "--cmp", ">=", "--target", "1"],
            "metric_key",
        ),
        (
            &["--metric", "acc", "--cmp", "!=", "--target", "1"],
            "comparator",
        ),
        (
            &["--metric", "acc", "--cmp", "=>", "--target", "1"],
            "comparator",
        ),
        (
            &["--metric", "acc", "--cmp", ">=", "--target", "inf"],
            "target",
        ),
        (
            &["--metric", "acc", "--cmp", ">=", "--target", "nan"],
            "target",
        ),
        (
            &["--metric", "acc", "--cmp", ">=", "--target", "abc"],
            "target",
        ),
    ];
    for (args, field) in cases {
        sb.arx()
            .arg("measure")
            .args(args)
            .write_stdin("__RESULT__ {\"acc\": 1}")
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("arx: error:").and(contains(field)));
    }
    sb.arx()
        .args(["measure", "--metric", "acc"])
        .assert()
        .code(2)
        .stderr(contains("missing comparator, target").and(contains("hint:")));
}

#[test]
fn bad_spec_files_exit_2() {
    let sb = Sandbox::new();
    let cases = [
        ("bad.toml", "metric_key = \"acc\"\ncomparator = \n"),
        ("bad.json", "{\"metric_key\": \"acc\","),
        (
            "typo.toml",
            "metric_kye = \"acc\"\ncomparator = \">=\"\ntarget = 1\n",
        ),
        (
            "str.toml",
            "metric_key = \"acc\"\ncomparator = \">=\"\ntarget = \"high\"\n",
        ),
        (
            "nan.toml",
            "metric_key = \"acc\"\ncomparator = \">=\"\ntarget = nan\n",
        ),
        (
            "bool.json",
            "{\"metric_key\": \"acc\", \"comparator\": \">=\", \"target\": true}",
        ),
    ];
    for (name, text) in cases {
        let path = sb.write(name, text);
        sb.arx()
            .args(["measure", "--spec"])
            .arg(&path)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(contains("arx: error:"));
    }
    sb.arx()
        .args(["measure", "--spec", "nope.toml"])
        .assert()
        .code(2)
        .stderr(contains("no such file"));
}
