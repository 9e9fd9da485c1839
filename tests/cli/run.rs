use std::process::Command as StdCommand;
use std::time::{Duration, Instant};

use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{in_namespace, json, Sandbox};

const SPEC: [&str; 6] = ["--metric", "acc", "--cmp", ">=", "--target", "0.8"];

fn pid_alive(pid: i32) -> bool {
    // Signal 0 probes for existence; a zombie does not count as running.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.contains(") Z ")
}

#[test]
fn verdicts_exit_codes_and_journal() {
    let sb = Sandbox::new();
    let cases = [
        ("echo '__RESULT__ {\"acc\": 0.9}'", 0, "supported"),
        ("echo '__RESULT__ {\"acc\": 0.5}'", 1, "refuted"),
        ("echo 'no result'", 3, "inconclusive"),
        (
            "echo '__RESULT__ {\"acc\": 0.9}'; echo 'ModuleNotFoundError: x' >&2; exit 1",
            3,
            "inconclusive",
        ),
    ];
    for (script, code, verdict) in cases {
        sb.arx()
            .args([
                "run",
                "--approve",
                "--candidate",
                "c1",
                "--tag",
                "t1",
                "--tag",
                "t2",
            ])
            .args(SPEC)
            .args(["--", "sh", "-c", script])
            .assert()
            .code(code)
            .stdout(contains(verdict));
    }
    let recs = sb.journal();
    assert_eq!(recs.len(), 4);
    assert_eq!(recs[0]["verdict"]["verdict"], "supported");
    assert_eq!(recs[0]["candidate"], "c1");
    assert_eq!(recs[0]["tags"], serde_json::json!(["t1", "t2"]));
    assert_eq!(recs[0]["command"][0], "sh");
    assert_eq!(recs[3]["failure_class"], "H2");
    assert_eq!(recs[3]["exit_code"], 1);
    assert!(recs[3]["stderr_tail"]
        .as_str()
        .unwrap()
        .contains("ModuleNotFoundError"));
    let mut ids: Vec<_> = recs
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 4);
}

#[test]
fn output_is_passed_through_and_json_keeps_stdout_clean() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "run",
            "--approve",
            "--",
            "sh",
            "-c",
            "echo hello; echo oops >&2",
        ])
        .assert()
        .code(0)
        .stdout(contains("hello"))
        .stderr(contains("oops"));
    let out = sb
        .arx()
        .args(["run", "--approve", "--json"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "echo hello; echo '__RESULT__ {\"acc\": 0.9}'",
        ])
        .assert()
        .code(0)
        .stderr(contains("hello"))
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["verdict"]["verdict"], "supported");
    assert_eq!(v["metrics"]["acc"], 0.9);
    sb.arx()
        .args([
            "run",
            "--approve",
            "--quiet",
            "--",
            "sh",
            "-c",
            "echo hello",
        ])
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn the_execute_gate_pauses_without_approval() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--", "sh", "-c", "touch ran"])
        .assert()
        .code(1)
        .stdout(contains("paused"));
    assert!(!sb.path().join("ran").exists());
    sb.write("arx.toml", "[gates]\nexecute = false\n");
    sb.arx()
        .args(["run", "--", "sh", "-c", "touch ran"])
        .assert()
        .code(0);
    assert!(sb.path().join("ran").exists());
}

#[test]
fn known_dead_ends_are_refused_unless_forced() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "Tiny model is enough",
            "--reason",
            "acc 0.4",
        ])
        .assert()
        .code(0);
    sb.arx()
        .args(["run", "--approve", "--hypothesis", "tiny MODEL is enough"])
        .args(["--", "sh", "-c", "touch ran"])
        .assert()
        .code(1)
        .stdout(contains("known dead end"));
    assert!(!sb.path().join("ran").exists());
    sb.arx()
        .args([
            "run",
            "--approve",
            "--force",
            "--hypothesis",
            "tiny MODEL is enough",
        ])
        .args(["--", "sh", "-c", "touch ran"])
        .assert()
        .code(0)
        .stderr(contains("known dead end"));
    assert!(sb.path().join("ran").exists());
}

