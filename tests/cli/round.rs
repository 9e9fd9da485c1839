//! `arx round`: life-harness rounds against temporary repositories built
//! with git2 (the git command line is not needed).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use git2::{IndexAddOption, Oid, Repository, Signature, StatusOptions};
use predicates::str::contains;
use serde_json::{json, Value};

use crate::support::{json_lines, stderr, stdout_json, Sandbox};

const T0: &str = "2026-03-01T10:00:00Z";

/// A repository in `<sandbox>/repo`, with a directory beside it
/// (`<sandbox>/outside`) that no round may ever reach.
struct Fixture {
    sb: Sandbox,
    root: PathBuf,
    outside: PathBuf,
}

/// The default `arx.toml`: rounds may follow each other at once.
const CONFIG: &str = "[harness]\nmin_interval_hours = 0\n";

impl Fixture {
    /// A repository on `main` with one commit: README.md, docs/guide.md,
    /// an executable bin/run.sh, arx.toml (`config`) and a .gitignore for
    /// the state directory.
    fn with_config(config: &str) -> Fixture {
        let sb = Sandbox::new();
        let root = sb.path().join("repo");
        let outside = sb.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("victim.txt"), "untouched\n").unwrap();
        let repo = sb.git_init("repo");
        let mut cfg = repo.config().unwrap();
        cfg.set_str("user.name", "Test").unwrap();
        cfg.set_str("user.email", "test@example.com").unwrap();
        let fx = Fixture { sb, root, outside };
        fx.write("README.md", "# project\n");
        fx.write("docs/guide.md", "old guide\n");
        fx.write("docs/notes.md", "notes\n");
        fx.write("bin/run.sh", "#!/bin/sh\necho run\n");
        std::fs::set_permissions(
            fx.root.join("bin/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        fx.write(".gitignore", ".arx/\n");
        fx.write("arx.toml", config);
        fx.commit_all("initial");
        fx
    }

    fn new() -> Fixture {
        Fixture::with_config(CONFIG)
    }

    fn repo(&self) -> Repository {
        Repository::open(&self.root).unwrap()
    }

    fn arx(&self) -> Command {
        let mut cmd = self.sb.arx();
        // Scratch checkouts go inside the sandbox and vanish with it.
        cmd.current_dir(&self.root).env("TMPDIR", self.sb.path());
        cmd
    }

    /// `arx --now NOW round ...`.
    fn round_at(&self, now: &str) -> Command {
        let mut cmd = self.arx();
        cmd.args(["--now", now, "round"]);
        cmd
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(rel)).ok()
    }

    /// Stage everything and commit it on the current branch.
    fn commit_all(&self, message: &str) -> Oid {
        let repo = self.repo();
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"].iter(), IndexAddOption::DEFAULT, None)
            .unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("Test", "test@example.com").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
            .unwrap()
    }

    /// Stage one path.
    fn stage(&self, rel: &str) {
        let repo = self.repo();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(rel)).unwrap();
        index.write().unwrap();
    }

    fn head(&self) -> Oid {
        self.repo().head().unwrap().target().unwrap()
    }

    /// A file of the HEAD commit, with its mode.
    fn head_file(&self, rel: &str) -> Option<(String, i32)> {
        let repo = self.repo();
        let tree = repo.head().unwrap().peel_to_tree().unwrap();
        let entry = tree.get_path(Path::new(rel)).ok()?;
        let blob = repo.find_blob(entry.id()).ok()?;
        Some((
            String::from_utf8_lossy(blob.content()).into_owned(),
            entry.filemode(),
        ))
    }

    fn branches(&self) -> Vec<String> {
        let repo = self.repo();
        let mut names: Vec<String> = repo
            .branches(Some(git2::BranchType::Local))
            .unwrap()
            .map(|b| b.unwrap().0.name().unwrap().unwrap().to_string())
            .collect();
        names.sort();
        names
    }

    /// `git status` as (path, flags), untracked files included.
    fn status(&self) -> Vec<(String, u32)> {
        let repo = self.repo();
        let mut opts = StatusOptions::new();
        opts.include_untracked(true).recurse_untracked_dirs(true);
        let mut out: Vec<(String, u32)> = repo
            .statuses(Some(&mut opts))
            .unwrap()
            .iter()
            .map(|e| (e.path().unwrap().to_string(), e.status().bits()))
            .collect();
        out.sort();
        out
    }

    /// The index as (path, blob, mode).
    fn index(&self) -> Vec<(String, Oid, u32)> {
        let repo = self.repo();
        let index = repo.index().unwrap();
        index
            .iter()
            .map(|e| (String::from_utf8_lossy(&e.path).into_owned(), e.id, e.mode))
            .collect()
    }

    /// Write a patch beside the repository (so it does not dirty it).
    fn patch(&self, name: &str, patch: &Value) -> String {
        let path = self.sb.path().join("patches").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_vec_pretty(patch).unwrap()).unwrap();
        path.to_string_lossy().into_owned()
    }

    fn record(&self, id: &str) -> Value {
        let text = self
            .read(&format!(".arx/rounds/{id}/RECORD.json"))
            .unwrap_or_else(|| panic!("no RECORD.json for round {id}"));
        serde_json::from_str(&text).unwrap()
    }

    fn hash_lines(&self) -> Vec<Value> {
        json_lines(self.read(".arx/rounds/hashes.jsonl").unwrap_or_default())
    }

    /// Every file under the directory outside the repository, with content.
    fn outside_files(&self) -> Vec<(PathBuf, String)> {
        let mut out = Vec::new();
        let mut stack = vec![self.outside.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    out.push((path, text));
                }
            }
        }
        out.sort();
        out
    }
}

fn entry(path: &str, kind: &str, op: &str, content: Option<&str>) -> Value {
    json!({
        "path": path,
        "kind": kind,
        "op": op,
        "content": content,
        "rationale": format!("because {path} needs it"),
        "evidence_refs": ["finding-1"],
    })
}

fn patch(summary: &str, confidence: f64, entries: Vec<Value>) -> Value {
    json!({"summary": summary, "confidence": confidence, "entries": entries})
}

/// The three-entry patch: modify, create (in a new directory), delete.
fn three_file_patch() -> Value {
    patch(
        "Sharpen the guide",
        0.9,
        vec![
            entry("docs/guide.md", "markdown", "modify", Some("new guide\n")),
            entry("docs/new/tips.md", "markdown", "create", Some("tips\n")),
            entry("docs/notes.md", "markdown", "delete", None),
        ],
    )
}

// ---------------------------------------------------------------------------
// Review and auto rounds end to end

