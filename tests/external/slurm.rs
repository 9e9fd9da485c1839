//! Slots and the `srun` launcher on a real single-node Slurm (Debian's
//! `slurmctld`, `slurmd`, `slurm-client`, `munge`), started by this test as
//! root in a temporary directory on free ports and stopped at its end,
//! failure or not. Where Slurm is missing or cannot start, the test is
//! reported ignored with the reason.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use crate::needs;

const PROGRAMS: [&str; 7] = [
    "munged",
    "slurmctld",
    "slurmd",
    "srun",
    "squeue",
    "scancel",
    "sinfo",
];

/// A running single-node cluster; its daemons are stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// A Slurm client command of this cluster.
    fn client(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", self.conf()).stdin(Stdio::null());
        c
    }

    /// Names of the jobs in the queue.
    fn jobs(&self) -> Vec<String> {
        let out = self
            .client("squeue")
            .args(["--noheader", "--format=%j"])
            .output()
            .expect("running squeue");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// Start munged, slurmctld and slurmd; `Err` says why Slurm cannot run.
    fn start() -> Result<Cluster, String> {
        for p in PROGRAMS {
            if which(p).is_none() {
                return Err(format!(
                    "{p} not found (apt-get install slurmctld slurmd slurm-client munge)"
                ));
            }
        }
        if !nix::unistd::geteuid().is_root() {
            return Err("the test cluster's daemons must start as root".into());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let cluster = Cluster { dir };
        cluster.boot()?;
        Ok(cluster)
    }

    fn boot(&self) -> Result<(), String> {
        let d = self.dir.path();
        for sub in ["state", "spool", "log", "run"] {
            std::fs::create_dir_all(d.join(sub)).map_err(|e| e.to_string())?;
        }
        let mut key = vec![0u8; 1024];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").map_err(|e| e.to_string())?,
            &mut key,
        )
        .map_err(|e| e.to_string())?;
        let key_path = d.join("munge.key");
        std::fs::write(&key_path, key).map_err(|e| e.to_string())?;
        std::fs::set_permissions(
            &key_path,
            std::os::unix::fs::PermissionsExt::from_mode(0o400),
        )
        .map_err(|e| e.to_string())?;
        let p = |rel: &str| d.join(rel).display().to_string();
        let munged = Command::new("munged")
            .arg("--force")
            .arg(format!("--key-file={}", p("munge.key")))
            .arg(format!("--socket={}", p("munge.sock")))
            .arg(format!("--pid-file={}", p("run/munged.pid")))
            .arg(format!("--log-file={}", p("log/munged.log")))
            .arg(format!("--seed-file={}", p("munged.seed")))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot start munged: {e}"))?;
        if !munged.status.success() {
            return Err(format!("munged did not start: {}", text(&munged)));
        }
        let host = nix_hostname();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (ctld_port, d_port) = free_ports();
        let conf = format!(
            "ClusterName=arxtest\nSlurmctldHost={host}\nSlurmUser=root\nSlurmdUser=root\n\
             AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={sock}\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             SchedulerType=sched/backfill\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             StateSaveLocation={state}\nSlurmdSpoolDir={spool}\n\
             SlurmctldPidFile={run}/slurmctld.pid\nSlurmdPidFile={run}/slurmd.pid\n\
             SlurmctldLogFile={log}/slurmctld.log\nSlurmdLogFile={log}/slurmd.log\n\
             SlurmctldPort={ctld_port}\nSlurmdPort={d_port}\nReturnToService=2\nMpiDefault=none\n\
             JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n\
             NodeName={host} CPUs={cpus} State=UNKNOWN\n\
             PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4\n",
            sock = p("munge.sock"),
            state = p("state"),
            spool = p("spool"),
            run = p("run"),
            log = p("log"),
        );
        std::fs::write(self.conf(), conf).map_err(|e| e.to_string())?;
        for daemon in ["slurmctld", "slurmd"] {
            let out = self
                .client(daemon)
                .arg("-f")
                .arg(self.conf())
                .output()
                .map_err(|e| format!("cannot start {daemon}: {e}"))?;
            if !out.status.success() {
                return Err(format!("{daemon} did not start: {}", text(&out)));
            }
        }
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let out = self
                .client("sinfo")
                .args(["--noheader", "--format=%t"])
                .output()
                .map_err(|e| e.to_string())?;
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                return Ok(());
            }
            if Instant::now() > until {
                return Err(format!(
                    "the node did not become idle within 30 s: {}",
                    text(&out)
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Whatever a failed test left in this cluster's queue is cancelled
        // first, so no job step outlives the cluster.
        let _ = self.client("scancel").args(["--user", "root"]).output();
        let until = Instant::now() + Duration::from_secs(10);
        while !self.jobs().is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(100));
        }
        for daemon in ["slurmd", "slurmctld", "munged"] {
            let pid_file = self.dir.path().join("run").join(format!("{daemon}.pid"));
            if let Some(pid) = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|s| s.trim().parse::<i32>().ok())
            {
                // A signal to a process id read from the daemon's own pid
                // file in this test's directory.
                use nix::sys::signal::{kill, Signal};
                let pid = nix::unistd::Pid::from_raw(pid);
                let _ = kill(pid, Signal::SIGTERM);
                let until = Instant::now() + Duration::from_secs(10);
                // No signal: only whether the process still exists.
                while kill(pid, None).is_ok() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn nix_hostname() -> String {
    let out = Command::new("hostname").output().expect("hostname");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Two ports nothing listens on now.
fn free_ports() -> (u16, u16) {
    let a = TcpListener::bind("0.0.0.0:0").unwrap();
    let b = TcpListener::bind("0.0.0.0:0").unwrap();
    (
        a.local_addr().unwrap().port(),
        b.local_addr().unwrap().port(),
    )
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn arx(cluster: &Cluster, repo: &Path) -> Command {
    let mut c = Command::new(needs::arx());
    c.current_dir(repo)
        .env("SLURM_CONF", cluster.conf())
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    c
}

fn journal(repo: &Path) -> Vec<Value> {
    std::fs::read_to_string(repo.join(".arx/journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(what().into())
    }
}

fn wait_until(what: &str, secs: u64, mut cond: impl FnMut() -> bool) -> Result<(), Failed> {
    let until = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        if Instant::now() > until {
            return Err(format!("timed out after {secs} s waiting for {what}").into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// The most jobs of arx's (named `arx-...`) seen in the queue at once
/// while any of `loops` runs, looking every 100 ms.
fn most_jobs_while<T>(cluster: &Cluster, loops: &[std::thread::JoinHandle<T>]) -> usize {
    let mut most = 0;
    while loops.iter().any(|l| !l.is_finished()) {
        let arx_jobs = cluster
            .jobs()
            .into_iter()
            .filter(|j| j.starts_with("arx-"))
            .count();
        most = most.max(arx_jobs);
        std::thread::sleep(Duration::from_millis(100));
    }
    most
}

fn slots_and_srun(cluster: &Cluster) -> Result<(), Failed> {
    let repo = tempfile::tempdir()?;
    let repo = repo.path();
    std::fs::write(
        repo.join("arx.toml"),
        "[objective]\nslots = 2\nslot_env = \"ARX_SLOT\"\nlauncher = [\"srun\", \"--ntasks=1\", \"--\"]\n",
    )?;

    // 12 runs of a sleeping experiment from 3 concurrent loops of 4: never
    // more than 2 jobs in the queue, every run journaled with its job id.
    let loops: Vec<std::thread::JoinHandle<Result<(), String>>> = (0..3)
        .map(|_| {
            let mut cmds: Vec<Command> = (0..4)
                .map(|_| {
                    let mut c = arx(cluster, repo);
                    c.args([
                        "run",
                        "--no-gates",
                        "--heartbeat",
                        "500ms",
                        "--",
                        "sleep",
                        "2",
                    ])
                    .stdout(Stdio::null());
                    c
                })
                .collect();
            std::thread::spawn(move || {
                for c in &mut cmds {
                    let out = c.output().map_err(|e| e.to_string())?;
                    if !out.status.success() {
                        return Err(text(&out));
                    }
                }
                Ok(())
            })
        })
        .collect();
    let most = most_jobs_while(cluster, &loops);
    for l in loops {
        l.join().map_err(|_| "a loop panicked")??;
    }
    ensure(most <= 2, || format!("{most} jobs in the queue at once"))?;
    ensure(most >= 1, || "no job was ever seen in the queue".into())?;
    let records = journal(repo);
    ensure(records.len() == 12, || format!("{} records", records.len()))?;
    for r in &records {
        ensure(r["exit_code"] == 0, || format!("failed run: {r}"))?;
        ensure(r["job_id"].as_str().is_some_and(|j| !j.is_empty()), || {
            format!("no job id: {r}")
        })?;
        ensure(r["slot"] == "0" || r["slot"] == "1", || {
            format!("slot: {r}")
        })?;
    }

    // A timeout cancels its job: gone from the queue within the grace
    // (3 s) after the timeout (3 s), with a second for srun to start.
    let start = Instant::now();
    let out = arx(cluster, repo)
        .args([
            "run",
            "--no-gates",
            "--heartbeat",
            "500ms",
            "--timeout",
            "3s",
            "--grace",
            "3s",
        ])
        .args(["--", "sleep", "120"])
        .output()?;
    let records = journal(repo);
    let timed = records.last().ok_or("no record")?;
    ensure(timed["timed_out"] == true, || {
        format!("{timed} {}", text(&out))
    })?;
    let name = format!("arx-{}", timed["run_id"].as_str().unwrap_or_default());
    wait_until("the timed-out job to leave the queue", 10, || {
        !cluster.jobs().contains(&name)
    })?;
    ensure(start.elapsed() <= Duration::from_secs(7), || {
        format!("the job outlived the grace period: {:?}", start.elapsed())
    })?;

    // srun rejected by Slurm: a crash record with Slurm's message, at once.
    let start = Instant::now();
    let out = arx(cluster, repo)
        .args(["run", "--no-gates", "--launcher", "srun --gres=gpu:1 --"])
        .args(["--", "true"])
        .output()?;
    ensure(start.elapsed() < Duration::from_secs(30), || {
        "srun hung".into()
    })?;
    // A failed run: not an error of arx's (2), not a success.
    ensure(!matches!(out.status.code(), Some(0 | 2) | None), || {
        text(&out)
    })?;
    let rejected = journal(repo).pop().ok_or("no record")?;
    ensure(rejected["exit_code"] != 0, || rejected.to_string())?;
    ensure(
        rejected["stderr_tail"]
            .as_str()
            .is_some_and(|t| t.contains("gres")),
        || format!("Slurm's message is not in the record: {rejected}"),
    )?;

    // A repeated measurement: each attempt is a job of its own, and the
    // journal records each one's id (the record's own is the last's).
    let out = arx(cluster, repo)
        .args(["run", "--no-gates", "--repeat", "3"])
        .args(["--metric", "m", "--cmp", ">=", "--target", "0"])
        .args(["--", "sh", "-c", "sleep 1; echo '__RESULT__ {\"m\": 1}'"])
        .output()?;
    ensure(out.status.success(), || text(&out))?;
    let repeated = journal(repo).pop().ok_or("no record")?;
    let jobs: Vec<&str> = repeated["attempts"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["job_id"].as_str()).collect())
        .unwrap_or_default();
    let distinct: std::collections::BTreeSet<&&str> = jobs.iter().collect();
    ensure(jobs.len() == 3 && distinct.len() == 3, || {
        format!("not a job id per attempt: {repeated}")
    })?;
    ensure(repeated["job_id"] == jobs[2], || repeated.to_string())?;
    for args in [&["journal", "verify"][..], &["log"], &["report"]] {
        let out = arx(cluster, repo).args(args).output()?;
        ensure(out.status.success(), || {
            format!("arx {args:?}: {}", text(&out))
        })?;
    }

    // `arx ps` shows the job id once the job is in the queue, not at the
    // run's next heartbeat (a minute away).
    let mut child: Child = arx(cluster, repo)
        .args([
            "run",
            "--no-gates",
            "--heartbeat",
            "60s",
            "--",
            "sleep",
            "8",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let start = Instant::now();
    wait_until(
        "the job id in arx ps before the first heartbeat",
        20,
        || {
            let out = arx(cluster, repo)
                .args(["ps", "--json"])
                .output()
                .expect("arx ps");
            let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            v["runs"][0]["job_id"].is_string()
        },
    )?;
    let shown_after = start.elapsed();
    child.wait()?;

    // kill -9 of arx: its job stays in the queue until `arx ps --reap`
    // cancels it by name, and keeps its slot meanwhile (srun, which
    // runs while the job does, holds the slot's lock).
    let mut child: Child = arx(cluster, repo)
        .args([
            "run",
            "--no-gates",
            "--heartbeat",
            "200ms",
            "--",
            "sleep",
            "300",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let mut job = String::new();
    wait_until("the job id in arx ps", 30, || {
        let out = arx(cluster, repo)
            .args(["ps", "--json"])
            .output()
            .expect("arx ps");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        job = v["runs"][0]["job_name"].as_str().unwrap_or_default().into();
        v["runs"][0]["job_id"].is_string()
    })?;
    let held = {
        let out = arx(cluster, repo).args(["ps", "--json"]).output()?;
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        v["runs"][0]["slot"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    child.kill()?;
    child.wait()?;
    std::thread::sleep(Duration::from_millis(1000));
    ensure(cluster.jobs().contains(&job), || {
        format!("{job} left the queue without arx ps --reap")
    })?;
    let out = arx(cluster, repo)
        .args(["run", "--no-gates", "--", "true"])
        .output()?;
    ensure(out.status.success(), || text(&out))?;
    let beside = journal(repo).pop().ok_or("no record")?;
    ensure(beside["slot"].as_str().is_some_and(|s| s != held), || {
        format!("placed on slot {held}, which the orphaned job holds: {beside}")
    })?;
    let out = arx(cluster, repo)
        .args(["ps", "--reap", "--json"])
        .output()?;
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    ensure(v["reaped"][0]["job_cancelled"] == job.as_str(), || {
        text(&out)
    })?;
    wait_until("the reaped job to leave the queue", 10, || {
        !cluster.jobs().contains(&job)
    })?;
    eprintln!(
        "external: slurm: job id shown {:.1} s after the run started (heartbeat 60 s)",
        shown_after.as_secs_f64()
    );
    Ok(())
}

fn git(dir: &Path, args: &[&str]) -> Result<String, Failed> {
    let out = Command::new("git").args(args).current_dir(dir).output()?;
    ensure(out.status.success(), || {
        format!("git {args:?}: {}", text(&out))
    })?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// 3 lanes, `slots = 2`, every run through `srun`: 12 tries (4 per lane,
/// at once), each a keep of its lane's own file, so lanes keep at the same
/// time and replay onto each other's keeps. Never more than 2 jobs in the
/// queue; every try journaled with its job id; the best's branch linear.
fn lanes_through_srun(cluster: &Cluster) -> Result<(), Failed> {
    let tmp = tempfile::tempdir()?;
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo)?;
    std::fs::write(
        repo.join("arx.toml"),
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"max\"\n\
         command = \"sh score.sh\"\n\
         repeat = 1\nbaseline_repeat = 1\nrule = \"strict\"\nslots = 2\n\
         launcher = [\"srun\", \"--ntasks=1\", \"--\"]\n",
    )?;
    std::fs::write(
        repo.join("score.sh"),
        "sleep 1\necho \"__RESULT__ {\\\"m\\\": $(( $(cat a) + $(cat b) + $(cat c) ))}\"\n",
    )?;
    for f in ["a", "b", "c"] {
        std::fs::write(repo.join(f), "0\n")?;
    }
    std::fs::write(repo.join(".gitignore"), ".arx/\n")?;
    git(&repo, &["init", "-q", "-b", "main"])?;
    git(&repo, &["config", "user.email", "t@example.com"])?;
    git(&repo, &["config", "user.name", "T"])?;
    git(&repo, &["add", "-A"])?;
    git(&repo, &["commit", "-qm", "start"])?;
    let out = arx(cluster, &repo)
        .args(["try", "-m", "baseline"])
        .output()?;
    ensure(out.status.success(), || text(&out))?;
    let out = arx(cluster, &repo)
        .args(["lane", "add", "a", "b", "c"])
        .output()?;
    ensure(out.status.success(), || text(&out))?;
    let loops: Vec<std::thread::JoinHandle<Result<(), String>>> = ["a", "b", "c"]
        .into_iter()
        .map(|lane| {
            let dir = tmp.path().join("repo.lanes").join(lane);
            let mut cmds: Vec<Command> = (0..4)
                .map(|i| {
                    let mut c = arx(cluster, &dir);
                    c.args(["try", "-m", &format!("{lane} {i}")]);
                    c
                })
                .collect();
            std::thread::spawn(move || {
                for c in &mut cmds {
                    let file = dir.join(lane);
                    let n: i64 = std::fs::read_to_string(&file)
                        .map_err(|e| e.to_string())?
                        .trim()
                        .parse()
                        .map_err(|e| format!("{e}"))?;
                    std::fs::write(&file, format!("{}\n", n + 1)).map_err(|e| e.to_string())?;
                    let out = c.output().map_err(|e| e.to_string())?;
                    if out.status.code() != Some(0) {
                        return Err(text(&out));
                    }
                }
                Ok(())
            })
        })
        .collect();
    let most = most_jobs_while(cluster, &loops);
    for l in loops {
        l.join().map_err(|_| "a lane panicked")??;
    }
    ensure(most <= 2, || format!("{most} jobs in the queue at once"))?;
    ensure(most >= 1, || "no job was ever seen in the queue".into())?;
    let records = journal(&repo);
    let tries: Vec<&Value> = records
        .iter()
        .filter(|r| r["ratchet"]["lane"].is_string())
        .collect();
    ensure(tries.len() == 12, || {
        format!("{} tries journaled", tries.len())
    })?;
    for r in &tries {
        ensure(r["ratchet"]["status"] == "keep", || {
            format!("not kept: {r}")
        })?;
        ensure(r["job_id"].as_str().is_some_and(|j| !j.is_empty()), || {
            format!("no job id: {r}")
        })?;
        let commit = r["ratchet"]["commit"].as_str().unwrap_or_default();
        let parent = git(&repo, &["rev-parse", &format!("{commit}^")])?;
        ensure(r["ratchet"]["kept"] == parent.as_str(), || {
            format!("a keep whose parent is not the best it was measured against: {r}")
        })?;
    }
    ensure(
        git(&repo, &["rev-list", "--merges", "main"])?.is_empty(),
        || "merge commits on main".into(),
    )?;
    let line = git(&repo, &["rev-list", "--first-parent", "main"])?;
    ensure(line.lines().count() == 13, || format!("main: {line}"))?;
    Ok(())
}

/// One scenario on the cluster.
type Scenario = fn(&Cluster) -> Result<(), Failed>;

pub fn trials() -> Vec<Trial> {
    let names = [
        "slurm::slots_cap_the_queue_and_jobs_end_with_their_runs",
        "slurm::three_lanes_share_two_slots_through_srun",
    ];
    match Cluster::start() {
        Ok(cluster) => {
            // One scenario at a time: each counts the jobs in the queue.
            let cluster = std::sync::Arc::new(std::sync::Mutex::new(cluster));
            let scenarios: [Scenario; 2] = [slots_and_srun, lanes_through_srun];
            names
                .into_iter()
                .zip(scenarios)
                .map(|(name, scenario)| {
                    let cluster = cluster.clone();
                    Trial::test(name, move || {
                        let c = cluster.lock().map_err(|_| "a scenario panicked")?;
                        scenario(&c)
                    })
                })
                .collect()
        }
        Err(reason) => names
            .into_iter()
            .map(|name| {
                eprintln!("external: {name}: ignored: Slurm cannot start here: {reason}");
                Trial::test(name, || Ok(())).with_ignored_flag(true)
            })
            .collect(),
    }
}