#[test]
fn promote_records_a_deterministic_refutation() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "run",
            "--approve",
            "--promote",
            "--hypothesis",
            "BM25 is enough",
        ])
        .args(SPEC)
        .args(["--", "sh", "-c", "echo '__RESULT__ {\"acc\": 0.5}'"])
        .assert()
        .code(1);
    let text = sb.read(".arx/dead-ends.jsonl");
    assert!(text.contains("BM25 is enough"));
    assert!(text.contains("acc=0.5 >= 0.8"));
    // A supported run promotes nothing.
    sb.arx()
        .args([
            "run",
            "--approve",
            "--promote",
            "--hypothesis",
            "hybrid is enough",
        ])
        .args(SPEC)
        .args(["--", "sh", "-c", "echo '__RESULT__ {\"acc\": 0.9}'"])
        .assert()
        .code(0);
    assert!(!sb.read(".arx/dead-ends.jsonl").contains("hybrid"));
}

#[test]
fn a_missing_command_is_h2_with_a_clear_message() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve"])
        .args(SPEC)
        .args(["--", "no-such-command-xyz", "--flag"])
        .assert()
        .code(3)
        .stderr(contains("no-such-command-xyz: command not found"));
    let recs = sb.journal();
    assert_eq!(recs[0]["failure_class"], "H2");
    assert_eq!(recs[0]["exit_code"], 127);
}

#[test]
fn timeout_kills_the_whole_group() {
    let sb = Sandbox::new();
    let started = Instant::now();
    sb.arx()
        .args(["run", "--approve", "--timeout", "1s", "--grace", "1s"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "sleep 300 & echo $! > child.pid; trap '' TERM; sleep 300",
        ])
        .assert()
        .code(3)
        .stdout(contains("timed out"));
    assert!(started.elapsed() < Duration::from_secs(20));
    let pid: i32 = sb.read("child.pid").trim().parse().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !pid_alive(pid),
        "background child {pid} survived the timeout"
    );
    let recs = sb.journal();
    assert_eq!(recs[0]["timed_out"], true);
    assert_eq!(recs[0]["exit_code"], 124);
    assert_eq!(recs[0]["failure_class"], "H4");
}

#[test]
fn children_left_behind_are_ended_with_the_run() {
    let sb = Sandbox::new();
    let started = Instant::now();
    sb.arx()
        .args(["run", "--approve", "--grace", "1s", "--"])
        .args([
            "sh",
            "-c",
            "(sleep 300; echo late) & echo $! > child.pid; echo '__RESULT__ {\"acc\": 1}'",
        ])
        .assert()
        .code(0);
    assert!(started.elapsed() < Duration::from_secs(20));
    let pid: i32 = sb.read("child.pid").trim().parse().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(!pid_alive(pid));
}

#[test]
fn stop_on_result_ends_a_long_experiment() {
    let sb = Sandbox::new();
    let started = Instant::now();
    sb.arx()
        .args(["run", "--approve", "--stop-on-result", "--grace", "1s"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "echo '__RESULT__ {\"acc\": 0.9}'; sleep 300",
        ])
        .assert()
        .code(0);
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_result_line_split_across_writes_and_binary_output() {
    let sb = Sandbox::new();
    let script = "head -c 100000 /dev/urandom; printf '\\n__RESU'; sleep 0.3; printf 'LT__ {\"a'; sleep 0.3; printf 'cc\": 0.95}\\n'; head -c 1000 /dev/urandom";
    let out = sb
        .arx()
        .args(["run", "--approve", "--json"])
        .args(SPEC)
        .args(["--", "sh", "-c", script])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out)["metrics"]["acc"], 0.95);
}

#[test]
fn lots_of_output_keeps_only_tails() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve", "--quiet"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "yes 'line of output' | head -c 50000000; echo; echo '__RESULT__ {\"acc\": 0.9}'",
        ])
        .assert()
        .code(0);
    let recs = sb.journal();
    assert!(recs[0]["stdout_tail"].as_str().unwrap().len() <= 4096);
    assert!(recs[0]["stdout_tail"]
        .as_str()
        .unwrap()
        .contains("__RESULT__"));
}

