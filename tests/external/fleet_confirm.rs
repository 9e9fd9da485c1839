//! `confirm_classes = 2` with two classes whose runs differ by 3σ (the
//! class `slow` adds 2.4, and 5 for each unit in `bump.txt`). A keep on
//! the fast class is held as pending — the fleet's best does not move —
//! until a machine of the slow class measures it on its own class and
//! finds it better; a change the slow class finds worse never becomes
//! the fleet's best.

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::{class_offset_run, git, git_daemon, records, status, try_in, Fleet};
use crate::barrier::with_barrier;
use crate::needs::trial;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
repeat = 3
baseline_repeat = 5

[fleet]
remote = "origin"
confirm_classes = 2
"#;

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_confirm_a_keep_is_pending_until_another_class_finds_it_better",
            git_daemon,
            |_| confirmed(),
        ),
        trial(
            "fleet_confirm_a_keep_another_class_finds_worse_never_becomes_the_best",
            git_daemon,
            |_| refuted(),
        ),
        trial(
            "fleet_confirm_a_pending_keep_the_remote_missed_is_pushed_by_the_next_sync",
            git_daemon,
            |_| pushed_again(),
        ),
        trial(
            "fleet_confirm_a_sync_lands_a_keep_three_classes_found_better_at_once",
            git_daemon,
            |_| landed_by_sync(),
        ),
        trial(
            "fleet_confirm_a_sync_killed_after_landing_a_keep_is_completed_by_the_next",
            git_daemon,
            |_| landing_killed(),
        ),
    ]
}

fn serve() -> Fleet {
    serve_n(2)
}

/// The remote with `confirm_classes = n`, its experiment held at a
/// barrier when a test asks.
fn serve_n(n: u32) -> Fleet {
    let config = CONFIG.replace("confirm_classes = 2", &format!("confirm_classes = {n}"));
    let score = with_barrier(&class_offset_run("2.4 + 5 * b", &[("b", "bump.txt")]));
    Fleet::seeded_with(
        false,
        &[
            ("score.sh", &score),
            ("v.txt", "100\n"),
            ("bump.txt", "0\n"),
            ("arx.toml", &config),
            (".gitignore", ".arx/\n.noise\n"),
        ],
    )
}

fn remote(f: &Fleet, args: &[&str]) -> String {
    git(&f.tmp.path().join("served/remote.git"), args)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap()
        .trim()
        .to_string()
}

/// The refs of keeps waiting for classes on the remote.
fn pending_refs(f: &Fleet) -> Vec<String> {
    let refs = remote(
        f,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/arx/fleet/pending/",
        ],
    );
    refs.lines().map(str::to_string).collect()
}

