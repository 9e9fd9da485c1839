//! Lanes of one fleet machine share its repository: the claims they
//! fetch and push, the fetched refs and the objects. Four lanes of one
//! machine claim ideas, try and keep them at once, while other commands
//! of the same machine fetch the remote again and again; another machine
//! moves the remote's refs meanwhile. And a fetch that reads the remote
//! between the two refs of another machine's keep (its record, not yet
//! its best) leaves the lanes a best they can replay onto.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::wide::{add_lanes, lane};
use super::{arx_in, bump, check_fleet, git, records, status, sync, try_in, Fleet};
use crate::needs::trial;

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_lanes_of_one_machine_claim_and_fetch_at_once",
            super::git_daemon,
            |_| claim_and_fetch_at_once(),
        ),
        trial(
            "fleet_a_keeps_record_fetched_before_its_best_waits_for_it",
            super::git_daemon,
            |_| record_before_its_best(),
        ),
    ]
}

/// How long the lanes go on starting tries.
const FOR: Duration = Duration::from_secs(25);

/// What a command's stderr must never say with the remote up the whole
/// time: a lane refused its own idea, a fetch that collided with another
/// of the machine's taken for an unreachable remote, a commit another
/// lane's fetch made unreadable.
const NEVER: [&str; 4] = [
    "is being tried by",
    "did not answer",
    "is not in this repository",
    "error:",
];

fn said(what: &str, out: &Output) -> Option<String> {
    let err = String::from_utf8_lossy(&out.stderr);
    let bad = NEVER.iter().find(|n| err.contains(*n));
    (bad.is_some() || !matches!(out.status.code(), Some(0 | 1)))
        .then(|| format!("{what} ({:?}): {err}", out.status.code()))
}

/// One lane's tries until the time is up: each on the idea `arx next`
/// claimed for it, changing a file of its own. The tries' statuses.
fn lane_loop(machine: &Path, name: &str, file: &str, stop: &AtomicBool, bad: &Mutex<Vec<String>>) {
    let dir = lane(machine, name);
    let started = Instant::now();
    let mut n = 0;
    while started.elapsed() < FOR && !stop.load(Ordering::Relaxed) {
        let next = arx_in(machine, &["--json", "next", "--greedy", "--lane", name]);
        if let Some(b) = said(&format!("lane {name}: next"), &next) {
            bad.lock().unwrap().push(b);
            continue;
        }
        let v: Value = serde_json::from_slice(&next.stdout).unwrap_or_default();
        let Some(idea) = v["idea"].as_str().map(str::to_string) else {
            break;
        };
        bump(&dir, file, 1);
        n += 1;
        let message = format!("{name} {file} up {n}");
        let t = arx_in(
            machine,
            &[
                "--json", "try", "--lane", name, "--idea", &idea, "-m", &message,
            ],
        );
        if let Some(b) = said(&format!("lane {name}: try of {idea}"), &t) {
            bad.lock().unwrap().push(b);
            continue;
        }
        let r: Value = serde_json::from_slice(&t.stdout).unwrap_or_default();
        if !matches!(status(&r).as_str(), "keep" | "stale" | "already_in_best") {
            bad.lock()
                .unwrap()
                .push(format!("lane {name}: try of {idea}: {r}"));
        }
    }
}

/// `args` run in `dir` again and again until `stop`: each must succeed
/// and say nothing of a remote that did not answer.
fn again(dir: &Path, args: &[&str], stop: &AtomicBool, bad: &Mutex<Vec<String>>) -> usize {
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let out = arx_in(dir, args);
        if let Some(b) = said(&format!("{args:?} in {}", dir.display()), &out) {
            bad.lock().unwrap().push(b);
        }
        n += 1;
    }
    n
}

