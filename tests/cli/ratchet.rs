//! `arx try`, `best`, `status`, `restore` and `log --format` on real git
//! repositories, with an experiment whose metric is the number in
//! `value.txt` plus a fixed jitter sequence (kept in an ignored file).

use std::process::Command as Std;

use serde_json::Value;

use crate::support::{
    committed_repo, git, json, stderr, stdout_json, try_json, try_status as status, Sandbox,
};

const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
[ "$v" = boom ] && { echo "Traceback: boom" >&2; exit 1; }
[ "$v" = sleep ] && { sleep 30; exit 0; }
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"m\": %.6f, \"mem\": 1.5}\n", v + j }'
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
baseline_repeat = 5
"#;

/// A repository on `main` with the experiment committed, `value.txt` = 1.0.
fn repo(extra_config: &str) -> Sandbox {
    committed_repo(&[
        ("score.sh", SCORE),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\ndata/\n"),
        ("arx.toml", &format!("{CONFIG}{extra_config}")),
    ])
}

fn head(sb: &Sandbox) -> String {
    git(sb, &["rev-parse", "HEAD"])
}

/// `arx --json try ARGS`, its exit code and its JSON report.
fn try_(sb: &Sandbox, args: &[&str]) -> (i32, Value) {
    let (code, report, _) = try_json(sb, args);
    (code, report)
}

fn statuses(sb: &Sandbox) -> Vec<String> {
    sb.journal()
        .iter()
        .map(|r| r["ratchet"]["status"].as_str().unwrap_or("-").to_string())
        .collect()
}