/// `arx --json fleet sync` in `dir`: its report.
fn sync_json(dir: &Path) -> Value {
    let out = super::arx_in(dir, &["--json", "fleet", "sync"]);
    assert!(
        out.status.success(),
        "fleet sync: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `arx fleet status --fetch`'s keeps waiting for classes.
fn pending_rows(dir: &Path) -> Vec<Value> {
    let out = super::arx_in(dir, &["--json", "fleet", "status", "--fetch"]);
    let st: Value = serde_json::from_slice(&out.stdout).unwrap();
    st["pending"].as_array().cloned().unwrap_or_default()
}

/// The fast class's baseline, then its keep of `v` (and `bump`), held as
/// pending: the fleet's best unmoved, the candidate on the remote under
/// `refs/arx/fleet/pending/<run>`, the working tree back on the best.
/// The keep's run id.
fn pending_keep(f: &Fleet, fast: &Path, (v, bump): (i64, i64)) -> String {
    let (code, r) = try_in(fast, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let best = f.remote_best();
    std::fs::write(fast.join("v.txt"), format!("{v}\n")).unwrap();
    std::fs::write(fast.join("bump.txt"), format!("{bump}\n")).unwrap();
    let (code, r) = try_in(fast, "lower the value");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["fleet_pending"], true, "{r}");
    assert_eq!(
        f.remote_best(),
        best,
        "a pending keep moved the fleet's best"
    );
    let run = r["run_id"].as_str().unwrap().to_string();
    let pending = remote(f, &["rev-parse", &format!("refs/arx/fleet/pending/{run}")]);
    assert_eq!(remote(f, &["rev-parse", &format!("{pending}^")]), best);
    assert_eq!(read(fast, "v.txt"), "100");
    // `arx status` and `arx report` show it as the fast class's best,
    // pending, apart from the fleet's best.
    let out = super::arx_in(fast, &["--json", "status"]);
    let st: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(st["pending"][0]["class"], "fast", "{st}");
    assert_eq!(st["pending"][0]["run"], run.as_str(), "{st}");
    assert_eq!(st["best_commit"], best.as_str(), "{st}");
    let out = super::arx_in(fast, &["--json", "report"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = report.to_string();
    assert!(
        text.contains(&format!("\"pending\":{{\"run\":\"{run}\"")),
        "{text}"
    );
    let out = super::arx_in(fast, &["report"]);
    let human = String::from_utf8_lossy(&out.stdout);
    assert!(human.contains("pending (run"), "{human}");
    run
}

/// The slow class measures the fast class's pending keep (about 100.4
/// there against the best's 102.4): better, so the best moves to it.
fn confirmed() -> Result<(), Failed> {
    let f = serve();
    let (fast, slow) = (f.machine("fast", "fast"), f.machine("slow", "slow"));
    let run = pending_keep(&f, &fast, (98, 0));
    let before = f.remote_best();
    // The fleet's status shows it as the fast class's best, pending.
    let waiting = pending_rows(&slow);
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert_eq!(waiting[0]["run"], run.as_str());
    assert_eq!(waiting[0]["class"], "fast");
    assert_eq!(waiting[0]["needed"], 1);
    let (code, r) = try_in(&slow, "confirm");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert!(
        pending_rows(&slow).is_empty(),
        "still pending after it landed"
    );
    assert_eq!(r["ratchet"]["confirms"], run.as_str(), "{r}");
    assert_ne!(
        f.remote_best(),
        before,
        "the confirmed keep is not the best"
    );
    assert_eq!(remote(&f, &["show", "main:v.txt"]), "98");
    assert_eq!(remote(&f, &["rev-parse", "main^"]), before);
    // Settled: its ref is gone from the remote.
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    Ok(())
}

/// The fast class's keep also adds 5 on the slow class (about 105.4
/// there): the slow class does not find it better, it is refuted, and the
/// fleet's best stays where it was.
fn refuted() -> Result<(), Failed> {
    let f = serve();
    let (fast, slow) = (f.machine("fast", "fast"), f.machine("slow", "slow"));
    let run = pending_keep(&f, &fast, (98, 1));
    let before = f.remote_best();
    let (code, r) = try_in(&slow, "confirm");
    assert_ne!(status(&r), "keep", "{r}");
    assert_eq!(code, 1, "{r}");
    assert_eq!(f.remote_best(), before, "a refuted keep moved the best");
    assert_eq!(read(&slow, "v.txt"), "100");
    // The try's record is the slow class's verdict on the keep.
    let verdict: Vec<Value> = records(&slow)
        .into_iter()
        .filter(|r| r["ratchet"]["confirms"] == run.as_str())
        .collect();
    assert_eq!(verdict.len(), 1, "{:?}", records(&slow));
    // Refuted: its ref is gone from the remote.
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    // A refuted keep is not measured again.
    let again = super::arx_in(&slow, &["--json", "try", "-m", "again"]);
    let text = String::from_utf8_lossy(&again.stderr);
    assert!(!text.contains("measuring the keep of run"), "{text}");
    assert_eq!(f.remote_best(), before);
    Ok(())
}

/// The fast class keeps while the remote is down: its pending keep's ref
/// does not reach the remote. The next sync pushes it (`confirm.pushed`),
/// and the slow class then measures it and makes it the fleet's best.
fn pushed_again() -> Result<(), Failed> {
    let mut f = serve();
    let (fast, slow) = (f.machine("fast", "fast"), f.machine("slow", "slow"));
    let (code, r) = try_in(&fast, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let before = f.remote_best();
    f.daemon.down();
    std::fs::write(fast.join("v.txt"), "98\n").unwrap();
    let (code, r) = try_in(&fast, "lower the value");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["fleet_pending"], true, "{r}");
    let run = r["run_id"].as_str().unwrap().to_string();
    f.daemon.up();
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    let synced = sync_json(&fast);
    assert_eq!(synced["confirm"]["pushed"][0], run.as_str(), "{synced}");
    assert_eq!(
        pending_refs(&f),
        [format!("refs/arx/fleet/pending/{run}")],
        "the sync did not push the pending keep"
    );
    // Pushed once: a second sync has nothing to push.
    assert!(sync_json(&fast).get("confirm").is_none());
    let (code, r) = try_in(&slow, "confirm");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["confirms"], run.as_str(), "{r}");
    assert_eq!(remote(&f, &["show", "main:v.txt"]), "98");
    assert_eq!(remote(&f, &["rev-parse", "main^"]), before);
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    Ok(())
}

/// `confirm_classes = 3`: the fast class keeps, and the slow and the big
/// class measure its keep at once, each finding it better and each one
/// class short of three: the best unmoved. The fleet, the fast and the
/// slow machines, the keep's run and the best.
fn three_classes_at_once() -> (Fleet, PathBuf, PathBuf, String, String) {
    let f = serve_n(3);
    let fast = f.machine("fast", "fast");
    let (slow, big) = (f.machine("slow", "slow"), f.machine("big", "big"));
    let run = pending_keep(&f, &fast, (98, 0));
    let before = f.remote_best();
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    // At once whatever the load: each machine's pushes of its records wait
    // for the other's of the same rank, so neither's verdict reaches the
    // remote before the other has decided. (The experiment's barrier only
    // lines up their first runs: under load their runs drift apart, one
    // machine's verdict landed first, the other took it in between two
    // runs and, the third class, moved the best itself.)
    let hook = f.tmp.path().join("served/remote.git/hooks/pre-receive");
    let marks = f.tmp.path().join("pushes");
    std::fs::create_dir_all(&marks).unwrap();
    std::fs::write(&hook, lockstep(&marks)).unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let ts = super::spawn_try(&slow, "confirm on slow", &barrier, 2);
    let tb = super::spawn_try(&big, "confirm on big", &barrier, 2);
    let done = [super::finish(ts), super::finish(tb)];
    std::fs::remove_file(&hook).unwrap();
    for (code, r, err) in done {
        assert_eq!((code, status(&r)), (0, "keep".into()), "{r}\n{err}");
        assert_eq!(r["ratchet"]["confirms"], run.as_str(), "{r}");
        assert_eq!(r["ratchet"]["fleet_pending"], true, "{r}");
    }
    assert_eq!(f.remote_best(), before, "a try moved the best");
    (f, fast, slow, run, before)
}

/// The remote's `pre-receive` hook that pushes machines `slow` and `big`
/// in lockstep: a push of one's records, its k-th, waits (2 min at most)
/// until the other's k-th push has come too.
fn lockstep(marks: &Path) -> String {
    format!(
        r#"#!/bin/sh
while read old new ref; do
  case "$ref" in
    refs/arx/fleet/slow/records) me=slow; other=big ;;
    refs/arx/fleet/big/records) me=big; other=slow ;;
    *) continue ;;
  esac
  k=$(ls '{marks}' | grep -c "^$me\.")
  : > '{marks}'/$me.$k
  i=0
  while [ ! -e '{marks}'/$other.$k ] && [ $i -lt 1200 ]; do
    sleep 0.1; i=$((i + 1))
  done
done
exit 0
"#,
        marks = marks.display()
    )
}

