//! What a candidate is, in the layouts people really have: paths that are
//! not UTF-8, a project in a subdirectory of a larger repository, ignored
//! files under `protect`, a submodule moved without being recorded, an
//! edit landing between two runs of one candidate.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::candidate::{baseline, repo};
use crate::support::{git, stderr, try_json, try_status, Sandbox};

/// `git ARGS` in `dir`, its stdout as bytes (paths need not be UTF-8).
fn git_bytes(dir: &Path, args: &[&OsStr]) -> Vec<u8> {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    out.stdout
}

/// `git show REV:PATH` with a path of bytes.
fn show(sb: &Sandbox, rev: &str, path: &[u8]) -> Vec<u8> {
    let mut spec = format!("{rev}:").into_bytes();
    spec.extend_from_slice(path);
    git_bytes(sb.path(), &[OsStr::new("show"), OsStr::from_bytes(&spec)])
}

fn write_bytes(sb: &Sandbox, path: &[u8], contents: &str) {
    std::fs::write(sb.path().join(OsStr::from_bytes(path)), contents).unwrap();
}

fn read_bytes(sb: &Sandbox, path: &[u8]) -> Option<String> {
    std::fs::read_to_string(sb.path().join(OsStr::from_bytes(path))).ok()
}

/// A human `arx try ARGS`: exit code, stdout and stderr.
fn try_human(sb: &Sandbox, args: &[&str]) -> (i32, String, String) {
    let out = sb.arx().arg("try").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text, stderr(&out))
}

const CSV: &[u8] = b"d\xe9j\xe0.csv";
const NOTES: &[u8] = b"notes_\xe9\xff.txt";
const NEW: &[u8] = b"n\xe9w.txt";

#[test]
fn paths_that_are_not_utf8_are_committed_stored_and_restored_like_any_other() {
    let sb = repo("");
    write_bytes(&sb, CSV, "a,b\n");
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "a csv with a latin-1 name"]);
    baseline(&sb);
    // An untracked file with such a name is a candidate, shown escaped.
    write_bytes(&sb, NOTES, "x");
    let (code, out, err) = try_human(&sb, &["-m", "an untracked file"]);
    assert_eq!(code, 1, "{out} {err}");
    assert!(out.contains("removed: notes_\\xe9\\xff.txt"), "{out} {err}");
    assert_eq!(read_bytes(&sb, NOTES), None);
    // A changed tracked one is committed by a keep, as it was measured.
    write_bytes(&sb, CSV, "a,c\n");
    sb.write("value.txt", "0.5");
    let (code, report, err) = try_json(&sb, &["-m", "lower, and the csv"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    assert_eq!(show(&sb, "HEAD", CSV), b"a,c\n");
    // ... and stored and restored by a discard.
    write_bytes(&sb, CSV, "a,d\n");
    let (code, report, err) = try_json(&sb, &["-m", "the csv again"]);
    assert_eq!(code, 1, "{report} {err}");
    let stored = report["ratchet"]["discarded_ref"].as_str().unwrap();
    assert_eq!(show(&sb, stored, CSV), b"a,d\n");
    assert_eq!(read_bytes(&sb, CSV).as_deref(), Some("a,c\n"));
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
    let out = sb.arx().args(["restore", stored]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read_bytes(&sb, CSV).as_deref(), Some("a,d\n"));
    git(&sb, &["checkout", "-q", "--", "."]);
    // A commit on the branch adding such a path is tried, not an error.
    write_bytes(&sb, NEW, "new");
    git(&sb, &["add", "-A", "--", ".", ":!.arx"]);
    git(&sb, &["commit", "-qm", "a new file"]);
    let (code, out, err) = try_human(&sb, &["-m", "a committed file"]);
    assert_eq!(code, 1, "{out} {err}");
    assert!(out.contains("removed: n\\xe9w.txt"), "{out} {err}");
    assert_eq!(read_bytes(&sb, NEW), None);
}

/// A repository holding a colleague's `webapp/` and a loop in `proj/`
/// whose metric is the number in `proj/value.txt` (1.0).
fn monorepo() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("webapp/src/app.js", "app\n");
    sb.write("proj/score.sh", crate::candidate::SCORE);
    sb.write("proj/value.txt", "1.0");
    sb.write("proj/src/model.txt", "x = 1\n");
    sb.write(".gitignore", ".noise\n");
    crate::support::commit_all(sb.path());
    sb
}