#[test]
fn a_better_candidate_is_kept_as_one_commit_after_the_baseline() {
    let sb = repo("");
    let start = head(&sb);
    sb.write("value.txt", "0.9");
    let (code, report) = try_(&sb, &["-m", "lower value"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(status(&report), "keep");
    assert_eq!(statuses(&sb), ["baseline", "keep"]);
    // One new commit on main with the description and the trailers.
    let new = head(&sb);
    assert_ne!(new, start);
    assert_eq!(git(&sb, &["rev-parse", "HEAD~1"]), start);
    let message = git(&sb, &["log", "-1", "--format=%B"]);
    assert!(message.starts_with("lower value\n"), "{message}");
    assert!(message.contains("Arx-Run: "), "{message}");
    assert!(message.contains("Arx-Metric: m "), "{message}");
    assert_eq!(report["ratchet"]["commit"].as_str(), Some(new.as_str()));
    // The keep commit holds the change and nothing of the state directory.
    let files = git(&sb, &["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(files, "value.txt");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
    // The baseline's five runs measured the noise; the keep is beyond it.
    let baseline = &sb.journal()[0];
    assert_eq!(baseline["samples"].as_array().unwrap().len(), 5);
    assert!(report["ratchet"]["noise"].as_f64().unwrap() > 0.0);
    assert_eq!(report["ratchet"]["blind"], Value::Null);

    let best = sb.arx().args(["--json", "best"]).assert().success();
    let best = stdout_json(&best);
    assert_eq!(best["commit"].as_str(), Some(new.as_str()));
    assert!(
        (best["value"].as_f64().unwrap() - 0.9).abs() < 0.01,
        "{best}"
    );
    assert!(best["change"].as_f64().unwrap() < -0.09, "{best}");
}

#[test]
fn a_worse_candidate_is_set_aside_and_undone_sparing_ignored_files() {
    let sb = repo("");
    let (code, _) = try_(&sb, &[]);
    assert_eq!(code, 0, "baseline");
    let kept = head(&sb);
    sb.write("value.txt", "1.2");
    sb.write("new.txt", "an untracked file of the candidate");
    sb.write("data/cache.bin", "ignored");
    let (code, report) = try_(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(status(&report), "discard");
    assert_eq!(head(&sb), kept);
    assert_eq!(sb.read("value.txt"), "1.0");
    assert!(!sb.path().join("new.txt").exists());
    assert_eq!(sb.read("data/cache.bin"), "ignored");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
    // Journaled, and the candidate kept under refs/arx/discarded.
    let run_id = report["run_id"].as_str().unwrap().to_string();
    let refname = format!("refs/arx/discarded/{run_id}");
    assert_eq!(
        report["ratchet"]["discarded_ref"].as_str(),
        Some(refname.as_str())
    );
    assert_eq!(git(&sb, &["show", &format!("{refname}:value.txt")]), "1.2");
    assert_eq!(
        git(&sb, &["show", &format!("{refname}:new.txt")]),
        "an untracked file of the candidate"
    );
    assert_eq!(statuses(&sb), ["baseline", "discard"]);

    // arx restore puts it back in the working tree.
    sb.arx().args(["restore", &run_id[..13]]).assert().success();
    assert_eq!(sb.read("value.txt"), "1.2");
    assert_eq!(sb.read("new.txt"), "an untracked file of the candidate");
    // ... and refuses a dirty tree.
    sb.arx().args(["restore", &run_id]).assert().code(2);
}

#[test]
fn a_crash_is_discarded_with_exit_3() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "boom");
    let (code, report) = try_(&sb, &["-m", "breaks it"]);
    assert_eq!(code, 3, "{report}");
    assert_eq!(status(&report), "crash");
    assert_eq!(sb.read("value.txt"), "1.0");
    // Its line names what happened: no timeout, a runtime failure.
    sb.write("value.txt", "boom");
    let out = sb
        .arx()
        .args(["try", "-m", "breaks it again"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("crash:"))
        .unwrap_or_default();
    assert!(line.contains("exit code 1 [H4 runtime failure]"), "{text}");
    assert!(!line.contains("timeout"), "{line}");
}

#[test]
fn outside_a_repository_status_ps_and_init_say_so_first() {
    let sb = Sandbox::new();
    for args in [&["status"][..], &["ps"], &["init"]] {
        let out = sb.arx().args(args).output().unwrap();
        let err = stderr(&out);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("arx: ") && first.contains("is not inside a git repository"),
            "{args:?}: {err}"
        );
    }
    // The configuration init wrote points at a page that exists.
    let config = sb.read("arx.toml");
    let first = config.lines().next().unwrap_or_default();
    let page = "docs/reference/config.md";
    assert!(first.contains(page), "{first}");
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(page))
        .unwrap();
    assert!(text.starts_with("# Configuration: `arx.toml`"));
    // Inside one: nothing said about it.
    let sb = repo("");
    let out = sb.arx().args(["ps"]).output().unwrap();
    assert!(!stderr(&out).contains("git repository"), "{}", stderr(&out));
}

#[test]
fn a_candidate_touching_a_protected_path_is_refused_without_running() {
    let sb = repo("protect = [\"score.sh\"]\n");
    assert_eq!(try_(&sb, &[]).0, 0);
    let runs_before = sb.read(".noise");
    sb.write("value.txt", "0.5");
    sb.write("score.sh", "echo '__RESULT__ {\"m\": 0}'\n");
    let (code, report) = try_(&sb, &["-m", "game the scorer"]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(status(&report), "protected");
    assert_eq!(report["ratchet"]["protected"][0], "score.sh");
    assert_eq!(sb.read(".noise"), runs_before, "the experiment ran");
    assert_eq!(sb.read("score.sh"), SCORE);
    assert_eq!(sb.read("value.txt"), "1.0");
}

#[test]
fn a_failing_check_blocks_the_keep() {
    let sb = repo("checks = [\"test -f ok.flag\"]\n");
    assert_eq!(try_(&sb, &[]).0, 0);
    let kept = head(&sb);
    sb.write("value.txt", "0.9");
    let (code, report) = try_(&sb, &["-m", "better but untested"]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(status(&report), "checks_failed");
    assert_eq!(report["ratchet"]["checks"][0]["exit_code"], 1);
    assert_eq!(head(&sb), kept);
    assert_eq!(sb.read("value.txt"), "1.0");
}

#[test]
fn commits_the_agent_made_are_kept_as_they_are() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "0.9");
    git(&sb, &["commit", "-qam", "agent: lower value"]);
    let agent = head(&sb);
    let (code, report) = try_(&sb, &["-m", "lower value"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(status(&report), "keep");
    assert_eq!(head(&sb), agent, "no extra commit");

    // A committed candidate that loses is undone: the branch moves back.
    sb.write("value.txt", "1.3");
    git(&sb, &["commit", "-qam", "agent: worse"]);
    let (code, _) = try_(&sb, &["-m", "worse"]);
    assert_eq!(code, 1);
    assert_eq!(head(&sb), agent);
}

#[test]
fn a_tracked_state_directory_is_never_rewound() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    // The user tracks .arx/ in git.
    git(&sb, &["add", "-f", ".arx"]);
    git(&sb, &["commit", "-qm", "track the journal"]);
    sb.write("value.txt", "1.4");
    let (code, _) = try_(&sb, &["-m", "worse"]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&sb), ["baseline", "discard"]);
    sb.write("value.txt", "0.8");
    let (code, _) = try_(&sb, &["-m", "better"]);
    assert_eq!(code, 0);
    assert_eq!(statuses(&sb), ["baseline", "discard", "keep"]);
    let files = git(&sb, &["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(
        files, "value.txt",
        "the keep commit took the state directory"
    );
}

#[test]
fn an_interrupted_try_is_journaled_and_leaves_the_tree_alone() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "sleep");
    sb.write("new.txt", "candidate");
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let child = Std::new(bin)
        .args(["--json", "try", "-m", "slow"])
        .current_dir(sb.path())
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert_eq!(statuses(&sb), ["baseline", "interrupted"]);
    assert_eq!(sb.read("value.txt"), "sleep");
    assert_eq!(sb.read("new.txt"), "candidate");
}

#[test]
fn status_says_when_to_stop_and_log_prints_the_results_table() {
    let sb = repo("\n[objective.stop]\nmax_discards_in_a_row = 2\n");
    sb.arx().arg("status").assert().code(1);
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "0.9");
    assert_eq!(try_(&sb, &["-m", "better"]).0, 0);
    sb.arx().arg("status").assert().code(1);
    for v in ["1.5", "1.6"] {
        sb.write("value.txt", v);
        assert_eq!(try_(&sb, &["-m", &format!("to {v}")]).0, 1);
    }
    let out = sb.arx().args(["--json", "status"]).assert().code(0);
    let st = stdout_json(&out);
    assert_eq!(st["stop"], true);
    assert!(st["reason"]
        .as_str()
        .unwrap()
        .contains("max_discards_in_a_row"));
    assert_eq!(
        (st["keeps"].as_u64(), st["discards"].as_u64()),
        (Some(1), Some(2))
    );

    let out = sb.arx().args(["log", "--format", "tsv"]).assert().success();
    let tsv = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(
        lines[0],
        "commit\tm\tstatus\tdescription\tmem\tlane\tslot\tidea\tfamily"
    );
    assert_eq!(lines.len(), 5, "{tsv}");
    let keep: Vec<&str> = lines[2].split('\t').collect();
    assert_eq!(keep[0].len(), 7);
    assert_eq!(keep[2], "keep");
    assert_eq!(keep[3], "better");
    assert_eq!(keep[4], "1.5");
    let csv = sb.arx().args(["log", "--format", "csv"]).assert().success();
    assert!(String::from_utf8_lossy(&csv.get_output().stdout)
        .starts_with("commit,m,status,description,mem"));
    // The run list says what the ratchet did with each try, and its metric.
    let out = sb.arx().arg("log").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    let statuses: Vec<&str> = rows.iter().map(|r| r[4]).collect();
    assert_eq!(
        statuses,
        ["baseline", "keep", "discard", "discard"],
        "{text}"
    );
    // Its value, give or take the run's jitter of ±0.002.
    let last: f64 = rows[3][5].trim_start_matches("m=").parse().unwrap();
    assert!((last - 1.6).abs() <= 0.0025, "{text}");
}

#[test]
fn a_dry_run_changes_nothing() {
    let sb = repo("");
    sb.write("value.txt", "0.9");
    let out = sb
        .arx()
        .args(["--json", "try", "--dry-run"])
        .assert()
        .success();
    let report = stdout_json(&out);
    assert_eq!(report["baseline_needed"], true);
    assert_eq!(report["paths"][0], "value.txt");
    assert!(!sb.path().join(".arx").exists());
    assert!(!sb.path().join(".noise").exists());
    assert_eq!(sb.read("value.txt"), "0.9");
}

