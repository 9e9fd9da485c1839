//! A fleet on a real git server on loopback: `git daemon` with
//! receive-pack on 127.0.0.1, started and stopped by each test, and clones
//! of it as machines (each with its own `arx.machine` and `arx.class`).
//! The experiment's metric is the sum of the numbers in `a.txt` … `d.txt`,
//! to be maximised.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use crate::barrier::with_barrier;
use crate::needs::{arx, trial};

#[path = "fleet_classes.rs"]
mod classes;
#[path = "fleet_confirm.rs"]
mod confirm;
pub(super) mod fresh;
pub(super) mod lane_race;
pub(super) mod twice;
pub(super) mod wide;

/// The experiment's result: the sum of the numbers in `a.txt` … `d.txt`.
pub(super) const SUM: &str = r#"echo "__RESULT__ {\"m\": $(( $(cat a.txt) + $(cat b.txt) + $(cat c.txt) + $(cat d.txt) ))}"
"#;

/// The experiment ([`SUM`]) behind the barrier: held (at most 4 s) until
/// `$ARX_SYNC_WANT` machines have started their run, so that their tries
/// are decided at the same time.
pub(super) fn score() -> String {
    with_barrier(SUM)
}

/// The experiment of the class tests, lowered, without its `#!/bin/sh`
/// line: the number in `v.txt`, plus `slow` (an awk expression) on
/// machines of the class `slow` (the clone's `git config arx.class`),
/// plus a noise that cycles with the clone's runs (-1, 1, -0.5, 0.5, 0:
/// σ ≈ 0.79). `more` names other files read into awk variables, as
/// (variable, file).
pub(super) fn class_offset_run(slow: &str, more: &[(&str, &str)]) -> String {
    let vars: String = more
        .iter()
        .map(|(var, file)| format!(" -v {var}=\"$(cat {file})\""))
        .collect();
    format!(
        r#"n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
class=$(git config arx.class)
awk -v v="$(cat v.txt)"{vars} -v n="$n" -v class="$class" 'BEGIN {{
  split("-1 1 -0.5 0.5 0", noise, " ")
  off = (class == "slow") ? {slow} : 0
  printf "__RESULT__ {{\"m\": %.4f}}\n", v + off + noise[(n % 5) + 1]
}}'
"#
    )
}

pub(super) const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = 1
baseline_repeat = 1
rule = "strict"

[fleet]
remote = "origin"
"#;

pub fn trials() -> Vec<Trial> {
    vec![
        trial("fleet_keeps_travel_and_journals_agree", git_daemon, |_| {
            keeps_travel_and_journals_agree()
        }),
        trial(
            "fleet_a_lost_race_is_replayed_and_measured_again",
            git_daemon,
            |_| lost_race_is_replayed(),
        ),
        trial(
            "fleet_three_machines_at_once_keep_a_linear_best",
            git_daemon,
            |_| three_machines_at_once(),
        ),
        trial(
            "fleet_a_keep_killed_at_each_step_completes_or_rolls_back",
            git_daemon,
            |_| killed_keeps(),
        ),
        trial(
            "fleet_a_remote_down_holds_the_keep_pending",
            git_daemon,
            |_| remote_down_holds_the_keep(),
        ),
        trial(
            "fleet_two_machines_next_at_once_never_get_one_idea",
            git_daemon,
            |_| next_at_once(),
        ),
        trial("fleet_ideas_travel_and_backlogs_agree", git_daemon, |_| {
            ideas_travel()
        }),
        trial("fleet_an_expired_claim_is_taken_over", git_daemon, |_| {
            expired_claim_taken_over()
        }),
        trial(
            "fleet_a_claim_is_released_after_the_try",
            git_daemon,
            |_| claim_released_after_try(),
        ),
        trial("fleet_over_ssh_a_lost_race_is_replayed", sshd, |sshd| {
            over_ssh(sshd)
        }),
    ]
    .into_iter()
    .chain(classes::trials())
    .chain(wide::trials())
    .chain(lane_race::trials())
    .chain(confirm::trials())
    .chain(twice::trials())
    .chain(fresh::trials())
    .collect()
}

