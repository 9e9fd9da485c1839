use predicates::prelude::*;
use predicates::str::contains;

use crate::support::Sandbox;

#[test]
fn missing_file_and_directory_inputs() {
    let sb = Sandbox::new();
    for cmd in ["parse", "classify"] {
        sb.arx()
            .args([cmd, "does-not-exist.log"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                contains("arx: error:")
                    .and(contains("does-not-exist.log"))
                    .and(contains("hint:")),
            );
        sb.arx()
            .args([cmd, "."])
            .assert()
            .code(2)
            .stderr(contains("is a directory"));
    }
}

#[test]
fn usage_errors_exit_2_with_the_arx_prefix() {
    let sb = Sandbox::new();
    sb.arx()
        .arg("frobnicate")
        .assert()
        .code(2)
        .stderr(contains("arx: error:"));
    sb.arx().args(["parse", "--bogus"]).assert().code(2);
    sb.arx()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("Exit codes"));
    sb.arx().arg("--version").assert().code(0);
}

#[test]
fn no_panics_on_odd_input() {
    let sb = Sandbox::new();
    let garbage: Vec<u8> = (0..50_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    for cmd in [
        &["parse"][..],
        &["classify"],
        &["measure", "--metric", "a", "--cmp", "<", "--target", "1"],
        &["plateau"],
    ] {
        sb.arx()
            .args(cmd)
            .write_stdin(garbage.clone())
            .assert()
            .stderr(contains("panicked").not());
    }
}

#[test]
fn endless_inputs_where_a_small_file_belongs_are_refused() {
    let sb = Sandbox::new();
    let cases: [&[&str]; 3] = [
        &["gate", "show", "--config", "/dev/zero"],
        &[
            "deadend",
            "promote",
            "--approve",
            "--verdict",
            "/dev/zero",
            "--statement",
            "x",
        ],
        &["measure", "--spec", "/dev/zero"],
    ];
    for args in cases {
        sb.arx()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(contains("larger than"));
    }
}

#[test]
fn a_registry_that_is_not_a_regular_file_is_refused() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path().join(".arx")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", sb.path().join(".arx/dead-ends.jsonl")).unwrap();
    for args in [
        &["deadend", "list"][..],
        &["deadend", "add", "--approve", "a", "--reason", "r"],
    ] {
        sb.arx()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(contains("not a regular file"));
    }
}
