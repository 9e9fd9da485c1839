//! Reactive runs: `--prune` on `arx run` and `arx try`, the live files,
//! `arx ps` (and `--reap` after a `kill -9` of arx) and `arx watch`.

use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;

use crate::support::{json_lines, stderr, stdout_json, Sandbox};

/// A shell command printing a loss curve: `loss = a / step + c` for steps
/// 1..=n, then the final loss as the result.
fn curve(a: f64, c: f64, n: u32) -> String {
    format!(
        r#"awk 'BEGIN {{ for (s = 1; s <= {n}; s++) printf "__PROGRESS__ {{\"step\": %d, \"loss\": %.6f}}\n", s, {a} / s + {c}; printf "__RESULT__ {{\"loss\": %.6f}}\n", {a} / {n} + {c} }}'"#
    )
}

/// [`curve`], then a wait: a run that is to be pruned is still running
/// when its rule decides (an experiment that ended by itself is not pruned).
fn slow_curve(a: f64, c: f64, n: u32) -> String {
    format!("{}; sleep 1", curve(a, c, n))
}

/// `arx --json run` on loss with `extra` flags, its exit code and report.
fn run_loss(sb: &Sandbox, extra: &[&str], cmd: &str) -> (i32, Value) {
    let out = sb
        .arx()
        .args([
            "--json",
            "run",
            "--no-gates",
            "--metric",
            "loss",
            "--cmp",
            "<=",
            "--target",
            "0.5",
        ])
        .args(extra)
        .args(["--shell", "--", cmd])
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        !out.stdout.is_empty(),
        "no report (exit {code}): {}",
        stderr(&out)
    );
    (code, stdout_json(&out))
}

