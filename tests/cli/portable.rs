//! The portable paths, as arx takes them on a Mac (no `/proc`, no pipe
//! resizing, no `syncfs`), taken here on Linux with `ARX_PORTABLE=1`:
//! the ratchet's keep and discard, a run's live file, `arx ps` and
//! `--reap`, which cannot prove an orphaned group arx's own there and so
//! leaves it running.

use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{committed_repo, git, stdout_json, try_json, try_status, Sandbox};

const PORTABLE: &str = "ARX_PORTABLE";

/// The experiment: `loss` from `value.txt`, and whether arx's internal
/// switch reached it (`portable`: 1 when it did).
const EXPERIMENT: &str = "p=0; [ -n \"${ARX_PORTABLE+set}\" ] && p=1\n\
    head -c 300000 /dev/zero | tr '\\0' 'x'; echo\n\
    echo \"__RESULT__ {\\\"loss\\\": $(cat value.txt), \\\"portable\\\": $p}\"\n";

fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while !cond() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_ratchet_keeps_and_discards_on_the_portable_paths() {
    let sb = committed_repo(&[
        ("exp.sh", EXPERIMENT),
        ("value.txt", "1.0"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"loss\"\ndirection = \"min\"\n\
             command = \"sh exp.sh\"\nbaseline_repeat = 2\n",
        ),
    ]);
    let try_ = |args: &[&str]| {
        let out = sb
            .arx()
            .env(PORTABLE, "1")
            .args(["--json", "try"])
            .args(args)
            .output()
            .unwrap();
        (out.status.code().unwrap(), stdout_json(&out))
    };
    let (code, report) = try_(&[]);
    assert_eq!((code, try_status(&report)), (0, "baseline"), "{report}");
    sb.write("value.txt", "0.5");
    let (code, report) = try_(&["-m", "lower"]);
    assert_eq!((code, try_status(&report)), (0, "keep"), "{report}");
    let kept = git(&sb, &["rev-parse", "HEAD"]);
    sb.write("value.txt", "2.0");
    let (code, report) = try_(&["-m", "higher"]);
    assert_eq!((code, try_status(&report)), (1, "discard"), "{report}");
    assert_eq!(git(&sb, &["rev-parse", "HEAD"]), kept);
    assert_eq!(sb.read("value.txt"), "0.5");
    // The switch is arx's: no experiment saw it.
    for r in sb.journal() {
        assert_eq!(r["metrics"]["portable"], 0.0, "{r}");
    }
    // And the same repository goes on with the Linux paths.
    sb.write("value.txt", "0.4");
    let (code, report, _) = try_json(&sb, &["-m", "lower still"]);
    assert_eq!((code, try_status(&report)), (0, "keep"), "{report}");
}

fn live_file(sb: &Sandbox) -> Option<Value> {
    let dir = sb.path().join(".arx/live");
    let entry = std::fs::read_dir(dir).ok()?.flatten().next()?;
    serde_json::from_str(&std::fs::read_to_string(entry.path()).ok()?).ok()
}

#[test]
fn without_proc_a_lost_run_is_journaled_but_its_group_is_left_running() {
    let sb = Sandbox::new();
    let mut arx = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args([
            "run",
            "--no-gates",
            "--heartbeat",
            "200ms",
            "--",
            "sleep",
            "300",
        ])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env(PORTABLE, "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut pgid = 0;
    wait_for("the experiment's group in the live file", || {
        pgid = live_file(&sb).and_then(|l| l["pgid"].as_i64()).unwrap_or(0);
        pgid > 0
    });
    let live = live_file(&sb).unwrap();
    // What only /proc tells is not recorded.
    for key in ["boot_id", "leader_start", "pid_start"] {
        assert!(live.get(key).is_none_or(Value::is_null), "{key}: {live}");
    }
    let ps = sb
        .arx()
        .env(PORTABLE, "1")
        .args(["--json", "ps"])
        .assert()
        .code(0);
    assert_eq!(stdout_json(&ps)["runs"][0]["state"], "running");

    arx.kill().unwrap(); // SIGKILL: the sleep is orphaned
    arx.wait().unwrap();
    let group = nix::unistd::Pid::from_raw(pgid as i32);
    std::thread::sleep(Duration::from_millis(600));
    let ps = sb
        .arx()
        .env(PORTABLE, "1")
        .args(["--json", "ps"])
        .assert()
        .code(0);
    assert_eq!(stdout_json(&ps)["runs"][0]["state"], "lost");
    let reaped = sb
        .arx()
        .env(PORTABLE, "1")
        .args(["--json", "ps", "--reap"])
        .assert()
        .code(0);
    let reaped = stdout_json(&reaped)["reaped"][0].clone();
    assert_eq!(reaped["journaled"], true, "{reaped}");
    assert_eq!(reaped["group_killed"], false, "{reaped}");
    let why = reaped["not_signalled"].as_str().unwrap_or_default();
    assert!(why.contains("without /proc such as macOS"), "{reaped}");
    std::thread::sleep(Duration::from_millis(200));
    let alive = nix::sys::signal::killpg(group, None).is_ok();
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    assert!(alive, "the group was signalled without proof");
    assert_eq!(sb.journal()[0]["status"], "lost");
}