#[test]
fn events_stream_ndjson() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "run",
            "--approve",
            "--events",
            "events.ndjson",
            "--heartbeat",
            "200ms",
        ])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "echo '__PROGRESS__ {\"loss\": 0.7}'; sleep 0.5; echo '__RESULT__ {\"acc\": 0.9}'",
        ])
        .assert()
        .code(0);
    let events: Vec<serde_json::Value> = sb
        .read("events.ndjson")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"started"));
    assert_eq!(kinds.last(), Some(&"finished"));
    assert!(kinds.contains(&"progress"));
    assert!(kinds.contains(&"result"));
    assert!(kinds.contains(&"heartbeat"));
    let progress = events.iter().find(|e| e["event"] == "progress").unwrap();
    assert_eq!(progress["metrics"]["loss"], 0.7);
    let finished = events.last().unwrap();
    assert_eq!(finished["verdict"]["verdict"], "supported");
    let ids: Vec<&str> = events
        .iter()
        .map(|e| e["run_id"].as_str().unwrap())
        .collect();
    assert!(ids.iter().all(|i| *i == ids[0]));

    // `--events -` puts events on stdout and the experiment's stdout on stderr.
    let out = sb
        .arx()
        .args([
            "run",
            "--approve",
            "--events",
            "-",
            "--",
            "sh",
            "-c",
            "echo hello",
        ])
        .assert()
        .code(0)
        .stderr(contains("hello"))
        .get_output()
        .stdout
        .clone();
    let first = String::from_utf8(out).unwrap();
    let first: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "started");
}

#[test]
fn repeat_judges_the_mean_with_a_confidence_interval() {
    let sb = Sandbox::new();
    sb.write("vals", "0.91\n0.90\n0.92\n0.89\n0.93\n");
    let script = "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; v=$(sed -n ${n}p vals); echo \"__RESULT__ {\\\"acc\\\": $v}\"";
    let out = sb
        .arx()
        .args(["run", "--approve", "--json", "--repeat", "5"])
        .args(SPEC)
        .args(["--", "sh", "-c", script])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["verdict"]["strategy"], "confidence_interval");
    assert_eq!(
        v["samples"],
        serde_json::json!([0.91, 0.90, 0.92, 0.89, 0.93])
    );
    assert_eq!(v["attempts"].as_array().unwrap().len(), 5);
    assert_eq!(v["summary"]["n"], 5);
    let (lo, hi) = (
        v["interval"][0].as_f64().unwrap(),
        v["interval"][1].as_f64().unwrap(),
    );
    assert!(lo > 0.8 && lo < 0.91 && hi > 0.91);
}

#[test]
fn bad_flags_exit_2_before_anything_runs() {
    let sb = Sandbox::new();
    let cases: [&[&str]; 7] = [
        &["--timeout", "0"],
        &["--timeout", "soon"],
        &["--timeout", "-5s"],
        &["--grace", "x"],
        &["--repeat", "0"],
        &["--confidence", "1.5"],
        &["--metric", "acc"],
    ];
    for args in cases {
        sb.arx()
            .args(["run", "--approve"])
            .args(args)
            .args(["--", "sh", "-c", "touch ran"])
            .assert()
            .code(2)
            .stderr(contains("arx: error:"));
    }
    assert!(!sb.path().join("ran").exists());
    sb.arx().args(["run", "--approve"]).assert().code(2);
}

#[test]
fn an_unwritable_state_dir_fails_before_running() {
    let sb = Sandbox::new();
    sb.write(".arx", "a file, not a directory");
    sb.arx()
        .args(["run", "--approve", "--", "sh", "-c", "touch ran"])
        .assert()
        .code(2)
        .stderr(contains("not a directory"));
    assert!(!sb.path().join("ran").exists());
    assert_eq!(sb.read(".arx"), "a file, not a directory");
}

