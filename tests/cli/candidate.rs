//! What a candidate is: the snapshot of the working tree taken when its
//! measurement starts. The keep commits exactly that snapshot; a discard
//! undoes exactly it; an edit made while the try runs, a person's commit
//! made meanwhile and what the runs write are left as they are.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{committed_repo, git, json, stderr, try_json, try_status, Sandbox};

pub(crate) const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 3)) in 0) j=0;; 1) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"m\": %.6f}\n", v + j }'
"#;

/// A repository whose metric is the number in `value.txt` (1.0), with
/// `extra` added to `[objective]`; `data/` and `.noise` are ignored.
pub(crate) fn repo(extra: &str) -> Sandbox {
    let config = format!(
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
         command = \"sh score.sh\"\nbaseline_repeat = 3\n{extra}"
    );
    let sb = committed_repo(&[
        ("score.sh", SCORE),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\ndata/\n"),
        ("arx.toml", &config),
    ]);
    std::fs::create_dir_all(sb.path().join("data")).unwrap();
    sb
}

/// A check that says it started (`data/checking`), then waits for the
/// test to go on (`data/go`) and exits `code`.
pub(crate) fn waiting_check(code: u8) -> String {
    format!(
        "checks = [\"touch data/checking; i=0; while [ ! -f data/go ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; exit {code}\"]\n"
    )
}

/// `arx --json try ARGS` started in the background.
pub(crate) fn spawn_try(sb: &Sandbox, args: &[&str]) -> Child {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_arx"));
    cmd.current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .args(["--json", "try"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.spawn().unwrap()
}

/// Wait until `path` exists (the check started).
pub(crate) fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The try's exit code, JSON report and stderr.
pub(crate) fn finish(child: Child) -> (i32, Value, String) {
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!out.stdout.is_empty(), "no report: {err}");
    (out.status.code().unwrap_or(-1), json(&out.stdout), err)
}

/// The baseline measured (the first try, with nothing changed).
pub(crate) fn baseline(sb: &Sandbox) {
    let (code, report, err) = try_json(sb, &[]);
    assert_eq!(code, 0, "{report} {err}");
}

/// Run a try of `value.txt` = `value` whose check waits; while it waits,
/// `meanwhile` runs; then the try ends.
pub(crate) fn try_with_check(
    sb: &Sandbox,
    value: &str,
    meanwhile: impl FnOnce(),
) -> (i32, Value, String) {
    sb.write("value.txt", value);
    let child = spawn_try(sb, &["-m", "lower"]);
    wait_for(&sb.path().join("data/checking"));
    meanwhile();
    sb.write("data/go", "");
    finish(child)
}

#[test]
fn the_keep_commits_the_tree_that_was_measured_and_an_edit_made_meanwhile_stays() {
    let sb = repo(&waiting_check(0));
    baseline(&sb);
    let start = git(&sb, &["rev-parse", "HEAD"]);
    let (code, report, err) = try_with_check(&sb, "0.4", || {
        sb.write("value.txt", "0.9");
    });
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    // The kept commit is the measured tree: the start with value.txt 0.4.
    assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.4");
    assert_eq!(git(&sb, &["rev-parse", "HEAD~1"]), start);
    assert_eq!(
        git(&sb, &["diff", "--name-only", "HEAD~1", "HEAD"]),
        "value.txt"
    );
    let value = report["ratchet"]["samples"][0]
        .as_f64()
        .or_else(|| report["samples"][0].as_f64())
        .unwrap();
    assert!((value - 0.4).abs() < 0.01, "{report}");
    // The edit made while it ran stays, as the user's work, and is named.
    assert_eq!(sb.read("value.txt"), "0.9");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", "value.txt"]),
        "M value.txt"
    );
    assert!(
        err.contains("changed while the try ran") && err.contains("value.txt"),
        "{err}"
    );
}

