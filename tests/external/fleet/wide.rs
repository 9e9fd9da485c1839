//! A fleet whose machines run lanes, at scale: lanes inside a machine
//! keep on the fleet's best and hold their claims apart; three machines of
//! three lanes run sixty tries at once; `arx fleet sync` pushes (or
//! replays) a keep held while the remote was down; a lease renewed under
//! `--now` keeps to that time.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::{
    arx_in, backlog, bump, check_fleet, finish, git, records, spawn_try, status, sync, try_in,
    Fleet,
};
use crate::needs::trial;

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_lanes_inside_a_machine_keep_on_the_fleets_best",
            super::git_daemon,
            |_| lanes_inside_a_machine(),
        ),
        trial(
            "fleet_three_machines_of_three_lanes_run_sixty_tries_at_once",
            super::git_daemon,
            |_| sixty_tries_at_once(),
        ),
        trial(
            "fleet_sync_pushes_a_pending_keep_or_replays_it",
            super::git_daemon,
            |_| sync_pushes_pending(),
        ),
        trial(
            "fleet_a_lanes_pending_keep_overtaken_is_tried_again_on_the_best",
            super::git_daemon,
            |_| lanes_pending_overtaken(),
        ),
        trial(
            "fleet_a_lease_renewed_under_now_keeps_to_that_time",
            super::git_daemon,
            |_| renewal_under_now(),
        ),
        trial(
            "fleet_status_shows_each_lanes_try_of_a_machine",
            super::git_daemon,
            |_| status_shows_each_lane(),
        ),
    ]
}

/// Lane `name` of the machine at `machine` (`arx lane add` puts it beside
/// the clone).
pub(crate) fn lane(machine: &Path, name: &str) -> PathBuf {
    let base = machine.file_name().unwrap().to_string_lossy().into_owned();
    machine.with_file_name(format!("{base}.lanes")).join(name)
}