fn live_files(sb: &Sandbox) -> Vec<String> {
    match std::fs::read_dir(sb.path().join(".arx/live")) {
        Ok(d) => d
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Five completed runs with loss = 1/step + 0.1 .. 0.14 over 10 steps.
fn five_peers(sb: &Sandbox) {
    for i in 0..5 {
        let (code, r) = run_loss(sb, &[], &curve(1.0, 0.1 + 0.01 * f64::from(i), 10));
        assert_eq!(code, 0, "{r}");
        assert_eq!(r["progress"]["curves"][0].as_array().unwrap().len(), 10);
    }
}

#[test]
fn median_prunes_a_hopeless_run_at_the_first_step_worse_than_its_peers() {
    let sb = Sandbox::new();
    five_peers(&sb);
    // Follows the peers' best for 3 steps, then stalls at 1/3 + 0.1: at
    // step 4 the peers' median is 1/4 + 0.12 = 0.37 < 0.4333.
    let stalled = r#"awk 'BEGIN { for (s = 1; s <= 10; s++) { v = (s <= 3 ? 1 / s : 1 / 3) + 0.1; printf "__PROGRESS__ {\"step\": %d, \"loss\": %.6f}\n", s, v; fflush() } ; system("sleep 30") }'"#;
    let started = Instant::now();
    let (code, r) = run_loss(&sb, &["--prune", "median"], stalled);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "not ended early"
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "pruned");
    assert_eq!(r["pruned"]["step"], 4.0);
    assert_eq!(r["pruned"]["rule"], "median");
    assert_eq!(r["pruned"]["peers"], 5);
    assert!(
        (r["pruned"]["median"].as_f64().unwrap() - 0.37).abs() < 1e-9,
        "{r}"
    );
    assert!((r["pruned"]["value"].as_f64().unwrap() - (1.0 / 3.0 + 0.1)).abs() < 1e-5);
    assert_eq!(r["timed_out"], false);
    let last = sb.journal().pop().unwrap();
    assert_eq!(last["status"], "pruned");
    assert_eq!(last["progress"]["curves"][0].as_array().unwrap().len(), 4);
    assert!(live_files(&sb).is_empty());
}

#[test]
fn median_never_prunes_before_the_startup_runs_nor_an_improving_curve() {
    let sb = Sandbox::new();
    for i in 0..4 {
        run_loss(&sb, &[], &curve(1.0, 0.1 + 0.01 * f64::from(i), 10));
    }
    // A failed run is no peer: with four completed runs, a far worse run
    // is not pruned.
    run_loss(
        &sb,
        &[],
        "echo '__PROGRESS__ {\"step\": 1, \"loss\": 9}'; exit 3",
    );
    let (code, r) = run_loss(&sb, &["--prune", "median"], &slow_curve(5.0, 2.0, 10));
    assert_eq!(code, 1, "refuted, not pruned: {r}");
    assert_eq!(r["status"], Value::Null, "{r}");
    // Now five completed runs: an improving curve at the peers' best is
    // never pruned, with or without patience.
    for rule in ["median", "patient:2"] {
        let (code, r) = run_loss(&sb, &["--prune", rule], &slow_curve(1.0, 0.1, 10));
        assert_eq!(code, 0, "{rule}: {r}");
        assert_eq!(r["status"], Value::Null, "{rule}: {r}");
    }
}

#[test]
fn patience_waits_for_checks_in_a_row() {
    let sb = Sandbox::new();
    five_peers(&sb);
    let worse = slow_curve(1.0, 0.5, 10);
    let (_, r) = run_loss(&sb, &["--prune", "median"], &worse);
    assert_eq!(r["pruned"]["step"], 1.0, "{r}");
    let (_, r) = run_loss(&sb, &["--prune", "patient:3"], &worse);
    assert_eq!(r["pruned"]["step"], 3.0, "{r}");
    assert_eq!(r["pruned"]["rule"], "patient:3");
}

#[test]
fn threshold_prunes_on_nan() {
    let sb = Sandbox::new();
    let diverging = r#"echo '__PROGRESS__ {"step": 1, "loss": 2.5}'; echo '__PROGRESS__ {"step": 2, "loss": NaN}'; sleep 30"#;
    let (code, r) = run_loss(
        &sb,
        &["--prune", "threshold:10", "--progress-step", "step"],
        diverging,
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "pruned");
    assert_eq!(r["pruned"]["step"], 2.0);
    assert_eq!(r["pruned"]["value"], Value::Null);
    assert_eq!(r["pruned"]["bound"], 10.0);
    // The bound itself, without NaN, and a custom step key.
    let (_, r) = run_loss(
        &sb,
        &["--prune", "threshold:10", "--progress-step", "it"],
        r#"echo '__PROGRESS__ {"it": 7, "loss": 11}'; sleep 30"#,
    );
    assert_eq!(r["pruned"]["step"], 7.0, "{r}");
}

#[test]
fn bad_prune_flags_are_errors() {
    let sb = Sandbox::new();
    for (args, needle) in [
        (
            vec![
                "--prune", "mean", "--metric", "l", "--cmp", "<=", "--target", "1",
            ],
            "unknown rule",
        ),
        (vec!["--prune", "median"], "needs a metric"),
        (
            vec![
                "--prune", "median", "--metric", "l", "--cmp", "==", "--target", "1",
            ],
            "direction",
        ),
        (
            vec![
                "--prune",
                "patient:0",
                "--metric",
                "l",
                "--cmp",
                "<=",
                "--target",
                "1",
            ],
            "patience",
        ),
    ] {
        sb.arx()
            .args(["run", "--no-gates"])
            .args(&args)
            .args(["--", "true"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(needle).and(predicates::str::contains("hint:")));
    }
    assert!(sb.journal().is_empty());
}

fn spawn_run(sb: &Sandbox, args: &[&str]) -> std::process::Child {
    Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["run", "--no-gates", "--heartbeat", "200ms"])
        .args(args)
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while !cond() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_live_file_is_there_while_running_and_gone_on_every_ending() {
    let sb = Sandbox::new();
    let endings: Vec<(&str, Vec<&str>)> = vec![
        ("ok", vec!["--", "sh", "-c", "sleep 0.5"]),
        ("failed", vec!["--", "sh", "-c", "sleep 0.5; exit 3"]),
        ("not found", vec!["--", "no-such-program-arx"]),
        (
            "timeout",
            vec!["--timeout", "1s", "--grace", "100ms", "--", "sleep", "30"],
        ),
        (
            "pruned",
            vec![
                "--metric",
                "loss",
                "--cmp",
                "<=",
                "--target",
                "1",
                "--prune",
                "threshold:1",
                "--shell",
                "--",
                "sleep 0.5; echo '__PROGRESS__ {\"step\": 1, \"loss\": 5}'; sleep 30",
            ],
        ),
        ("interrupted", vec!["--", "sleep", "30"]),
    ];
    for (name, args) in endings {
        let mut child = spawn_run(&sb, &args);
        if name != "not found" {
            wait_for("the live file", || live_files(&sb).len() == 1);
            let files = live_files(&sb);
            let text = sb.read(&format!(".arx/live/{}", files[0]));
            let live: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(live["pid"], child.id(), "{name}");
            assert_eq!(live["kind"], "run");
        }
        if name == "interrupted" {
            wait_for("the experiment", || {
                let t = sb.read(&format!(".arx/live/{}", live_files(&sb)[0]));
                t.contains("\"pgid\": ") && !t.contains("\"pgid\": null")
            });
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGINT,
            )
            .unwrap();
        }
        child.wait().unwrap();
        assert!(live_files(&sb).is_empty(), "{name}: {:?}", live_files(&sb));
    }
    let journal = sb.journal();
    assert_eq!(journal.len(), 6);
    assert_eq!(journal[4]["status"], "pruned");
    assert_eq!(journal[5]["interrupted"], true);
}

#[test]
fn a_killed_arx_is_reaped_as_lost_and_its_experiment_ended() {
    let sb = Sandbox::new();
    let mut child = spawn_run(&sb, &["--", "sleep", "300"]);
    let mut pgid = 0;
    wait_for("the experiment's group in the live file", || {
        let Some(f) = live_files(&sb).pop() else {
            return false;
        };
        let live: Value =
            serde_json::from_str(&sb.read(&format!(".arx/live/{f}"))).unwrap_or_default();
        pgid = live["pgid"].as_i64().unwrap_or(0);
        pgid > 0
    });
    // The proofs `--reap` checks: recorded, and the marker in the
    // experiment's environment.
    let f = live_files(&sb).pop().unwrap();
    let live: Value = serde_json::from_str(&sb.read(&format!(".arx/live/{f}"))).unwrap();
    assert_eq!(live["boot_id"], boot_id().as_str());
    assert_eq!(live["leader_start"], start_ticks(pgid as u32));
    let environ = std::fs::read(format!("/proc/{pgid}/environ")).unwrap();
    let marker = format!("ARX_RUN_ID={}", live["run_id"].as_str().unwrap());
    assert!(environ.split(|&b| b == 0).any(|v| v == marker.as_bytes()));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let group = nix::unistd::Pid::from_raw(pgid as i32);
    assert!(
        nix::sys::signal::killpg(group, None).is_ok(),
        "the sleep outlived arx"
    );
    // Until the heartbeat is twice its interval old the run is not lost.
    std::thread::sleep(Duration::from_millis(600));
    let ps = sb.arx().args(["--json", "ps"]).assert().code(0);
    let ps = stdout_json(&ps);
    assert_eq!(ps["runs"][0]["state"], "lost", "{ps}");
    let reaped = sb.arx().args(["--json", "ps", "--reap"]).assert().code(0);
    let reaped = stdout_json(&reaped);
    assert_eq!(reaped["reaped"][0]["group_killed"], true, "{reaped}");
    assert_eq!(reaped["reaped"][0]["journaled"], true);
    assert_eq!(reaped["runs"].as_array().unwrap().len(), 0);
    wait_for("the group to go", || {
        nix::sys::signal::killpg(group, None).is_err()
    });
    let journal = sb.journal();
    assert_eq!(journal.len(), 1);
    assert_eq!(journal[0]["status"], "lost");
    assert_eq!(journal[0]["command"], serde_json::json!(["sleep", "300"]));
    assert!(live_files(&sb).is_empty());
    // Reaping again finds nothing.
    let again = sb.arx().args(["--json", "ps", "--reap"]).assert().code(0);
    assert_eq!(stdout_json(&again)["reaped"].as_array().unwrap().len(), 0);
    assert_eq!(sb.journal().len(), 1);
}

#[test]
fn ps_lists_a_running_run_and_watch_follows_it_to_its_verdict() {
    let sb = Sandbox::new();
    sb.arx().arg("ps").assert().code(0).stdout("no live runs\n");
    let cmd = r#"for s in 1 2 3 4 5 6; do echo "__PROGRESS__ {\"step\": $s, \"loss\": 0.$s}"; sleep 0.3; done; echo '__RESULT__ {"loss": 0.25}'"#;
    let mut child = spawn_run(
        &sb,
        &[
            "--metric", "loss", "--cmp", "<=", "--target", "0.5", "--shell", "--", cmd,
        ],
    );
    wait_for("the live file", || live_files(&sb).len() == 1);
    let ps = sb.arx().args(["--json", "ps"]).assert().code(0);
    let ps = stdout_json(&ps);
    assert_eq!(ps["runs"][0]["state"], "running", "{ps}");
    assert_eq!(ps["runs"][0]["pid"], child.id());
    assert!(ps["runs"][0]["elapsed_ms"].as_i64().unwrap() >= 0);
    let watch = sb.arx().args(["--json", "watch"]).output().unwrap();
    assert_eq!(watch.status.code(), Some(0), "{}", stderr(&watch));
    child.wait().unwrap();
    let events = json_lines(&watch.stdout);
    let names: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(names.first(), Some(&"started"), "{names:?}");
    assert!(names.contains(&"heartbeat"), "{names:?}");
    assert!(names.contains(&"progress"), "{names:?}");
    let last = events.last().unwrap();
    assert_eq!(last["event"], "finished");
    assert_eq!(last["status"], "supported");
    assert_eq!(last["metrics"]["loss"], 0.25);
    // A journaled run asked for by id: its verdict at once.
    let id = sb.journal()[0]["run_id"].as_str().unwrap().to_string();
    let watch = sb.arx().args(["watch", &id[..8]]).assert().code(0);
    assert!(String::from_utf8_lossy(&watch.get_output().stdout).contains("finished supported"));
    sb.arx().args(["watch", "ffffffff"]).assert().code(2);
}

#[test]
fn watch_follows_progress_between_heartbeats() {
    // Heartbeats far apart: the live file still follows the progress.
    let sb = Sandbox::new();
    let cmd = r#"sleep 0.3; for s in 1 2 3 4 5 6; do echo "__PROGRESS__ {\"step\": $s, \"loss\": 0.$s}"; sleep 0.4; done"#;
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args([
            "run",
            "--no-gates",
            "--heartbeat",
            "30s",
            "--shell",
            "--",
            cmd,
        ])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the live file", || live_files(&sb).len() == 1);
    let watch = sb.arx().args(["--json", "watch"]).output().unwrap();
    assert_eq!(watch.status.code(), Some(0), "{}", stderr(&watch));
    child.wait().unwrap();
    let steps: Vec<f64> = json_lines(&watch.stdout)
        .iter()
        .filter(|e| e["event"] == "progress")
        .filter_map(|e| e["metrics"]["step"].as_f64())
        .collect();
    assert!(steps.len() >= 4, "progress seen: {steps:?}");
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
}

const SCORE: &str = r#"#!/bin/sh
# loss = a / step + c, with a and c from params.txt; then wait w seconds
read a c w < params.txt
awk -v a="$a" -v c="$c" 'BEGIN { for (s = 1; s <= 8; s++) printf "__PROGRESS__ {\"step\": %d, \"loss\": %.6f}\n", s, a / s + c + (s % 2) * 0.0001; printf "__RESULT__ {\"loss\": %.6f}\n", a / 8 + c }'
sleep "${w:-0}"
"#;

fn git(sb: &Sandbox, args: &[&str]) {
    let out = Std::new("git")
        .args(args)
        .current_dir(sb.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
}

#[test]
fn a_pruned_try_is_set_aside_and_counts_as_a_discard() {
    let sb = Sandbox::new();
    sb.write("score.sh", SCORE);
    sb.write("params.txt", "1 0.1\n");
    sb.write(
        "arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"loss\"\ndirection = \"min\"\ncommand = \"sh score.sh\"\nprune = \"median\"\n",
    );
    git(&sb, &["init", "-q", "-b", "main"]);
    git(&sb, &["config", "user.email", "t@example.com"]);
    git(&sb, &["config", "user.name", "T"]);
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "start"]);
    // The baseline: five runs, never pruned, their curves kept.
    let out = sb.arx().args(["--json", "try"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let baseline = &sb.journal()[0];
    assert_eq!(baseline["progress"]["curves"].as_array().unwrap().len(), 5);
    // A worse candidate is pruned at its first step (while it waits).
    sb.write("params.txt", "1 0.5 30\n");
    let out = sb
        .arx()
        .args(["--json", "try", "-m", "worse"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = stdout_json(&out);
    assert_eq!(r["ratchet"]["status"], "pruned", "{r}");
    assert_eq!(r["status"], "pruned");
    assert_eq!(r["pruned"]["step"], 1.0);
    assert_eq!(sb.read("params.txt"), "1 0.1\n", "the candidate was undone");
    let status = sb.arx().args(["--json", "status"]).output().unwrap();
    let status = stdout_json(&status);
    assert_eq!(status["discards"], 1, "{status}");
    assert_eq!(status["non_keeps_in_a_row"], 1);
    assert!(live_files(&sb).is_empty());
}

/// Start time (clock ticks after boot) of `pid`, from `/proc/<pid>/stat`.
fn start_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 1..];
    rest.split_whitespace().nth(19).unwrap().parse().unwrap()
}

fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .unwrap()
        .trim()
        .to_string()
}

/// A process that has exited: the pid of a lost arx.
fn gone_pid() -> u32 {
    let mut c = Std::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

/// A process in a session and group of its own (`setsid sleep 1000`),
/// with `env` added to its environment; ended when dropped.
struct Bystander(std::process::Child);

impl Bystander {
    fn start(env: &[(&str, &str)]) -> Self {
        let mut c = Std::new("setsid");
        c.args(["sleep", "1000"]);
        for (k, v) in env {
            c.env(k, v);
        }
        let child = c
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let b = Bystander(child);
        wait_for("setsid to make its group", || {
            std::fs::read_to_string(format!("/proc/{}/stat", b.pid()))
                .ok()
                .and_then(|s| {
                    let rest = s[s.rfind(')')? + 1..].to_string();
                    rest.split_whitespace().nth(2)?.parse::<u32>().ok()
                })
                == Some(b.pid())
                && std::fs::read(format!("/proc/{}/cmdline", b.pid()))
                    .is_ok_and(|c| c.starts_with(b"sleep"))
        });
        b
    }

    fn pid(&self) -> u32 {
        self.0.id()
    }

    fn alive(&mut self) -> bool {
        self.0.try_wait().unwrap().is_none()
    }
}

impl Drop for Bystander {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A live file of a lost run (its arx gone, its heartbeat old) naming
/// process group `pgid`, with the given proofs.
fn stale_live(sb: &Sandbox, id: &str, pgid: u32, boot: Option<&str>, leader_start: Option<u64>) {
    let host = nix::unistd::gethostname().unwrap();
    let mut live = serde_json::json!({
        "run_id": id,
        "kind": "run",
        "pid": gone_pid(),
        "pgid": pgid,
        "host": host.to_string_lossy(),
        "command": ["sleep", "1000"],
        "shell": false,
        "cwd": sb.path().display().to_string(),
        "label": "",
        "started_at": "2026-01-01T00:00:00.000Z",
        "started_ms": 1_767_225_600_000_i64,
        "heartbeat_ms": 1000,
        "last_heartbeat_ms": 1_767_225_601_000_i64,
    });
    if let Some(b) = boot {
        live["boot_id"] = b.into();
    }
    if let Some(s) = leader_start {
        live["leader_start"] = s.into();
    }
    sb.write(&format!(".arx/live/{id}.json"), live.to_string());
}

/// `arx --json ps --reap`: its one reaped run.
fn reap_one(sb: &Sandbox) -> Value {
    let out = sb.arx().args(["--json", "ps", "--reap"]).assert().code(0);
    let report = stdout_json(&out);
    assert_eq!(report["reaped"].as_array().unwrap().len(), 1, "{report}");
    report["reaped"][0].clone()
}

const STALE_ID: &str = "0190aaaa-bbbb-7ccc-8ddd-eeeeffff0001";

#[test]
fn reap_never_signals_the_group_of_an_unrelated_program() {
    // The reproduction: a stale live file (as after a reboot or a long
    // pause) names the group of an unrelated `setsid sleep`.
    let sb = Sandbox::new();
    let mut sleep = Bystander::start(&[]);
    stale_live(&sb, STALE_ID, sleep.pid(), None, None);
    let reaped = reap_one(&sb);
    assert_eq!(reaped["group_killed"], false, "{reaped}");
    assert!(
        reaped["not_signalled"]
            .as_str()
            .unwrap()
            .contains("older arx"),
        "{reaped}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(sleep.alive(), "the unrelated sleep was signalled");
    // Journaled as lost all the same, its live file gone.
    let journal = sb.journal();
    assert_eq!(journal.len(), 1);
    assert_eq!(journal[0]["status"], "lost");
    assert!(live_files(&sb).is_empty());
}

#[test]
fn reap_proves_the_group_by_boot_start_time_and_marker() {
    // One process carrying the run's marker; live files that differ from
    // the truth in one proof each are refused, the true one is reaped.
    let cases: [(&str, bool, bool, bool, &str); 4] = [
        ("a recycled pid", true, false, true, "reused"),
        ("another boot", false, true, true, "restarted"),
        ("no marker", true, true, false, "ARX_RUN_ID"),
        ("the run's own group", true, true, true, ""),
    ];
    for (what, same_boot, same_start, marked, why) in cases {
        let sb = Sandbox::new();
        let env: &[(&str, &str)] = if marked {
            &[("ARX_RUN_ID", STALE_ID)]
        } else {
            &[("ARX_RUN_ID", "0190aaaa-0000-7000-8000-000000000000")]
        };
        let mut proc_ = Bystander::start(env);
        let start = start_ticks(proc_.pid());
        let boot = if same_boot {
            boot_id()
        } else {
            "00000000-0000-0000-0000-000000000000".into()
        };
        let leader_start = if same_start { start } else { start + 1 };
        stale_live(&sb, STALE_ID, proc_.pid(), Some(&boot), Some(leader_start));
        let reaped = reap_one(&sb);
        assert_eq!(sb.journal()[0]["status"], "lost", "{what}");
        if why.is_empty() {
            assert_eq!(reaped["group_killed"], true, "{what}: {reaped}");
            wait_for("the proven group to end", || !proc_.alive());
        } else {
            assert_eq!(reaped["group_killed"], false, "{what}: {reaped}");
            let said = reaped["not_signalled"].as_str().unwrap_or_default();
            assert!(said.contains(why), "{what}: {reaped}");
            std::thread::sleep(Duration::from_millis(200));
            assert!(proc_.alive(), "{what}: the process was signalled");
        }
    }
}

#[test]
fn live_files_that_are_not_live_files_are_skipped_unread() {
    let sb = Sandbox::new();
    let live = sb.path().join(".arx/live");
    std::fs::create_dir_all(&live).unwrap();
    // A symbolic link to a file that looks like a live file.
    let target = sb.write("elsewhere.json", "{}");
    std::os::unix::fs::symlink(&target, live.join(format!("{STALE_ID}.json"))).unwrap();
    // 1 GB (sparse): never read into memory.
    let big =
        std::fs::File::create(live.join("0190aaaa-bbbb-7ccc-8ddd-eeeeffff0002.json")).unwrap();
    big.set_len(1 << 30).unwrap();
    // Not JSON.
    sb.write(
        ".arx/live/0190aaaa-bbbb-7ccc-8ddd-eeeeffff0003.json",
        "not json {",
    );
    let out = sb.arx().args(["--json", "ps", "--reap"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout_json(&out);
    assert_eq!(report["runs"].as_array().unwrap().len(), 0, "{report}");
    assert_eq!(report["reaped"].as_array().unwrap().len(), 0, "{report}");
    let err = stderr(&out);
    assert!(err.contains("symbolic link"), "{err}");
    assert!(err.contains("more than a live file holds"), "{err}");
    assert!(err.contains("not a live file"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}");
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
}
