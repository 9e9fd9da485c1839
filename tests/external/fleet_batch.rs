//! Keeps batched in a fleet (`[fleet] batch`), on a real `git daemon` on
//! loopback: keeps that lost the compare-and-swap race to another
//! machine's keep wait in the remote's merge queue and land together; a
//! batch whose combined tree fails puts each keep back to be measured
//! alone.

use std::path::{Path, PathBuf};
use std::process::Child;

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::fleet::wide::{add_lanes, lane};
use super::fleet::{
    bump, check_fleet, finish, git, git_daemon, records, score, spawn_try, status, sync, Fleet,
    CONFIG, SUM,
};
use crate::barrier::with_barrier;
use crate::needs::{arx, trial};

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_batch_keeps_that_lost_the_race_land_as_one_batch",
            git_daemon,
            |_| land_together(),
        ),
        trial(
            "fleet_batch_a_failed_batch_loses_no_keep_and_keeps_nothing_unconfirmed",
            git_daemon,
            |_| failed_batch(),
        ),
        trial(
            "fleet_batch_a_keep_killed_in_the_queue_is_taken_out_and_tried_again",
            git_daemon,
            |_| killed_in_queue(),
        ),
        trial(
            "fleet_batch_a_failed_batch_of_three_is_halved_and_its_good_half_lands",
            git_daemon,
            |_| halved(),
        ),
        trial(
            "fleet_batch_the_leads_lease_is_renewed_through_a_long_confirmation",
            git_daemon,
            |_| long_confirmation(),
        ),
        trial(
            "fleet_batch_a_lanes_keep_that_lost_the_race_joins_the_queue",
            git_daemon,
            |_| lane_batches(),
        ),
    ]
}

/// The score of `fleet.rs`, but `a.txt`, `b.txt` and `c.txt` raised all
/// three undo each other: any two are better, all three much worse.
fn clashing() -> String {
    clash_of(&["a", "b", "c"])
}

/// The score of `fleet.rs`, but all four files raised undo each other:
/// any three are better, all four much worse.
fn all_four_clash() -> String {
    clash_of(&["a", "b", "c", "d"])
}

/// The score of `fleet.rs` behind the barrier, but the files `names`
/// (`a` for `a.txt`) raised all together take 10 off.
fn clash_of(names: &[&str]) -> String {
    with_barrier(&format!(
        r#"m=$(( $(cat a.txt) + $(cat b.txt) + $(cat c.txt) + $(cat d.txt) ))
if {}; then
  m=$((m - 10))
fi
echo "__RESULT__ {{\"m\": $m}}"
"#,
        all_raised(names)
    ))
}

/// The score of `fleet.rs`, but a run of `a.txt`, `b.txt` and `c.txt`
/// raised all three (a batch on the first keep) takes 14 s: longer than
/// a lease of 10 s.
fn slow_batch() -> String {
    with_barrier(&format!(
        "if {}; then\n  sleep 14\nfi\n{SUM}",
        all_raised(&["a", "b", "c"])
    ))
}

/// The shell test that the files `names` (`a` for `a.txt`) are all raised
/// above 1.
fn all_raised(names: &[&str]) -> String {
    let raised: Vec<String> = names
        .iter()
        .map(|n| format!("[ \"$(cat {n}.txt)\" -gt 1 ]"))
        .collect();
    raised.join(" && ")
}

/// The score of `fleet.rs`, but lane `l1` decides half a second after
/// the others.
fn lane_later() -> String {
    with_barrier(&format!(
        r#"if [ -n "$ARX_SYNC" ] && [ "$(basename "$PWD")" = l1 ]; then sleep 0.5; fi
{SUM}"#
    ))
}

/// The score of `fleet.rs`, a run taking `ARX_SLOW` seconds more.
fn slow() -> String {
    format!("#!/bin/sh\nsleep \"${{ARX_SLOW:-0}}\"\n{SUM}")
}

fn batched_config() -> String {
    format!("{CONFIG}batch = 4\n")
}

/// Three machines, the baseline measured and known to all.
fn three(f: &Fleet) -> Vec<PathBuf> {
    machines(f, &["a", "b", "c"])
}

/// Machines named `names`, the baseline measured and known to all.
fn machines(f: &Fleet, names: &[&str]) -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = names.iter().map(|n| f.machine(n, "cpu-x")).collect();
    let out = std::process::Command::new(arx())
        .args(["--json", "try", "-m", "baseline"])
        .current_dir(&dirs[0])
        .env_remove("ARX_STATE_DIR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "baseline");
    for d in &dirs[1..] {
        sync(d);
    }
    dirs
}