/// `arx [--json] ARGS` started in `dir`.
fn arx_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arx"))
        .current_dir(dir)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text, stderr(&out))
}

#[test]
fn a_project_in_a_subdirectory_is_its_own_scope() {
    let sb = monorepo();
    let proj = sb.path().join("proj");
    let (code, out, err) = arx_in(&proj, &["init"]);
    assert_eq!(code, 0, "{out} {err}");
    assert!(proj.join("arx.toml").is_file(), "{out} {err}");
    assert!(!sb.path().join("arx.toml").exists(), "{out} {err}");
    sb.write(
        "proj/arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
         command = \"sh score.sh\"\nbaseline_repeat = 3\n",
    );
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "the loop"]);
    // Started in a directory below the project: the experiment runs in it.
    let below = proj.join("src");
    let (code, out, err) = arx_in(&below, &["try", "-q"]);
    assert_eq!(code, 0, "{out} {err}");
    // A colleague's uncommitted work outside the project, and a worse change.
    sb.write("webapp/src/app.js", "app, edited\n");
    sb.write("webapp/src/new-feature.js", "new\n");
    sb.write("proj/value.txt", "1.2");
    let (code, out, err) = arx_in(&below, &["--json", "try", "-m", "worse"]);
    assert_eq!(code, 1, "{out} {err}");
    let report = crate::support::json(out.as_bytes());
    assert_eq!(
        report["ratchet"]["paths"],
        serde_json::json!(["proj/value.txt"])
    );
    assert_eq!(err.matches("webapp/src/new-feature.js").count(), 1, "{err}");
    assert!(
        err.contains("outside the project's directory proj/"),
        "{err}"
    );
    assert_eq!(sb.read("proj/value.txt"), "1.0");
    assert_eq!(sb.read("webapp/src/app.js"), "app, edited\n");
    assert_eq!(sb.read("webapp/src/new-feature.js"), "new\n");
    let stored = report["ratchet"]["discarded_ref"].as_str().unwrap();
    let held = git(&sb, &["ls-tree", "-r", "--name-only", stored]);
    assert!(!held.contains("webapp/src/new-feature.js"), "{held}");
    // A better change, tried from the project's top: only it is kept.
    sb.write("proj/value.txt", "0.5");
    let (code, out, err) = arx_in(&proj, &["try", "-m", "better"]);
    assert_eq!(code, 0, "{out} {err}");
    assert_eq!(
        git(&sb, &["diff", "--name-only", "HEAD~1", "HEAD"]),
        "proj/value.txt"
    );
    assert_eq!(sb.read("webapp/src/new-feature.js"), "new\n");
    assert_eq!(
        git(&sb, &["status", "--porcelain", "--", "webapp"]),
        "M webapp/src/app.js\n?? webapp/src/new-feature.js"
    );
}

