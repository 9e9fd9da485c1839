use crate::support::{json, Sandbox};

#[test]
fn decide_reports_branch_done_status() {
    let sb = Sandbox::new();
    let cases = [
        ("1", "5", "supported", 0, "finalize", true, "supported"),
        ("5", "5", "refuted", 0, "revise", true, "exhausted"),
        ("2", "5", "refuted", 1, "revise", false, "active"),
        ("-1", "0", "inconclusive", 1, "revise", false, "active"),
    ];
    for (it, max, verdict, code, branch, done, status) in cases {
        let out = sb
            .arx()
            .args([
                "decide",
                "--json",
                "--iteration",
                it,
                "--max-iterations",
                max,
                "--verdict",
                verdict,
            ])
            .assert()
            .code(code)
            .get_output()
            .stdout
            .clone();
        let v = json(&out);
        assert_eq!(v["branch"], branch);
        assert_eq!(v["done"], done);
        assert_eq!(v["status"], status);
    }
}

#[test]
fn decide_rejects_bad_input() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "decide",
            "--iteration",
            "1",
            "--max-iterations",
            "5",
            "--verdict",
            "maybe",
        ])
        .assert()
        .code(2);
    sb.arx()
        .args([
            "decide",
            "--iteration",
            "x",
            "--max-iterations",
            "5",
            "--verdict",
            "refuted",
        ])
        .assert()
        .code(2);
}

#[test]
fn decide_trims_whitespace_around_the_verdict() {
    let sb = Sandbox::new();
    for verdict in ["refuted\r", " refuted\n", "\trefuted "] {
        let out = sb
            .arx()
            .args([
                "decide",
                "--json",
                "--iteration",
                "2",
                "--max-iterations",
                "5",
                "--verdict",
                verdict,
            ])
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        assert_eq!(json(&out)["verdict"], "refuted", "{verdict:?}");
    }
    // A wrong word is still refused, and named.
    sb.arx()
        .args([
            "decide",
            "--iteration",
            "2",
            "--max-iterations",
            "5",
            "--verdict",
            "refutd\r",
        ])
        .assert()
        .code(2);
}