/// Each machine raises its own file; all decide at once.
fn race(f: &Fleet, dirs: &[PathBuf]) -> Vec<(i32, Value, String)> {
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let children: Vec<Child> = dirs
        .iter()
        .zip(["a.txt", "b.txt", "c.txt", "d.txt"])
        .map(|(d, file)| {
            bump(d, file, 1);
            spawn_try(d, &format!("{file} up"), &barrier, dirs.len())
        })
        .collect();
    children.into_iter().map(finish).collect()
}

/// [`race`] at `--now` `now`, the queue's lead's expiry on the remote
/// followed meanwhile: each one it held.
fn race_at(f: &Fleet, dirs: &[PathBuf], now: &str) -> (Vec<(i32, Value, String)>, Vec<String>) {
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let mut children: Vec<Child> = dirs
        .iter()
        .zip(["a.txt", "b.txt", "c.txt", "d.txt"])
        .map(|(d, file)| {
            bump(d, file, 1);
            std::process::Command::new(arx())
                .args(["--json", "--now", now, "try", "-m", &format!("{file} up")])
                .current_dir(d)
                .env_remove("ARX_STATE_DIR")
                .env("NO_COLOR", "1")
                .env("ARX_SYNC", &barrier)
                .env("ARX_SYNC_WANT", dirs.len().to_string())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut expiries: Vec<String> = Vec::new();
    let t = std::time::Instant::now();
    while children.iter_mut().any(|c| c.try_wait().unwrap().is_none())
        && t.elapsed() < std::time::Duration::from_secs(180)
    {
        if let Some(e) = lead_expires(f).filter(|e| !expiries.contains(e)) {
            expiries.push(e);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (children.into_iter().map(finish).collect(), expiries)
}

/// When the queue's lead on the remote expires, if one holds it.
fn lead_expires(f: &Fleet) -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["show", "refs/arx/fleet/queue/lead:lease.json"])
        .current_dir(f.tmp.path().join("served/remote.git"))
        .output()
        .ok()?;
    let lease: Value = serde_json::from_slice(&out.stdout).ok()?;
    lease["expires"].as_str().map(str::to_string)
}

fn message(f: &Fleet, commit: &str) -> String {
    git(
        &f.tmp.path().join("served/remote.git"),
        &["log", "-1", "--format=%B", commit],
    )
}

fn remote_file(f: &Fleet, name: &str) -> String {
    git(
        &f.tmp.path().join("served/remote.git"),
        &["show", &format!("main:{name}")],
    )
}

fn batch_commits(f: &Fleet) -> usize {
    f.history()
        .iter()
        .filter(|(c, _)| message(f, c).contains("Arx-Batch:"))
        .count()
}

pub fn land_together() -> Result<(), Failed> {
    let f = Fleet::seeded(false, &batched_config(), &score());
    let dirs = three(&f);
    let before = f.remote_best();
    let done = race(&f, &dirs);
    let all: String = done
        .iter()
        .map(|(c, r, e)| format!("{c} {r}\n{e}\n"))
        .collect();
    for (code, r, _) in &done {
        assert_eq!((*code, status(r)), (0, "keep".to_string()), "{all}");
    }
    // One keep landed alone; the two that lost landed as one batch: two
    // commits that say so, on top of it (newest first).
    let history = f.history();
    assert_eq!(history.len(), 4, "{all}");
    assert_eq!(batch_commits(&f), 2, "{all}");
    assert!(message(&f, &history[0].0).contains("Arx-Batch:"), "{all}");
    assert!(message(&f, &history[1].0).contains("Arx-Batch:"), "{all}");
    assert_eq!(
        history[1].1, history[2].0,
        "the batch sits on the first keep"
    );
    assert_eq!(history[2].1, before);
    // Neither was measured again alone: the batch was measured once, by
    // its lead; the other keep's try is journaled as it landed.
    let lines: Vec<&str> = done.iter().map(|(_, _, e)| e.as_str()).collect();
    assert_eq!(
        lines
            .iter()
            .filter(|e| e.contains("leading a batch of 2 keeps"))
            .count(),
        1,
        "{all}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|e| e.contains("landed with a batch"))
            .count(),
        1,
        "{all}"
    );
    for file in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(remote_file(&f, file), "2", "{file}: {all}");
    }
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    // Each keep journaled once, as its own try, on every machine.
    let keeps: Vec<Value> = records(&dirs[2])
        .into_iter()
        .filter(|r| r["ratchet"]["status"] == "keep")
        .collect();
    assert_eq!(keeps.len(), 3, "{keeps:?}");
    // The queue is empty and its lead released.
    let refs = git(
        &f.tmp.path().join("served/remote.git"),
        &["for-each-ref", "refs/arx/fleet/queue/"],
    );
    assert_eq!(refs, "", "the queue is left with {refs}");
    Ok(())
}

pub fn failed_batch() -> Result<(), Failed> {
    let f = Fleet::seeded(false, &batched_config(), &clashing());
    let dirs = three(&f);
    let done = race(&f, &dirs);
    let all: String = done
        .iter()
        .map(|(c, r, e)| format!("{c} {r}\n{e}\n"))
        .collect();
    // The batch of the two that lost failed: neither was kept on its
    // strength. Each was measured again alone: the first to land is kept,
    // the other, on top of it, is measured worse and discarded.
    assert!(all.contains("failed on"), "{all}");
    assert_eq!(batch_commits(&f), 0, "a failed batch landed: {all}");
    let mut statuses: Vec<String> = done.iter().map(|(_, r, _)| status(r)).collect();
    statuses.sort();
    assert_eq!(statuses, ["discard", "keep", "keep"], "{all}");
    assert_eq!(f.history().len(), 3, "{all}");
    let raised = ["a.txt", "b.txt", "c.txt"]
        .iter()
        .filter(|n| remote_file(&f, n) == "2")
        .count();
    assert_eq!(raised, 2, "two of the three on the best: {all}");
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    let refs = git(
        &f.tmp.path().join("served/remote.git"),
        &["for-each-ref", "refs/arx/fleet/queue/"],
    );
    assert_eq!(refs, "", "the queue is left with {refs}");
    Ok(())
}

pub fn killed_in_queue() -> Result<(), Failed> {
    let f = Fleet::seeded(false, &batched_config(), &slow());
    let dirs = three(&f);
    let (a, b) = (&dirs[0], &dirs[1]);
    bump(a, "a.txt", 1);
    bump(b, "b.txt", 1);
    // b measures slowly: a keeps first, b loses the race, joins the
    // queue and is killed there.
    let run = |dir: &Path, envs: &[(&str, &str)]| {
        let mut cmd = std::process::Command::new(arx());
        cmd.args(["--json", "try", "-m", "up"])
            .current_dir(dir)
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.spawn().unwrap()
    };
    let tb = run(
        b,
        &[("ARX_SLOW", "3"), ("ARX_FAILPOINT", "batch:after-enqueue")],
    );
    let ta = run(a, &[]);
    let (code, r, err) = finish(ta);
    assert_eq!((code, status(&r)), (0, "keep".to_string()), "{r}\n{err}");
    let out = tb.wait_with_output().unwrap();
    assert!(out.status.code().is_none(), "b was not killed in the queue");
    let queue = git(
        &f.tmp.path().join("served/remote.git"),
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/arx/fleet/queue/",
        ],
    );
    assert!(queue.contains("refs/arx/fleet/queue/runs/"), "{queue}");
    // b's next try takes its keep out of the queue and tries it again.
    let out = std::process::Command::new(arx())
        .args(["--json", "try", "-m", "b up again"])
        .current_dir(b)
        .env_remove("ARX_STATE_DIR")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{err}"));
    assert_eq!(
        (out.status.code(), status(&r)),
        (Some(0), "keep".to_string()),
        "{r}\n{err}"
    );
    assert!(err.contains("taken out of it"), "{err}");
    assert_eq!(remote_file(&f, "b.txt"), "2");
    assert_eq!(remote_file(&f, "a.txt"), "2");
    let refs = git(
        &f.tmp.path().join("served/remote.git"),
        &["for-each-ref", "refs/arx/fleet/queue/"],
    );
    assert_eq!(refs, "", "the queue is left with {refs}");
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    Ok(())
}