#[test]
fn a_discard_undoes_what_was_measured_and_leaves_an_edit_made_meanwhile() {
    let sb = repo(&waiting_check(1));
    baseline(&sb);
    let kept = git(&sb, &["rev-parse", "HEAD"]);
    let (code, report, err) = try_with_check(&sb, "0.4", || {
        sb.write("value.txt", "0.9");
    });
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(try_status(&report), "checks_failed");
    assert_eq!(git(&sb, &["rev-parse", "HEAD"]), kept);
    // What was measured is what was stored; the later edit stays.
    let stored = report["ratchet"]["discarded_ref"].as_str().unwrap();
    assert_eq!(git(&sb, &["show", &format!("{stored}:value.txt")]), "0.4");
    assert_eq!(sb.read("value.txt"), "0.9");
    assert!(
        err.contains("changed while the try ran") && err.contains("value.txt"),
        "{err}"
    );
}

#[test]
fn a_persons_commit_made_while_a_try_runs_survives_its_discard() {
    let sb = repo(&waiting_check(1));
    baseline(&sb);
    let (code, report, err) = try_with_check(&sb, "0.4", || {
        sb.write("NOTES.md", "a person's notes\n");
        git(&sb, &["add", "NOTES.md"]);
        git(&sb, &["commit", "-qm", "notes"]);
    });
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(try_status(&report), "checks_failed");
    // The person's commit is still on the branch, its file in the tree;
    // the candidate alone was set aside.
    assert_eq!(git(&sb, &["log", "-1", "--format=%s"]), "notes");
    assert_eq!(sb.read("NOTES.md"), "a person's notes\n");
    assert_eq!(sb.read("value.txt"), "1.0");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
}