#[test]
fn outside_a_repository_or_without_a_metric_nothing_happens() {
    let sb = Sandbox::new();
    sb.write("arx.toml", CONFIG);
    sb.write("score.sh", SCORE);
    sb.write("value.txt", "1.0");
    let out = sb.arx().arg("try").assert().code(2);
    assert!(stderr(&out).contains("hint:"), "{}", stderr(&out));
    assert!(!sb.path().join(".arx").exists());

    let sb = repo("");
    sb.write(
        "arx.toml",
        "[objective]\ndirection = \"min\"\ncommand = \"sh score.sh\"\n",
    );
    let out = sb.arx().arg("try").assert().code(2);
    assert!(stderr(&out).contains("no metric"), "{}", stderr(&out));
    assert!(stderr(&out).contains("hint:"));
}

/// `arx try ARGS`, killed at the failpoint `point` (`ARX_FAILPOINT`, see
/// `io::failpoint`) as `kill -9` would.
fn try_killed_at(sb: &Sandbox, point: &str, args: &[&str]) {
    use std::os::unix::process::ExitStatusExt;
    let out = sb
        .arx()
        .env("ARX_FAILPOINT", point)
        .arg("try")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.signal(),
        Some(9),
        "{point}: not killed ({:?}): {}",
        out.status.code(),
        stderr(&out)
    );
}

fn discarded_refs(sb: &Sandbox) -> Vec<String> {
    git(
        sb,
        &["for-each-ref", "--format=%(refname)", "refs/arx/discarded"],
    )
    .lines()
    .map(str::to_string)
    .collect()
}

#[test]
fn a_discard_killed_after_its_record_never_sweeps_up_new_work() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "1.2");
    sb.write("new.txt", "candidate");
    try_killed_at(&sb, "discard:after-record", &["-m", "worse"]);
    // Journaled and stored, not yet put back.
    assert_eq!(statuses(&sb), ["baseline", "discard"]);
    let run_id = sb.journal()[1]["run_id"].as_str().unwrap().to_string();
    let refname = format!("refs/arx/discarded/{run_id}");
    assert_eq!(git(&sb, &["show", &format!("{refname}:value.txt")]), "1.2");
    assert_eq!(sb.read("value.txt"), "1.2");
    // The agent goes on: new work on a file the candidate changed, and a
    // new file; new.txt stays as the candidate left it.
    sb.write("value.txt", "0.9");
    sb.write("more.txt", "new work");
    // Commands that only read move nothing.
    let out = sb.arx().arg("status").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cut off part-way"),
        "{}",
        stderr(&out)
    );
    for args in [&["best"][..], &["log"], &["report"], &["ps"]] {
        let out = sb.arx().args(args).output().unwrap();
        assert_ne!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    // A dry run says what the try would finish first, and moves nothing.
    let out = sb.arx().args(["try", "--dry-run"]).output().unwrap();
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cut off part-way: the next arx try"),
        "{}",
        stderr(&out)
    );
    assert_eq!(sb.read("value.txt"), "0.9");
    assert_eq!(sb.read("new.txt"), "candidate");
    assert_eq!(sb.read("more.txt"), "new work");
    assert!(sb.path().join(".arx/ratchet-pending.json").exists());
    // The next try finishes the discard on what it stored and is still
    // there (new.txt), leaves the new work with a warning, and tries it.
    let out = sb
        .arx()
        .args(["--json", "try", "-m", "new work"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(err.contains("finished an interrupted discard"), "{err}");
    assert!(
        err.contains("left as they are") && err.contains("value.txt"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(status(&stdout_json(&out)), "keep", "{err}");
    assert!(!sb.path().join("new.txt").exists());
    assert_eq!(sb.read("value.txt"), "0.9");
    assert_eq!(sb.read("more.txt"), "new work");
    assert_eq!(git(&sb, &["show", "HEAD:more.txt"]), "new work");
    assert_eq!(statuses(&sb), ["baseline", "discard", "keep"]);
    assert!(!sb.path().join(".arx/ratchet-pending.json").exists());
    // What was stored is still there.
    assert_eq!(
        git(&sb, &["show", &format!("{refname}:new.txt")]),
        "candidate"
    );
}

#[test]
fn a_discard_killed_at_any_step_loses_nothing() {
    for point in [
        "discard:after-snapshot",
        "discard:after-marker",
        "discard:after-record",
        "discard:after-restore",
    ] {
        let sb = repo("");
        assert_eq!(try_(&sb, &[]).0, 0);
        sb.write("value.txt", "1.2");
        sb.write("new.txt", "candidate");
        try_killed_at(&sb, point, &["-m", "worse"]);
        // Every ref made so far holds the candidate.
        let refs = discarded_refs(&sb);
        assert_eq!(refs.len(), 1, "{point}");
        assert_eq!(
            git(&sb, &["show", &format!("{}:value.txt", refs[0])]),
            "1.2"
        );
        // What waits is said by a command that only reads.
        let out = sb.arx().args(["status"]).output().unwrap();
        assert!(
            stderr(&out).contains("cut off part-way"),
            "{point}: {}",
            stderr(&out)
        );
        // The next try finishes it: one discard, journaled, the tree back.
        let out = sb.arx().args(["try", "-m", "worse"]).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{point}: {err}");
        assert!(err.contains("nothing to try"), "{point}: {err}");
        assert!(!err.contains("left as they are"), "{point}: {err}");
        assert_eq!(statuses(&sb), ["baseline", "discard"], "{point}");
        assert_eq!(sb.read("value.txt"), "1.0", "{point}");
        assert!(!sb.path().join("new.txt").exists(), "{point}");
        assert_eq!(
            git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
            "",
            "{point}"
        );
        let rec = sb.journal().pop().unwrap();
        // A record the try did not journal itself says it was recovered.
        let recovered = rec["tags"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == "recovered"));
        assert_eq!(
            recovered,
            matches!(point, "discard:after-snapshot" | "discard:after-marker"),
            "{point}: {rec}"
        );
        let refname = rec["ratchet"]["discarded_ref"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            git(&sb, &["show", &format!("{refname}:new.txt")]),
            "candidate"
        );
        assert!(
            !sb.path().join(".arx/ratchet-pending.json").exists(),
            "{point}"
        );
    }
}

#[test]
fn a_discard_cut_off_after_its_snapshot_is_restored_by_a_prefix_of_its_ref() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "1.2");
    sb.write("new.txt", "candidate");
    try_killed_at(&sb, "discard:after-snapshot", &["-m", "worse"]);
    let refs = discarded_refs(&sb);
    let name = refs[0].trim_start_matches("refs/arx/discarded/");
    let out = sb.arx().args(["restore", &name[..8]]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // The cut-off discard was finished (journaled) first, then the
    // candidate put back.
    assert_eq!(statuses(&sb), ["baseline", "discard"]);
    assert_eq!(sb.read("value.txt"), "1.2");
    assert_eq!(sb.read("new.txt"), "candidate");
}

#[test]
fn a_set_aside_cut_off_before_its_snapshot_is_forgotten_and_the_candidate_runs() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    sb.write("value.txt", "0.9");
    // The marker of a set-aside killed before its ref was written.
    sb.write(
        ".arx/ratchet-aside.json",
        format!(
            "{{\"refname\": \"refs/arx/aside\", \"head\": \"{}\"}}",
            head(&sb)
        ),
    );
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(status(&report), "keep", "{err}");
    assert!(err.contains("never left the working tree"), "{err}");
    assert!(!sb.path().join(".arx/ratchet-aside.json").exists());
}