#[test]
fn review_round_leaves_a_branch_and_the_users_tree_alone() {
    let fx = Fixture::new();
    let base = fx.head();
    // The user's own work in progress: a staged change and an unstaged one
    // elsewhere, and an untracked file.
    fx.write("README.md", "# project (staged edit)\n");
    fx.stage("README.md");
    fx.write("bin/run.sh", "#!/bin/sh\necho unstaged\n");
    fx.write("scratch.txt", "mine\n");
    let (status, index) = (fx.status(), fx.index());
    let p = fx.patch("p.json", &three_file_patch());

    let out = fx
        .arx()
        .args([
            "--json",
            "--now",
            T0,
            "round",
            "apply",
            &p,
            "--round-id",
            "r1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "evaluated");
    assert_eq!(rec["detail"], "awaiting review (harness_review)");
    assert_eq!(rec["branch"], "harness/round-r1");
    assert!(rec["next_step"]
        .as_str()
        .unwrap()
        .contains("harness/round-r1"));
    assert!(rec["applied_sha"].is_null());

    // Nothing of the user's moved: HEAD, index, working tree.
    assert_eq!(fx.head(), base);
    assert_eq!(fx.status(), status);
    assert_eq!(fx.index(), index);
    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
    assert_eq!(fx.read("docs/notes.md").unwrap(), "notes\n");
    assert!(fx.read("docs/new/tips.md").is_none());
    assert_eq!(fx.read("README.md").unwrap(), "# project (staged edit)\n");
    assert_eq!(fx.read("bin/run.sh").unwrap(), "#!/bin/sh\necho unstaged\n");

    // The round commit: on its branch, one commit on top of HEAD.
    let repo = fx.repo();
    let branch = repo
        .find_branch("harness/round-r1", git2::BranchType::Local)
        .unwrap();
    let commit = branch.get().peel_to_commit().unwrap();
    assert_eq!(commit.id().to_string(), rec["commit_sha"].as_str().unwrap());
    assert_eq!(commit.parent_ids().collect::<Vec<_>>(), vec![base]);
    let msg = commit.message().unwrap();
    let hash = rec["patch_hash"].as_str().unwrap();
    assert!(
        msg.starts_with("harness(round-r1): Sharpen the guide\n\n"),
        "{msg}"
    );
    assert!(msg.contains("because docs/guide.md needs it"), "{msg}");
    assert!(msg.contains("because docs/notes.md needs it"), "{msg}");
    assert!(msg.contains("Round: r1"), "{msg}");
    assert!(msg.contains(&format!("Patch-Hash: {hash}")), "{msg}");
    let tree = commit.tree().unwrap();
    let guide = tree.get_path(Path::new("docs/guide.md")).unwrap();
    assert_eq!(
        repo.find_blob(guide.id()).unwrap().content(),
        b"new guide\n"
    );
    assert!(tree.get_path(Path::new("docs/new/tips.md")).is_ok());
    assert!(tree.get_path(Path::new("docs/notes.md")).is_err());
    // The user's uncommitted edits are not in the round.
    let readme = tree.get_path(Path::new("README.md")).unwrap();
    assert_eq!(
        repo.find_blob(readme.id()).unwrap().content(),
        b"# project\n"
    );

    // Round files: patch (with its round id), eval, record; no hash line
    // for a round awaiting review.
    let saved: Value =
        serde_json::from_str(&fx.read(".arx/rounds/r1/patch.json").unwrap()).unwrap();
    assert_eq!(saved["round_id"], "r1");
    let eval: Value = serde_json::from_str(&fx.read(".arx/rounds/r1/eval.json").unwrap()).unwrap();
    assert_eq!(eval, json!({"checks": []}));
    assert_eq!(fx.record("r1")["status"], "evaluated");
    assert_eq!(fx.record("r1")["parent_sha"], base.to_string());
    assert!(fx.hash_lines().is_empty());
}

#[test]
fn review_round_human_output_says_how_to_merge() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    fx.arx()
        .args(["round", "apply", &p, "--round-id", "r1"])
        .assert()
        .code(0)
        .stdout(contains("evaluated: round r1"))
        .stdout(contains("git merge --ff-only harness/round-r1"));
}

#[test]
fn auto_round_lands_exactly_one_commit_and_updates_the_touched_files() {
    let fx = Fixture::new();
    let base = fx.head();
    // A staged change elsewhere stays staged.
    fx.write("README.md", "# staged\n");
    fx.stage("README.md");
    let p = fx.patch("p.json", &three_file_patch());

    let out = fx
        .arx()
        .args(["--json", "--now", T0, "round", "apply", &p, "--auto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rec = stdout_json(&out);
    let id = rec["round_id"].as_str().unwrap().to_string();
    assert_eq!(id, "20260301-100000", "the default id is the UTC time");
    assert_eq!(rec["status"], "applied");
    assert_eq!(rec["detail"], "eval passed; autonomy approved");

    let head = fx.head();
    assert_eq!(rec["applied_sha"], head.to_string());
    let repo = fx.repo();
    let commit = repo.find_commit(head).unwrap();
    assert_eq!(commit.parent_ids().collect::<Vec<_>>(), vec![base]);
    assert!(commit
        .summary()
        .unwrap()
        .starts_with(&format!("harness(round-{id}): ")));

    // The working tree holds the round; the index matches it.
    assert_eq!(fx.read("docs/guide.md").unwrap(), "new guide\n");
    assert_eq!(fx.read("docs/new/tips.md").unwrap(), "tips\n");
    assert!(fx.read("docs/notes.md").is_none());
    assert_eq!(
        fx.status(),
        vec![("README.md".to_string(), git2::Status::INDEX_MODIFIED.bits())],
        "only the user's staged edit remains"
    );
    // No review branch, no temporary files left in .git (the round lock
    // stays, empty).
    assert_eq!(fx.branches(), vec!["main".to_string()]);
    let leftovers: Vec<_> = std::fs::read_dir(fx.root.join(".git"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("arx"))
        .filter(|e| e.file_name() != "arx-rounds.lock")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Round files and the hash line.
    let record = fx.record(&id);
    assert_eq!(record["status"], "applied");
    assert_eq!(record["patch_hash"], rec["patch_hash"]);
    assert_eq!(record["evidence_count"], 3);
    assert_eq!(
        fx.hash_lines(),
        vec![json!({"hash": rec["patch_hash"], "round": id, "status": "applied"})]
    );
}

#[test]
fn executable_file_keeps_its_mode() {
    let fx = Fixture::new();
    let p = fx.patch(
        "p.json",
        &patch(
            "Faster runner",
            0.9,
            vec![entry(
                "bin/run.sh",
                "code",
                "modify",
                Some("#!/bin/sh\necho faster\n"),
            )],
        ),
    );
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "x1"])
        .assert()
        .code(0);
    let (text, mode) = fx.head_file("bin/run.sh").unwrap();
    assert_eq!(text, "#!/bin/sh\necho faster\n");
    assert_eq!(mode, 0o100755);
    let on_disk = std::fs::metadata(fx.root.join("bin/run.sh")).unwrap();
    assert_eq!(on_disk.permissions().mode() & 0o111, 0o111);
    assert!(fx.status().is_empty(), "{:?}", fx.status());
}

#[test]
fn low_confidence_waits_for_review_even_in_auto_mode() {
    let fx = Fixture::with_config(
        "[harness]\nmin_interval_hours = 0\nautonomy = \"auto\"\nmin_confidence = 0.8\n",
    );
    let base = fx.head();
    let mut p = three_file_patch();
    p["confidence"] = json!(0.5);
    let p = fx.patch("p.json", &p);
    let out = fx
        .arx()
        .args(["--json", "round", "apply", &p, "--round-id", "low"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "evaluated");
    assert_eq!(rec["detail"], "awaiting review (low_confidence)");
    // Under --json the answer's line says it and how to land it.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "arx: evaluated: round low: awaiting review (low_confidence); next: to land it: "
        ),
        "{err}"
    );
    assert_eq!(fx.head(), base);
    assert!(fx.branches().contains(&"harness/round-low".to_string()));

    // Confident enough: autonomy from the config lands it without --auto.
    let mut p = three_file_patch();
    p["summary"] = json!("Another summary");
    let p = fx.patch("p2.json", &p);
    fx.arx()
        .args(["round", "apply", &p, "--round-id", "high"])
        .assert()
        .code(0)
        .stdout(contains("applied: round high"));
    assert_ne!(fx.head(), base);
}

#[test]
fn a_multi_line_summary_gives_a_one_line_subject() {
    let fx = Fixture::new();
    let mut p = three_file_patch();
    p["summary"] = json!("First line\nsecond line");
    let p = fx.patch("p.json", &p);
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "m1"])
        .assert()
        .code(0);
    let repo = fx.repo();
    let commit = repo.find_commit(fx.head()).unwrap();
    assert_eq!(
        commit.summary().unwrap(),
        "harness(round-m1): First line second line"
    );
}

