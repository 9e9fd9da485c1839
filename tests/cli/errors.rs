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
    // Reading refuses what is not a regular file; writing refuses the
    // symbolic link itself first.
    for (args, want) in [
        (&["deadend", "list"][..], "not a regular file"),
        (
            &["deadend", "add", "--approve", "a", "--reason", "r"],
            "symbolic link",
        ),
    ] {
        sb.arx()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(contains(want));
    }
}

#[test]
fn blank_entries_negative_iterations_and_negative_counts_are_refused() {
    let sb = Sandbox::new();
    let refused: [&[&str]; 9] = [
        &["deadend", "add", "--approve", "   ", "--reason", "r"],
        &["deadend", "add", "--approve", "a", "--reason", " "],
        &["knowhow", "add", "--approve", "", "--content", "c"],
        &["knowhow", "add", "--approve", "s", "--content", "\n"],
        &[
            "deadend",
            "add",
            "--approve",
            "a",
            "--reason",
            "r",
            "--iteration",
            "-3",
        ],
        &[
            "knowhow",
            "add",
            "--approve",
            "s",
            "--content",
            "c",
            "--iteration",
            "-1",
        ],
        &["run", "--approve", "--repeat", "-1", "--", "touch", "ran"],
        &[
            "compare",
            "--approve",
            "--metric",
            "a",
            "--direction",
            "max",
            "--runs",
            "-2",
            "--baseline-cmd",
            "true",
            "--candidate-cmd",
            "true",
        ],
        &["log", "--limit", "-1"],
    ];
    for args in refused {
        let out = sb.arx().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("to pass '-"), "{args:?}: {stderr}");
    }
    assert!(!sb.path().join(".arx/dead-ends.jsonl").exists());
    assert!(!sb.path().join(".arx/knowhow.jsonl").exists());
    assert!(!sb.path().join("ran").exists());
}

#[test]
fn hints_agree_with_the_input() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["next", "--temperature", "0", "--candidates", "c.toml"])
        .assert()
        .code(2)
        .stderr(contains("0.02").and(contains("1.0").not()));
    // `-` reads the candidates from stdin, as the hint said it would.
    sb.arx()
        .args(["next", "--greedy", "--candidates", "-"])
        .write_stdin("[[candidate]]\nname = \"a\"\nstatement = \"A works\"\n")
        .assert()
        .code(0)
        .stdout("a\n");
    std::fs::create_dir_all(sb.path().join("d/.arx")).unwrap();
    sb.arx()
        .args(["measure", "--spec", "d"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("log file").not());
    sb.write("bad.toml", "metric = \n");
    sb.arx()
        .args(["measure", "--spec", "bad.toml"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("config").not())
        .stderr(contains("bad.toml is not valid TOML"));
    sb.write("d/.arx/journal.jsonl", "");
    sb.arx()
        .args(["journal", "merge", "d"])
        .assert()
        .code(2)
        .stderr(contains("d/.arx/journal.jsonl"));
}

/// A `[fleet]` setting out of range is named, and the hint says how to
/// fix that table, not only that it needs a remote.
#[test]
fn a_fleet_setting_out_of_range_names_the_key_and_a_true_hint() {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"m\"\ndirection = \"min\"\ncommand = \"true\"\n\n\
         [fleet]\nremote = \"origin\"\nlease = \"1s\"\n",
    );
    sb.arx().args(["fleet", "status"]).assert().code(2).stderr(
        contains("fleet.lease")
            .and(contains("hint:"))
            .and(contains("lease (10s to 24h)")),
    );
}