pub(crate) fn add_lanes(machine: &Path, names: &[&str]) {
    let mut args = vec!["lane", "add"];
    args.extend(names);
    let out = arx_in(machine, &args);
    assert!(
        out.status.success(),
        "lane add: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The claims on the remote: (idea's ref name, its lease).
fn leases(f: &Fleet) -> Vec<(String, Value)> {
    let remote = f.tmp.path().join("served/remote.git");
    let refs = git(
        &remote,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/arx/fleet/claims/",
        ],
    );
    refs.lines()
        .filter_map(|r| {
            // A claim released between the listing and the read is gone.
            let out = std::process::Command::new("git")
                .args(["show", &format!("{r}:lease.json")])
                .current_dir(&remote)
                .output()
                .ok()?;
            let lease = serde_json::from_slice(&out.stdout).ok()?;
            Some((
                r.trim_start_matches("refs/arx/fleet/claims/").to_string(),
                lease,
            ))
        })
        .collect()
}

fn commit_of(r: &Value) -> String {
    r["ratchet"]["commit"].as_str().unwrap_or("").to_string()
}

fn lanes_inside_a_machine() -> Result<(), Failed> {
    let f = Fleet::new();
    let x = f.machine("x", "cpu-x");
    let y = f.machine("y", "cpu-x");
    assert_eq!(try_in(&x, "baseline").0, 0);
    add_lanes(&x, &["l1", "l2"]);
    let (l1, l2) = (lane(&x, "l1"), lane(&x, "l2"));
    // A lane's keep is the fleet's: pushed as the remote's best.
    bump(&l1, "a.txt", 1);
    let (code, r) = try_in(&l1, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert!(!r.to_string().contains("pending"), "{r}");
    assert_eq!(
        f.remote_best(),
        commit_of(&r),
        "the lane's keep is not the fleet's best"
    );
    // Another machine keeps on it; the next lane keeps on that, and the
    // machine's best branch and main working tree follow.
    bump(&y, "b.txt", 1);
    let (code, ry) = try_in(&y, "b up");
    assert_eq!((code, status(&ry)), (0, "keep".into()), "{ry}");
    assert_eq!(ry["ratchet"]["kept"], commit_of(&r).as_str());
    bump(&l2, "c.txt", 1);
    let (code, r) = try_in(&l2, "c up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["kept"], commit_of(&ry).as_str());
    assert_eq!(f.remote_best(), commit_of(&r));
    assert_eq!(git(&x, &["rev-parse", "main"]), f.remote_best());
    assert_eq!(std::fs::read_to_string(x.join("b.txt")).unwrap(), "2\n");
    // Two lanes and another machine decide at once: one best, linear.
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    bump(&l1, "d.txt", 1);
    bump(&l2, "a.txt", 1);
    bump(&y, "b.txt", 1);
    let children = vec![
        spawn_try(&l1, "d up", &barrier, 3),
        spawn_try(&l2, "a up again", &barrier, 3),
        spawn_try(&y, "b up again", &barrier, 3),
    ];
    for c in children {
        let (code, r, err) = finish(c);
        assert_eq!((code, status(&r)), (0, "keep".into()), "{r}\n{err}");
    }
    check_fleet(&f, &[&x, &y]);
    assert_eq!(f.history().len(), 7, "{:?}", f.history());
    // Each lane's records travel in the machine's chain.
    let lanes: HashSet<String> = records(&y)
        .iter()
        .filter_map(|r| r["ratchet"]["lane"].as_str().map(str::to_string))
        .collect();
    assert_eq!(lanes, HashSet::from(["l1".into(), "l2".into()]));
    // Claims are per lane: each lane of x holds its own, named.
    backlog(&[&x, &y]);
    let mut given = Vec::new();
    for name in ["l1", "l2"] {
        let out = arx_in(&x, &["--json", "next", "--greedy", "--lane", name]);
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("next: {}", String::from_utf8_lossy(&out.stderr)));
        given.push(v["idea"].as_str().unwrap().to_string());
    }
    assert_ne!(given[0], given[1]);
    let mut held: Vec<(String, String, String)> = leases(&f)
        .into_iter()
        .map(|(idea, l)| {
            (
                idea,
                l["machine"].as_str().unwrap_or("").to_string(),
                l["lane"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    held.sort();
    let mut want = vec![
        (given[0].clone(), "x".to_string(), "l1".to_string()),
        (given[1].clone(), "x".to_string(), "l2".to_string()),
    ];
    want.sort();
    assert_eq!(held, want);
    // A lane's try of its own idea renews and then releases its claim;
    // the other lane's claim stays.
    bump(&l1, "c.txt", 1);
    let out = arx_in(
        &x,
        &[
            "--json",
            "try",
            "--lane",
            "l1",
            "--idea",
            &given[0],
            "-m",
            "c up again",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<String> = leases(&f).into_iter().map(|(i, _)| i).collect();
    assert_eq!(left, vec![given[1].clone()]);
    Ok(())
}

/// The experiment of the scale test: the sum of the numbers in every
/// `*.txt`, each lane changing a file of its own.
const SCORE_ALL: &str = r#"#!/bin/sh
s=0
for f in *.txt; do s=$((s + $(cat "$f"))); done
echo "__RESULT__ {\"m\": $s}"
"#;

/// One lane's tries: each takes the idea `arx next --lane` gives (claimed
/// fleet-wide), makes its change, and tries it. (idea, exit code, status,
/// stderr) for each.
fn lane_loop(machine: &Path, name: &str, file: &str, tries: usize) -> Vec<(String, i32, String)> {
    let dir = lane(machine, name);
    let mut out = Vec::new();
    for n in 0..tries {
        let next = arx_in(machine, &["--json", "next", "--greedy", "--lane", name]);
        let v: Value = serde_json::from_slice(&next.stdout)
            .unwrap_or_else(|_| panic!("next: {}", String::from_utf8_lossy(&next.stderr)));
        let idea = v["idea"]
            .as_str()
            .unwrap_or_else(|| panic!("no idea for lane {name}: {v}"))
            .to_string();
        bump(&dir, file, 1);
        let message = format!("{name} {file} up {n}");
        let t = arx_in(
            machine,
            &[
                "--json", "try", "--lane", name, "--idea", &idea, "-m", &message,
            ],
        );
        let code = t.status.code().unwrap_or(-1);
        let r: Value = serde_json::from_slice(&t.stdout)
            .unwrap_or_else(|_| panic!("try ({code}): {}", String::from_utf8_lossy(&t.stderr)));
        let st = status(&r);
        assert!(
            matches!(
                st.as_str(),
                "keep" | "stale" | "already_in_best" | "discard"
            ),
            "lane {name}: {code} {r}\n{}",
            String::from_utf8_lossy(&t.stderr)
        );
        out.push((idea, code, st));
    }
    out
}

fn sixty_tries_at_once() -> Result<(), Failed> {
    let t0 = Instant::now();
    let f = Fleet::new();
    // A file for each of the nine lanes, on the remote before the others
    // clone it.
    let first = f.machine("m1", "cpu-x");
    std::fs::write(first.join("score.sh"), SCORE_ALL).unwrap();
    for i in 0..9 {
        std::fs::write(first.join(format!("lane{i}.txt")), "1\n").unwrap();
    }
    git(&first, &["add", "-A"]);
    git(&first, &["commit", "-qm", "a file for each lane"]);
    git(&first, &["push", "-q", "origin", "main"]);
    let mut machines = vec![first];
    machines.extend(["m2", "m3"].iter().map(|n| f.machine(n, "cpu-x")));
    assert_eq!(try_in(&machines[0], "baseline").0, 0);
    for m in &machines {
        sync(m);
        add_lanes(m, &["l1", "l2", "l3"]);
    }
    // Sixty-six ideas, added on the first machine, on every machine.
    for n in 0..66 {
        let out = arx_in(
            &machines[0],
            &[
                "idea",
                "add",
                "--family",
                &format!("f{}", n % 6),
                &format!("idea {n}"),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for m in &machines {
        sync(m);
    }
    // Nine lanes, sixty tries in all.
    let plan: Vec<(usize, &str, usize)> = (0..9)
        .map(|i| (i / 3, ["l1", "l2", "l3"][i % 3], if i < 6 { 7 } else { 6 }))
        .collect();
    assert_eq!(plan.iter().map(|p| p.2).sum::<usize>(), 60);
    let results: Vec<Vec<(String, i32, String)>> = std::thread::scope(|s| {
        let runs: Vec<_> = plan
            .iter()
            .enumerate()
            .map(|(i, &(m, name, tries))| {
                let dir = &machines[m];
                s.spawn(move || lane_loop(dir, name, &format!("lane{i}.txt"), tries))
            })
            .collect();
        runs.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let all: Vec<&(String, i32, String)> = results.iter().flatten().collect();
    assert_eq!(all.len(), 60);
    let keeps = all.iter().filter(|(_, _, s)| s == "keep").count();
    let paths: Vec<&Path> = machines.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    // Every try is in every machine's journal; no idea ran twice at once
    // (an idea discarded at one best may be given again at a later one).
    let mut by_idea: HashMap<String, Vec<(String, String, String)>> = HashMap::new();
    for r in records(&machines[0]) {
        if let Some(idea) = r["ratchet"]["idea"].as_str() {
            let text = |k: &str| r[k].as_str().unwrap_or("").to_string();
            by_idea.entry(idea.to_string()).or_default().push((
                text("started_at"),
                text("ended_at"),
                text("cwd"),
            ));
        }
    }
    let tried: usize = by_idea.values().map(Vec::len).sum();
    assert_eq!(tried, 60, "the merged journal lacks tries");
    for (idea, mut runs) in by_idea {
        runs.sort();
        for w in runs.windows(2) {
            assert!(w[0].1 <= w[1].0, "idea {idea} ran twice at once: {w:?}");
        }
    }
    let count = |st: &str| all.iter().filter(|(_, _, s)| s == st).count();
    eprintln!(
        "sixty tries on 3 machines x 3 lanes: {keeps} keeps, {} stale, {} already in the best, \
         {} discards, {} ideas; {:.0} s",
        count("stale"),
        count("already_in_best"),
        count("discard"),
        all.iter().map(|(i, _, _)| i).collect::<HashSet<_>>().len(),
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(
        f.history().len(),
        keeps + 2,
        "a keep is not on the remote's best"
    );
    // Each change is its own: every try keeps, once replayed onto the
    // keeps that came first.
    assert_eq!(keeps, 60);
    Ok(())
}

fn sync_pushes_pending() -> Result<(), Failed> {
    let mut f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    assert_eq!(try_in(&a, "baseline").0, 0);
    sync(&b);
    // Held while the remote is down, pushed by the sync that reaches it.
    f.daemon.down();
    bump(&a, "a.txt", 1);
    let (code, r) = try_in(&a, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    // The report and the status say it is pending.
    for cmd in ["report", "status"] {
        let out = arx_in(&a, &[cmd]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is pending"), "arx {cmd}: {err}");
    }
    f.daemon.up();
    let out = arx_in(&a, &["--json", "fleet", "sync"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        f.remote_best(),
        commit_of(&r),
        "the sync did not push the pending keep"
    );
    assert_eq!(report["pending"]["outcome"], "pushed", "{report}");
    assert!(!a.join(".arx/fleet-pending.json").exists());
    let out = arx_in(&a, &["report"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("is pending"));
    // Held again; another machine keeps meanwhile: the sync replays it.
    f.daemon.down();
    bump(&a, "c.txt", 1);
    let (code, r) = try_in(&a, "c up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    f.daemon.up();
    bump(&b, "b.txt", 1);
    let (code, rb) = try_in(&b, "b up");
    assert_eq!((code, status(&rb)), (0, "keep".into()), "{rb}");
    let out = arx_in(&a, &["--json", "fleet", "sync"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["pending"]["outcome"], "replayed", "{report}");
    assert_eq!(f.remote_best(), commit_of(&rb));
    // a's working tree is on the fleet's best with its change as work.
    assert_eq!(git(&a, &["rev-parse", "HEAD"]), commit_of(&rb));
    assert_eq!(std::fs::read_to_string(a.join("b.txt")).unwrap(), "2\n");
    assert_eq!(std::fs::read_to_string(a.join("c.txt")).unwrap(), "2\n");
    // Its next try measures the change on the new best.
    let (code, r) = try_in(&a, "c up again");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["kept"], commit_of(&rb).as_str());
    check_fleet(&f, &[&a, &b]);
    Ok(())
}

fn lanes_pending_overtaken() -> Result<(), Failed> {
    let mut f = Fleet::new();
    let x = f.machine("x", "cpu-x");
    let y = f.machine("y", "cpu-x");
    assert_eq!(try_in(&x, "baseline").0, 0);
    sync(&y);
    add_lanes(&x, &["l1"]);
    let l1 = lane(&x, "l1");
    f.daemon.down();
    bump(&l1, "a.txt", 1);
    let (code, r) = try_in(&l1, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert!(r.to_string().contains("pending"), "{r}");
    f.daemon.up();
    bump(&y, "b.txt", 1);
    let (code, ry) = try_in(&y, "b up");
    assert_eq!((code, status(&ry)), (0, "keep".into()), "{ry}");
    // The sync, from the machine's main working tree, finds it overtaken:
    // the branch the lanes keep on follows the fleet's best again.
    let out = arx_in(&x, &["--json", "fleet", "sync"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["pending"]["outcome"], "replayed", "{report}");
    assert_eq!(git(&x, &["rev-parse", "main"]), commit_of(&ry));
    assert_eq!(std::fs::read_to_string(x.join("a.txt")).unwrap(), "1\n");
    assert_eq!(std::fs::read_to_string(x.join("b.txt")).unwrap(), "2\n");
    // The lane tries its change again, on the fleet's best.
    let (code, r) = try_in(&l1, "a up again");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["kept"], commit_of(&ry).as_str());
    assert_eq!(f.remote_best(), commit_of(&r));
    check_fleet(&f, &[&x, &y]);
    Ok(())
}

fn renewal_under_now() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    // A short lease: renewed every 3 s.
    let toml = a.join("arx.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}lease = \"10s\"\n")).unwrap();
    let ids = backlog(&[&a, &b]);
    assert_eq!(try_in(&a, "baseline").0, 0);
    bump(&a, "a.txt", 1);
    // The run waits about 4 s at a barrier nobody else reaches.
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let mut child = std::process::Command::new(crate::needs::arx())
        .args([
            "--json",
            "--now",
            "2030-01-01T00:00:00Z",
            "try",
            "--idea",
            &ids[0],
        ])
        .args(["-m", "a up"])
        .current_dir(&a)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .env("ARX_SYNC", &barrier)
        .env("ARX_SYNC_WANT", "2")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen: Vec<String> = Vec::new();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() && t.elapsed() < Duration::from_secs(60) {
        for (_, l) in leases(&f) {
            let e = l["expires"].as_str().unwrap_or("").to_string();
            if !seen.contains(&e) {
                seen.push(e);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, r, err) = finish(child);
    assert_eq!(code, 0, "{r}\n{err}");
    assert_eq!(
        seen.first().map(String::as_str),
        Some("2030-01-01T00:00:10Z"),
        "{seen:?}"
    );
    assert!(seen.len() >= 2, "the lease was never renewed: {seen:?}");
    for e in &seen {
        assert!(
            e.starts_with("2030-01-01T00:00:"),
            "a renewal did not keep to --now: {seen:?}"
        );
    }
    Ok(())
}

/// The experiment, held (at most 60 s) until the test writes `go` in
/// `$ARX_SYNC`, once it has said it started.
const HELD: &str = r#"#!/bin/sh
if [ -n "$ARX_SYNC" ]; then
  : > "$ARX_SYNC/$(basename "$PWD")"
  i=0
  while [ ! -e "$ARX_SYNC/go" ] && [ $i -lt 3000 ]; do
    sleep 0.02; i=$((i + 1))
  done
fi
echo "__RESULT__ {\"m\": $(( $(cat a.txt) + $(cat b.txt) + $(cat c.txt) + $(cat d.txt) ))}"
"#;

/// Machine x's working trees' tries in `arx --json fleet status --fetch`
/// on `dir`: (lane, what it tries), by lane.
fn tries_of_x(dir: &Path) -> Vec<(String, String)> {
    let out = arx_in(dir, &["--json", "fleet", "status", "--fetch"]);
    let st: Value = serde_json::from_slice(&out.stdout).unwrap();
    let x = st["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["machine"] == "x")
        .cloned()
        .unwrap_or_default();
    let tries = x["tries"].as_array().cloned().unwrap_or_default();
    tries
        .iter()
        .map(|t| {
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            (s(&t["lane"]), s(&t["trying"]))
        })
        .collect()
}

/// Two lanes of machine x try at once: `arx fleet status` on machine y
/// shows both tries, each with its lane (it showed one before, the lane
/// that synced last), and none once they ended.
fn status_shows_each_lane() -> Result<(), Failed> {
    let f = Fleet::seeded(false, super::CONFIG, HELD);
    let x = f.machine("x", "cpu-x");
    let y = f.machine("y", "cpu-x");
    assert_eq!(try_in(&x, "baseline").0, 0);
    add_lanes(&x, &["l1", "l2"]);
    let (l1, l2) = (lane(&x, "l1"), lane(&x, "l2"));
    bump(&l1, "a.txt", 1);
    bump(&l2, "b.txt", 1);
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let t1 = spawn_try(&l1, "a up", &barrier, 2);
    let t2 = spawn_try(&l2, "b up", &barrier, 2);
    let started = Instant::now();
    while !(barrier.join("l1").exists() && barrier.join("l2").exists()) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the lanes never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let tries = tries_of_x(&y);
    let human = String::from_utf8_lossy(&arx_in(&y, &["fleet", "status"]).stdout).to_string();
    std::fs::write(barrier.join("go"), "").unwrap();
    let (c1, r1, e1) = finish(t1);
    let (c2, r2, e2) = finish(t2);
    assert_eq!((c1, c2), (0, 0), "{r1}\n{e1}\n{r2}\n{e2}");
    assert_eq!(
        tries,
        [("l1".into(), "a up".into()), ("l2".into(), "b up".into())],
        "{human}"
    );
    assert!(
        human.contains("x/l1") && human.contains("trying a up"),
        "{human}"
    );
    assert!(
        human.contains("x/l2") && human.contains("trying b up"),
        "{human}"
    );
    // Both ended: machine x tries nothing.
    assert_eq!(tries_of_x(&y), Vec::<(String, String)>::new());
    Ok(())
}