#[test]
fn dry_run_stops_after_validation_and_dedupe() {
    let fx = Fixture::new();
    let base = fx.head();
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args([
            "--json",
            "round",
            "apply",
            &p,
            "--auto",
            "--dry-run",
            "--round-id",
            "d1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "validated");
    assert_eq!(rec["dry_run"], true);
    assert_eq!(fx.head(), base);
    assert_eq!(fx.branches(), vec!["main".to_string()]);
    assert!(!fx.root.join(".arx/rounds/d1").exists());
    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
}

// ---------------------------------------------------------------------------
// Revert

#[test]
fn revert_restores_the_files_and_marks_the_record() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    fx.round_at(T0)
        .args(["apply", &p, "--auto", "--round-id", "r1"])
        .assert()
        .code(0);
    let applied = fx.head();

    let out = fx
        .arx()
        .args([
            "--json",
            "--now",
            "2026-03-01T11:00:00Z",
            "round",
            "revert",
            "r1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "reverted");
    let head = fx.head();
    assert_eq!(rec["reverted_sha"], head.to_string());
    let repo = fx.repo();
    let revert = repo.find_commit(head).unwrap();
    assert_eq!(revert.parent_ids().collect::<Vec<_>>(), vec![applied]);
    assert!(revert.summary().unwrap().starts_with("Revert"));
    assert!(revert.message().unwrap().contains(&applied.to_string()));

    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
    assert_eq!(fx.read("docs/notes.md").unwrap(), "notes\n");
    assert!(fx.read("docs/new/tips.md").is_none());
    assert!(fx.status().is_empty(), "{:?}", fx.status());
    let record = fx.record("r1");
    assert_eq!(record["status"], "reverted");
    assert_eq!(record["reverted_at"], "2026-03-01T11:00:00Z");

    // Once is enough; unknown rounds are errors.
    fx.arx()
        .args(["round", "revert", "r1"])
        .assert()
        .code(2)
        .stderr(contains("not applied"));
    fx.arx()
        .args(["round", "revert", "nope"])
        .assert()
        .code(2)
        .stderr(contains("no round nope"));
}

#[test]
fn revert_refuses_a_dirty_touched_path() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "r1"])
        .assert()
        .code(0);
    let head = fx.head();
    fx.write("docs/guide.md", "my own edit\n");
    fx.arx()
        .args(["round", "revert", "r1"])
        .assert()
        .code(2)
        .stderr(contains("docs/guide.md"));
    assert_eq!(fx.head(), head);
    assert_eq!(fx.read("docs/guide.md").unwrap(), "my own edit\n");
    assert_eq!(fx.record("r1")["status"], "applied");
}

// ---------------------------------------------------------------------------
// Duplicates, rejections, the interval, the kill switch

#[test]
fn duplicate_round_is_skipped_naming_the_earlier_one() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "first"])
        .assert()
        .code(0);
    let head = fx.head();
    // Other words, other content, same change: the same patch hash.
    let mut again = three_file_patch();
    again["summary"] = json!("  SHARPEN   the guide ");
    again["entries"][0]["content"] = json!("different text\n");
    again["entries"][0]["rationale"] = json!("other words");
    again["confidence"] = json!(0.95);
    let p2 = fx.patch("p2.json", &again);
    let out = fx
        .arx()
        .args([
            "--json",
            "round",
            "apply",
            &p2,
            "--auto",
            "--round-id",
            "second",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "skipped");
    let detail = rec["detail"].as_str().unwrap();
    assert!(detail.contains("first"), "{detail}");
    assert_eq!(fx.head(), head);
    assert_eq!(fx.branches(), vec!["main".to_string()]);
    assert_eq!(fx.hash_lines().len(), 1);
    // A dry run sees the duplicate too.
    fx.arx()
        .args(["round", "apply", &p2, "--dry-run", "--round-id", "third"])
        .assert()
        .code(0)
        .stdout(contains("skipped"))
        .stdout(contains("first"));
}