#[test]
fn protect_applies_to_files_git_ignores() {
    let sb = repo("protect = [\"eval/**\"]\n");
    sb.write(".gitignore", ".noise\ndata/\n*.bin\n");
    sb.write("eval/val.bin", "1");
    git(&sb, &["commit", "-qam", "ignore *.bin"]);
    baseline(&sb);
    let kept = git(&sb, &["rev-parse", "HEAD"]);
    // A better value, measured on a changed evaluation file git ignores.
    sb.write("eval/val.bin", "0");
    sb.write("value.txt", "0.5");
    let (code, report, err) = try_json(&sb, &["-m", "a kinder evaluation"]);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(try_status(&report), "protected", "{report}");
    assert_eq!(
        report["ratchet"]["protected"],
        serde_json::json!(["eval/val.bin"])
    );
    assert!(
        err.contains("eval/val.bin changed since the baseline and git ignores it"),
        "{err}"
    );
    assert_eq!(git(&sb, &["rev-parse", "HEAD"]), kept);
    assert_eq!(sb.read("value.txt"), "1.0");
    // Put back, the same change is tried.
    sb.write("eval/val.bin", "1");
    sb.write("value.txt", "0.5");
    let (code, report, err) = try_json(&sb, &["-m", "lower"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
}

#[test]
fn init_proposes_as_inputs_the_ignored_files_the_command_names() {
    let sb = Sandbox::new();
    sb.write("train.py", "print(1)\n");
    sb.write(".gitignore", "data/\n");
    sb.write("data/x.csv", "1\n");
    crate::support::commit_all(sb.path());
    let (code, out, err) = arx_in(
        sb.path(),
        &[
            "init",
            "--metric",
            "m",
            "--direction",
            "min",
            "--command",
            "python train.py --data data/x.csv --lr 0.01",
        ],
    );
    assert_eq!(code, 0, "{out} {err}");
    let config = sb.read("arx.toml");
    assert!(config.contains("\ninputs = [\"data/**\"]"), "{config}");
    // A command naming only tracked files proposes nothing.
    let other = Sandbox::new();
    other.write("train.py", "print(1)\n");
    crate::support::commit_all(other.path());
    let args = [
        "init",
        "--metric",
        "m",
        "--direction",
        "min",
        "--command",
        "python train.py",
    ];
    let (code, out, err) = arx_in(other.path(), &args);
    assert_eq!(code, 0, "{out} {err}");
    assert!(!other.read("arx.toml").contains("\ninputs ="), "{out}");
}

#[test]
fn a_submodule_moved_without_being_recorded_is_kept_as_the_new_gitlink_or_put_back() {
    let sb = crate::candidate::repo_with_submodule();
    let top = sb.path().join("top");
    let lib = top.join("lib");
    let (code, report, err) = crate::candidate::try_in(&top, &[]);
    assert_eq!(code, 0, "{report} {err}");
    let recorded = crate::support::git_in(&lib, &["rev-parse", "HEAD"]);
    crate::support::git_in(&lib, &["config", "user.email", "t@example.com"]);
    crate::support::git_in(&lib, &["config", "user.name", "T"]);
    // A worse commit inside the submodule, not recorded above.
    std::fs::write(lib.join("value.txt"), "1.2").unwrap();
    crate::support::git_in(&lib, &["commit", "-qam", "worse"]);
    let (code, report, err) = crate::candidate::try_in(&top, &["-m", "a worse library"]);
    assert_eq!(code, 1, "{report} {err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["lib"]));
    assert_eq!(
        crate::support::git_in(&lib, &["rev-parse", "HEAD"]),
        recorded
    );
    assert_eq!(sb.read("top/lib/value.txt"), "1.0");
    // A better one is kept as the new gitlink.
    std::fs::write(lib.join("value.txt"), "0.5").unwrap();
    crate::support::git_in(&lib, &["commit", "-qam", "better"]);
    let better = crate::support::git_in(&lib, &["rev-parse", "HEAD"]);
    let (code, report, err) = crate::candidate::try_in(&top, &["-m", "a better library"]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    assert_eq!(
        crate::support::git_in(&top, &["rev-parse", "HEAD:lib"]),
        better
    );
    assert_eq!(
        crate::support::git_in(&top, &["diff", "--name-only", "HEAD~1", "HEAD"]),
        "lib"
    );
    assert_eq!(
        crate::support::git_in(&top, &["status", "--porcelain", "--", ".", ":!.arx"]),
        ""
    );
}

#[test]
fn an_edit_landing_between_two_runs_of_one_candidate_stops_the_try_and_says_so() {
    // Each run reads the value, says it started, then waits for `data/go`.
    let sb = repo("repeat = 3\n");
    sb.write(
        "wait.sh",
        "sh score.sh > data/out; touch data/running; i=0\n\
         while [ ! -f data/go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done\n\
         cat data/out\n",
    );
    let config = sb.read("arx.toml").replace("sh score.sh", "sh wait.sh");
    sb.write("arx.toml", config);
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "runs wait"]);
    sb.write("data/go", "");
    baseline(&sb);
    let kept = git(&sb, &["rev-parse", "HEAD"]);
    std::fs::remove_file(sb.path().join("data/go")).unwrap();
    std::fs::remove_file(sb.path().join("data/running")).unwrap();
    sb.write("value.txt", "0.5");
    let child = crate::candidate::spawn_try(&sb, &["-m", "lower"]);
    crate::candidate::wait_for(&sb.path().join("data/running"));
    // The first run is running on 0.5; an edit lands before the second.
    sb.write("value.txt", "0.1");
    sb.write("data/go", "");
    let (code, report, err) = crate::candidate::finish(child);
    assert_eq!(code, 3, "{report} {err}");
    assert_eq!(try_status(&report), "interrupted", "{report}");
    // The one run measured the snapshot; none ran on the edit.
    let m = report["metrics"]["m"].as_f64().unwrap();
    assert!((m - 0.5).abs() < 0.01, "{report}");
    let line = report["line"].as_str().unwrap_or_default();
    assert!(
        line.contains("value.txt changed between the candidate's runs"),
        "{report}"
    );
    // Nothing kept or undone: the edit stays.
    assert_eq!(git(&sb, &["rev-parse", "HEAD"]), kept);
    assert_eq!(sb.read("value.txt"), "0.1");
}

/// The tree `git add -A` would make of the working tree now (the state
/// directory aside), in a scratch index: the tree a keep must commit.
fn tree_as_git_adds(sb: &Sandbox) -> String {
    let index = sb.path().join(".git/scratch-index");
    std::fs::copy(sb.path().join(".git/index"), &index).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(sb.path())
            .env("GIT_INDEX_FILE", &index)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    run(&["add", "-A", "--", ".", ":!.arx"]);
    let tree = run(&["write-tree"]);
    std::fs::remove_file(&index).unwrap();
    tree
}

#[test]
fn the_kept_commits_tree_is_the_measured_snapshots_on_every_path() {
    use std::os::unix::fs::PermissionsExt;
    let sb = repo(&crate::candidate::waiting_check(0));
    sb.write("gone.txt", "to be removed\n");
    sb.write("src/deep/old.py", "x = 1\n");
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "more files"]);
    baseline(&sb);
    // Every kind of change: modified, created (nested, not UTF-8, a
    // symlink, executable), removed, staged.
    sb.write("src/deep/old.py", "x = 2\n");
    sb.write("src/deep/new.py", "y = 1\n");
    write_bytes(&sb, b"src/r\xe9sum\xe9.txt", "bytes\n");
    std::os::unix::fs::symlink("deep/new.py", sb.path().join("src/link")).unwrap();
    let script = sb.write("run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_file(sb.path().join("gone.txt")).unwrap();
    sb.write("staged.txt", "staged\n");
    git(&sb, &["add", "staged.txt"]);
    sb.write("value.txt", "0.4");
    let expected = tree_as_git_adds(&sb);
    // Edits while the try runs are not what was measured.
    let child = crate::candidate::spawn_try(&sb, &["-m", "many kinds of change"]);
    crate::candidate::wait_for(&sb.path().join("data/checking"));
    sb.write("src/deep/old.py", "x = 3\n");
    sb.write("later.txt", "later\n");
    sb.write("data/go", "");
    let (code, report, err) = crate::candidate::finish(child);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!(try_status(&report), "keep");
    assert_eq!(git(&sb, &["rev-parse", "HEAD^{tree}"]), expected);
    assert_eq!(sb.read("src/deep/old.py"), "x = 3\n");
}

#[test]
fn a_subdirectory_projects_patterns_are_relative_to_its_directory() {
    let sb = monorepo();
    sb.write("proj/eval/check.txt", "strict\n");
    sb.write(
        "proj/arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
         command = \"sh score.sh\"\nbaseline_repeat = 3\nprotect = [\"eval/**\"]\n",
    );
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "the loop"]);
    let proj = sb.path().join("proj");
    let (code, out, err) = arx_in(&proj, &["try", "-q"]);
    assert_eq!(code, 0, "{out} {err}");
    sb.write("proj/eval/check.txt", "kind\n");
    sb.write("proj/value.txt", "0.5");
    let (code, out, err) = arx_in(&proj, &["--json", "try", "-m", "a kinder check"]);
    assert_eq!(code, 1, "{out} {err}");
    let report = crate::support::json(out.as_bytes());
    assert_eq!(try_status(&report), "protected", "{report}");
    assert_eq!(sb.read("proj/eval/check.txt"), "strict\n");
}