#[test]
fn a_set_aside_cut_off_while_restoring_the_best_is_put_back_whole() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    let kept = head(&sb);
    // The candidate, stored under the aside ref as a set-aside stores it
    // (a commit on HEAD whose tree is the working tree) ...
    sb.write("value.txt", "0.9");
    sb.write("new.txt", "candidate");
    git(&sb, &["add", "value.txt", "new.txt"]);
    let tree = git(&sb, &["write-tree"]);
    git(&sb, &["reset", "-q"]);
    let snapshot = git(&sb, &["commit-tree", &tree, "-p", &kept, "-m", "aside"]);
    git(&sb, &["update-ref", "refs/arx/aside", &snapshot]);
    sb.write(
        ".arx/ratchet-aside.json",
        format!("{{\"refname\": \"refs/arx/aside\", \"head\": \"{kept}\", \"kept\": \"{kept}\"}}"),
    );
    // ... and the restore of the best cut off half-way: value.txt back,
    // new.txt not yet removed.
    sb.write("value.txt", "1.0");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("put back the candidate set aside"), "{err}");
    assert_eq!(status(&report), "keep", "{err}");
    assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.9");
    assert_eq!(git(&sb, &["show", "HEAD:new.txt"]), "candidate");
    assert!(!sb.path().join(".arx/ratchet-aside.json").exists());
}