#[test]
fn invalid_patch_is_rejected_with_every_error() {
    let fx = Fixture::new();
    let bad = patch(
        "Bad",
        1.5,
        vec![
            json!({"path": "docs/a.md", "kind": "markdown", "op": "create", "content": null, "rationale": " "}),
            json!({"path": "docs/b.md", "kind": "poem", "op": "delete", "content": "x", "rationale": "r"}),
        ],
    );
    let p = fx.patch("bad.json", &bad);
    let out = fx
        .arx()
        .args(["--json", "round", "validate", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = stdout_json(&out);
    assert_eq!(report["valid"], false);
    let errors: Vec<String> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect();
    for want in [
        "confidence",
        "create requires content",
        "rationale required",
        "unknown kind",
        "delete must not carry content",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(want)),
            "{want}: {errors:?}"
        );
    }

    let base = fx.head();
    let out = fx
        .arx()
        .args([
            "--json",
            "round",
            "apply",
            &p,
            "--auto",
            "--round-id",
            "bad",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "rejected");
    assert_eq!(rec["errors"].as_array().unwrap().len(), errors.len());
    assert_eq!(fx.record("bad")["status"], "rejected");
    assert!(fx.hash_lines().is_empty(), "invalid rounds record no hash");
    assert_eq!(fx.head(), base);
    assert_eq!(fx.branches(), vec!["main".to_string()]);
}

#[test]
fn kernel_and_stricter_errors_are_listed_together() {
    let fx =
        Fixture::with_config("[harness]\nmin_interval_hours = 0\ndeny_paths = [\"bin/run.sh\"]\n");
    std::os::unix::fs::symlink(&fx.outside, fx.root.join("escape")).unwrap();
    let p = fx.patch(
        "p.json",
        &patch(
            "Many problems",
            0.9,
            vec![
                entry("bin/run.sh", "code", "delete", None),
                entry(".GIT/hooks/pre-commit", "code", "create", Some("x")),
                entry("escape/x.md", "markdown", "create", Some("x")),
                entry("docs//y.md", "markdown", "create", Some("x")),
            ],
        ),
    );
    let out = fx
        .arx()
        .args(["--json", "round", "validate", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let errors = stdout_json(&out)["errors"].to_string();
    for want in [
        "entries[0] (bin/run.sh): path is deny-listed",
        "entries[1] (.GIT/hooks/pre-commit): may not touch .git",
        "escape/x.md: goes through the symlink escape",
        "docs//y.md: not a normal path",
    ] {
        assert!(errors.contains(want), "{want}: {errors}");
    }
}

#[test]
fn validate_exit_codes() {
    let fx = Fixture::new();
    let good = fx.patch("good.json", &three_file_patch());
    fx.arx()
        .args(["round", "validate", &good])
        .assert()
        .code(0)
        .stdout(contains("valid: 3 entries"));
    let json_out = fx
        .arx()
        .args(["--json", "round", "validate", &good])
        .output()
        .unwrap();
    let report = stdout_json(&json_out);
    assert_eq!(report["valid"], true);
    assert_eq!(report["patch_hash"].as_str().unwrap().len(), 16);
    let err = String::from_utf8_lossy(&json_out.stderr);
    assert!(
        err.contains("arx: valid: 3 entries; next: apply it"),
        "{err}"
    );

    fx.arx()
        .args(["round", "validate", "no-such-patch.json"])
        .assert()
        .code(2)
        .stderr(contains("arx: error:"));
    let broken = fx.sb.write("patches/broken.json", "{not json");
    fx.arx()
        .args(["round", "validate", broken.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("not valid JSON"));
    // From stdin.
    fx.arx()
        .args(["round", "validate", "-"])
        .write_stdin(serde_json::to_string(&three_file_patch()).unwrap())
        .assert()
        .code(0);
    fx.arx()
        .args(["round", "validate", "-"])
        .write_stdin("[1, 2]")
        .assert()
        .code(1)
        .stdout(contains("patch must be a JSON object"));
    fx.arx()
        .args(["--json", "round", "validate", "-"])
        .write_stdin("[1, 2]")
        .assert()
        .code(1)
        .stderr(contains(
            "arx: invalid: 1 error, the first: patch must be a JSON object",
        ));
}

#[test]
fn delete_of_a_missing_file_is_invalid() {
    let fx = Fixture::new();
    let p = fx.patch(
        "p.json",
        &patch(
            "Drop",
            0.9,
            vec![entry("docs/gone.md", "markdown", "delete", None)],
        ),
    );
    fx.arx()
        .args(["round", "validate", &p])
        .assert()
        .code(1)
        .stdout(contains("not in the repository (nothing to delete)"));
}

#[test]
fn paths_are_checked_against_the_commit_too() {
    // The working tree no longer shows what HEAD holds: a tracked
    // directory and a tracked file removed by hand.
    let fx = Fixture::new();
    std::fs::remove_dir_all(fx.root.join("docs")).unwrap();
    std::fs::remove_file(fx.root.join("README.md")).unwrap();
    for (e, want) in [
        (
            entry("docs", "code", "create", Some("x")),
            "names a directory",
        ),
        (
            entry("README.md/x.md", "markdown", "create", Some("x")),
            "README.md is a file in the repository",
        ),
    ] {
        let p = fx.patch("p.json", &patch("Odd paths", 0.9, vec![e]));
        fx.arx()
            .args(["round", "validate", &p])
            .assert()
            .code(1)
            .stdout(contains(want));
        fx.arx()
            .args(["round", "apply", &p, "--round-id", "odd"])
            .assert()
            .code(1)
            .stdout(contains(want));
        std::fs::remove_dir_all(fx.root.join(".arx")).unwrap();
    }
    assert_eq!(fx.branches(), vec!["main".to_string()]);
}

#[test]
fn a_round_may_not_write_into_a_submodule() {
    let fx = Fixture::new();
    {
        // A gitlink at vendor/lib, as `git submodule add` leaves it.
        let repo = fx.repo();
        let head = repo.head().unwrap().peel_to_commit().unwrap();
        let mut update = git2::build::TreeUpdateBuilder::new();
        update.upsert("vendor/lib", head.id(), git2::FileMode::Commit);
        let tree_id = update.create_updated(&repo, &head.tree().unwrap()).unwrap();
        let tree = repo.find_tree(tree_id).unwrap();
        let sig = Signature::now("Test", "test@example.com").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "submodule", &tree, &[&head])
            .unwrap();
        let mut index = repo.index().unwrap();
        index.read_tree(&tree).unwrap();
        index.write().unwrap();
    }
    std::fs::create_dir_all(fx.root.join("vendor/lib")).unwrap();
    let p = fx.patch(
        "p.json",
        &patch(
            "Patch the vendored lib",
            0.9,
            vec![entry("vendor/lib/src/x.rs", "code", "create", Some("x"))],
        ),
    );
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "sub"])
        .assert()
        .code(1)
        .stdout(contains("vendor/lib is a submodule"));
    assert!(!fx.root.join("vendor/lib/src").exists());
}

#[test]
fn interval_between_rounds() {
    let fx = Fixture::with_config("[harness]\nmin_interval_hours = 24\n");
    let p1 = fx.patch("p1.json", &three_file_patch());
    fx.round_at(T0)
        .args(["apply", &p1, "--round-id", "a"])
        .assert()
        .code(0)
        .stdout(contains("evaluated"));

    let mut other = three_file_patch();
    other["summary"] = json!("Another round");
    let p2 = fx.patch("p2.json", &other);
    let out = fx
        .arx()
        .args([
            "--json",
            "--now",
            "2026-03-01T20:00:00Z",
            "round",
            "apply",
            &p2,
            "--round-id",
            "b",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "skipped");
    let detail = rec["detail"].as_str().unwrap();
    assert!(detail.contains("2026-03-02T10:00:00Z"), "{detail}");
    assert!(!fx.root.join(".arx/rounds/b").exists());
    assert!(!fx.branches().contains(&"harness/round-b".to_string()));

    let status = fx
        .arx()
        .args(["--json", "--now", "2026-03-01T20:00:00Z", "round", "status"])
        .output()
        .unwrap();
    let s = stdout_json(&status);
    assert_eq!(s["allowed_now"], false);
    assert_eq!(s["next_allowed_at"], "2026-03-02T10:00:00Z");
    assert_eq!(s["min_interval_hours"], 24);

    // 24 hours later it runs.
    fx.round_at("2026-03-02T10:00:00Z")
        .args(["apply", &p2, "--round-id", "b"])
        .assert()
        .code(0)
        .stdout(contains("evaluated: round b"));
}

#[test]
fn rejected_rounds_count_for_the_interval_and_skipped_ones_do_not() {
    let fx = Fixture::with_config("[harness]\nmin_interval_hours = 1\nkill_switch = false\n");
    let bad = fx.patch(
        "bad.json",
        &patch(
            "Bad",
            0.9,
            vec![entry("../x.md", "markdown", "create", Some("x"))],
        ),
    );
    fx.round_at(T0)
        .args(["apply", &bad, "--round-id", "bad"])
        .assert()
        .code(1);
    let good = fx.patch("good.json", &three_file_patch());
    fx.round_at("2026-03-01T10:30:00Z")
        .args(["apply", &good, "--round-id", "g"])
        .assert()
        .code(0)
        .stdout(contains("too soon"))
        .stdout(contains("2026-03-01T11:00:00Z"));
    // The skipped round did not move the clock.
    fx.round_at("2026-03-01T11:00:00Z")
        .args(["apply", &good, "--round-id", "g"])
        .assert()
        .code(0)
        .stdout(contains("evaluated"));
}

#[test]
fn a_reverted_round_still_counts_for_the_interval() {
    let fx = Fixture::with_config("[harness]\nmin_interval_hours = 24\n");
    let p = fx.patch("p.json", &three_file_patch());
    fx.round_at(T0)
        .args(["apply", &p, "--auto", "--round-id", "a"])
        .assert()
        .code(0);
    fx.round_at("2026-03-01T11:00:00Z")
        .args(["revert", "a"])
        .assert()
        .code(0);
    let mut other = three_file_patch();
    other["summary"] = json!("Try again");
    let p2 = fx.patch("p2.json", &other);
    fx.round_at("2026-03-01T12:00:00Z")
        .args(["apply", &p2, "--round-id", "b"])
        .assert()
        .code(0)
        .stdout(contains("too soon"))
        .stdout(contains("2026-03-02T10:00:00Z"));
}

#[test]
fn kill_switch_skips_before_any_other_work() {
    let fx = Fixture::with_config("[harness]\nkill_switch = true\nautonomy = \"auto\"\n");
    let base = fx.head();
    // Not even the patch is read.
    let out = fx
        .arx()
        .args([
            "--json",
            "round",
            "apply",
            "no-such-patch.json",
            "--auto",
            "--round-id",
            "k",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "skipped");
    assert_eq!(rec["detail"], "kill switch is on");
    assert_eq!(fx.head(), base);
    assert!(!fx.root.join(".arx").exists());
    fx.arx()
        .args(["round", "status"])
        .assert()
        .code(0)
        .stdout(contains("kill switch is on"));
}

// ---------------------------------------------------------------------------
// Evaluation checks

#[test]
fn checks_run_against_the_round_commit_and_a_failure_rejects() {
    let fx = Fixture::with_config(
        r#"[harness]
min_interval_hours = 0

[[harness.checks]]
name = "guide-updated"
command = "grep -q 'new guide' docs/guide.md"

[[harness.checks]]
name = "no-scratch"
command = "test ! -e scratch.txt"

[[harness.checks]]
name = "missing-file"
command = "cat does-not-exist.txt"
"#,
    );
    let base = fx.head();
    // An untracked file in the user's tree is not in the scratch checkout.
    fx.write("scratch.txt", "mine\n");
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args(["--json", "round", "apply", &p, "--auto", "--round-id", "c1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "rejected");
    assert_eq!(rec["detail"], "eval failed");
    let checks = rec["eval_report"]["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3);
    assert_eq!(checks[0]["name"], "guide-updated");
    assert_eq!(checks[0]["exit_code"], 0);
    assert_eq!(checks[1]["exit_code"], 0);
    assert_eq!(checks[2]["name"], "missing-file");
    assert_ne!(checks[2]["exit_code"], 0);
    let detail = checks[2]["detail"].as_str().unwrap();
    assert!(detail.starts_with("H3"), "{detail}");

    // eval.json on disk, branch removed, hash recorded, nothing landed.
    let eval: Value = serde_json::from_str(&fx.read(".arx/rounds/c1/eval.json").unwrap()).unwrap();
    assert_eq!(eval["checks"], rec["eval_report"]["checks"]);
    assert_eq!(fx.branches(), vec!["main".to_string()]);
    assert_eq!(fx.head(), base);
    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
    assert_eq!(
        fx.hash_lines(),
        vec![json!({"hash": rec["patch_hash"], "round": "c1", "status": "rejected"})]
    );
    // The same patch again is a duplicate of the rejected round.
    fx.arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "c2"])
        .assert()
        .code(0)
        .stdout(contains("skipped"))
        .stdout(contains("c1"));
}

#[test]
fn check_timeout_rejects_as_h4() {
    let fx = Fixture::with_config(
        r#"[harness]
min_interval_hours = 0
checks = [{ name = "slow", command = "sleep 30", timeout = "1s" }]
"#,
    );
    let p = fx.patch("p.json", &three_file_patch());
    let started = Instant::now();
    let out = fx
        .arx()
        .args(["--json", "round", "apply", &p, "--auto", "--round-id", "t1"])
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rec = stdout_json(&out);
    let check = &rec["eval_report"]["checks"][0];
    assert_eq!(check["exit_code"], 124);
    assert_eq!(check["detail"], "H4: timed out");
    assert_eq!(fx.branches(), vec!["main".to_string()]);
}

#[test]
fn checks_are_triggered_by_kind() {
    let fx = Fixture::with_config(
        r#"[harness]
min_interval_hours = 0

[[harness.checks]]
name = "code-only"
command = "exit 1"
kinds = ["code"]
"#,
    );
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args(["--json", "round", "apply", &p, "--auto", "--round-id", "k1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "applied");
    assert_eq!(rec["eval_report"]["checks"], json!([]));
}

#[test]
fn ci_use_without_a_terminal() {
    let fx = Fixture::with_config(
        r#"[harness]
min_interval_hours = 0
autonomy = "auto"

[[harness.checks]]
name = "lint"
command = "echo linting; test -s docs/guide.md"
timeout = "1m"
"#,
    );
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .env("CI", "true")
        .env("TERM", "dumb")
        .env_remove("NO_COLOR")
        .args(["round", "apply", &p, "--round-id", "ci1"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let err = stderr(&out);
    assert!(stdout.contains("applied: round ci1"), "{stdout}");
    assert!(stdout.contains("check lint ok"), "{stdout}");
    assert!(err.contains("check lint"), "progress per check: {err}");
    assert!(
        !stdout.contains('\x1b') && !err.contains('\x1b'),
        "no escapes off a terminal"
    );
    // --quiet: the exit code alone.
    let again = patch(
        "quiet round",
        0.9,
        vec![entry(
            "docs/guide.md",
            "markdown",
            "modify",
            Some("quieter\n"),
        )],
    );
    let p2 = fx.patch("p2.json", &again);
    let out = fx
        .arx()
        .args(["--quiet", "round", "apply", &p2, "--round-id", "ci2"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn killed_while_checks_run_leaves_the_repository_as_it_was() {
    let fx = Fixture::with_config(
        r#"[harness]
min_interval_hours = 0

[[harness.checks]]
name = "slow"
command = "sleep 5"
"#,
    );
    let base = fx.head();
    let status = fx.status();
    let p = fx.patch("p.json", &three_file_patch());
    let bin = assert_cmd::cargo::cargo_bin("arx");
    let mut child = std::process::Command::new(bin)
        .current_dir(&fx.root)
        .env("TMPDIR", fx.sb.path())
        .args(["round", "apply", &p, "--auto", "--round-id", "kill"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the round commit exists (its branch), then kill arx.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !fx.branches().contains(&"harness/round-kill".to_string()) {
        assert!(Instant::now() < deadline, "the round never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(fx.head(), base);
    assert_eq!(fx.status(), status);
    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
    assert_eq!(fx.read("docs/notes.md").unwrap(), "notes\n");
}

// ---------------------------------------------------------------------------
// Safety: escapes, protected paths, dirty trees

/// Validate and auto-apply `entries` (each alone): all must be rejected,
/// nothing may change inside the repository or outside it.
fn assert_rejected(fx: &Fixture, entries: &[(Value, &str)]) {
    let base = fx.head();
    let outside = fx.outside_files();
    let status = fx.status();
    for (i, (e, want)) in entries.iter().enumerate() {
        let p = fx.patch(
            &format!("escape-{i}.json"),
            &patch(&format!("escape {i}"), 1.0, vec![e.clone()]),
        );
        let out = fx
            .arx()
            .args(["--json", "round", "validate", &p])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "validate {e}: {}", stderr(&out));
        let errors = stdout_json(&out)["errors"].to_string();
        assert!(errors.contains(want), "{e}: want {want:?} in {errors}");
        let out = fx
            .arx()
            .args([
                "--json",
                "round",
                "apply",
                &p,
                "--auto",
                "--round-id",
                &format!("esc{i}"),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "apply {e}: {}", stderr(&out));
        assert_eq!(stdout_json(&out)["status"], "rejected");
    }
    assert_eq!(fx.head(), base);
    assert_eq!(
        fx.outside_files(),
        outside,
        "nothing outside the repository changed"
    );
    assert_eq!(fx.status(), status);
    assert_eq!(fx.branches(), vec!["main".to_string()]);
}

#[test]
fn escape_attempts_are_rejected() {
    let fx =
        Fixture::with_config("[harness]\nmin_interval_hours = 0\ndeny_paths = [\"bin/run.sh\"]\n");
    let md = |path: &str| entry(path, "markdown", "create", Some("pwned\n"));
    let cases = vec![
        (md("../outside/victim.txt"), "path traversal"),
        (md("docs/../../outside/victim.txt"), "path traversal"),
        (md("/tmp/evil.md"), "absolute"),
        (md("C:/evil.md"), "absolute"),
        (md("docs\\evil.md"), "absolute or non-posix"),
        (md(".git/hooks/pre-commit"), "may not touch .git"),
        (md(".GIT/hooks/pre-commit"), "may not touch .git"),
        (md("sub/.git/config"), "may not touch .git"),
        (md("docs/.Git/config"), "may not touch .git"),
        (md("docs/evil\u{0}.md"), "NUL"),
        (md("docs"), "names a directory"),
        (md("docs/"), "not a normal path"),
        (md("./docs/evil.md"), "not a normal path"),
        (md("docs//evil.md"), "not a normal path"),
        (md(".arx/rounds/hashes.jsonl"), ".arx/ state directory"),
        (md("./.arx/x"), ".arx/ state directory"),
        (
            entry("bin/run.sh", "code", "modify", Some("x")),
            "deny-listed",
        ),
        (
            entry("bin//run.sh", "code", "modify", Some("x")),
            "deny-listed",
        ),
        (entry("bin/run.sh", "code", "delete", None), "deny-listed"),
        (md(""), "empty path"),
    ];
    assert_rejected(&fx, &cases);
}

#[test]
fn a_symlink_planted_in_the_repository_cannot_carry_a_write_outside() {
    let fx = Fixture::new();
    // Untracked symlinks planted in the working tree: a directory link and
    // a file link, both pointing outside the repository.
    std::os::unix::fs::symlink(&fx.outside, fx.root.join("escape")).unwrap();
    std::os::unix::fs::symlink(
        fx.outside.join("victim.txt"),
        fx.root.join("docs/victim.md"),
    )
    .unwrap();
    // A nested one, deeper in the path.
    std::fs::create_dir_all(fx.root.join("deep/er")).unwrap();
    std::os::unix::fs::symlink(&fx.outside, fx.root.join("deep/er/link")).unwrap();
    let md = |path: &str, op: &str| {
        let content = (op != "delete").then_some("pwned\n");
        entry(path, "markdown", op, content)
    };
    assert_rejected(
        &fx,
        &[
            (
                md("escape/victim.txt", "modify"),
                "goes through the symlink escape",
            ),
            (
                md("escape/new.md", "create"),
                "goes through the symlink escape",
            ),
            (
                md("escape/sub/new.md", "create"),
                "goes through the symlink escape",
            ),
            (md("escape/victim.txt", "delete"), "symlink"),
            (md("docs/victim.md", "modify"), "is a symlink"),
            (md("docs/victim.md", "delete"), "is a symlink"),
            (
                md("deep/er/link/victim.txt", "modify"),
                "symlink deep/er/link",
            ),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(fx.outside.join("victim.txt")).unwrap(),
        "untouched\n"
    );
    assert!(!fx.outside.join("new.md").exists());
}

#[test]
fn a_symlink_planted_while_checks_run_stops_the_landing() {
    // The check plants the symlink after validation, before landing.
    let fx = Fixture::with_config(
        "[harness]\nmin_interval_hours = 0\n[[harness.checks]]\nname = \"plant\"\ncommand = 'ln -s \"$OUTSIDE\" \"$REPO/docs/new\"'\n",
    );
    let base = fx.head();
    let outside = fx.outside_files();
    let p = fx.patch("p.json", &three_file_patch());
    fx.arx()
        .env("OUTSIDE", &fx.outside)
        .env("REPO", &fx.root)
        .args(["round", "apply", &p, "--auto", "--round-id", "planted"])
        .assert()
        .code(2)
        .stderr(contains("docs/new"));
    assert!(fx.root.join("docs/new").is_symlink(), "the check ran");
    assert_eq!(fx.outside_files(), outside);
    assert_eq!(fx.head(), base);
    // Nothing was written: the other files of the round are untouched too.
    assert_eq!(fx.read("docs/guide.md").unwrap(), "old guide\n");
    assert_eq!(fx.read("docs/notes.md").unwrap(), "notes\n");
    assert_eq!(fx.branches(), vec!["main".to_string()]);
}

#[test]
fn a_committed_symlink_cannot_carry_a_write_outside() {
    let fx = Fixture::new();
    std::os::unix::fs::symlink(&fx.outside, fx.root.join("vendor")).unwrap();
    fx.commit_all("add vendor link");
    assert_rejected(
        &fx,
        &[(
            entry("vendor/victim.txt", "code", "modify", Some("pwned\n")),
            "goes through the symlink vendor",
        )],
    );
}

#[test]
fn a_round_may_not_change_the_harness_block_of_its_config() {
    let fx = Fixture::new();
    let toml_with = |harness: &str| format!("[gates]\nexecute = false\n\n[harness]\n{harness}\n");
    assert_rejected(
        &fx,
        &[
            (
                entry(
                    "arx.toml",
                    "code",
                    "modify",
                    Some(&toml_with("min_interval_hours = 0\nautonomy = \"auto\"")),
                ),
                "changes the [harness] block",
            ),
            (
                entry(
                    "arx.toml",
                    "code",
                    "modify",
                    Some("[gates]\nexecute = false\n"),
                ),
                "changes the [harness] block",
            ),
            (
                entry(
                    "arx.toml",
                    "markdown",
                    "modify",
                    Some(&toml_with("min_interval_hours = 0.0")),
                ),
                "changes the [harness] block",
            ),
            // kind config means JSON; on a TOML file it is not valid.
            (
                entry(
                    "arx.toml",
                    "config",
                    "modify",
                    Some(&toml_with("kill_switch = false")),
                ),
                "not valid JSON",
            ),
            (
                entry("arx.toml", "code", "delete", None),
                "may not be deleted",
            ),
            (
                entry("arx.toml", "code", "modify", Some("[harness\n")),
                "not valid TOML",
            ),
            // Another arx.toml that discovery would find takes over.
            (
                entry(
                    "docs/arx.toml",
                    "code",
                    "create",
                    Some("[harness]\nautonomy = \"auto\"\n"),
                ),
                "changes the [harness] block",
            ),
        ],
    );
    // Other settings in the file may change, the harness block as it is
    // (the gates may not: see `guard`).
    let ok = fx.patch(
        "ok.json",
        &patch(
            "Tune",
            0.9,
            vec![entry(
                "arx.toml",
                "code",
                "modify",
                Some("# tuned\n[harness]\nmin_interval_hours = 0\n"),
            )],
        ),
    );
    fx.arx().args(["round", "validate", &ok]).assert().code(0);
    fx.arx()
        .args(["round", "apply", &ok, "--auto", "--round-id", "tune"])
        .assert()
        .code(0)
        .stdout(contains("applied"));
    assert!(fx.read("arx.toml").unwrap().contains("# tuned"));
}

#[test]
fn a_round_may_not_change_the_harness_block_of_a_json_config() {
    let fx = Fixture::new();
    let config = json!({"harness": {"min_interval_hours": 0, "autonomy": "review"}, "other": 1});
    fx.write(".planning/config.json", &config.to_string());
    fx.commit_all("json config");
    let args = ["--config", ".planning/config.json"];
    let mut changed = config.clone();
    changed["harness"]["autonomy"] = json!("auto");
    let bad = fx.patch(
        "bad.json",
        &patch(
            "Go auto",
            0.9,
            vec![entry(
                ".planning/config.json",
                "config",
                "modify",
                Some(&changed.to_string()),
            )],
        ),
    );
    fx.arx()
        .args(args)
        .args(["round", "validate", &bad])
        .assert()
        .code(1)
        .stdout(contains("harness config block"));
    // The same change through another kind, and a delete, are caught too.
    let mut as_code =
        serde_json::from_str::<Value>(&std::fs::read_to_string(&bad).unwrap()).unwrap();
    as_code["entries"][0]["kind"] = json!("code");
    let as_code = fx.patch("as-code.json", &as_code);
    fx.arx()
        .args(args)
        .args(["round", "validate", &as_code])
        .assert()
        .code(1)
        .stdout(contains("harness config block"));
    let delete = fx.patch(
        "delete.json",
        &patch(
            "Drop config",
            0.9,
            vec![entry(".planning/config.json", "config", "delete", None)],
        ),
    );
    fx.arx()
        .args(args)
        .args(["round", "validate", &delete])
        .assert()
        .code(1)
        .stdout(contains("may not delete the project config"));

    let mut kept = config.clone();
    kept["other"] = json!(2);
    let good = fx.patch(
        "good.json",
        &patch(
            "Tune",
            0.9,
            vec![entry(
                ".planning/config.json",
                "config",
                "modify",
                Some(&kept.to_string()),
            )],
        ),
    );
    fx.arx()
        .args(args)
        .args(["round", "apply", &good, "--auto", "--round-id", "j1"])
        .assert()
        .code(0)
        .stdout(contains("applied"));
}

/// Puts a repository in some state before a round.
type Setup = fn(&Fixture);

#[test]
fn a_dirty_touched_path_blocks_apply_and_changes_nothing() {
    const WITH_CHECK: &str = "[harness]\nmin_interval_hours = 0\n[[harness.checks]]\nname = \"marker\"\ncommand = 'touch \"$MARKER\"'\n";
    let touched = ["docs/guide.md", "docs/notes.md", "docs/new/tips.md"];
    // Unstaged, staged, and an untracked file in the way of a create.
    let setups: [(&str, Setup); 3] = [
        ("docs/guide.md", |fx| fx.write("docs/guide.md", "my edit\n")),
        ("docs/notes.md", |fx| {
            fx.write("docs/notes.md", "staged edit\n");
            fx.stage("docs/notes.md");
        }),
        ("docs/new/tips.md", |fx| {
            fx.write("docs/new/tips.md", "my own tips\n")
        }),
    ];
    for (path, setup) in setups {
        let fx = Fixture::with_config(WITH_CHECK);
        setup(&fx);
        let (head, status, index) = (fx.head(), fx.status(), fx.index());
        let before: Vec<Option<String>> = touched.iter().map(|p| fx.read(p)).collect();
        let marker = fx.sb.path().join("checks-ran");
        let p = fx.patch("p.json", &three_file_patch());
        fx.arx()
            .env("MARKER", &marker)
            .args(["round", "apply", &p, "--auto", "--round-id", "dirty"])
            .assert()
            .code(2)
            .stderr(contains("uncommitted changes"))
            .stderr(contains(path));
        assert_eq!(fx.head(), head);
        assert_eq!(fx.status(), status);
        assert_eq!(fx.index(), index);
        let after: Vec<Option<String>> = touched.iter().map(|p| fx.read(p)).collect();
        assert_eq!(after, before);
        assert_eq!(fx.branches(), vec!["main".to_string()]);
        assert!(!fx.root.join(".arx/rounds").exists(), "no round recorded");
        assert!(!marker.exists(), "refused before the checks ran");
    }

    // In review mode the user's edits do not matter: nothing is written.
    let fx = Fixture::with_config(WITH_CHECK);
    let base = fx.head();
    fx.write("docs/guide.md", "my edit\n");
    let marker = fx.sb.path().join("checks-ran");
    let p = fx.patch("p.json", &three_file_patch());
    fx.arx()
        .env("MARKER", &marker)
        .args(["round", "apply", &p, "--round-id", "review"])
        .assert()
        .code(0)
        .stdout(contains("evaluated"));
    assert!(marker.exists());
    assert_eq!(fx.head(), base);
    assert_eq!(fx.read("docs/guide.md").unwrap(), "my edit\n");
}

#[test]
fn refusals_for_repositories_a_round_must_not_change() {
    let p = |fx: &Fixture| fx.patch("p.json", &three_file_patch());

    // Detached HEAD.
    let fx = Fixture::new();
    fx.repo().set_head_detached(fx.head()).unwrap();
    let patch_file = p(&fx);
    fx.arx()
        .args(["round", "apply", &patch_file, "--auto"])
        .assert()
        .code(2)
        .stderr(contains("HEAD is detached"));

    // Mid-merge (MERGE_HEAD written by hand) and mid-rebase.
    let fx = Fixture::new();
    std::fs::write(fx.root.join(".git/MERGE_HEAD"), format!("{}\n", fx.head())).unwrap();
    let patch_file = p(&fx);
    fx.arx()
        .args(["round", "apply", &patch_file, "--auto"])
        .assert()
        .code(2)
        .stderr(contains("middle of an operation"));
    // Validating only reads: a hook validates staged patches mid-merge.
    fx.arx()
        .args(["round", "validate", &patch_file])
        .assert()
        .code(0);
    let fx = Fixture::new();
    std::fs::create_dir_all(fx.root.join(".git/rebase-merge")).unwrap();
    let patch_file = p(&fx);
    fx.arx()
        .args(["round", "apply", &patch_file, "--auto"])
        .assert()
        .code(2)
        .stderr(contains("middle of an operation"));

    // An unborn branch.
    let sb = Sandbox::new();
    sb.git_init(".");
    let patch_file = sb.write("p.json", three_file_patch().to_string());
    sb.arx()
        .args(["round", "apply", patch_file.to_str().unwrap(), "--auto"])
        .assert()
        .code(2)
        .stderr(contains("no commits yet"));

    // A bare repository.
    let sb = Sandbox::new();
    let bare = sb.path().join("bare.git");
    Repository::init_bare(&bare).unwrap();
    let patch_file = sb.write("p.json", three_file_patch().to_string());
    sb.arx()
        .current_dir(&bare)
        .args(["round", "apply", patch_file.to_str().unwrap(), "--auto"])
        .assert()
        .code(2)
        .stderr(contains("bare"));

    // Not a repository at all.
    let sb = Sandbox::new();
    let patch_file = sb.write("p.json", three_file_patch().to_string());
    sb.arx()
        .args(["round", "apply", patch_file.to_str().unwrap(), "--auto"])
        .assert()
        .code(2)
        .stderr(contains("not inside a git repository"));
}

#[test]
fn invalid_round_ids_and_reused_ones_are_errors() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    for bad in ["../x", "-x", "a b", ".hidden"] {
        fx.arx()
            .args(["round", "apply", &p, &format!("--round-id={bad}")])
            .assert()
            .code(2)
            .stderr(contains("invalid round id"));
    }
    fx.arx()
        .args(["round", "apply", &p, "--round-id", "same"])
        .assert()
        .code(0);
    let mut other = three_file_patch();
    other["summary"] = json!("other");
    let p2 = fx.patch("p2.json", &other);
    fx.arx()
        .args(["round", "apply", &p2, "--round-id", "same"])
        .assert()
        .code(2)
        .stderr(contains("already exists"));
}

// ---------------------------------------------------------------------------
// Status and evidence

#[test]
fn status_lists_rounds_and_when_the_next_is_allowed() {
    let fx = Fixture::with_config("[harness]\nmin_interval_hours = 2\n");
    fx.round_at(T0)
        .args(["status"])
        .assert()
        .code(0)
        .stdout(contains("no rounds yet"))
        .stdout(contains("allowed now"));
    let p = fx.patch("p.json", &three_file_patch());
    fx.round_at(T0)
        .args(["apply", &p, "--auto", "--round-id", "s1"])
        .assert()
        .code(0);
    let out = fx
        .arx()
        .args(["--json", "--now", "2026-03-01T11:00:00Z", "round", "status"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s = stdout_json(&out);
    let rounds = s["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0]["round_id"], "s1");
    assert_eq!(rounds[0]["status"], "applied");
    assert_eq!(rounds[0]["patch_hash"].as_str().unwrap().len(), 16);
    assert_eq!(rounds[0]["applied_sha"], fx.head().to_string());
    assert_eq!(s["next_allowed_at"], "2026-03-01T12:00:00Z");
    assert_eq!(s["allowed_now"], false);
    fx.round_at("2026-03-01T11:00:00Z")
        .args(["status"])
        .assert()
        .code(0)
        .stdout(contains("s1"))
        .stdout(contains("applied"))
        .stdout(contains("allowed at 2026-03-01T12:00:00Z"));
}

#[test]
fn evidence_selection() {
    let sb = Sandbox::new();
    let findings = json!([
        {"kind": "question", "content": "q", "source": "s", "created_at": "2026-01-03T00:00:00Z"},
        {"kind": "takeaway", "content": "old takeaway", "source": "s", "created_at": "2026-01-01T00:00:00Z"},
        {"kind": "takeaway", "content": "new takeaway", "source": "s", "created_at": "2026-01-02T00:00:00Z"},
        {"kind": "insight", "content": "i", "source": "s", "created_at": "2026-01-04T00:00:00Z"},
    ]);
    let path = sb.write("findings.json", findings.to_string());
    let f = path.to_str().unwrap();
    let out = sb
        .arx()
        .args([
            "--json",
            "round",
            "evidence",
            "--findings",
            f,
            "--min",
            "3",
            "--max",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r = stdout_json(&out);
    let contents: Vec<&str> = r["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, ["new takeaway", "old takeaway", "i"]);
    assert_eq!(r["enough"], true);
    sb.arx()
        .args(["round", "evidence", "--findings", f, "--min", "5"])
        .assert()
        .code(1)
        .stdout(contains("too little evidence"));
    sb.write("bad.json", "{}");
    sb.arx()
        .args(["round", "evidence", "--findings", "bad.json"])
        .assert()
        .code(2);
}

/// Stopped while landing, after the branch moved: the next round settles
/// the record as applied and records the patch hash, so the same patch is
/// a duplicate.
#[test]
fn an_interrupted_landing_that_completed_is_settled_as_applied() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args(["--json", "--now", T0, "round", "apply", &p, "--auto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let id = stdout_json(&out)["round_id"].as_str().unwrap().to_string();
    // What a stop between moving the ref and saving the record leaves.
    let mut rec = fx.record(&id);
    rec["status"] = json!("evaluated");
    rec["detail"] = json!("landing");
    rec["landing"] = json!(true);
    rec["applied_sha"] = Value::Null;
    fx.write(&format!(".arx/rounds/{id}/RECORD.json"), &rec.to_string());
    fx.write(".arx/rounds/hashes.jsonl", "");

    let out = fx
        .arx()
        .args(["round", "status", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted landing"));
    let settled = fx.record(&id);
    assert_eq!(settled["status"], "applied");
    assert_eq!(settled["applied_sha"], fx.head().to_string());
    assert!(settled.get("landing").is_none());
    assert_eq!(fx.hash_lines().len(), 1);
    // The same patch again is a duplicate.
    let out = fx
        .arx()
        .args([
            "--json",
            "--now",
            "2026-03-01T11:00:00Z",
            "round",
            "apply",
            &p,
            "--auto",
        ])
        .output()
        .unwrap();
    assert_eq!(stdout_json(&out)["status"], "skipped");
}

/// Stopped while landing, before the branch moved: the round is left
/// awaiting review on its branch.
#[test]
fn an_interrupted_landing_that_did_not_land_awaits_review() {
    let fx = Fixture::new();
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args(["--json", "--now", T0, "round", "apply", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let id = stdout_json(&out)["round_id"].as_str().unwrap().to_string();
    let mut rec = fx.record(&id);
    rec["landing"] = json!(true);
    rec["detail"] = json!("landing");
    fx.write(&format!(".arx/rounds/{id}/RECORD.json"), &rec.to_string());

    let out = fx.arx().args(["round", "status"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let settled = fx.record(&id);
    assert_eq!(settled["status"], "evaluated");
    assert_eq!(
        settled["detail"],
        "awaiting review (landing was interrupted)"
    );
    assert!(settled["branch"]
        .as_str()
        .is_some_and(|b| fx.branches().contains(&b.to_string())));
    assert!(fx.hash_lines().is_empty());
}

#[test]
fn human_output_reads_well() {
    // A failing check that prints nothing still says something.
    let fx = Fixture::with_config(
        "[harness]\nmin_interval_hours = 24\n\n[[harness.checks]]\nname = \"silent\"\ncommand = \"exit 1\"\n",
    );
    let p = fx.patch("p.json", &three_file_patch());
    let out = fx
        .arx()
        .args(["round", "apply", &p, "--auto", "--round-id", "s1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAILED H4: exit code 1, no output"), "{text}");
    // Times to the second.
    let out = fx.arx().args(["round", "status"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("next round: allowed at "))
        .unwrap_or_else(|| panic!("{text}"));
    let at = line["next round: allowed at ".len()..]
        .split(' ')
        .next()
        .unwrap();
    assert!(!at.contains('.') && at.ends_with('Z'), "{line}");
    // One error, not "1 errors".
    let one = fx.patch(
        "one.json",
        &patch(
            "Bad",
            0.9,
            vec![entry("docs/missing.md", "markdown", "delete", None)],
        ),
    );
    fx.arx()
        .args(["round", "validate", &one])
        .assert()
        .code(1)
        .stdout(contains(format!("invalid: 1 error in {one}\n")));
}

#[path = "round_guard.rs"]
mod guard;

#[path = "round_isolation.rs"]
mod isolation;

#[test]
fn a_patch_with_a_byte_order_mark_is_read() {
    let fx = Fixture::new();
    let text = serde_json::to_string(&three_file_patch()).unwrap();
    let bom = [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat();
    let path = fx.sb.write("patches/bom.json", &bom);
    fx.arx()
        .args(["round", "validate", path.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("valid: 3 entries"));
    let mut utf16 = vec![0xff, 0xfe];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    fx.arx()
        .args(["round", "validate", "-"])
        .write_stdin(utf16)
        .assert()
        .code(0);
}
