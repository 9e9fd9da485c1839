use crate::support::{fixture, json, Sandbox};

#[test]
fn classes_and_exit_0() {
    let sb = Sandbox::new();
    let cases = [
        ("", "none"),
        ("bash: foo: command not found\n", "H2"),
        ("cat: x: No such file or directory\n", "H3"),
        ("Segmentation fault\n", "H4"),
        ("\n", "H4"),
    ];
    for (stderr, want) in cases {
        let out = sb
            .arx()
            .args(["classify", "--json"])
            .write_stdin(stderr)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert_eq!(json(&out)["failure_class"], want, "stderr {stderr:?}");
    }
}

#[test]
fn timed_out_is_h4_and_file_argument_works() {
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .args(["classify", "--json", "--timed-out"])
        .arg(fixture("examples/missing-dep.stderr"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out)["failure_class"], "H4");
    sb.arx()
        .arg("classify")
        .arg(fixture("examples/missing-dep.stderr"))
        .assert()
        .code(0)
        .stdout(predicates::str::starts_with("H2"));
}

#[test]
fn class_depends_on_the_whole_stream() {
    // An H2 phrase after megabytes of H3 noise still wins.
    let sb = Sandbox::new();
    let mut text = "permission denied\n".repeat(200_000);
    text.push_str("ImportError: cannot import name 'x'\n");
    let out = sb
        .arx()
        .args(["classify", "--json"])
        .write_stdin(text)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out)["failure_class"], "H2");
}

#[test]
fn binary_garbage_is_h4() {
    let sb = Sandbox::new();
    let bytes: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    sb.arx()
        .arg("classify")
        .write_stdin(bytes)
        .assert()
        .code(0)
        .stdout(predicates::str::starts_with("H4"));
}