#[test]
fn a_set_aside_that_new_work_keeps_from_being_put_back_is_kept_under_a_ref() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    let kept = head(&sb);
    sb.write("value.txt", "0.9");
    git(&sb, &["add", "value.txt"]);
    let tree = git(&sb, &["write-tree"]);
    git(&sb, &["reset", "-q"]);
    let snapshot = git(&sb, &["commit-tree", &tree, "-p", &kept, "-m", "aside"]);
    git(&sb, &["update-ref", "refs/arx/aside", &snapshot]);
    sb.write(
        ".arx/ratchet-aside.json",
        format!("{{\"refname\": \"refs/arx/aside\", \"head\": \"{kept}\", \"kept\": \"{kept}\"}}"),
    );
    // New work since the try was cut off, in the candidate's own file.
    sb.write("value.txt", "0.8");
    let (code, report, err) = try_json(&sb, &["-m", "new work"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(status(&report), "keep", "{err}");
    assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.8");
    let held = format!("refs/arx/discarded/aside-{}", &snapshot[..12]);
    assert!(err.contains(&held), "{err}");
    assert_eq!(git(&sb, &["show", &format!("{held}:value.txt")]), "0.9");
    assert!(!sb.path().join(".arx/ratchet-aside.json").exists());
    assert!(discarded_refs(&sb).contains(&held));
}

#[test]
fn git_locks_a_killed_try_left_do_not_stop_the_next_one() {
    // The aside ref's lock, left by a try killed while it set the
    // candidate aside for the baseline.
    let sb = repo("");
    sb.write(".git/refs/arx/aside.lock", "");
    sb.write("value.txt", "0.9");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(status(&report), "keep", "{err}");
    // The index's lock, left by a step a marker says was cut off.
    sb.write(
        ".arx/ratchet-aside.json",
        format!(
            "{{\"refname\": \"refs/arx/aside\", \"head\": \"{}\"}}",
            head(&sb)
        ),
    );
    sb.write(".git/index.lock", "");
    sb.write("value.txt", "0.8");
    let (code, report, err) = try_json(&sb, &["-m", "lower again"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(status(&report), "keep", "{err}");
    assert!(!sb.path().join(".git/index.lock").exists());
}

#[test]
fn a_discard_marker_without_its_snapshot_leaves_the_working_tree_alone() {
    // A marker an older arx wrote before it stored the candidate, and the
    // crash came before the store: the candidate's ref does not exist, and
    // the working tree holds new work since.
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    let kept = head(&sb);
    sb.write("value.txt", "1.2");
    let (code, report) = try_(&sb, &["-m", "worse"]);
    assert_eq!(code, 1);
    let run_id = report["run_id"].as_str().unwrap().to_string();
    let refname = format!("refs/arx/discarded/{run_id}");
    git(&sb, &["update-ref", "-d", &refname]);
    let record = sb.journal().pop().unwrap();
    let marker = serde_json::json!({"kept": kept, "discarded_ref": refname, "record": record});
    sb.write(".arx/ratchet-pending.json", marker.to_string());
    sb.write("value.txt", "0.9");
    sb.write("new.txt", "new work");
    let out = sb.arx().arg("status").assert().code(1);
    assert!(
        stderr(&out).contains("cut off part-way"),
        "{}",
        stderr(&out)
    );
    assert_eq!(sb.read("value.txt"), "0.9");
    assert_eq!(sb.read("new.txt"), "new work");
    let out = sb
        .arx()
        .args(["--json", "try", "-m", "new work"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(
        err.contains("had not stored its candidate: the working tree is left as it is"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(status(&stdout_json(&out)), "keep", "{err}");
    assert_eq!(git(&sb, &["show", "HEAD:new.txt"]), "new work");
    assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.9");
    assert_eq!(statuses(&sb), ["baseline", "discard", "keep"]);
}

#[test]
fn a_keep_killed_at_any_step_is_completed_by_the_next_try() {
    for point in [
        "keep:after-intent",
        "keep:after-branch",
        "keep:after-record",
    ] {
        let sb = repo("");
        assert_eq!(try_(&sb, &[]).0, 0);
        let start = head(&sb);
        sb.write("value.txt", "0.9");
        try_killed_at(&sb, point, &["-m", "better"]);
        let out = sb.arx().args(["try", "-m", "again"]).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{point}: {err}");
        assert!(err.contains("nothing to try"), "{point}: {err}");
        if point != "keep:after-record" {
            assert!(
                err.contains("finished an interrupted keep"),
                "{point}: {err}"
            );
        }
        assert_eq!(statuses(&sb), ["baseline", "keep"], "{point}");
        let rec = sb.journal().pop().unwrap();
        let commit = rec["ratchet"]["commit"].as_str().unwrap().to_string();
        assert_eq!(head(&sb), commit, "{point}");
        assert_eq!(git(&sb, &["rev-parse", "HEAD^"]), start, "{point}");
        assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.9", "{point}");
        assert_eq!(
            git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
            "",
            "{point}"
        );
        assert!(
            !sb.path().join(".arx/ratchet-keep.json").exists(),
            "{point}"
        );
    }
}

/// What git says of the index and the working tree: staged and unstaged
/// diffs (with modes) and the untracked files, state directory aside.
fn index_and_tree(sb: &Sandbox) -> (String, String, String) {
    (
        git(sb, &["diff", "--cached", "--", ".", ":!.arx"]),
        git(sb, &["diff", "--", ".", ":!.arx"]),
        git(
            sb,
            &[
                "ls-files",
                "--others",
                "--exclude-standard",
                "--",
                ".",
                ":!.arx",
            ],
        ),
    )
}

#[test]
fn a_discard_keeps_what_was_staged_and_restore_stages_it_again() {
    // Each case stages something, changes the tree again, is discarded
    // (worse), and comes back with `arx restore` exactly: the staged diff
    // and the unstaged diff both, as `git stash apply --index` does.
    type Setup = fn(&Sandbox);
    let cases: [(&str, Setup); 4] = [
        ("a partially staged file", |sb| {
            sb.write("value.txt", "1.3");
            git(sb, &["add", "value.txt"]);
            sb.write("value.txt", "1.2");
        }),
        ("a staged new file", |sb| {
            sb.write("value.txt", "1.2");
            sb.write("added.txt", "staged version\n");
            git(sb, &["add", "added.txt"]);
            sb.write("added.txt", "working version\n");
        }),
        ("a staged deletion", |sb| {
            sb.write("value.txt", "1.2");
            git(sb, &["rm", "-q", "--cached", "notes.txt"]);
        }),
        ("a staged mode change", |sb| {
            sb.write("value.txt", "1.2");
            git(sb, &["update-index", "--chmod=+x", "notes.txt"]);
        }),
    ];
    for (what, setup) in cases {
        let sb = repo("");
        sb.write("notes.txt", "notes\n");
        git(&sb, &["add", "notes.txt"]);
        git(&sb, &["commit", "-qm", "notes"]);
        let (code, _) = try_(&sb, &[]);
        assert_eq!(code, 0, "{what}: baseline");
        setup(&sb);
        let before = index_and_tree(&sb);
        assert!(!before.0.is_empty(), "{what}: something is staged");
        let (code, report) = try_(&sb, &["-m", what]);
        assert_eq!(code, 1, "{what}: {report}");
        assert_eq!(status(&report), "discard", "{what}");
        assert_eq!(
            index_and_tree(&sb),
            (String::new(), String::new(), String::new()),
            "{what}: the discard undid everything"
        );
        let run_id = report["run_id"].as_str().unwrap();
        sb.arx().args(["restore", run_id]).assert().success();
        assert_eq!(index_and_tree(&sb), before, "{what}: restored exactly");
    }
}

#[test]
fn a_paused_try_says_paused_changes_nothing_and_is_never_a_discard() {
    // The execute gate on (the default): the try pauses before anything
    // runs. It says so in every form, exit 1, and the candidate stays.
    let sb = repo("");
    let config = sb
        .read("arx.toml")
        .replace("execute = false", "execute = true");
    sb.write("arx.toml", config);
    git(&sb, &["commit", "-qam", "gate on"]);
    sb.write("value.txt", "0.8");
    let before = git(&sb, &["status", "--porcelain"]);
    let (code, report) = try_(&sb, &["-m", "lower"]);
    assert_eq!(code, 1);
    assert_eq!(report["ratchet"]["status"], "paused", "{report}");
    assert_eq!(report["undone"], false);
    assert_eq!(report["pending_gate"], "execute");
    let human = sb.arx().args(["try", "-m", "lower"]).output().unwrap();
    assert_eq!(human.status.code(), Some(1));
    let line = String::from_utf8_lossy(&human.stdout);
    assert!(line.starts_with("paused: "), "{line}");
    assert!(line.contains("nothing was undone"), "{line}");
    assert!(!line.contains("discard"), "{line}");
    assert_eq!(sb.read("value.txt"), "0.8");
    assert_eq!(git(&sb, &["status", "--porcelain"]), before);
    assert!(!sb.path().join(".arx/journal.jsonl").exists() || sb.journal().is_empty());
}

#[test]
fn a_warning_about_arx_toml_is_told_once_per_try() {
    // The configuration is read once for the whole try (objective, slots,
    // the execute gate): what was wrong with it is said once.
    let sb = repo("");
    let config = sb
        .read("arx.toml")
        .replace("execute = false", "execute = false\nreview = false");
    sb.write("arx.toml", config);
    git(&sb, &["commit", "-qam", "an unknown gate"]);
    let out = sb.arx().args(["--json", "try"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches("unknown gate `review`").count(), 1, "{err}");
}

#[test]
fn the_discard_line_says_worse_or_within_noise_as_the_numbers_say() {
    let sb = repo("");
    let (code, _) = try_(&sb, &[]);
    assert_eq!(code, 0, "baseline");
    let line = |sb: &Sandbox, value: &str, what: &str| -> String {
        sb.write("value.txt", value);
        let out = sb.arx().args(["try", "-m", what]).output().unwrap();
        // The verdict's line (the experiment's own output passes through).
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find(|l| l.starts_with("discard") || l.starts_with("keep"))
            .unwrap_or_default()
            .to_string()
    };
    // 100 noise σ worse: never "within noise".
    let worse = line(&sb, "1.2", "worse");
    assert!(worse.starts_with("discard: "), "{worse}");
    assert!(worse.contains("worse beyond noise"), "{worse}");
    assert!(!worse.contains("within noise"), "{worse}");
    // The same value written differently: no change beyond the noise.
    let null = line(&sb, "1.00", "null");
    assert!(null.starts_with("discard"), "{null}");
    assert!(null.contains("within noise"), "{null}");
    // Better by far: kept, beyond the noise.
    let better = line(&sb, "0.5", "better");
    assert!(better.starts_with("keep: "), "{better}");
    assert!(better.contains("beyond noise"), "{better}");
}

#[test]
fn the_demo_runs_the_loop_on_its_bundled_example() {
    let sb = Sandbox::new();
    let dir = sb.path().join("demo");
    let out = sb.arx().args(["demo", "--dir"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.trim_end().lines().last().unwrap_or_default();
    assert!(last.contains("report.html"), "{last}");
    assert!(text.contains(&format!(
        "The demo's repository is {}",
        dir.canonicalize().unwrap().display()
    )));
    // Every kind of try, through the real arx try, in its journal.
    let statuses: Vec<String> = std::fs::read_to_string(dir.join(".arx/journal.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["ratchet"]["status"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for status in ["baseline", "keep", "discard", "crash", "protected"] {
        assert!(
            statuses.iter().any(|s| s == status),
            "{status} in {statuses:?}"
        );
    }
    assert!(
        statuses.iter().filter(|s| *s == "keep").count() >= 3,
        "{statuses:?}"
    );
    // The discarded change brought back was built on and kept.
    assert!(text.contains("$ arx restore "), "{text}");
    assert!(
        text.contains("keep: val_loss")
            && text.contains("\"cosine schedule, trained three times longer\"")
    );
    assert!(std::fs::read_to_string(dir.join("report.html"))
        .unwrap()
        .contains("<svg"));
    // --json: the summary as data.
    let again = sb
        .arx()
        .args(["--json", "demo", "--dir"])
        .arg(sb.path().join("d2"))
        .output()
        .unwrap();
    let report = stdout_json(&again);
    assert_eq!(report["tries"].as_array().unwrap().len(), 10, "{report}");
    // A directory with something in it is refused.
    sb.arx().args(["demo", "--dir"]).arg(&dir).assert().code(2);
}

#[test]
fn restore_without_a_run_brings_back_the_newest_discarded_try() {
    let sb = repo("");
    let (code, _) = try_(&sb, &[]);
    assert_eq!(code, 0);
    let none = sb.arx().arg("restore").output().unwrap();
    assert_eq!(none.status.code(), Some(2));
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(err.contains("no discarded try in the journal"), "{err}");
    sb.write("value.txt", "1.4");
    let (code, _) = try_(&sb, &["-m", "first worse"]);
    assert_eq!(code, 1);
    sb.write("value.txt", "1.3");
    let (code, second) = try_(&sb, &["-m", "second worse"]);
    assert_eq!(code, 1);
    assert_eq!(sb.read("value.txt"), "1.0");
    let out = sb.arx().args(["--json", "restore"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(json(&out.stdout)["run_id"], second["run_id"]);
    assert_eq!(sb.read("value.txt"), "1.3");
}

/// A second `arx try` in the same working tree refuses at once (exit 2),
/// naming the running one, and leaves its files alone; once the first is
/// killed (`kill -9`), the lock is gone with it.
#[test]
fn a_second_try_in_the_same_working_tree_refuses_and_a_killed_one_frees_it() {
    let sb = repo("");
    assert_eq!(try_(&sb, &["-m", "baseline"]).0, 0);
    sb.write("value.txt", "sleep");
    let mut first = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["try", "-m", "a slow one"])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first holds its lock (the file names its holder).
    let pid = format!("\"pid\":{}", first.id());
    let started = std::time::Instant::now();
    let holder = loop {
        let held = std::fs::read_dir(sb.path().join(".arx"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("try-"))
            .find_map(|e| {
                std::fs::read_to_string(e.path())
                    .ok()
                    .filter(|t| t.contains(&pid))
            });
        if let Some(text) = held {
            break text;
        }
        assert!(
            started.elapsed().as_secs() < 20,
            "the first try never locked"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(holder.contains("a slow one"), "{holder}");
    let t0 = std::time::Instant::now();
    let second = sb
        .arx()
        .args(["try", "-m", "a second one"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&second.stderr).to_string();
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(t0.elapsed().as_secs() < 5, "the second try waited");
    assert!(
        err.contains("another arx try is running in this working tree")
            && err.contains(&format!("pid {}", first.id()))
            && err.contains("a slow one")
            && err.contains("hint:"),
        "{err}"
    );
    // Nothing of the first's candidate was touched.
    assert_eq!(
        std::fs::read_to_string(sb.path().join("value.txt")).unwrap(),
        "sleep"
    );
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    sb.write("value.txt", "0.9");
    let (code, report) = try_(&sb, &["-m", "after the kill"]);
    assert_eq!(code, 0, "{report}");
}

/// `arx status` and `arx best` read the segment from the report's cached
/// fold: what they say with the cache, without it (rebuilt) and after the
/// journal grew past it (extended) is what a fresh fold says.
#[test]
fn status_and_best_from_the_cached_fold_agree_with_a_fresh_one() {
    let sb = repo("");
    let ask = |what: &str| {
        let out = sb
            .arx()
            .args(["--json", "--now", "2030-01-01T00:00:00Z", what])
            .output()
            .unwrap();
        stdout_json(&out)
    };
    let fresh = |what: &str| {
        let _ = std::fs::remove_file(sb.path().join(".arx/report.json"));
        ask(what)
    };
    assert_eq!(try_(&sb, &[]).0, 0);
    for (v, code) in [("0.9", 0), ("1.5", 1), ("boom", 3)] {
        sb.write("value.txt", v);
        assert_eq!(try_(&sb, &["-m", v]).0, code, "{v}");
    }
    for what in ["status", "best"] {
        let cached = ask(what);
        assert!(sb.path().join(".arx/report.json").is_file(), "{what}");
        assert_eq!(ask(what), cached, "{what}: the cache read twice");
        assert_eq!(fresh(what), cached, "{what}: cached vs rebuilt");
    }
    let status = ask("status");
    assert_eq!(
        (
            status["keeps"].as_u64(),
            status["discards"].as_u64(),
            status["crashes"].as_u64()
        ),
        (Some(1), Some(1), Some(1)),
        "{status}"
    );
    // The journal grows past the cache: the cache is extended, and agrees.
    let before = ask("status");
    sb.write("value.txt", "0.8");
    assert_eq!(try_(&sb, &["-m", "0.8"]).0, 0);
    let extended = ask("status");
    assert_ne!(extended, before);
    assert_eq!(fresh("status"), extended);
    let best = ask("best");
    assert_eq!(fresh("best"), best);
    let value = best["value"].as_f64().unwrap();
    assert!((value - 0.8).abs() < 0.01, "{best}");
    // The try folds every record itself: the best it measures against is
    // the one the cached fold gave.
    sb.write("value.txt", "1.7");
    let (code, report) = try_(&sb, &["-m", "1.7"]);
    assert_eq!(code, 1);
    assert_eq!(report["ratchet"]["best"].as_f64(), Some(value), "{report}");
}

/// A change to `arx.toml` — committed by hand here — is never part of a
/// candidate: alone it is a config change (nothing runs, exit 0); with a
/// change to try, the rest is tried and the config stays as it is through
/// a discard and a keep.
#[test]
fn a_config_change_is_never_part_of_a_candidate() {
    let sb = repo("");
    assert_eq!(try_(&sb, &["-m", "baseline"]).0, 0);
    let config = sb
        .read("arx.toml")
        .replace("execute = false\n", "execute = false\nkg_write = false\n");
    sb.write("arx.toml", &config);
    git(&sb, &["commit", "-qam", "no kg_write gate"]);
    let config_commit = head(&sb);
    // Alone: a config change, nothing run, nothing journaled or undone.
    let (code, report) = try_(&sb, &["-m", "config only"]);
    assert_eq!((code, status(&report)), (0, "config_change"), "{report}");
    assert_eq!(report["config"][0], "arx.toml", "{report}");
    assert_eq!(statuses(&sb), ["baseline"]);
    assert_eq!(head(&sb), config_commit);
    // With a worse value: the value is tried and undone, the config stays.
    sb.write("value.txt", "1.5");
    let out = sb
        .arx()
        .args(["--json", "try", "-m", "worse"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("arx.toml changed too"), "{err}");
    let report = stdout_json(&out);
    assert_eq!(status(&report), "discard", "{report}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    assert_eq!(sb.read("arx.toml"), config);
    assert_eq!(sb.read("value.txt"), "1.0");
    assert_eq!(head(&sb), config_commit, "the config commit is still there");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--untracked-files=no"]),
        ""
    );
    // With a better value: the keep commits the value only.
    sb.write("value.txt", "0.5");
    let (code, report) = try_(&sb, &["-m", "better"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert_eq!(
        git(&sb, &["show", "--name-only", "--format=", "HEAD"]),
        "value.txt"
    );
    assert_eq!(git(&sb, &["rev-parse", "HEAD~1"]), config_commit);
    assert_eq!(sb.read("arx.toml"), config);
    // Uncommitted, beside a worse value: left as it is by the discard.
    let edited = config.replace("kg_write = false", "kg_write = true");
    sb.write("arx.toml", &edited);
    sb.write("value.txt", "1.5");
    let (code, report) = try_(&sb, &["-m", "worse again"]);
    assert_eq!((code, status(&report)), (1, "discard"), "{report}");
    assert_eq!(sb.read("arx.toml"), edited);
    assert_eq!(sb.read("value.txt"), "0.5");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--untracked-files=no"]),
        "M arx.toml"
    );
}

/// `arx ARGS` with its stdout a pipe whose reader went away at once (as
/// `arx … | head -1` once `head` has its line).
fn with_stdout_closed(sb: &Sandbox, args: &[&str]) -> std::process::Output {
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_the_output_quietly_and_keeps_the_answer() {
    let sb = repo("");
    let (code, _) = try_(&sb, &[]);
    assert_eq!(code, 0, "baseline");
    // A discard: journaled, set aside, and still exit 1 — never a panic,
    // never an exit that reads as a keep.
    sb.write("value.txt", "1.2");
    let out = with_stdout_closed(&sb, &["try", "-m", "worse"]);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(statuses(&sb), ["baseline", "discard"]);
    assert_eq!(sb.read("value.txt"), "1.0");
    // A keep under `--json`: exit 0, its record written.
    sb.write("value.txt", "0.5");
    let out = with_stdout_closed(&sb, &["--json", "try", "-m", "better"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(statuses(&sb), ["baseline", "discard", "keep"]);
    for args in [&["log"][..], &["status"], &["best"], &["report"]] {
        let out = with_stdout_closed(&sb, args);
        let err = stderr(&out);
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{args:?}: {err}"
        );
        assert_ne!(out.status.code(), Some(101), "{args:?}");
        assert_ne!(out.status.code(), Some(2), "{args:?}");
    }
    // The demo speaks line by line: the same quiet end.
    let dir = sb.path().join("demo");
    let out = with_stdout_closed(&sb, &["demo", "--dir", dir.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn a_metric_the_experiment_never_prints_stops_after_the_first_baseline_run() {
    for (metric, hint) in [("m1", true), ("accuracy", false)] {
        let sb = repo("");
        sb.write(
            "arx.toml",
            CONFIG.replace("metric = \"m\"", &format!("metric = \"{metric}\"")),
        );
        git(&sb, &["commit", "-qam", "metric"]);
        let out = sb.arx().arg("try").output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
        // One run, not the baseline's five.
        assert_eq!(sb.read(".noise").trim(), "1", "{text}");
        let line = text
            .lines()
            .find(|l| l.starts_with("crash:"))
            .unwrap_or_default();
        assert!(line.contains(&format!("reported no {metric}")), "{line}");
        assert!(line.contains("it printed m, mem"), "{line}");
        assert_eq!(line.contains("(did you mean m?)"), hint, "{line}");
        assert_eq!(statuses(&sb), ["crash"]);
    }
}

/// `arx try -m WHAT` as a person reads it: the verdict's line and what
/// was said on stderr (the finding it added).
fn try_human(sb: &Sandbox, what: &str) -> (String, String) {
    let out = sb.arx().args(["try", "-m", what]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text
        .lines()
        .find(|l| l.starts_with("keep") || l.starts_with("discard"))
        .unwrap_or_default()
        .to_string();
    (line, stderr(&out))
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> f64 {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix:?} in {text:?}"))
        + prefix.len();
    let s: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | '\u{2212}'))
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    s.parse()
        .unwrap_or_else(|_| panic!("a number after {prefix:?} in {text:?}"))
}

#[test]
fn a_try_reads_the_same_in_its_line_its_finding_best_report_and_log() {
    let sb = repo("");
    assert_eq!(try_(&sb, &[]).0, 0);
    // 0.002 worse, one run against the baseline's five (sd ≈ 0.0016):
    // within the noise of the difference, in the line and the finding.
    sb.write("value.txt", "1.002");
    let (line, said) = try_human(&sb, "slightly worse");
    assert!(line.contains("within noise"), "{line}");
    let finding = said
        .lines()
        .find(|l| l.contains("did not improve"))
        .unwrap_or_default();
    assert!(
        finding.contains("(+0.002, worse within noise)"),
        "{finding} / {line}"
    );

    // A keep: the line's value and change, the finding's gain, `best`,
    // the report's best and its row, and the log's row are one number.
    sb.write("value.txt", "0.9");
    let (line, said) = try_human(&sb, "lower");
    assert!(line.starts_with("keep: m "), "{line}");
    let run_id = sb.journal().last().unwrap()["run_id"]
        .as_str()
        .unwrap()
        .to_string();
    // The line tells the decision's runs and, after it, the value the
    // keep is recorded as (its runs after the screen): that is the best.
    let told = number_after(&line, "keep: m ");
    let change = number_after(&line, "(");
    let recorded = number_after(&line, "recorded as ");
    let decided = sb.journal().last().unwrap()["ratchet"]["basis"].clone();
    let finding = said
        .lines()
        .find(|l| l.contains("improved m by"))
        .unwrap_or_default();
    let gain = number_after(finding, "improved m by ");
    let best = stdout_json(sb.arx().args(["--json", "best"]).assert().success());
    let value = best["value"].as_f64().unwrap();
    let report = stdout_json(sb.arx().args(["--json", "report"]).assert().success());
    let summary = &report["segments"][0]["best"];
    let row = report["last_runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["run_id"] == run_id.as_str())
        .unwrap_or_else(|| panic!("{run_id} in {report}"));
    let log = String::from_utf8_lossy(&sb.arx().arg("log").output().unwrap().stdout).to_string();
    let log_row = log
        .lines()
        .find(|l| l.contains(" keep "))
        .unwrap_or_default();
    let logged = number_after(log_row, "m=");
    assert_eq!(summary["value"].as_f64(), Some(value), "{summary} / {best}");
    assert_eq!(row["value"].as_f64(), Some(value), "{row} / {best}");
    assert!((recorded - value).abs() < 1e-4, "{line} / {value}");
    let weighed = decided["value"].as_f64().unwrap();
    assert!((told - weighed).abs() < 1e-4, "{line} / {decided}");
    assert!((logged - value).abs() < 1e-6, "{log_row} / {value}");
    // The change against the best before it (the baseline): one sign, one
    // number, in the metric's units.
    let row_change = row["change"].as_f64().unwrap();
    let since_baseline = summary["change"].as_f64().unwrap();
    assert!(
        row_change < 0.0 && since_baseline < 0.0,
        "{row} / {summary}"
    );
    assert!(
        (row_change - since_baseline).abs() < 1e-12,
        "{row} / {summary}"
    );
    // The line's change and the finding's gain are the decision's.
    let decided_change = decided["change"].as_f64().unwrap();
    assert!((change - decided_change).abs() < 1e-4, "{line} / {decided}");
    assert!(
        (gain - decided_change.abs()).abs() < 5e-4,
        "{finding} / {decided}"
    );
    assert!(
        log_row.contains(&format!("(n={})", best["n"])),
        "{log_row} / {best}"
    );
}

#[test]
fn the_sequential_rule_keeps_a_clear_gain_and_records_it_by_the_runs_after_the_keep() {
    let sb = repo("rule = \"sequential\"\nconfidence = 0.95\n");
    assert_eq!(try_(&sb, &[]).0, 0);
    // Far better than the noise (0.002): kept at the fourth run's look
    // (the first that may keep), then five more runs make its record.
    sb.write("value.txt", "0.9");
    let (code, report) = try_(&sb, &["-m", "better"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(status(&report), "keep");
    assert_eq!(report["ratchet"]["rule"], "sequential");
    let samples = report["samples"].as_array().expect("samples").len();
    assert_eq!(samples, 9, "{report}");
    assert_eq!(report["ratchet"]["best_runs"], 5, "{report}");
    // Not better: ended by the screen after one run.
    sb.write("value.txt", "1.5");
    let (code, report) = try_(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report}");
    assert!(report["samples"].is_null(), "one run, no samples: {report}");
    assert_eq!(status(&report), "discard");
}