/// `sshd` (Debian: openssh-server), run as root (it must be to log in a
/// user by key), with `ssh-keygen` and `ssh`.
fn sshd() -> Result<PathBuf, String> {
    let path = PathBuf::from("/usr/sbin/sshd");
    if !path.exists() {
        return Err("sshd not found (Debian: openssh-server)".into());
    }
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Err("sshd tests run as root".into());
    }
    for tool in ["ssh", "ssh-keygen"] {
        if Command::new(tool).arg("-V").output().is_err() {
            return Err(format!("{tool} not found (Debian: openssh-client)"));
        }
    }
    Ok(path)
}

/// `git daemon`, as the git program ships it.
pub(super) fn git_daemon() -> Result<PathBuf, String> {
    let out = Command::new("git")
        .arg("--exec-path")
        .output()
        .map_err(|e| format!("git not found: {e}"))?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("git-daemon");
    if path.exists() {
        Ok(path)
    } else {
        Err("git daemon not found (Debian: the git package)".into())
    }
}

/// A git daemon serving `base` on 127.0.0.1, pushes allowed; stopped when
/// dropped.
struct Daemon {
    child: Option<Child>,
    base: PathBuf,
    port: u16,
    /// With `sshd`: its configuration file.
    ssh: Option<PathBuf>,
}

impl Daemon {
    fn start(base: &Path, port: u16) -> Daemon {
        let mut d = Daemon {
            child: None,
            base: base.to_path_buf(),
            port,
            ssh: None,
        };
        d.up();
        d
    }

    /// `sshd` on 127.0.0.1:`port`, its keys and configuration in `dir`;
    /// git reaches it with the client key (`GIT_SSH_COMMAND`).
    fn ssh(base: &Path, port: u16, dir: &Path) -> Daemon {
        let keygen = |name: &str| {
            let out = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(dir.join(name))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "ssh-keygen: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        keygen("host_key");
        keygen("client_key");
        std::fs::copy(dir.join("client_key.pub"), dir.join("authorized_keys")).unwrap();
        let config = dir.join("sshd_config");
        std::fs::write(
            &config,
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {}\nAuthorizedKeysFile {}\n\
                 PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n\
                 StrictModes no\nPermitRootLogin prohibit-password\nPidFile {}\n",
                dir.join("host_key").display(),
                dir.join("authorized_keys").display(),
                dir.join("sshd.pid").display()
            ),
        )
        .unwrap();
        // sshd wants its privilege separation directory.
        let _ = std::fs::create_dir_all("/run/sshd");
        std::env::set_var(
            "GIT_SSH_COMMAND",
            format!(
                "ssh -i {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
                 -o BatchMode=yes -o LogLevel=ERROR",
                dir.join("client_key").display()
            ),
        );
        let mut d = Daemon {
            child: None,
            base: base.to_path_buf(),
            port,
            ssh: Some(config),
        };
        d.up();
        d
    }