#[test]
fn ctrl_c_ends_the_experiment_and_is_journaled() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let mut child = StdCommand::new(bin)
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .args(["run", "--approve", "--grace", "1s", "--quiet", "--"])
        .args(["sh", "-c", "echo $$ > exp.pid; sleep 300"])
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while sb.read("exp.pid").trim().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let exp: i32 = sb.read("exp.pid").trim().parse().unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(2),
        "arx re-raises SIGINT after journaling"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!pid_alive(exp));
    let recs = sb.journal();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["interrupted"], true);
}

#[test]
fn concurrent_runs_append_whole_records() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let big = "x".repeat(6000);
    let children: Vec<_> = (0..6)
        .map(|w| {
            let script = (0..5)
                .map(|i| {
                    format!(
                        "'{}' run --approve --quiet --tag w{w} -- sh -c 'echo {big}; echo \"__RESULT__ {{\\\"i\\\": {i}}}\"'",
                        bin.display()
                    )
                })
                .collect::<Vec<_>>()
                .join(" && ");
            StdCommand::new("sh")
                .arg("-c")
                .arg(script)
                .current_dir(sb.path())
                .env_remove("ARX_STATE_DIR")
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let recs = sb.journal();
    assert_eq!(recs.len(), 30);
    let mut ids: Vec<String> = recs
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 30);
}

#[test]
fn a_torn_journal_line_is_skipped_and_trimmed() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve", "--quiet", "--", "true"])
        .assert()
        .code(0);
    let path = sb.path().join(".arx/journal.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"run_id\": \"0193-torn");
    std::fs::write(&path, text).unwrap();
    sb.arx()
        .args(["run", "--approve", "--quiet", "--", "true"])
        .assert()
        .code(0)
        .stderr(contains("torn"));
    assert_eq!(sb.journal().len(), 2);
}

#[test]
fn a_successful_run_with_stderr_has_no_failure_class() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "echo 'warning: deprecated' >&2; echo 'permission denied (ignored)' >&2; echo '__RESULT__ {\"acc\": 0.9}'",
        ])
        .assert()
        .code(0)
        .stdout(contains("supported"))
        .stdout(contains("H3").not())
        .stdout(contains("H4").not());
    // Without a spec, and with `--repeat`, too.
    sb.arx()
        .args(["run", "--approve", "--", "sh", "-c", "echo warn >&2"])
        .assert()
        .code(0)
        .stdout(contains("H4").not());
    sb.arx()
        .args(["run", "--approve", "--repeat", "2"])
        .args(SPEC)
        .args([
            "--",
            "sh",
            "-c",
            "echo warn >&2; echo '__RESULT__ {\"acc\": 0.9}'",
        ])
        .assert()
        .code(0);
    let recs = sb.journal();
    assert_eq!(recs.len(), 3);
    for r in &recs {
        assert_eq!(r["failure_class"], "none", "{r}");
    }
    for a in recs[2]["attempts"].as_array().unwrap() {
        assert_eq!(a["failure_class"], "none", "{a}");
    }
    // A failed run is still classified.
    sb.arx()
        .args([
            "run",
            "--approve",
            "--",
            "sh",
            "-c",
            "echo warn >&2; exit 1",
        ])
        .assert()
        .code(3);
    assert_eq!(sb.journal()[3]["failure_class"], "H4");
}

#[test]
fn stop_on_result_without_a_spec_is_a_success() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["run", "--approve", "--stop-on-result", "--grace", "1s"])
        .args([
            "--",
            "sh",
            "-c",
            "echo '__RESULT__ {\"acc\": 0.9}'; sleep 300",
        ])
        .assert()
        .code(0)
        .stdout(contains("ok"))
        .stdout(contains("failed").not());
    let recs = sb.journal();
    assert_eq!(recs[0]["stopped_on_result"], true);
    assert_eq!(recs[0]["failure_class"], "none");
}