/// The run's record on `dir`: (its commit, marked pending).
fn keep_record(dir: &Path, run: &str) -> (String, bool) {
    let r: Vec<Value> = records(dir)
        .into_iter()
        .filter(|r| r["run_id"] == run)
        .collect();
    assert_eq!(r.len(), 1, "{r:?}");
    let i = &r[0]["ratchet"];
    (
        i["commit"].as_str().unwrap_or("").to_string(),
        i["fleet_pending"] == true,
    )
}

/// As [`landed_by_sync`], the sync killed once its push landed, before
/// its record said so: the next sync completes the record here and
/// publishes it.
fn landing_killed() -> Result<(), Failed> {
    let (f, fast, slow, run, before) = three_classes_at_once();
    let out = std::process::Command::new(super::arx())
        .args(["fleet", "sync"])
        .current_dir(&fast)
        .env_remove("ARX_STATE_DIR")
        .env("ARX_FAILPOINT", "confirm:after-push")
        .output()
        .unwrap();
    assert!(!out.status.success(), "the failpoint was not reached");
    let best = f.remote_best();
    assert_ne!(best, before, "the push did not land");
    assert_eq!(keep_record(&fast, &run), (String::new(), true));
    let synced = sync_json(&fast);
    assert_eq!(synced["confirm"]["completed"], run.as_str(), "{synced}");
    assert_eq!(keep_record(&fast, &run), (best.clone(), false));
    // Published: the slow machine's journal has it too.
    super::sync(&slow);
    assert_eq!(keep_record(&slow, &run), (best.clone(), false));
    assert_eq!(f.remote_best(), best);
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    Ok(())
}

/// `confirm_classes = 3`. The slow and the big class measure the fast
/// class's keep at once: each finds it better, each sees one class short
/// of three, so neither moves the best. The records then show three
/// classes; `arx fleet sync` on the fast machine makes its keep the
/// fleet's best (`confirm.promoted`) and removes its ref.
fn landed_by_sync() -> Result<(), Failed> {
    let (f, fast, slow, run, before) = three_classes_at_once();
    let synced = sync_json(&fast);
    let promoted = &synced["confirm"]["promoted"];
    assert_eq!(promoted["run"], run.as_str(), "{synced}");
    assert_eq!(
        promoted["classes"],
        serde_json::json!(["big", "fast", "slow"])
    );
    assert_eq!(synced["best"], f.remote_best().as_str(), "{synced}");
    assert_eq!(remote(&f, &["show", "main:v.txt"]), "98");
    assert_eq!(remote(&f, &["rev-parse", "main^"]), before);
    assert_eq!(pending_refs(&f), Vec::<String>::new());
    // The keep's record, no longer pending, tells the fleet's best, on
    // every machine after a sync.
    super::sync(&slow);
    for dir in [&fast, &slow] {
        let kept: Vec<Value> = records(dir)
            .into_iter()
            .filter(|r| r["run_id"] == run.as_str())
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0]["ratchet"]["commit"], f.remote_best().as_str());
        assert!(
            kept[0]["ratchet"].get("fleet_pending").is_none(),
            "{}",
            kept[0]
        );
    }
    // A second sync does nothing more.
    assert!(sync_json(&fast).get("confirm").is_none());
    Ok(())
}