fn queue_left(f: &Fleet) -> String {
    git(
        &f.tmp.path().join("served/remote.git"),
        &["for-each-ref", "refs/arx/fleet/queue/"],
    )
}

/// Runs the tries `done` measured in all (each try's record holds its
/// runs, its replays' included).
fn runs(done: &[(i32, Value, String)]) -> usize {
    done.iter()
        .map(|(_, r, _)| r["attempts"].as_array().map_or(1, |a| a.len().max(1)))
        .sum()
}

pub fn halved() -> Result<(), Failed> {
    let f = Fleet::seeded(false, &batched_config(), &all_four_clash());
    let dirs = machines(&f, &["a", "b", "c", "d"]);
    let done = race(&f, &dirs);
    let all: String = done
        .iter()
        .map(|(c, r, e)| format!("{c} {r}\n{e}\n"))
        .collect();
    eprintln!("four tries, a batch of 3 failing: {} runs", runs(&done));
    // One keep landed alone; the three that lost formed one batch, which
    // failed (all four files raised); it was halved: the lead's keep and
    // one other landed together on the first keep, the third was
    // measured alone on top of them and discarded.
    assert!(all.contains("leading a batch of 3 keeps"), "{all}");
    assert_eq!(batch_commits(&f), 2, "the good half did not land: {all}");
    assert!(all.contains("halved"), "{all}");
    let history = f.history();
    assert_eq!(history.len(), 4, "{all}");
    assert!(message(&f, &history[0].0).contains("(2 keeps)"), "{all}");
    let mut statuses: Vec<String> = done.iter().map(|(_, r, _)| status(r)).collect();
    statuses.sort();
    assert_eq!(statuses, ["discard", "keep", "keep", "keep"], "{all}");
    let raised = ["a.txt", "b.txt", "c.txt", "d.txt"]
        .iter()
        .filter(|n| remote_file(&f, n) == "2")
        .count();
    assert_eq!(raised, 3, "three of the four on the best: {all}");
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    assert_eq!(queue_left(&f), "", "the queue is left with entries");
    Ok(())
}

