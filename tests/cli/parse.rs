use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

use crate::support::{fixture, json, Sandbox};

#[test]
fn prints_metrics_of_the_first_result_line() {
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .arg("parse")
        .arg(fixture("examples/train.log"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["acc"], 0.8312);
    assert_eq!(v["queries"], 12480.0);
}

#[test]
fn reads_stdin_and_dash() {
    let sb = Sandbox::new();
    for args in [vec!["parse"], vec!["parse", "-"]] {
        let out = sb
            .arx()
            .args(&args)
            .write_stdin("noise\n__RESULT__ {\"a\": 1, \"s\": \"x\"}\n")
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert_eq!(json(&out), serde_json::json!({"a": 1.0}));
    }
}

#[test]
fn no_metrics_exits_1_with_an_empty_object() {
    let sb = Sandbox::new();
    for input in [
        "",
        "no marker here\n",
        "__RESULT__ {bad json}\n",
        "__RESULT__ {\"a\": NaN}\n",
    ] {
        let out = sb
            .arx()
            .arg("parse")
            .write_stdin(input)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        assert_eq!(json(&out), serde_json::json!({}), "input {input:?}");
    }
}

#[test]
fn binary_garbage_is_tolerated() {
    let sb = Sandbox::new();
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    bytes.extend_from_slice(b"\n\xff\xfe__RESULT__ {\"a\": 2, \"\xff\": 3}\n\xc3");
    let out = sb
        .arx()
        .arg("parse")
        .write_stdin(bytes)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["a"], 2.0);
    assert_eq!(v["\u{fffd}"], 3.0);
}

#[test]
fn quiet_prints_nothing_and_keeps_the_exit_code() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["parse", "--quiet"])
        .write_stdin("__RESULT__ {\"a\": 1}")
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn upstream_writer_is_not_killed_by_an_early_result() {
    // The result comes first, then 64 MiB more: the writer must finish
    // normally (no SIGPIPE) because arx drains its input.
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let mut arx = StdCommand::new(bin)
        .arg("parse")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = arx.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"__RESULT__ {\"a\": 1}\n")?;
        let block = vec![b'x'; 1 << 20];
        for _ in 0..64 {
            stdin.write_all(&block)?;
        }
        Ok::<(), std::io::Error>(())
    });
    let out = arx.wait_with_output().unwrap();
    writer
        .join()
        .unwrap()
        .expect("writer must not see a broken pipe");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out.stdout), serde_json::json!({"a": 1.0}));
}

#[test]
fn closed_stdout_is_a_quiet_exit() {
    let bin = assert_cmd::cargo::cargo_bin("arx");
    for _ in 0..5 {
        let mut child = StdCommand::new(&bin)
            .args(["completions", "zsh"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    }
}

#[test]
fn keys_are_printed_byte_for_byte() {
    // U+007F and other characters a terminal filter would drop stay intact.
    let sb = Sandbox::new();
    for args in [&["parse"][..], &["parse", "--json"]] {
        let out = sb
            .arx()
            .args(args)
            .write_stdin("__RESULT__ {\"a\u{7f}\": 1, \"\\u001b[31m\": 2}")
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        let v = json(&out);
        assert_eq!(v["a\u{7f}"], 1.0);
        assert_eq!(v["\u{1b}[31m"], 2.0);
    }
}

#[test]
fn large_files_are_scanned_across_window_boundaries() {
    // Files of 4 MiB and more are scanned through 4 MiB memory windows: put
    // the marker across the first window boundary, and the object across
    // the second.
    let sb = Sandbox::new();
    let window = 4 << 20;
    for (name, split_at) in [("marker.log", 5usize), ("object.log", 14)] {
        let line = b"__RESULT__ {\"acc\": 0.83}\n";
        let mut bytes = vec![b'.'; window - split_at];
        bytes.extend_from_slice(line);
        bytes.resize(3 * window, b'x');
        let path = sb.write(name, &bytes);
        let out = sb
            .arx()
            .arg("parse")
            .arg(&path)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert_eq!(json(&out), serde_json::json!({"acc": 0.83}), "{name}");
        // A redirect (`arx parse < file`): stdin is the regular file itself.
        let file = std::fs::File::open(&path).unwrap();
        let out = StdCommand::new(assert_cmd::cargo::cargo_bin("arx"))
            .arg("parse")
            .stdin(Stdio::from(file))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            json(&out.stdout),
            serde_json::json!({"acc": 0.83}),
            "{name} on stdin"
        );
    }
    // Nothing in a large file: exit 1.
    let path = sb.write("none.log", vec![b'y'; 9 << 20]);
    sb.arx().arg("parse").arg(&path).assert().code(1);
}