#[test]
fn events_on_stdout_keep_stdout_pure_ndjson() {
    let sb = Sandbox::new();
    for extra in [None, Some("--json")] {
        let out = sb
            .arx()
            .args(["run", "--approve", "--events", "-"])
            .args(extra)
            .args(SPEC)
            .args(["--", "sh", "-c", "echo '__RESULT__ {\"acc\": 0.9}'"])
            .assert()
            .code(0)
            .get_output()
            .clone();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(!stdout.is_empty());
        for line in stdout.lines() {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not an NDJSON line ({e}): {line:?}"));
            assert!(v["event"].is_string(), "{line}");
        }
        assert!(String::from_utf8(out.stderr).unwrap().contains("supported"));
    }
}

#[test]
fn a_full_disk_fails_before_the_experiment_runs() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path().join(".arx")).unwrap();
    let setup = "mount -t tmpfs -o size=64k none .arx && \
                 (dd if=/dev/zero of=.arx/fill bs=4k count=100 2>/dev/null; true)";
    let Some(out) = in_namespace(&sb, setup, "run --approve -- sh -c 'touch ran'") else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write the run journal"), "{stderr}");
    assert!(!sb.path().join("ran").exists(), "the experiment ran");
}

#[test]
fn a_result_survives_a_process_that_outlives_the_experiment() {
    let sb = Sandbox::new();
    let started = Instant::now();
    sb.arx()
        .args(["run", "--approve", "--grace", "1s"])
        .args(["--metric", "a", "--cmp", ">=", "--target", "1"])
        .args([
            "--",
            "sh",
            "-c",
            "setsid sleep 8 & echo '__RESULT__ {\"a\": 1}'",
        ])
        .assert()
        .code(0)
        .stdout(contains("supported"))
        .stderr(contains("outlived the experiment"));
    assert!(started.elapsed() < Duration::from_secs(8));
    assert_eq!(sb.journal()[0]["metrics"]["a"], 1.0);
}

#[test]
fn repeat_summaries_of_huge_values_stay_short() {
    let sb = Sandbox::new();
    sb.write("vals", "1e300\n1.1e300\n1.2e300\n");
    let script = "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; v=$(sed -n ${n}p vals); echo \"__RESULT__ {\\\"acc\\\": $v}\"";
    let out = sb
        .arx()
        .args(["run", "--approve", "--repeat", "3"])
        .args(["--metric", "acc", "--cmp", ">=", "--target", "1"])
        .args(["--", "sh", "-c", script])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("000000000000000000000"), "{text}");
    assert!(text.contains("mean=1.1e+300"), "{text}");
}

#[test]
fn a_repeated_run_of_huge_values_is_journaled_readably() {
    let sb = Sandbox::new();
    sb.write("vals", "1e300\n1.1e300\n1.2e300\n");
    let script = "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; v=$(sed -n ${n}p vals); echo \"__RESULT__ {\\\"acc\\\": $v}\"";
    sb.arx()
        .args(["run", "--approve", "--repeat", "3"])
        .args(["--metric", "acc", "--cmp", ">=", "--target", "1"])
        .args(["--", "sh", "-c", script])
        .assert()
        .code(0);
    let rec = &sb.journal()[0];
    assert!(rec["summary"]["sd"].is_number(), "{rec}");
    sb.arx()
        .args(["log"])
        .assert()
        .stdout(contains("acc=1.1e+300 (n=3)"))
        .stderr(contains("unreadable").not());
}

#[test]
fn no_spinner_draws_while_the_approval_prompt_waits() {
    if StdCommand::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: script(1) is not available");
        return;
    }
    let sb = Sandbox::new();
    let cmd = format!("'{}' run -- sh -c 'touch ran'", env!("CARGO_BIN_EXE_arx"));
    let out = StdCommand::new("sh")
        .args([
            "-c",
            &format!("(sleep 1.5; echo n) | script -qec \"{cmd}\" /dev/null"),
        ])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("TERM", "xterm")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Run `sh -c touch ran`?"), "{text:?}");
    assert!(
        !text.contains("00:00:0"),
        "a spinner drew over the prompt: {text:?}"
    );
    assert!(!sb.path().join("ran").exists());
}