    fn up(&mut self) {
        if let Some(config) = &self.ssh {
            let child = Command::new("/usr/sbin/sshd")
                .args(["-D", "-e", "-f"])
                .arg(config)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("sshd");
            self.child = Some(child);
            self.wait_up();
            return;
        }
        let child = Command::new(git_daemon().expect("git daemon"))
            .args([
                "--enable=receive-pack",
                "--export-all",
                "--reuseaddr",
                "--listen=127.0.0.1",
                &format!("--port={}", self.port),
                &format!("--base-path={}", self.base.display()),
                &self.base.display().to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("git daemon");
        self.child = Some(child);
        self.wait_up();
    }

    fn wait_up(&self) {
        let t = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the git server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let t = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "git daemon did not stop"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn url(&self) -> String {
        match &self.ssh {
            Some(_) => format!(
                "ssh://root@127.0.0.1:{}{}/remote.git",
                self.port,
                self.base.display()
            ),
            None => format!("git://127.0.0.1:{}/remote.git", self.port),
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.down();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub(super) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The remote, served, and machines cloned from it.
pub(super) struct Fleet {
    pub(super) tmp: tempfile::TempDir,
    daemon: Daemon,
}

impl Fleet {
    fn new() -> Fleet {
        Fleet::serve(false)
    }

    /// The remote served by `git daemon`, or by `sshd`.
    fn serve(ssh: bool) -> Fleet {
        Fleet::seeded(ssh, CONFIG, &score())
    }

    /// The remote, its first commit holding `config` as `arx.toml` and
    /// `score` as the experiment.
    pub(super) fn seeded(ssh: bool, config: &str, score: &str) -> Fleet {
        Fleet::seeded_with(
            ssh,
            &[
                ("score.sh", score),
                ("a.txt", "1\n"),
                ("b.txt", "1\n"),
                ("c.txt", "1\n"),
                ("d.txt", "1\n"),
                ("arx.toml", config),
                (".gitignore", ".arx/\n"),
            ],
        )
    }

    /// The remote, its first commit holding `files` (name, text).
    pub(super) fn seeded_with(ssh: bool, files: &[(&str, &str)]) -> Fleet {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("served");
        std::fs::create_dir_all(&base).unwrap();
        git(&base, &["init", "-q", "--bare", "-b", "main", "remote.git"]);
        let seed = tmp.path().join("seed");
        std::fs::create_dir_all(&seed).unwrap();
        for (name, text) in files {
            std::fs::write(seed.join(name), text).unwrap();
        }
        git(&seed, &["init", "-q", "-b", "main"]);
        git(&seed, &["config", "user.email", "t@example.com"]);
        git(&seed, &["config", "user.name", "T"]);
        git(&seed, &["add", "-A"]);
        git(&seed, &["commit", "-qm", "start"]);
        let daemon = if ssh {
            let keys = tmp.path().join("ssh");
            std::fs::create_dir_all(&keys).unwrap();
            Daemon::ssh(&base, free_port(), &keys)
        } else {
            Daemon::start(&base, free_port())
        };
        git(&seed, &["push", "-q", &daemon.url(), "main"]);
        Fleet { tmp, daemon }
    }

    /// A machine: a clone named `name`, of class `class`.
    pub(super) fn machine(&self, name: &str, class: &str) -> PathBuf {
        let dir = self.tmp.path().join(name);
        git(
            self.tmp.path(),
            &[
                "clone",
                "-q",
                &self.daemon.url(),
                &dir.display().to_string(),
            ],
        );
        git(&dir, &["config", "user.email", "t@example.com"]);
        git(&dir, &["config", "user.name", "T"]);
        git(&dir, &["config", "arx.machine", name]);
        git(&dir, &["config", "arx.class", class]);
        dir
    }

    /// The remote's best branch, first parent first: (commit, parent).
    pub(super) fn history(&self) -> Vec<(String, String)> {
        let remote = self.tmp.path().join("served/remote.git");
        let log = git(&remote, &["log", "--format=%H %P", "main"]);
        log.lines()
            .map(|l| {
                let mut p = l.split(' ');
                (
                    p.next().unwrap_or("").to_string(),
                    p.next().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    pub(super) fn remote_best(&self) -> String {
        git(
            &self.tmp.path().join("served/remote.git"),
            &["rev-parse", "main"],
        )
    }
}

pub(super) fn arx_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(arx())
        .args(args)
        .current_dir(dir)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// `arx --json try -m MESSAGE` in `dir`: exit code and report.
fn try_in(dir: &Path, message: &str) -> (i32, Value) {
    let out = arx_in(dir, &["--json", "try", "-m", message]);
    let code = out.status.code().unwrap_or(-1);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "no report ({code}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, report)
}

pub(super) fn status(report: &Value) -> String {
    report["ratchet"]["status"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

pub(super) fn bump(dir: &Path, file: &str, by: i64) {
    let path = dir.join(file);
    let n: i64 = std::fs::read_to_string(&path)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::fs::write(path, format!("{}\n", n + by)).unwrap();
}

pub(super) fn journal(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(".arx/journal.jsonl")).unwrap_or_default()
}

pub(super) fn records(dir: &Path) -> Vec<Value> {
    journal(dir)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

pub(super) fn sync(dir: &Path) {
    let out = arx_in(dir, &["fleet", "sync"]);
    assert!(
        out.status.success(),
        "fleet sync: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The remote's best is linear, every keep's parent the best it was
/// measured against, no two keeps on one parent, and every keep of the
/// journal on it.
pub(super) fn check_fleet(f: &Fleet, machines: &[&Path]) {
    for m in machines {
        sync(m);
    }
    // Once more: each sync sees the others' last records.
    for m in machines {
        sync(m);
    }
    let first = journal(machines[0]);
    for m in &machines[1..] {
        assert_eq!(journal(m), first, "the merged journals differ");
    }
    let history = f.history();
    for (commit, parent) in &history {
        assert!(!parent.contains(' '), "a merge on the best: {commit}");
    }
    let on_best: Vec<&str> = history.iter().map(|(c, _)| c.as_str()).collect();
    let mut parents = std::collections::HashSet::new();
    for r in records(machines[0]) {
        if r["ratchet"]["status"] != "keep" {
            continue;
        }
        let commit = r["ratchet"]["commit"].as_str().unwrap();
        let kept = r["ratchet"]["kept"].as_str().unwrap();
        assert!(
            on_best.contains(&commit),
            "keep {commit} is not on the remote's best"
        );
        let parent = &history.iter().find(|(c, _)| c == commit).unwrap().1;
        assert_eq!(
            parent, kept,
            "keep {commit}: its parent is not the best it was measured against"
        );
        assert!(parents.insert(parent.clone()), "two keeps on {parent}");
    }
}

fn keeps_travel_and_journals_agree() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let (code, r) = try_in(&a, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    bump(&a, "a.txt", 1);
    let (code, r) = try_in(&a, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    let kept = r["ratchet"]["commit"].as_str().unwrap().to_string();
    assert_eq!(f.remote_best(), kept);
    // b takes up a's best and a's records at its try's start.
    bump(&b, "b.txt", 1);
    let (code, r) = try_in(&b, "b up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["kept"], kept.as_str());
    assert_eq!(std::fs::read_to_string(b.join("a.txt")).unwrap(), "2\n");
    check_fleet(&f, &[&a, &b]);
    // Every machine's log tells the whole fleet.
    let log = arx_in(&a, &["log"]);
    assert!(String::from_utf8_lossy(&log.stdout).contains("b up"));
    let st = arx_in(&a, &["--json", "fleet", "status"]);
    let st: Value = serde_json::from_slice(&st.stdout).unwrap();
    let names: Vec<&str> = st["machines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["machine"].as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(st["best"], f.remote_best().as_str());
    assert_eq!(st["classes"][0]["class"], "cpu-x");
    Ok(())
}

/// Start `arx --json try -m MESSAGE` in `dir`, its run held at the barrier
/// in `barrier` until `want` machines have started theirs.
pub(super) fn spawn_try(dir: &Path, message: &str, barrier: &Path, want: usize) -> Child {
    Command::new(arx())
        .args(["--json", "try", "-m", message])
        .current_dir(dir)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .env("ARX_SYNC", barrier)
        .env("ARX_SYNC_WANT", want.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

pub(super) fn finish(child: Child) -> (i32, Value, String) {
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("no report: {err}"));
    (out.status.code().unwrap_or(-1), v, err)
}

fn lost_race_is_replayed() -> Result<(), Failed> {
    race(Fleet::new())
}

fn over_ssh(_sshd: &Path) -> Result<(), Failed> {
    race(Fleet::serve(true))
}

/// Two machines decide at once: one push lands, the other is replayed and
/// measured again.
fn race(f: Fleet) -> Result<(), Failed> {
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    assert_eq!(try_in(&a, "baseline").0, 0);
    sync(&b);
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    bump(&a, "a.txt", 1);
    bump(&b, "b.txt", 2);
    let ta = spawn_try(&a, "a up", &barrier, 2);
    let tb = spawn_try(&b, "b up", &barrier, 2);
    let (ca, ra, ea) = finish(ta);
    let (cb, rb, eb) = finish(tb);
    assert_eq!((ca, cb), (0, 0), "{ra}\n{ea}\n{rb}\n{eb}");
    assert_eq!((status(&ra), status(&rb)), ("keep".into(), "keep".into()));
    // One of them lost the race: replayed onto the other's keep and
    // measured there again.
    let replayed: Vec<&Value> = [&ra, &rb]
        .into_iter()
        .filter(|r| {
            r["ratchet"]["replayed_from"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
        })
        .collect();
    assert_eq!(replayed.len(), 1, "{ra}\n{rb}");
    assert!(ea.contains("another machine kept") || eb.contains("another machine kept"));
    check_fleet(&f, &[&a, &b]);
    assert_eq!(f.history().len(), 3);
    Ok(())
}

fn three_machines_at_once() -> Result<(), Failed> {
    let f = Fleet::new();
    let names = ["a", "b", "c"];
    let dirs: Vec<PathBuf> = names
        .iter()
        .enumerate()
        .map(|(i, n)| f.machine(n, &format!("class-{i}")))
        .collect();
    assert_eq!(try_in(&dirs[0], "baseline").0, 0);
    let files = ["a.txt", "b.txt", "c.txt"];
    for round in 0..3 {
        let barrier = f.tmp.path().join(format!("barrier-{round}"));
        std::fs::create_dir_all(&barrier).unwrap();
        let children: Vec<Child> = dirs
            .iter()
            .zip(files)
            .map(|(d, file)| {
                bump(d, file, 1);
                spawn_try(d, &format!("{file} up {round}"), &barrier, 3)
            })
            .collect();
        for c in children {
            let (code, r, err) = finish(c);
            assert!(
                matches!(
                    status(&r).as_str(),
                    "keep" | "stale" | "already_in_best" | "discard"
                ),
                "{code} {r}\n{err}"
            );
        }
    }
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_fleet(&f, &paths);
    Ok(())
}

fn killed_keeps() -> Result<(), Failed> {
    for point in [
        "keep:after-intent",
        "keep:after-push",
        "keep:after-branch",
        "keep:after-record",
    ] {
        let f = Fleet::new();
        let a = f.machine("a", "cpu-x");
        let b = f.machine("b", "cpu-x");
        assert_eq!(try_in(&a, "baseline").0, 0);
        bump(&a, "a.txt", 1);
        let out = Command::new(arx())
            .args(["--json", "try", "-m", "a up"])
            .current_dir(&a)
            .env_remove("ARX_STATE_DIR")
            .env("ARX_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(out.status.code().is_none(), "{point}: not killed");
        // Meanwhile b keeps: a's keep, if it did not land, lost the race.
        if point == "keep:after-intent" {
            bump(&b, "b.txt", 1);
            assert_eq!(status(&try_in(&b, "b up").1), "keep", "{point}");
        }
        // a's next try completes or rolls back its keep first.
        bump(&a, "c.txt", 1);
        let (code, r) = try_in(&a, "c up");
        assert!(code == 0 || code == 1, "{point}: {r}");
        check_fleet(&f, &[&a, &b]);
        let kept: Vec<Value> = records(&a)
            .into_iter()
            .filter(|r| r["hypothesis"] == "a up" || r["ratchet"]["description"] == "a up")
            .collect();
        assert!(kept.len() <= 1, "{point}: the keep journaled twice");
    }
    Ok(())
}

fn remote_down_holds_the_keep() -> Result<(), Failed> {
    let mut f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    assert_eq!(try_in(&a, "baseline").0, 0);
    let before = f.remote_best();
    f.daemon.down();
    bump(&a, "a.txt", 1);
    let (code, r) = try_in(&a, "a up");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert!(
        r.to_string().contains("pending"),
        "the report does not say the keep is pending: {r}"
    );
    f.daemon.up();
    assert_eq!(f.remote_best(), before);
    // The next try pushes it first.
    bump(&a, "b.txt", 1);
    let (code, r) = try_in(&a, "b up");
    assert_eq!(code, 0, "{r}");
    check_fleet(&f, &[&a, &b]);
    assert_eq!(f.history().len(), 3);
    Ok(())
}

/// The same backlog on every machine: three ideas added on the first,
/// which syncs, then every other machine syncs. Their ids.
fn backlog(machines: &[&Path]) -> Vec<String> {
    let mut ids = Vec::new();
    for (n, what) in ["raise a", "raise b", "raise c"].iter().enumerate() {
        let out = arx_in(
            machines[0],
            &["idea", "add", "--family", &format!("f{n}"), what],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ids.push(String::from_utf8_lossy(&out.stdout).trim().to_string());
    }
    for m in machines {
        sync(m);
    }
    ids
}

/// `arx --json idea list --status open` in `dir`: the ids listed, sorted.
fn idea_ids(dir: &Path) -> Vec<String> {
    let out = arx_in(dir, &["--json", "idea", "list", "--status", "open"]);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("idea list: {}", String::from_utf8_lossy(&out.stderr)));
    let mut ids: Vec<String> = report
        .as_array()
        .unwrap_or_else(|| panic!("idea list: {report}"))
        .iter()
        .filter_map(|i| i["id"].as_str().map(str::to_string))
        .collect();
    ids.sort();
    ids
}

fn ideas_travel() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let mut ids = backlog(&[&a, &b]);
    ids.sort();
    assert_eq!(idea_ids(&b), ids, "b lacks a's ideas after syncing");
    // One added on b, and a line dropped on a: both travel, none doubled,
    // however often the machines sync.
    let out = arx_in(&b, &["idea", "add", "--family", "g", "raise d"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = arx_in(&a, &["idea", "drop", &ids[0]]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for m in [&b, &a, &b, &a] {
        sync(m);
    }
    let mut all = vec![ids[1].clone(), ids[2].clone(), d];
    all.sort();
    assert_eq!(idea_ids(&a), all);
    assert_eq!(idea_ids(&b), all);
    let lines = |m: &Path| {
        let text = std::fs::read_to_string(m.join(".arx/ideas.jsonl")).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(lines(&a), lines(&b), "the machines' backlogs differ");
    assert_eq!(
        lines(&a).len(),
        5,
        "a line was doubled or lost: {:?}",
        lines(&a)
    );
    Ok(())
}

/// `arx --json [--now NOW] next --greedy` in `dir`: the idea given.
fn next_in(dir: &Path, now: Option<&str>) -> Option<String> {
    let mut args = vec!["--json"];
    if let Some(now) = now {
        args.extend(["--now", now]);
    }
    args.extend(["next", "--greedy"]);
    let out = arx_in(dir, &args);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("next: {}", String::from_utf8_lossy(&out.stderr)));
    report["idea"].as_str().map(str::to_string)
}

/// The claims on the remote: (idea's ref name, machine).
fn remote_claims(f: &Fleet) -> Vec<(String, String)> {
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
        .map(|r| {
            let lease = git(&remote, &["show", &format!("{r}:lease.json")]);
            let lease: Value = serde_json::from_str(&lease).unwrap();
            (
                r.trim_start_matches("refs/arx/fleet/claims/").to_string(),
                lease["machine"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn next_at_once() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let c = f.machine("c", "cpu-x");
    backlog(&[&a, &b, &c]);
    // All greedy: all want the same idea first.
    let given: Vec<String> = std::thread::scope(|s| {
        let runs: Vec<_> = [&a, &b, &c]
            .into_iter()
            .map(|m| s.spawn(move || next_in(m, None)))
            .collect();
        runs.into_iter()
            .map(|t| t.join().unwrap().expect("an idea for every machine"))
            .collect()
    });
    let distinct: std::collections::HashSet<&String> = given.iter().collect();
    assert_eq!(distinct.len(), 3, "one idea given twice: {given:?}");
    let claims = remote_claims(&f);
    assert_eq!(claims.len(), 3, "{claims:?}");
    let out = arx_in(&a, &["--json", "fleet", "status", "--fetch"]);
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        status["claims"].as_array().map(Vec::len),
        Some(3),
        "{status}"
    );
    Ok(())
}

fn expired_claim_taken_over() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let ids = backlog(&[&a, &b]);
    let first = next_in(&a, Some("2030-01-01T00:00:00Z")).unwrap();
    assert!(ids.contains(&first));
    // Five minutes on, a's lease (15 minutes) holds: b is given another.
    let other = next_in(&b, Some("2030-01-01T00:05:00Z")).unwrap();
    assert_ne!(other, first);
    let out = arx_in(
        &b,
        &[
            "--json",
            "--now",
            "2030-01-01T00:05:00Z",
            "try",
            "--idea",
            &first,
            "-m",
            "x",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "a held idea is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("machine a"));
    // Twenty minutes on, a is dead: its idea is b's, taken over.
    let taken = next_in(&b, Some("2030-01-01T00:20:00Z")).unwrap();
    assert_eq!(taken, first, "the expired claim was not taken over");
    let claims = remote_claims(&f);
    assert!(claims.contains(&(first.clone(), "b".into())), "{claims:?}");
    assert!(!claims.iter().any(|(_, m)| m == "a"), "{claims:?}");
    Ok(())
}

fn claim_released_after_try() -> Result<(), Failed> {
    let f = Fleet::new();
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    backlog(&[&a, &b]);
    let (code, r) = try_in(&a, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let idea = next_in(&a, None).unwrap();
    assert_eq!(remote_claims(&f), vec![(idea.clone(), "a".to_string())]);
    bump(&a, "a.txt", 1);
    let out = arx_in(&a, &["--json", "try", "--idea", &idea, "-m", "a up"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(remote_claims(&f), vec![], "the claim outlived the try");
    Ok(())
}