#[test]
fn a_winner_whose_branch_moved_under_it_is_stale_and_nothing_changes() {
    let sb = repo(&waiting_check(0));
    baseline(&sb);
    let (code, report, err) = try_with_check(&sb, "0.4", || {
        sb.write("other.txt", "a colleague's file\n");
        git(&sb, &["add", "other.txt"]);
        git(&sb, &["commit", "-qm", "colleague"]);
    });
    // Stale is a "no" like every try that keeps nothing: exit 1.
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(try_status(&report), "stale");
    assert_eq!(git(&sb, &["log", "-1", "--format=%s"]), "colleague");
    assert_eq!(sb.read("value.txt"), "0.4");
    // Measured again on top of the colleague's commit, it is kept there.
    sb.write("data/go", "");
    let (code, report, err) = try_json(&sb, &["-m", "lower again"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    assert_eq!(
        git(&sb, &["log", "-1", "--format=%s", "HEAD~1"]),
        "colleague"
    );
}

#[test]
fn a_baseline_puts_the_edit_back_even_when_its_runs_rewrote_tracked_outputs() {
    // The experiment rewrites a tracked output on every run.
    let sb = committed_repo(&[
        ("score.sh", &format!("{SCORE}date +%s%N > policy.json\n")),
        ("value.txt", "1.0"),
        ("policy.json", "{}\n"),
        (".gitignore", ".noise\n"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 3\n",
        ),
    ]);
    sb.write("value.txt", "0.4");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    assert!(err.contains("policy.json"), "{err}");
    // The kept commit is the edit alone, not what the runs wrote.
    assert_eq!(
        git(&sb, &["diff", "--name-only", "HEAD~1", "HEAD"]),
        "value.txt"
    );
    assert_eq!(git(&sb, &["show", "HEAD:value.txt"]), "0.4");
}

#[test]
fn the_agents_notes_are_never_part_of_a_candidate() {
    let sb = repo("");
    baseline(&sb);
    // Alone, notes are no change to try.
    sb.write("NOTES.md", "tried lr 0.1: worse\n");
    let out = sb.arx().args(["try", "-m", "notes"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing to try"), "{}", stderr(&out));
    // Beside a worse change: the change is undone, the notes stay and are
    // not stored with it.
    sb.write("value.txt", "1.2");
    let (code, report, err) = try_json(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    assert_eq!(sb.read("NOTES.md"), "tried lr 0.1: worse\n");
    let stored = report["ratchet"]["discarded_ref"].as_str().unwrap();
    let files = git(&sb, &["ls-tree", "-r", "--name-only", stored]);
    assert!(!files.contains("NOTES.md"), "{files}");
    // Beside a better one: the keep commits the change alone.
    sb.write("value.txt", "0.5");
    let (code, report, err) = try_json(&sb, &["-m", "better"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(
        git(&sb, &["show", "--name-only", "--format=", "HEAD"]),
        "value.txt"
    );
    assert_eq!(sb.read("NOTES.md"), "tried lr 0.1: worse\n");
}

#[test]
fn the_notes_are_whatever_objective_notes_names() {
    let sb = repo("notes = [\"lab/\"]\n");
    baseline(&sb);
    sb.write("lab/log.txt", "day 1\n");
    sb.write("NOTES.md", "not notes here: part of the candidate\n");
    sb.write("value.txt", "1.2");
    let (code, report, err) = try_json(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(
        report["ratchet"]["paths"],
        serde_json::json!(["NOTES.md", "value.txt"])
    );
    assert_eq!(sb.read("lab/log.txt"), "day 1\n");
    assert!(!sb.path().join("NOTES.md").exists());
}

#[test]
fn the_keep_stores_files_through_the_repositorys_attributes_as_git_add_does() {
    let sb = repo("");
    sb.write(".gitattributes", "*.txt text eol=crlf\n");
    git(&sb, &["add", ".gitattributes"]);
    git(&sb, &["commit", "-qm", "crlf"]);
    baseline(&sb);
    sb.write("value.txt", "0.4\r\n");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    // Stored normalized, as `git add` stores it; the tree reads clean.
    let blob = std::process::Command::new("git")
        .args(["cat-file", "-p", "HEAD:value.txt"])
        .current_dir(sb.path())
        .output()
        .unwrap();
    assert_eq!(blob.stdout, b"0.4\n");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
}

#[test]
fn a_file_over_max_file_mb_is_refused_before_anything_runs() {
    let sb = repo("max_file_mb = 1\n");
    baseline(&sb);
    let runs = sb.journal().len();
    sb.write("value.txt", "0.4");
    sb.write("out/ckpt.bin", vec![7u8; 2 * 1024 * 1024]);
    let out = sb.arx().args(["try", "-m", "lower"]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("out/ckpt.bin (2.0 MB)")
            && err.contains("hint:")
            && err.contains("max_file_mb"),
        "{err}"
    );
    // Nothing ran, nothing changed.
    assert_eq!(sb.journal().len(), runs);
    assert_eq!(sb.read("value.txt"), "0.4");
    assert!(sb.path().join("out/ckpt.bin").exists());
    // Allowed (0: no limit), it is tried.
    let config = sb
        .read("arx.toml")
        .replace("max_file_mb = 1", "max_file_mb = 0");
    sb.write("arx.toml", config);
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
}

#[test]
fn restore_lists_the_candidates_set_aside_with_their_sizes_and_prunes_the_old_ones() {
    let sb = repo("");
    baseline(&sb);
    sb.write("value.txt", "1.2");
    sb.write("big.bin", vec![1u8; 300 * 1024]);
    let (code, report, err) = try_json(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report} {err}");
    let stored = report["ratchet"]["discarded_ref"]
        .as_str()
        .unwrap()
        .to_string();
    let list = sb
        .arx()
        .args(["--json", "restore", "--list"])
        .output()
        .unwrap();
    assert_eq!(list.status.code(), Some(0), "{}", stderr(&list));
    let list = json(&list.stdout);
    assert_eq!(list["stored"][0]["refname"], stored.as_str(), "{list}");
    assert_eq!(list["stored"][0]["paths"], 2, "{list}");
    assert!(
        list["stored"][0]["bytes"].as_u64().unwrap() >= 300 * 1024,
        "{list}"
    );
    let human = sb.arx().args(["restore", "--list"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&human.stdout).contains("300.0 KB"),
        "{}",
        String::from_utf8_lossy(&human.stdout)
    );
    // Younger than 30 days: kept; 31 days on: pruned.
    let young = sb
        .arx()
        .args(["--json", "restore", "--prune", "--older-than", "30d"])
        .output()
        .unwrap();
    assert_eq!(json(&young.stdout)["kept"], 1);
    assert!(!git(&sb, &["for-each-ref", "refs/arx/discarded/"]).is_empty());
    let later = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(31 * 24)).to_string();
    let old = sb
        .arx()
        .args([
            "--json",
            "--now",
            &later,
            "restore",
            "--prune",
            "--older-than",
            "30d",
        ])
        .output()
        .unwrap();
    assert_eq!(old.status.code(), Some(0), "{}", stderr(&old));
    assert_eq!(json(&old.stdout)["pruned"][0]["refname"], stored.as_str());
    assert_eq!(git(&sb, &["for-each-ref", "refs/arx/discarded/"]), "");
    // A bad age is an error that changes nothing.
    let bad = sb
        .arx()
        .args(["restore", "--prune", "--older-than", "soon"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("hint:"), "{}", stderr(&bad));
}

#[test]
fn what_the_runs_write_is_never_part_of_a_later_candidate() {
    // The experiment saves a checkpoint, as nanoGPT-style scripts do.
    let sb = committed_repo(&[
        (
            "score.sh",
            &format!("{SCORE}mkdir -p out; echo \"$v $n\" > out/ckpt.bin\n"),
        ),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\n"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 3\n",
        ),
    ]);
    let (code, report, err) = try_json(&sb, &[]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(
        err.contains("out/ckpt.bin") && err.contains("git-ignore"),
        "{err}"
    );
    // The baseline's checkpoint is not part of the next candidate.
    sb.write("value.txt", "0.4");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    assert_eq!(
        git(&sb, &["show", "--name-only", "--format=", "HEAD"]),
        "value.txt"
    );
    // Nor is the candidate's: nothing is left to try.
    let out = sb.arx().args(["try", "-m", "again"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing to try"), "{}", stderr(&out));
    // Changed by hand, it is a change again.
    sb.write("out/ckpt.bin", "edited by hand\n");
    let (code, report, err) = try_json(&sb, &["-m", "a new checkpoint"]);
    assert_ne!(code, 2, "{report} {err}");
    assert_eq!(
        report["ratchet"]["paths"],
        serde_json::json!(["out/ckpt.bin"])
    );
}

#[test]
fn a_discard_writes_files_back_through_the_attributes_as_git_checkout_does() {
    let sb = repo("");
    sb.write(".gitattributes", "*.csv text eol=crlf\n");
    sb.write("data.csv", "a,b\r\n1,2\r\n");
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "data"]);
    baseline(&sb);
    sb.write("data.csv", "a,b\r\n1,3\r\n");
    sb.write("value.txt", "1.2");
    let (code, report, err) = try_json(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report} {err}");
    // CRLF, as `git checkout` writes it, not the blob's LF.
    let bytes = std::fs::read(sb.path().join("data.csv")).unwrap();
    assert_eq!(bytes, b"a,b\r\n1,2\r\n");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
}

/// A repository whose metric is the number in the submodule's
/// `lib/value.txt` (1.0).
pub(crate) fn repo_with_submodule() -> Sandbox {
    let sb = Sandbox::new();
    let sub = sb.path().join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("value.txt"), "1.0").unwrap();
    crate::support::commit_all(&sub);
    let top = sb.path().join("top");
    std::fs::create_dir_all(&top).unwrap();
    std::fs::write(
        top.join("score.sh"),
        SCORE.replace("v=$(cat value.txt)", "v=$(cat lib/value.txt)"),
    )
    .unwrap();
    std::fs::write(top.join(".gitignore"), ".noise\n").unwrap();
    std::fs::write(
        top.join("arx.toml"),
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
         command = \"sh score.sh\"\nbaseline_repeat = 3\n",
    )
    .unwrap();
    crate::support::commit_all(&top);
    crate::support::git_in(
        &top,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            sub.to_str().unwrap(),
            "lib",
        ],
    );
    crate::support::git_in(&top, &["commit", "-qm", "the submodule"]);
    sb
}

/// `arx --json try ARGS` in `dir`.
pub(crate) fn try_in(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arx"))
        .current_dir(dir)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .args(["--json", "try"])
        .args(args)
        .output()
        .unwrap();
    let err = stderr(&out);
    let report = if out.stdout.is_empty() {
        Value::Null
    } else {
        json(&out.stdout)
    };
    (out.status.code().unwrap_or(-1), report, err)
}

#[test]
fn a_submodule_with_changes_inside_is_refused_before_anything_runs() {
    let sb = repo_with_submodule();
    let top = sb.path().join("top");
    let (code, report, err) = try_in(&top, &[]);
    assert_eq!(code, 0, "{report} {err}");
    let runs = sb.read_jsonl("top/.arx/journal.jsonl").len();
    std::fs::write(top.join("lib/value.txt"), "0.5").unwrap();
    std::fs::write(
        top.join("score.sh"),
        SCORE.replace("v=$(cat value.txt)", "v=$(cat lib/value.txt) # edited"),
    )
    .unwrap();
    let (code, _, err) = try_in(&top, &["-m", "inside the submodule"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("lib (a submodule with uncommitted changes inside)"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(sb.read_jsonl("top/.arx/journal.jsonl").len(), runs);
    assert_eq!(sb.read("top/lib/value.txt"), "0.5");
}

#[test]
fn a_moved_submodule_is_a_candidate_undone_by_putting_it_back() {
    let sb = repo_with_submodule();
    let top = sb.path().join("top");
    let lib = top.join("lib");
    let (code, report, err) = try_in(&top, &[]);
    assert_eq!(code, 0, "{report} {err}");
    let recorded = crate::support::git_in(&lib, &["rev-parse", "HEAD"]);
    // A worse value committed inside the submodule, recorded above.
    crate::support::git_in(&lib, &["config", "user.email", "t@example.com"]);
    crate::support::git_in(&lib, &["config", "user.name", "T"]);
    std::fs::write(lib.join("value.txt"), "1.2").unwrap();
    crate::support::git_in(&lib, &["commit", "-qam", "worse"]);
    crate::support::git_in(&top, &["add", "lib"]);
    crate::support::git_in(&top, &["commit", "-qm", "move the submodule"]);
    let (code, report, err) = try_in(&top, &["-m", "a worse library"]);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(try_status(&report), "discard");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["lib"]));
    // The submodule is back at the best's commit.
    assert_eq!(
        crate::support::git_in(&lib, &["rev-parse", "HEAD"]),
        recorded
    );
    assert_eq!(sb.read("top/lib/value.txt"), "1.0");
    assert_eq!(
        crate::support::git_in(&top, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
}

#[test]
fn a_candidate_measured_on_other_declared_inputs_is_not_compared() {
    // The experiment reads an ignored file, as karpathy's layout reads dev/.
    let sb = repo("inputs = [\"data/**\"]\n");
    sb.write(
        "score.sh",
        SCORE.replace(
            "v=$(cat value.txt)",
            "v=$(awk -v a=\"$(cat value.txt)\" -v b=\"$(cat data/tweak.txt)\" 'BEGIN { print a + b }')",
        ),
    );
    sb.write("data/tweak.txt", "0");
    git(&sb, &["commit", "-qam", "reads data/"]);
    baseline(&sb);
    let runs = sb.journal().len();
    sb.write("data/tweak.txt", "-0.3");
    sb.write("value.txt", "1.1");
    let out = sb
        .arx()
        .args(["try", "-m", "worse, helped by data/"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the declared inputs (data/**) differ from the ones the best"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(sb.journal().len(), runs, "nothing journaled");
    assert_eq!(sb.read("value.txt"), "1.1");
    // On the best's inputs it is compared (and set aside: it is worse).
    sb.write("data/tweak.txt", "0");
    let (code, report, err) = try_json(&sb, &["-m", "worse"]);
    assert_eq!(code, 1, "{report} {err}");
    assert!(report["ratchet"]["inputs"].is_string(), "{report}");
}

/// With `data/kill`, the run kills the try that runs it (its pid is in
/// the try's lock), as `kill -9` would, after writing its checkpoint.
const KILLING: &str = r#"mkdir -p out; echo "$v $n" > out/ckpt.bin
if [ -f data/kill ]; then
  rm data/kill
  kill -9 $(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' .arx/try-*.lock)
  sleep 5
fi
"#;

/// A repository whose experiment writes `out/ckpt.bin` and, told to,
/// kills its try; its baseline measured.
fn killing_repo() -> Sandbox {
    let sb = committed_repo(&[
        ("score.sh", &format!("{SCORE}{KILLING}")),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\ndata/\n"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 3\n",
        ),
    ]);
    std::fs::create_dir_all(sb.path().join("data")).unwrap();
    let (code, report, err) = try_json(&sb, &[]);
    assert_eq!(code, 0, "{report} {err}");
    sb
}

/// A baseline measured with the candidate set aside, killed in its run:
/// the next try records what the run wrote as outputs, puts the candidate
/// back, and measures the candidate alone.
#[test]
fn a_baseline_killed_with_the_candidate_aside_puts_it_back_without_its_outputs() {
    let sb = killing_repo();
    sb.write("value.txt", "0.4");
    sb.write("data/kill", "");
    let out = sb
        .arx()
        .args(["try", "--new-segment", "-m", "killed"])
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "{}", stderr(&out));
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(err.contains("put back the candidate set aside"), "{err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    assert_eq!(
        git(&sb, &["show", "--name-only", "--format=", "HEAD"]),
        "value.txt"
    );
}

/// A try killed while its runs ran: what they wrote (a new checkpoint)
/// is recorded as outputs by the next try, not taken for its candidate.
#[test]
fn what_a_killed_tries_runs_wrote_is_not_part_of_the_next_candidate() {
    let kill = KILLING;
    let sb = committed_repo(&[
        ("score.sh", &format!("{SCORE}{kill}")),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\ndata/\n"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 3\n",
        ),
    ]);
    std::fs::create_dir_all(sb.path().join("data")).unwrap();
    let (code, report, err) = try_json(&sb, &[]);
    assert_eq!(code, 0, "{report} {err}");
    sb.write("value.txt", "0.4");
    sb.write("data/kill", "");
    let out = sb.arx().args(["try", "-m", "killed"]).output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "{}", stderr(&out));
    sb.write("value.txt", "0.3");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(err.contains("cut off while it measured"), "{err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    assert_eq!(
        git(&sb, &["show", "--name-only", "--format=", "HEAD"]),
        "value.txt"
    );
}

/// A try killed once its keep's intent was written: the next try finishes
/// the keep and records what the killed try's runs wrote as outputs,
/// seen against the tree before them (before the keep moves the branch).
#[test]
fn what_a_keep_killed_part_way_had_its_runs_write_is_not_the_next_candidate() {
    let sb = killing_repo();
    sb.write("value.txt", "0.4");
    let out = sb
        .arx()
        .env("ARX_FAILPOINT", "keep:after-intent")
        .args(["try", "-m", "killed"])
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "{}", stderr(&out));
    sb.write("value.txt", "0.3");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(err.contains("finished an interrupted keep"), "{err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    let files = git(&sb, &["ls-tree", "-r", "--name-only", "HEAD"]);
    assert!(!files.contains("out/ckpt.bin"), "{files}");
}

/// A repository whose experiment also runs `late` (a shell snippet that
/// writes under `out/`, told what to do by files in the ignored `data/`),
/// its baseline measured.
fn baseline_with_late_writes(late: &str) -> Sandbox {
    let sb = committed_repo(&[
        ("score.sh", &format!("{SCORE}{late}")),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\ndata/\n"),
        (
            "arx.toml",
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 3\n",
        ),
    ]);
    std::fs::create_dir_all(sb.path().join("data")).unwrap();
    let (code, report, err) = try_json(&sb, &[]);
    assert_eq!(code, 0, "{report} {err}");
    sb
}

/// A try killed (its `data/kill` flag) while the experiment `late` runs
/// on: the next try ends what it left running before it reads the
/// working tree, and what the experiment writes afterwards is never kept.
fn killed_with_its_experiment_left_running(late: &str) {
    let sb = baseline_with_late_writes(late);
    sb.write("value.txt", "0.4");
    sb.write("data/kill", "");
    let started = Instant::now();
    let out = sb.arx().args(["try", "-m", "killed"]).output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "{}", stderr(&out));
    sb.write("value.txt", "0.3");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(err.contains("a killed try left running"), "{err}");
    // Past the moment the killed try's experiment would have written.
    std::thread::sleep(Duration::from_millis(4500).saturating_sub(started.elapsed()));
    assert_ne!(
        sb.read("out/ckpt.bin").trim(),
        "written after its try was killed"
    );
    sb.write("value.txt", "0.2");
    let (code, report, err) = try_json(&sb, &["-m", "lower still"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    let files = git(&sb, &["ls-tree", "-r", "--name-only", "HEAD"]);
    assert!(!files.contains("out/ckpt.bin"), "{files}");
}

/// A try killed while its experiment runs (`kill -9` of arx alone: the
/// experiment runs in a process group of its own, so it goes on) leaves
/// that experiment running, and it writes its checkpoint again a moment
/// later. The next try ends it before it reads the working tree, so no
/// write of a killed try's run ever lands in a later candidate.
#[test]
fn a_killed_tries_experiment_left_running_is_ended_by_the_next_try() {
    let late = r#"mkdir -p out; echo "$v $n" > out/ckpt.bin
if [ -f data/kill ]; then
  rm data/kill
  kill -9 $(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' .arx/try-*.lock)
  sleep 4
  echo "written after its try was killed" > out/ckpt.bin
fi
"#;
    killed_with_its_experiment_left_running(late);
}

/// A killed try's experiment with a process that does not carry the run's
/// marker (a child started with a cleaned environment; or, for a moment,
/// one caught as it starts or ends, which the random-kill soak hit): the
/// group's leader, still the process that started then, proves the group
/// the run's, so the next try ends it before it reads the working tree,
/// and nothing the experiment writes afterwards is kept.
#[test]
fn a_killed_tries_experiment_with_a_child_without_the_runs_marker_is_ended_too() {
    let late = r#"mkdir -p out; echo "$v $n" > out/ckpt.bin
if [ -f data/kill ]; then
  rm data/kill
  kill -9 $(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' .arx/try-*.lock)
  env -u ARX_RUN_ID sleep 4
  echo "written after its try was killed" > out/ckpt.bin
fi
"#;
    killed_with_its_experiment_left_running(late);
}

/// A killed try's experiment that started a process outside its group
/// (`setsid`, as a daemon does), which then writes into the working tree:
/// the next try ends it too, by the run's marker it carries, before it
/// reads the working tree.
#[test]
fn a_killed_tries_experiment_that_left_its_group_is_ended_by_its_marker() {
    let late = r#"mkdir -p out; echo "$v $n" > out/ckpt.bin
if [ -f data/kill ]; then
  rm data/kill
  setsid sh -c 'sleep 4; echo "written after its try was killed" > out/ckpt.bin' &
  kill -9 $(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' .arx/try-*.lock)
fi
"#;
    killed_with_its_experiment_left_running(late);
}

/// A try killed just after it started its experiment, before its live
/// file named the experiment's process group: the next try still finds
/// the experiment (by the run's marker in its environment) and ends it
/// before it reads the working tree.
#[test]
fn an_experiment_started_by_a_try_killed_before_it_was_named_is_ended_too() {
    let late = r#"mkdir -p out; echo "$v $n" > out/ckpt.bin
if [ -f data/slow ]; then
  rm data/slow
  sleep 4
  echo "written after its try was killed" > out/ckpt.bin
fi
"#;
    let sb = baseline_with_late_writes(late);
    sb.write("value.txt", "0.4");
    sb.write("data/slow", "");
    let started = Instant::now();
    let out = sb
        .arx()
        .env("ARX_FAILPOINT", "run:after-spawn")
        .args(["try", "-m", "killed"])
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "{}", stderr(&out));
    // The experiment got as far as its slow part.
    let until = Instant::now() + Duration::from_secs(3);
    while sb.path().join("data/slow").exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    sb.write("value.txt", "0.3");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert!(err.contains("a killed try left running"), "{err}");
    std::thread::sleep(Duration::from_millis(4500).saturating_sub(started.elapsed()));
    assert_ne!(
        sb.read("out/ckpt.bin").trim(),
        "written after its try was killed"
    );
    sb.write("value.txt", "0.2");
    let (code, report, err) = try_json(&sb, &["-m", "lower still"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["value.txt"]));
    let files = git(&sb, &["ls-tree", "-r", "--name-only", "HEAD"]);
    assert!(!files.contains("out/ckpt.bin"), "{files}");
}
