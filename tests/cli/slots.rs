//! Slots (`[objective] slots`, `slot_env`) and the launcher
//! (`[objective] launcher`, `--launcher`): how many experiments run at once
//! and how they start.

use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;
use serde_json::Value;

use crate::support::Sandbox;

pub(crate) fn spawn_run(sb: &Sandbox, args: &[&str]) -> std::process::Child {
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

pub(crate) fn ps(sb: &Sandbox) -> Vec<Value> {
    let out = sb.arx().args(["ps", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    v["runs"].as_array().cloned().unwrap_or_default()
}

/// Wait (at most 20 s) until a live run holds `slot`.
pub(crate) fn wait_for_slot(sb: &Sandbox, slot: &str) {
    let until = Instant::now() + Duration::from_secs(20);
    while !ps(sb).iter().any(|r| r["slot"] == slot) {
        assert!(Instant::now() < until, "no run ever took slot {slot}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bad_slots_and_launchers_are_refused_before_anything_runs() {
    let cases = [
        ("slots = 0", "slots = 0", "slots = 4"),
        ("slots = []", "slots = []", "slots = 4"),
        ("slots = \"two\"", "neither a count", "slots = 4"),
        (
            "slots = 2\nslot_env = \"1X\"",
            "not a variable name",
            "CUDA_VISIBLE_DEVICES",
        ),
        ("slot_env = \"GPU\"", "no slots", "slots = 4"),
        ("launcher = \"srun --\"", "not a list", "launcher = ["),
        (
            "launcher = [\"srun\", \"-J\", \"x\"]",
            "names the job",
            "launcher = [",
        ),
        (
            "launcher = [\"arx-no-such-launcher\", \"--\"]",
            "is not installed",
            "install arx-no-such-launcher",
        ),
    ];
    for (toml, error, hint) in cases {
        let sb = Sandbox::new();
        sb.write("arx.toml", format!("[objective]\n{toml}\n"));
        let marker = sb.path().join("ran");
        for cmd in ["run", "try"] {
            let mut arx = sb.arx();
            arx.arg(cmd).arg("--no-gates");
            if cmd == "try" {
                arx.args(["--metric", "m", "--direction", "max"]);
            }
            arx.args(["--", "touch"])
                .arg(&marker)
                .assert()
                .code(2)
                .stderr(
                    predicate::str::contains(error)
                        .and(predicate::str::contains("hint:"))
                        .and(predicate::str::contains(hint)),
                );
            assert!(!marker.exists(), "{toml}: {cmd} ran the experiment");
            assert!(sb.journal().is_empty(), "{toml}: {cmd} journaled");
        }
    }
    // The flag is checked the same way.
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "run",
            "--no-gates",
            "--launcher",
            "arx-no-such-launcher --",
            "--",
            "true",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("is not installed").and(predicate::str::contains("hint:")),
        );
    assert!(sb.journal().is_empty());
}

#[test]
fn at_most_n_run_at_once_each_with_its_slot_and_the_rest_queued() {
    let sb = Sandbox::new();
    sb.write(
        "arx.toml",
        "[objective]\nslots = [\"5\", \"7\"]\nslot_env = \"ARX_TEST_SLOT\"\n",
    );
    // Each experiment holds its slot's directory while it runs: a shared
    // slot fails the run (exit 9), and with two slot values no more than
    // two experiments can run at once. (`arx ps` reads one live file at a
    // time, so one listing can straddle a hand-over of a slot: it is not
    // the proof of the cap.)
    let script = "mkdir held.$ARX_TEST_SLOT || exit 9; sleep 1; rmdir held.$ARX_TEST_SLOT";
    let mut children: Vec<_> = (0..5)
        .map(|_| spawn_run(&sb, &["--", "sh", "-c", script]))
        .collect();
    let until = Instant::now() + Duration::from_secs(30);
    let mut seen_queued = false;
    let mut seen_slots = std::collections::BTreeSet::new();
    while children.iter_mut().any(|c| c.try_wait().unwrap().is_none()) {
        assert!(Instant::now() < until, "the runs did not end");
        for r in ps(&sb) {
            // A run queued for longer than its heartbeat keeps beating.
            assert!(r["state"] != "late" && r["state"] != "lost", "{r}");
            seen_queued |= r["state"] == "queued";
            if r["state"] == "running" {
                seen_slots.insert(r["slot"].as_str().unwrap_or("none").to_string());
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(seen_queued, "no run was shown queued");
    // Every running experiment is shown with its slot.
    assert!(
        seen_slots.iter().all(|s| s == "5" || s == "7"),
        "{seen_slots:?}"
    );
    let journal = sb.journal();
    assert_eq!(journal.len(), 5);
    for r in &journal {
        assert_eq!(r["exit_code"], 0, "a slot was shared: {r}");
        assert!(r["slot"] == "5" || r["slot"] == "7", "{r}");
        assert!(r.get("job_id").is_none(), "{r}");
    }
}

/// Start an `arx run` holding the only slot with `experiment`, wait until
/// its experiment has started (its process group is in the live file, not
/// merely the slot taken), and kill arx with SIGKILL: no cleanup of its
/// own, and its experiment, in a process group of its own, goes on.
fn orphan_on_slot_0(sb: &Sandbox, experiment: &str) {
    sb.write("arx.toml", "[objective]\nslots = 1\n");
    let mut holder = spawn_run(sb, &["--", "sh", "-c", experiment]);
    wait_for_slot(sb, "0");
    let until = Instant::now() + Duration::from_secs(20);
    while !ps(sb).iter().any(|r| r["pgid"].is_number()) {
        assert!(Instant::now() < until, "the experiment never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
}

/// Start a second `arx run` on the one slot, and wait (at most 20 s) until
/// `arx ps` shows it queued: it looked for a free slot and found none.
fn queued_behind_the_orphan(sb: &Sandbox) -> std::process::Child {
    let second = spawn_run(sb, &["--", "touch", "second"]);
    let until = Instant::now() + Duration::from_secs(20);
    while !ps(sb).iter().any(|r| r["state"] == "queued") {
        assert!(
            !sb.path().join("second").exists(),
            "a run was placed on the slot the orphaned experiment still runs in"
        );
        assert!(Instant::now() < until, "the second run was never queued");
        std::thread::sleep(Duration::from_millis(20));
    }
    second
}

fn ends_placed_on_slot_0(sb: &Sandbox, mut second: std::process::Child) {
    let until = Instant::now() + Duration::from_secs(20);
    while second.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the second run never ran");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(second.wait().unwrap().success());
    assert!(sb.path().join("second").exists());
    let journal = sb.journal();
    let record = journal
        .iter()
        .find(|r| r["command"][0] == "touch")
        .expect("the second run is journaled");
    assert_eq!(record["slot"], "0", "{record}");
}

#[test]
fn a_killed_arx_holds_its_slot_until_its_experiment_ends() {
    let sb = Sandbox::new();
    // The experiment runs until told to stop.
    orphan_on_slot_0(
        &sb,
        "touch orphan; while [ ! -e release ]; do sleep 0.05; done; rm orphan",
    );
    let second = queued_behind_the_orphan(&sb);
    // A few more looks for the slot (each 100 ms): still not placed.
    std::thread::sleep(Duration::from_millis(500));
    assert!(!sb.path().join("second").exists());
    assert!(sb.path().join("orphan").exists());
    // The orphaned experiment ends: the slot is free.
    sb.write("release", "");
    ends_placed_on_slot_0(&sb, second);
    assert!(!sb.path().join("orphan").exists());
}

#[test]
fn a_killed_arx_holds_its_slot_until_its_run_is_reaped() {
    let sb = Sandbox::new();
    orphan_on_slot_0(&sb, "exec sleep 300");
    let second = queued_behind_the_orphan(&sb);
    // The killed run is found lost once its heartbeat is late.
    let until = Instant::now() + Duration::from_secs(20);
    while !ps(&sb).iter().any(|r| r["state"] == "lost") {
        assert!(
            Instant::now() < until,
            "the killed run was never found lost"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!sb.path().join("second").exists());
    let out = sb.arx().args(["ps", "--reap", "--json"]).output().unwrap();
    let reaped: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reaped["reaped"][0]["group_killed"], true, "{reaped}");
    ends_placed_on_slot_0(&sb, second);
}

#[test]
fn a_launcher_starts_the_experiment_and_a_shell_line_through_sh() {
    let sb = Sandbox::new();
    sb.write(
        "wrap.sh",
        "#!/bin/sh\necho \"wrapped:$1\" >&2\nshift\nexec \"$@\"\n",
    );
    std::fs::set_permissions(
        sb.path().join("wrap.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let wrap = sb.path().join("wrap.sh");
    sb.write(
        "arx.toml",
        format!(
            "[objective]\nlauncher = [\"{}\", \"tag\"]\n",
            wrap.display()
        ),
    );
    sb.arx()
        .args(["run", "--no-gates", "--shell", "--", "echo", "$((1+2))"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("3"))
        .stderr(predicate::str::contains("wrapped:tag"));
    // The journal keeps the experiment's own command, not the launcher's.
    assert_eq!(sb.journal()[0]["command"][0], "echo");
}

#[test]
fn the_runs_of_one_measurement_keep_to_the_slot_their_first_run_took() {
    let sb = Sandbox::new();
    sb.write("arx.toml", "[objective]\nslots = 2\n");
    // Slot 0 is held for a while: the repeated run starts on slot 1 ...
    let mut holder = spawn_run(&sb, &["--", "sleep", "1.5"]);
    wait_for_slot(&sb, "0");
    // ... and stays there once slot 0 is free again.
    let out = sb
        .arx()
        .args(["--json", "run", "--no-gates", "--repeat", "3"])
        .args(["--metric", "m", "--cmp", ">=", "--target", "0"])
        .args(["--", "sh", "-c", "sleep 1; echo '__RESULT__ {\"m\": 1}'"])
        .assert();
    holder.wait().unwrap();
    let record: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let slots: Vec<&str> = record["attempts"]
        .as_array()
        .expect("the attempts")
        .iter()
        .map(|a| a["slot"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(slots, ["1", "1", "1"], "{record}");
}

/// A repository whose experiment reads `value.txt`, plus 5 on slot "1" (a
/// faster card), plus a small fixed jitter sequence; `[objective] slots`
/// is `["0", "1"]`, the slot's value in `SLOT`.
fn slotted_repo() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "score.sh",
        r#"#!/bin/sh
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 3)) in 0) j=0;; 1) j=0.01;; *) j=-0.01;; esac
b=0; t=0; [ "$SLOT" = 1 ] && b=5 && t=0.5
s=$(cat step.txt 2>/dev/null || echo 1)
awk -v v="$(cat value.txt)" -v j="$j" -v b="$b" -v s="$s" -v t="$t" \
  'BEGIN { printf "__RESULT__ {\"m\": %.4f, \"step\": %.4f}\n", v + b + j, s + t + j / 10 }'
"#,
    );
    sb.write("value.txt", "10");
    sb.write(".gitignore", ".noise\n.arx/\n");
    sb.write(
        "arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"max\"\n\
         command = \"sh score.sh\"\nbaseline_repeat = 3\nslots = [\"0\", \"1\"]\nslot_env = \"SLOT\"\n",
    );
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["config", "user.email", "t@example.com"],
        &["config", "user.name", "T"],
        &["add", "-A"],
        &["commit", "-qm", "start"],
    ] {
        let ok = Std::new("git")
            .args(args)
            .current_dir(sb.path())
            .status()
            .unwrap();
        assert!(ok.success(), "git {args:?}");
    }
    sb
}

/// A repository as [`slotted_repo`] makes, with `config` added to its
/// objective (committed).
fn slotted_repo_with(config: &str) -> Sandbox {
    let sb = slotted_repo();
    let toml = sb.read("arx.toml");
    sb.write("arx.toml", format!("{toml}{config}"));
    let ok = Std::new("git")
        .args(["commit", "-qam", "config"])
        .current_dir(sb.path())
        .status()
        .unwrap();
    assert!(ok.success());
    sb
}

/// `arx --json try -m MESSAGE` while slot "0" is held by another run, so
/// that the candidate runs on slot "1".
fn try_on_slot_1(sb: &Sandbox, message: &str) -> (i32, Value) {
    let mut holder = spawn_run(sb, &["--", "sleep", "2"]);
    wait_for_slot(sb, "0");
    let out = sb
        .arx()
        .args(["--json", "try", "-m", message])
        .output()
        .unwrap();
    holder.wait().unwrap();
    let code = out.status.code().unwrap_or(-1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "no report (exit {code}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, report)
}

#[test]
fn a_candidate_on_a_faster_slot_is_compared_with_the_best_measured_there() {
    let sb = slotted_repo();
    // The baseline: 10 on slot "0" (the first free one).
    sb.arx().args(["try", "-m", "baseline"]).assert().code(0);
    // A change that changes nothing runs on slot "1", which reads 5
    // higher: it must not be kept for its slot. The best is measured
    // there first (it has no runs there and the offset is unknown).
    sb.write("notes.txt", "nothing that matters\n");
    // A dry run says so, and changes nothing.
    let dry: Value = serde_json::from_slice(
        &sb.arx()
            .args(["--json", "try", "--dry-run"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        dry["would"].to_string().contains(
            "compare it with the best as it measures on the slot it runs on (the best has runs on slot 0)"
        ),
        "{dry}"
    );
    let (code, report) = try_on_slot_1(&sb, "no real change");
    let r = &report["ratchet"];
    assert_eq!(r["status"], "discard", "{report}");
    assert_ne!(code, 0);
    assert_eq!(r["slot_best"]["slot"], "1", "{report}");
    assert_eq!(r["slot_best"]["runs"], 3, "{report}");
    let on_1 = r["slot_best"]["value"].as_f64().unwrap();
    assert!((on_1 - 15.0).abs() < 0.05, "{report}");
    let journal = sb.journal();
    let remeasure = journal
        .iter()
        .find(|j| j["ratchet"]["status"] == "remeasure")
        .expect("the best measured on slot 1");
    let slots: Vec<&str> = remeasure["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["slot"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(slots, ["1", "1", "1"], "{remeasure}");
    assert_eq!(
        remeasure["ratchet"]["commit"],
        journal[0]["ratchet"]["kept"]
    );
    assert!(
        !sb.path().join("notes.txt").exists(),
        "the change was undone"
    );
    // A real improvement (+2) on slot "1" is kept against the best there
    // (15), without measuring the best again.
    sb.write("value.txt", "12");
    let (code, report) = try_on_slot_1(&sb, "a real gain");
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (0, Some("keep")),
        "{report}"
    );
    let on_1 = report["ratchet"]["slot_best"]["value"].as_f64().unwrap();
    assert!((on_1 - 15.0).abs() < 0.05, "{report}");
    // (The runs that held slot "0" are journaled too, without `ratchet`.)
    let statuses: Vec<String> = sb
        .journal()
        .iter()
        .filter_map(|j| j["ratchet"]["status"].as_str().map(str::to_string))
        .collect();
    assert_eq!(statuses, ["baseline", "remeasure", "discard", "keep"]);
    // The best (on slot "1") is shown against the baseline as it measures
    // on slot "1": +2, not the +7 of two slots that differ.
    let best: Value =
        serde_json::from_slice(&sb.arx().args(["--json", "best"]).output().unwrap().stdout)
            .unwrap();
    assert_eq!(best["baseline_slot"], "1", "{best}");
    assert!(
        (best["change"].as_f64().unwrap() - 2.0).abs() < 0.05,
        "{best}"
    );
    let report: Value =
        serde_json::from_slice(&sb.arx().args(["--json", "report"]).output().unwrap().stdout)
            .unwrap();
    let seg = &report["segments"][0]["best"];
    assert_eq!(seg["baseline_on_slot"]["slot"], "1", "{seg}");
    assert!(
        (seg["change"].as_f64().unwrap() - 2.0).abs() < 0.05,
        "{seg}"
    );
    // The report shows the offset the try compared across slots with.
    let slot_1 = report["segments"][0]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["slot"] == "1")
        .cloned()
        .unwrap();
    assert_eq!(slot_1["offset"]["over"], "0", "{slot_1}");
    assert!(
        (slot_1["offset"]["value"].as_f64().unwrap() - 5.0).abs() < 0.05,
        "{slot_1}"
    );
    let text = sb.arx().arg("report").output().unwrap();
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("slot offset       1 +5"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("vs baseline on slot 1"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
    // A remeasure is no try.
    let status: Value =
        serde_json::from_slice(&sb.arx().args(["--json", "status"]).output().unwrap().stdout)
            .unwrap();
    assert_eq!(status["tries"], 3, "{status}");
}

/// A stand-in for Slurm's `srun`, `squeue` and `scancel` in `bin/` of the
/// sandbox: `srun --job-name=NAME [ARGS] -- COMMAND` gives its job the next
/// id from 4241 up, puts `NAME ID` in `queue` while the command runs, and
/// runs it; `squeue --name NAME` prints the id of NAME in `queue`. Returns
/// the `PATH` that finds them first.
fn fake_slurm(sb: &Sandbox) -> String {
    let queue = sb.path().join("queue");
    let ids = sb.path().join("last-job");
    let bin = |name: &str, body: String| {
        let path = sb.write(&format!("bin/{name}"), format!("#!/bin/sh\n{body}"));
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    };
    bin(
        "srun",
        format!(
            "name=${{1#--job-name=}}; shift\n\
             id=$(( $(cat '{ids}' 2>/dev/null || echo 4240) + 1 )); echo $id > '{ids}'\n\
             echo \"$name $id\" > '{queue}'\n\
             while [ \"$1\" != -- ]; do shift; done; shift\n\
             \"$@\"; code=$?\n\
             rm -f '{queue}'; exit $code\n",
            ids = ids.display(),
            queue = queue.display()
        ),
    );
    bin(
        "squeue",
        format!(
            "while [ \"$1\" != --name ]; do shift; done\n\
             awk -v n=\"$2\" '$1 == n {{ print $2 }}' '{}' 2>/dev/null\n\
             exit 0\n",
            queue.display()
        ),
    );
    bin("scancel", "exit 0\n".to_string());
    format!(
        "{}:{}",
        sb.path().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn arx_ps_shows_the_job_id_as_soon_as_the_job_starts() {
    let sb = Sandbox::new();
    let path = fake_slurm(&sb);
    // The next heartbeat is a minute away: the id is shown before it.
    let mut run = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["run", "--no-gates", "--heartbeat", "60s"])
        .args(["--launcher", "srun --"])
        .args([
            "--",
            "sh",
            "-c",
            "while [ ! -e release ]; do sleep 0.05; done",
        ])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("PATH", &path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(15);
    while !ps(&sb).iter().any(|r| r["job_id"] == "4241") {
        assert!(
            Instant::now() < until,
            "the job id was not shown: {:?}",
            ps(&sb)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let human = sb.arx().arg("ps").output().unwrap();
    assert!(
        String::from_utf8_lossy(&human.stdout).contains("job: 4241"),
        "{}",
        String::from_utf8_lossy(&human.stdout)
    );
    sb.write("release", "");
    assert!(run.wait().unwrap().success());
    assert_eq!(sb.journal()[0]["job_id"], "4241");
}

#[test]
fn each_attempt_of_a_repeated_measurement_records_its_own_job() {
    let sb = Sandbox::new();
    let path = fake_slurm(&sb);
    // Each attempt lasts until its job id has surely been looked up.
    sb.arx()
        .env("PATH", &path)
        .args([
            "run",
            "--no-gates",
            "--repeat",
            "3",
            "--launcher",
            "srun --",
        ])
        .args(["--metric", "m", "--cmp", ">=", "--target", "0"])
        .args(["--", "sh", "-c", "sleep 0.6; echo '__RESULT__ {\"m\": 1}'"])
        .assert()
        .code(0);
    let record = &sb.journal()[0];
    let jobs: Vec<&str> = record["attempts"]
        .as_array()
        .expect("the attempts")
        .iter()
        .map(|a| a["job_id"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(jobs, ["4241", "4242", "4243"], "{record}");
    // The record's own job is its last attempt's, as before.
    assert_eq!(record["job_id"], "4243");
    // Every reader takes the record as it is.
    let id = record["run_id"].as_str().unwrap();
    for args in [
        &["journal", "verify"][..],
        &["log"],
        &["log", "--json"],
        &["report"],
        &["report", "--json"],
        &["show", id],
    ] {
        sb.arx().args(args).assert().code(0);
    }
    // `arx show` names each attempt's job.
    let out = sb.arx().args(["show", id]).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("(job 4241)") && shown.contains("(job 4243)"),
        "{shown}"
    );
}

#[test]
fn an_earlier_attempts_job_still_in_the_queue_is_not_taken_for_the_next() {
    let sb = Sandbox::new();
    let path = fake_slurm(&sb);
    // This `srun` leaves each ended job listed, as Slurm lists a job that
    // is still completing: the queue names the earlier attempts' jobs
    // first, under the same name.
    let queue = sb.path().join("queue");
    let ids = sb.path().join("last-job");
    let srun = sb.write(
        "bin/srun",
        format!(
            "#!/bin/sh\nname=${{1#--job-name=}}; shift\n\
             id=$(( $(cat '{ids}' 2>/dev/null || echo 4240) + 1 )); echo $id > '{ids}'\n\
             echo \"$name $id\" >> '{queue}'\n\
             while [ \"$1\" != -- ]; do shift; done; shift\n\
             exec \"$@\"\n",
            ids = ids.display(),
            queue = queue.display()
        ),
    );
    std::fs::set_permissions(&srun, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    sb.arx()
        .env("PATH", &path)
        .args(["run", "--no-gates", "--repeat", "3"])
        .args(["--launcher", "srun --"])
        .args(["--metric", "m", "--cmp", ">=", "--target", "0"])
        .args(["--", "sh", "-c", "sleep 0.6; echo '__RESULT__ {\"m\": 1}'"])
        .assert()
        .code(0);
    let record = &sb.journal()[0];
    let jobs: Vec<&str> = record["attempts"]
        .as_array()
        .expect("the attempts")
        .iter()
        .map(|a| a["job_id"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(jobs, ["4241", "4242", "4243"], "{record}");
}

#[test]
fn a_relative_guard_is_judged_on_the_candidates_slot_with_the_guard_metrics_offset() {
    // Slot "1" reads `step` 0.5 higher (a slower card) as well as `m` 5
    // higher: a change that does not touch the step time must not break
    // `step <= 1.05 * best` for the slot it ran on.
    let sb = slotted_repo_with("guards = [\"step <= 1.05 * best\"]\n");
    sb.arx().args(["try", "-m", "baseline"]).assert().code(0);
    sb.write("value.txt", "12");
    let (code, report) = try_on_slot_1(&sb, "a real gain, the same step time");
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (0, Some("keep")),
        "{report}"
    );
    // A change that does slow the step (1 -> 1.3) is still set aside, the
    // best's step time taken on the candidate's slot (1.5 there).
    sb.write("value.txt", "14");
    sb.write("step.txt", "1.3");
    let (code, report) = try_on_slot_1(&sb, "a gain, but slower");
    let r = &report["ratchet"];
    assert_eq!((code, r["status"].as_str()), (1, Some("guard")), "{report}");
    assert_eq!(r["guard"]["slot"], "1", "{report}");
    let best = r["guard"]["best"].as_f64().unwrap();
    assert!((best - 1.5).abs() < 0.01, "{report}");
    let value = r["guard"]["value"].as_f64().unwrap();
    assert!((value - 1.8).abs() < 0.01, "{report}");
}