fn claim_and_fetch_at_once() -> Result<(), Failed> {
    let t0 = Instant::now();
    let f = Fleet::new();
    let m = f.machine("m1", "cpu-x");
    let other = f.machine("m2", "cpu-x");
    assert_eq!(try_in(&m, "baseline").0, 0);
    sync(&other);
    let names = ["l1", "l2", "l3", "l4"];
    add_lanes(&m, &names);
    for n in 0..80 {
        let out = arx_in(&m, &["idea", "add", &format!("idea {n}")]);
        assert!(out.status.success());
    }
    sync(&m);
    let stop = AtomicBool::new(false);
    let bad = Mutex::new(Vec::new());
    let files = ["a.txt", "b.txt", "c.txt", "d.txt"];
    let fetches = std::thread::scope(|s| {
        let fetchers = [
            s.spawn(|| again(&m, &["--json", "fleet", "status"], &stop, &bad)),
            s.spawn(|| again(&m, &["--json", "fleet", "status"], &stop, &bad)),
            s.spawn(|| again(&other, &["--json", "fleet", "sync"], &stop, &bad)),
        ];
        let lanes: Vec<_> = names
            .iter()
            .zip(files)
            .map(|(name, file)| {
                let (m, stop, bad) = (&m, &stop, &bad);
                s.spawn(move || lane_loop(m, name, file, stop, bad))
            })
            .collect();
        for l in lanes {
            l.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        fetchers.map(|t| t.join().unwrap())
    });
    let bad = bad.into_inner().unwrap();
    let tried = records(&m)
        .iter()
        .filter(|r| r["ratchet"]["idea"].is_string())
        .count();
    eprintln!(
        "four lanes of one machine: {tried} tries, {} fetches beside them, {} failures; {:.0} s",
        fetches.iter().sum::<usize>(),
        bad.len(),
        t0.elapsed().as_secs_f64()
    );
    if !bad.is_empty() {
        return Err(bad.join("\n---\n").into());
    }
    assert!(tried >= 4, "too few tries to tell: {tried}");
    let paths: Vec<PathBuf> = vec![m.clone(), other.clone()];
    for p in &paths {
        sync(p);
    }
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    Ok(())
}

/// The keeps' commits in `dir`'s journal that its repository lacks.
fn keeps_missing(dir: &Path) -> Vec<String> {
    records(dir)
        .iter()
        .filter(|r| status(r) == "keep")
        .filter_map(|r| r["ratchet"]["commit"].as_str().map(str::to_string))
        .filter(|c| {
            let out = std::process::Command::new("git")
                .args(["cat-file", "-e", &format!("{c}^{{commit}}")])
                .current_dir(dir)
                .output()
                .unwrap();
            !out.status.success()
        })
        .collect()
}

fn record_before_its_best() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    assert_eq!(try_in(&a, "baseline").0, 0);
    sync(&b);
    add_lanes(&b, &["l1"]);
    bump(&a, "a.txt", 1);
    let (code, r) = try_in(&a, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    let keep = f.remote_best();
    // What a fetch reads when it lists the remote's refs between the two
    // of that keep's atomic push (git moves them one after the other):
    // the machine's chain with the keep's record, its best not yet.
    let remote = f.tmp.path().join("served/remote.git");
    let parent = git(&remote, &["rev-parse", &format!("{keep}~1")]);
    git(&remote, &["update-ref", "refs/heads/main", &parent, &keep]);
    // A lane of the other machine tries meanwhile (a change for the
    // worse): decided against the best it has, not a commit it lacks.
    bump(&lane(&b, "l1"), "b.txt", -1);
    let out = arx_in(&b, &["--json", "try", "--lane", "l1", "-m", "b down"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("not in this repository"), "{err}");
    assert_eq!(keeps_missing(&b), Vec::<String>::new(), "{err}");
    // The best arrives: the keep's record comes in with it, and the lane
    // keeps on it.
    git(&remote, &["update-ref", "refs/heads/main", &keep, &parent]);
    sync(&b);
    assert!(
        records(&b)
            .iter()
            .any(|r| r["ratchet"]["commit"] == keep.as_str()),
        "the keep's record did not come in with its best"
    );
    bump(&lane(&b, "l1"), "b.txt", 2);
    let out = arx_in(&b, &["--json", "try", "--lane", "l1", "-m", "b up"]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(
        (out.status.code(), status(&r)),
        (Some(0), "keep".into()),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(r["ratchet"]["kept"], keep.as_str());
    sync(&a);
    check_fleet(&f, &[&a, &b]);
    Ok(())
}
