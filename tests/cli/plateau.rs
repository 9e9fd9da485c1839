use predicates::str::contains;

use crate::support::{json, Sandbox};

#[test]
fn plateau_exit_codes() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["plateau", "refuted", "refuted", "refuted"])
        .assert()
        .code(0);
    sb.arx()
        .args(["plateau", "refuted", "refuted"])
        .assert()
        .code(1);
    sb.arx()
        .args(["plateau", "supported", "refuted", "inconclusive", "refuted"])
        .assert()
        .code(0);
    sb.arx()
        .args(["plateau", "--window", "1", "supported"])
        .assert()
        .code(1);
    let out = sb
        .arx()
        .args(["plateau", "--json", "--window", "2", "refuted", "refuted"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out)["plateau"], true);
}

#[test]
fn verdicts_from_stdin() {
    let sb = Sandbox::new();
    sb.arx()
        .arg("plateau")
        .write_stdin("refuted\ninconclusive refuted\n")
        .assert()
        .code(0);
    sb.arx().arg("plateau").write_stdin("").assert().code(1);
}

#[test]
fn bad_window_or_verdict_is_an_error() {
    let sb = Sandbox::new();
    for w in ["0", "-2"] {
        sb.arx()
            .args(["plateau", "--window", w, "refuted"])
            .assert()
            .code(2)
            .stderr(contains("--window"));
    }
    sb.arx()
        .args(["plateau", "refuted", "great"])
        .assert()
        .code(2)
        .stderr(contains("great"));
}