pub fn long_confirmation() -> Result<(), Failed> {
    let config = format!("{CONFIG}batch = 4\nlease = \"10s\"\n");
    let f = Fleet::seeded(false, &config, &slow_batch());
    let dirs = three(&f);
    let (done, expiries) = race_at(&f, &dirs, "2030-01-01T00:00:00Z");
    let all: String = done
        .iter()
        .map(|(c, r, e)| format!("{c} {r}\n{e}\n"))
        .collect();
    // The batch's run takes longer than a lease: its lead renews the
    // lease (dated by `--now`), the other keep waits on, and the batch
    // lands whole.
    assert!(all.contains("leading a batch of 2 keeps"), "{all}");
    assert!(
        expiries.len() >= 2,
        "the lead was not renewed: {expiries:?}"
    );
    assert!(
        expiries.iter().all(|e| e.starts_with("2030-01-01T00:0")),
        "the lead's lease is not dated by --now: {expiries:?}"
    );
    for (code, r, _) in &done {
        assert_eq!((*code, status(r)), (0, "keep".to_string()), "{all}");
    }
    assert_eq!(batch_commits(&f), 2, "the batch did not land: {all}");
    assert!(!all.contains("failed on"), "{all}");
    assert_eq!(f.history().len(), 4, "{all}");
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    assert_eq!(queue_left(&f), "", "the queue is left with entries");
    Ok(())
}

pub fn lane_batches() -> Result<(), Failed> {
    let f = Fleet::seeded(false, &batched_config(), &lane_later());
    let dirs = three(&f);
    add_lanes(&dirs[0], &["l1"]);
    let l1 = lane(&dirs[0], "l1");
    // Machines b and c and lane l1 of machine a each raise a file and
    // decide at once, the lane last: one of b and c keeps first, and the
    // lane's keep, which lost the race, waits in the queue as the other
    // machine's does: the two land as one batch.
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let racers = [(&dirs[1], "b.txt"), (&dirs[2], "c.txt"), (&l1, "d.txt")];
    let children: Vec<Child> = racers
        .iter()
        .map(|(d, file)| {
            bump(d, file, 1);
            spawn_try(d, &format!("{file} up"), &barrier, racers.len())
        })
        .collect();
    let done: Vec<(i32, Value, String)> = children.into_iter().map(finish).collect();
    let all: String = done
        .iter()
        .map(|(c, r, e)| format!("{c} {r}\n{e}\n"))
        .collect();
    for (code, r, _) in &done {
        assert_eq!((*code, status(r)), (0, "keep".to_string()), "{all}");
    }
    let lane_said = &done[2].2;
    assert!(
        lane_said.contains("merge queue"),
        "the lane's keep did not join the queue: {all}"
    );
    assert_eq!(batch_commits(&f), 2, "no batch landed: {all}");
    assert_eq!(f.history().len(), 4, "{all}");
    for file in ["b.txt", "c.txt", "d.txt"] {
        assert_eq!(remote_file(&f, file), "2", "{file}: {all}");
    }
    // The lane's record is journaled once, as its own try, with its lane.
    sync(&dirs[1]);
    let lane_keeps = records(&dirs[1])
        .into_iter()
        .filter(|r| r["ratchet"]["status"] == "keep" && r["ratchet"]["lane"] == "l1")
        .count();
    assert_eq!(lane_keeps, 1, "{all}");
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    assert_eq!(queue_left(&f), "", "the queue is left with entries");
    Ok(())
}
