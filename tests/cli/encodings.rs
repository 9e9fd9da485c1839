//! What an output's bytes look like on the way in: byte-order marks
//! (UTF-8, UTF-16 as Windows PowerShell writes), lines a progress bar
//! cleared with `\r`, and result lines that are there but refused.

use crate::support::{json, stderr, stdout_json, Sandbox};

fn utf16(text: &str, big: bool) -> Vec<u8> {
    let mut out: Vec<u8> = if big {
        vec![0xfe, 0xff]
    } else {
        vec![0xff, 0xfe]
    };
    for u in text.encode_utf16() {
        out.extend_from_slice(&if big {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

fn utf8_bom(text: &str) -> Vec<u8> {
    [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat()
}

fn encodings(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("utf-16le", utf16(text, false)),
        ("utf-16be", utf16(text, true)),
        ("utf-8 bom", utf8_bom(text)),
    ]
}

#[test]
fn parse_and_measure_read_utf16_and_bom_logs() {
    let sb = Sandbox::new();
    let log = "step 1\n__RESULT__ {\"acc\": 0.91, \"loss\": 0.2}\n";
    for (name, bytes) in encodings(log) {
        let file = sb.write(&format!("log-{}.txt", name.replace(' ', "-")), &bytes);
        // From a file and from stdin.
        let out = sb.arx().arg("parse").arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(json(&out.stdout)["acc"], 0.91, "{name}");
        let out = sb
            .arx()
            .arg("parse")
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        assert_eq!(json(&out.stdout)["loss"], 0.2, "{name}");
        let out = sb
            .arx()
            .args([
                "measure", "--json", "--metric", "acc", "--cmp", ">=", "--target", "0.8",
            ])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(stdout_json(&out)["verdict"], "supported", "{name}");
    }
    // The line formats read them too.
    let pi = "METRIC val_bpb=0.97\n";
    for (name, bytes) in encodings(pi) {
        let out = sb
            .arx()
            .args(["parse", "--result-format", "pi"])
            .write_stdin(bytes)
            .output()
            .unwrap();
        assert_eq!(json(&out.stdout)["val_bpb"], 0.97, "{name}");
    }
}

#[test]
fn classify_reads_a_utf16_traceback() {
    let sb = Sandbox::new();
    let text = "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\nModuleNotFoundError: No module named 'torch'\n";
    let plain = sb
        .arx()
        .args(["classify", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    let want = json(&plain.stdout)["failure_class"].clone();
    assert_eq!(want, "H2");
    for (name, bytes) in encodings(text) {
        let out = sb
            .arx()
            .args(["classify", "--json"])
            .write_stdin(bytes)
            .output()
            .unwrap();
        assert_eq!(json(&out.stdout)["failure_class"], want, "{name}");
    }
}

#[test]
fn a_line_cleared_with_carriage_returns_is_read_as_shown_in_every_format() {
    let sb = Sandbox::new();
    let bar = "train  40%|####      | 4/10\r                             \r";
    let cases: [(&[&str], String); 4] = [
        (&[], format!("{bar}__RESULT__ {{\"val_bpb\": 0.99}}\n")),
        (
            &["--result-format", "pi"],
            format!("{bar}METRIC val_bpb=0.99\n"),
        ),
        (
            &["--result-format", "summary"],
            format!("---\n{bar}val_bpb: 0.99\n"),
        ),
        (
            &["--result-pattern", r"^val_bpb (?P<val_bpb>[0-9.]+)$"],
            format!("{bar}val_bpb 0.99\r\n"),
        ),
    ];
    for (flags, log) in cases {
        // Whole, and as the last line without a newline.
        for text in [log.clone(), log.trim_end().to_string()] {
            let out = sb
                .arx()
                .arg("parse")
                .args(flags)
                .write_stdin(text.clone())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{flags:?} {text:?}");
            assert_eq!(json(&out.stdout)["val_bpb"], 0.99, "{flags:?} {text:?}");
        }
    }
    // What the terminal shows wins: a metric overwritten is gone.
    let out = sb
        .arx()
        .args(["parse", "--result-format", "pi"])
        .write_stdin("METRIC a=1\rxxxxxxxxxxxx\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_refused_result_line_says_why() {
    let sb = Sandbox::new();
    let cases = [
        ("__RESULT__ {\"acc\": NaN}\n", "NaN"),
        ("__RESULT__ {\"acc\": \x1b[1m0.9\x1b[0m}\n", "ANSI"),
        ("__RESULT__ {\"acc\": 0.9,}\n", "column 13"),
        ("__RESULT__ {\"acc\": \"high\"}\n", "no number"),
    ];
    for (log, why) in cases {
        let out = sb.arx().arg("parse").write_stdin(log).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{log:?}");
        assert!(stderr(&out).contains(why), "{log:?}: {}", stderr(&out));
        for json_flag in [false, true] {
            let mut cmd = sb.arx();
            if json_flag {
                cmd.arg("--json");
            }
            let out = cmd
                .args([
                    "measure", "--metric", "acc", "--cmp", ">=", "--target", "0.5",
                ])
                .write_stdin(log)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(3), "{log:?}");
            assert!(stderr(&out).contains(why), "{log:?}: {}", stderr(&out));
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            if json_flag {
                let v = stdout_json(&out);
                assert!(v["result_rejected"].as_str().unwrap().contains(why), "{v}");
            } else {
                assert!(stdout.contains(why), "{stdout}");
                assert!(!stdout.contains("no __RESULT__ metrics found"), "{stdout}");
            }
        }
    }
    // No marker at all: the old words.
    let out = sb
        .arx()
        .args([
            "measure", "--metric", "acc", "--cmp", ">=", "--target", "0.5",
        ])
        .write_stdin("nothing\n")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("no __RESULT__ metrics found"));
}
