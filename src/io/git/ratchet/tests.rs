//! The ratchet on real repositories: opening, candidates, protected paths,
//! keeps and snapshots. Restores and put-backs are in `tests_restore.rs`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::*;
use crate::error::Hinted;

/// Run git in `dir` with a fixed identity and no system or global
/// configuration; returns stdout, panics on failure.
pub(super) fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_output(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Like [`git`], for commands expected to fail (a conflicting merge).
pub(super) fn git_output(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Tester")
        .env("GIT_AUTHOR_EMAIL", "tester@example.com")
        .env("GIT_COMMITTER_NAME", "Tester")
        .env("GIT_COMMITTER_EMAIL", "tester@example.com")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("git runs")
}

/// A repository on branch `main` with one commit of `files`, and a user
/// identity in its own configuration.
pub(super) fn repo_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["config", "user.name", "Repo User"]);
    git(dir.path(), &["config", "user.email", "repo@example.com"]);
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

pub(super) fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

pub(super) fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path)).ok()
}

pub(super) fn head(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

pub(super) fn commit_all(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    head(dir)
}

pub(super) fn open(dir: &Path) -> RatchetRepo {
    RatchetRepo::open(dir, Path::new(".arx")).unwrap()
}

/// `git status` in short form, untracked files listed one by one.
pub(super) fn status(dir: &Path) -> String {
    git(dir, &["status", "--porcelain=v1", "--untracked-files=all"])
}

/// Every file under `root` outside `.git` (symlinks as `-> target`).
pub(super) fn files(root: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if rel == ".git" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(rel, format!("-> {}", target.display()));
            } else if meta.is_dir() {
                out.insert(format!("{rel}/"), String::new());
                walk(root, &path, out);
            } else {
                use std::os::unix::fs::PermissionsExt;
                let exec = if meta.permissions().mode() & 0o100 != 0 {
                    " (x)"
                } else {
                    ""
                };
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                out.insert(rel, format!("{text}{exec}"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The file paths of a commit's tree.
pub(super) fn tree_files(dir: &Path, commit: &str) -> Vec<String> {
    git(dir, &["ls-tree", "-r", "--name-only", commit])
        .lines()
        .map(str::to_string)
        .collect()
}

pub(super) fn show(dir: &Path, spec: &str) -> String {
    git(dir, &["show", spec])
}

fn hint_of(err: &anyhow::Error) -> (String, String) {
    let h = err
        .downcast_ref::<Hinted>()
        .unwrap_or_else(|| panic!("not a hinted error: {err:#}"));
    (h.message.clone(), h.hint.clone())
}

fn open_err(dir: &Path) -> (String, String) {
    match RatchetRepo::open(dir, Path::new(".arx")) {
        Ok(_) => panic!("open succeeded in {}", dir.display()),
        Err(e) => hint_of(&e),
    }
}

#[test]
fn open_refuses_what_the_ratchet_must_not_touch() {
    // Not a repository.
    let plain = tempfile::tempdir().unwrap();
    let (message, hint) = open_err(plain.path());
    assert!(message.contains("not inside a git repository"), "{message}");
    assert!(hint.contains("git init"), "{hint}");

    // A branch with no commit yet.
    let unborn = tempfile::tempdir().unwrap();
    git(unborn.path(), &["init", "-q", "-b", "main"]);
    let (message, _) = open_err(unborn.path());
    assert!(message.contains("no commits yet"), "{message}");

    // Detached HEAD.
    let detached = repo_with(&[("a.txt", "a\n")]);
    git(detached.path(), &["checkout", "-q", "--detach"]);
    let (message, hint) = open_err(detached.path());
    assert!(message.contains("detached"), "{message}");
    assert!(hint.contains("git switch"), "{hint}");

    // A merge and a rebase stopped on a conflict, a cherry-pick, a bisect.
    let conflicting = || {
        let dir = repo_with(&[("a.txt", "base\n")]);
        git(dir.path(), &["checkout", "-q", "-b", "other"]);
        write(dir.path(), "a.txt", "other\n");
        commit_all(dir.path(), "other");
        git(dir.path(), &["checkout", "-q", "main"]);
        write(dir.path(), "a.txt", "main\n");
        commit_all(dir.path(), "main");
        dir
    };
    for (args, word) in [
        (&["merge", "other"][..], "a merge"),
        (&["rebase", "other"][..], "a rebase"),
        (&["cherry-pick", "other"][..], "a cherry-pick"),
    ] {
        let dir = conflicting();
        let before = files(dir.path());
        let out = git_output(dir.path(), args);
        assert!(
            !out.status.success(),
            "{args:?} should stop on the conflict"
        );
        let (message, hint) = open_err(dir.path());
        assert!(message.contains(word), "{args:?}: {message}");
        assert!(hint.contains("abort"), "{hint}");
        assert_ne!(files(dir.path()), before, "the conflict is in the tree");
    }
    let bisecting = conflicting();
    git(bisecting.path(), &["bisect", "start"]);
    let (message, _) = open_err(bisecting.path());
    assert!(message.contains("a bisect"), "{message}");

    // And a healthy repository opens, from a subdirectory too.
    let fine = repo_with(&[("sub/a.txt", "a\n")]);
    let repo = RatchetRepo::open(&fine.path().join("sub"), Path::new("../.arx")).unwrap();
    assert_eq!(repo.branch(), "main");
    assert_eq!(repo.head(), head(fine.path()));
    assert_eq!(repo.state.as_deref(), Some(".arx"));
}

#[test]
fn the_state_directory_is_located_relative_to_the_working_tree() {
    let dir = repo_with(&[("a.txt", "a\n")]);
    let inside = RatchetRepo::open(dir.path(), &dir.path().join("arxstate")).unwrap();
    assert_eq!(inside.state.as_deref(), Some("arxstate"));
    assert!(inside.in_state("arxstate"));
    assert!(inside.in_state("arxstate/journal.jsonl"));
    assert!(!inside.in_state("arxstate2/x"));
    assert!(!inside.in_state("a.txt"));
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = RatchetRepo::open(dir.path(), outside.path()).unwrap();
    assert_eq!(elsewhere.state, None);
    let err = RatchetRepo::open(dir.path(), Path::new(".")).err().unwrap();
    assert!(hint_of(&err).0.contains("working tree itself"));
}

#[test]
fn the_candidate_is_commits_and_working_tree_changes_since_kept() {
    let dir = repo_with(&[
        ("a.txt", "a\n"),
        ("b.txt", "b\n"),
        (".gitignore", "*.log\n"),
    ]);
    let root = dir.path();
    let kept = head(root);
    let repo = open(root);
    let empty = repo.candidate(&kept).unwrap();
    assert!(empty.is_empty(), "{empty:?}");
    assert!(!empty.dirty);
    write(root, "c.txt", "committed\n");
    let c1 = commit_all(root, "agent commit");
    write(root, "a.txt", "changed\n");
    write(root, "new/u.txt", "untracked\n");
    write(root, "run.log", "ignored\n");
    write(root, ".arx/journal.jsonl", "{}\n");
    let candidate = repo.candidate(&kept).unwrap();
    assert_eq!(candidate.kept, kept);
    assert_eq!(candidate.head, c1);
    assert_eq!(candidate.commits, vec![c1.clone()]);
    assert_eq!(candidate.paths, vec!["a.txt", "c.txt", "new/u.txt"]);
    assert!(candidate.dirty);
    assert!(!candidate.is_empty());
    assert!(repo.descends_from(&kept).unwrap());
    assert!(repo.descends_from(&c1).unwrap());
    // A commit that is not on the branch.
    git(root, &["stash", "-u", "-q"]);
    git(root, &["checkout", "-q", "-b", "side", &kept]);
    write(root, "side.txt", "side\n");
    let side = commit_all(root, "side");
    git(root, &["checkout", "-q", "main"]);
    assert!(!repo.descends_from(&side).unwrap());
    let err = repo.candidate(&side).unwrap_err();
    assert!(hint_of(&err).0.contains("does not descend"), "{err:#}");
    let err = repo
        .candidate("0123456789abcdef0123456789abcdef01234567")
        .unwrap_err();
    assert!(
        hint_of(&err).0.contains("not in this repository"),
        "{err:#}"
    );
}

#[test]
fn the_candidate_leaves_out_state_only_commits() {
    for state in [".arx", "arxstate"] {
        let dir = repo_with(&[("a.txt", "a\n"), (&format!("{state}/journal.jsonl"), "1\n")]);
        let root = dir.path();
        let kept = head(root);
        let repo = RatchetRepo::open(root, Path::new(state)).unwrap();
        write(root, &format!("{state}/journal.jsonl"), "1\n2\n");
        let s1 = commit_all(root, "journal");
        let only_state = repo.candidate(&kept).unwrap();
        assert!(only_state.commits.is_empty(), "{only_state:?}");
        assert!(only_state.is_empty(), "{only_state:?}");
        assert_ne!(only_state.head, kept);
        write(root, "a.txt", "changed\n");
        let c1 = commit_all(root, "agent");
        write(root, &format!("{state}/journal.jsonl"), "1\n2\n3\n");
        write(root, &format!("{state}/runs/new.json"), "{}\n");
        let s2 = commit_all(root, "journal again");
        write(root, &format!("{state}/journal.jsonl"), "1\n2\n3\n4\n");
        let candidate = repo.candidate(&kept).unwrap();
        assert_eq!(candidate.commits, vec![c1], "{state}");
        assert_eq!(candidate.paths, vec!["a.txt"], "{state}");
        assert!(
            !candidate.dirty,
            "{state}: only the state directory is modified"
        );
        assert_eq!(candidate.head, s2);
        let _ = s1;
    }
}

#[test]
fn protected_paths_follow_gitignore_style_patterns() {
    let dir = repo_with(&[("a.txt", "a\n")]);
    let repo = open(dir.path());
    let candidate = Candidate {
        kept: String::new(),
        head: String::new(),
        commits: Vec::new(),
        paths: [
            "Cargo.lock",
            "data/raw/a.bin",
            "eval.txt",
            "eval/data/x.csv",
            "eval/score.py",
            "metadata/x",
            "other.rs",
            "prepare.py",
            "src/data/b.bin",
            "src/prepare.py",
            "sub/deps.lock",
        ]
        .map(String::from)
        .to_vec(),
        dirty: true,
        changed: Vec::new(),
        config: Vec::new(),
    };
    let protect = |patterns: &[&str]| {
        let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        repo.protected_paths(&candidate, &patterns).unwrap()
    };
    assert_eq!(protect(&["prepare.py"]), ["prepare.py", "src/prepare.py"]);
    assert_eq!(protect(&["/prepare.py"]), ["prepare.py"]);
    assert_eq!(protect(&["eval/**"]), ["eval/data/x.csv", "eval/score.py"]);
    assert_eq!(protect(&["*.lock"]), ["Cargo.lock", "sub/deps.lock"]);
    // A directory protects everything below it, at any depth unless anchored.
    let all_data = ["data/raw/a.bin", "eval/data/x.csv", "src/data/b.bin"];
    assert_eq!(protect(&["data"]), all_data);
    assert_eq!(protect(&["data/"]), all_data);
    assert_eq!(protect(&["/data"]), ["data/raw/a.bin"]);
    assert_eq!(protect(&["eval"]), ["eval/data/x.csv", "eval/score.py"]);
    assert_eq!(protect(&["src/*.py"]), ["src/prepare.py"]);
    assert_eq!(
        protect(&["eval/**", "*.lock", ""]),
        [
            "Cargo.lock",
            "eval/data/x.csv",
            "eval/score.py",
            "sub/deps.lock"
        ]
    );
    assert!(protect(&[]).is_empty());
    assert!(protect(&["nothing/**"]).is_empty());
    let err = repo
        .protected_paths(&candidate, &["src/[".to_string()])
        .unwrap_err();
    assert!(hint_of(&err).0.contains("not valid"), "{err:#}");
}

#[test]
fn keep_commits_modified_and_untracked_files_and_nothing_of_the_state() {
    for (state, tracked) in [(".arx", false), (".arx", true), ("arxstate", true)] {
        let mut base = vec![("a.txt", "a\n"), ("b.txt", "b\n"), ("gone.txt", "gone\n")];
        let state_file = format!("{state}/journal.jsonl");
        if tracked {
            base.push((&state_file, "1\n"));
        }
        let dir = repo_with(&base);
        let root = dir.path();
        let before = head(root);
        let repo = RatchetRepo::open(root, Path::new(state)).unwrap();
        write(root, "a.txt", "better\n");
        write(root, "new/deep/u.txt", "untracked\n");
        std::fs::remove_file(root.join("gone.txt")).unwrap();
        write(root, "staged.txt", "staged\n");
        git(root, &["add", "staged.txt"]);
        write(root, &state_file, "1\n2\n");
        let kept = repo.keep("Try 3: better a").unwrap();
        assert_eq!(kept, head(root), "{state}");
        assert_ne!(kept, before);
        assert_eq!(
            git(root, &["rev-parse", &format!("{kept}^")]).trim(),
            before,
            "one commit on top"
        );
        assert_eq!(
            git(root, &["log", "-1", "--format=%s|%an <%ae>"]).trim(),
            "Try 3: better a|Repo User <repo@example.com>"
        );
        let mut expected = vec!["a.txt", "b.txt", "new/deep/u.txt", "staged.txt"];
        if tracked {
            expected.insert(0, state_file.as_str());
            expected.sort();
        }
        assert_eq!(tree_files(root, &kept), expected, "{state}");
        assert_eq!(show(root, &format!("{kept}:a.txt")), "better\n");
        if tracked {
            // The state directory keeps its committed content...
            assert_eq!(show(root, &format!("{kept}:{state_file}")), "1\n");
            // ...and its working-tree change stays a change, unstaged.
            assert_eq!(status(root), format!(" M {state_file}\n"), "{state}");
        } else {
            assert_eq!(status(root), format!("?? {state_file}\n"), "{state}");
        }
        assert_eq!(read(root, &state_file).unwrap(), "1\n2\n");
        assert_eq!(read(root, "new/deep/u.txt").unwrap(), "untracked\n");
    }
}

#[test]
fn keep_with_a_clean_tree_keeps_the_commits_already_made() {
    let dir = repo_with(&[("a.txt", "a\n")]);
    let root = dir.path();
    let repo = open(root);
    write(root, "a.txt", "by the agent\n");
    let committed = commit_all(root, "agent commit");
    write(root, ".arx/journal.jsonl", "{}\n");
    let count = git(root, &["rev-list", "--count", "HEAD"]);
    assert_eq!(repo.keep("Try 4").unwrap(), committed);
    assert_eq!(head(root), committed);
    assert_eq!(git(root, &["rev-list", "--count", "HEAD"]), count);
}

#[test]
fn keep_candidate_commits_what_was_read_and_nothing_that_appeared_later() {
    let dir = repo_with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let root = dir.path();
    let repo = open(root);
    let base = head(root);
    write(root, "a.txt", "changed\n");
    write(root, "new.txt", "new\n");
    let candidate = repo.candidate(&base).unwrap();
    assert_eq!(candidate.changed, ["a.txt", "new.txt"]);
    // The experiment runs: it edits a candidate file and writes an output.
    write(root, "a.txt", "changed again\n");
    write(root, "out.log", "written by the run\n");
    let kept = repo.keep_candidate(&candidate, "Try").unwrap();
    let listing = git(root, &["show", "--name-only", "--format=", &kept]);
    assert_eq!(listing, "a.txt\nnew.txt\n");
    assert_eq!(
        git(root, &["show", &format!("{kept}:a.txt")]),
        "changed again\n"
    );
    assert_eq!(git(root, &["status", "--porcelain"]), "?? out.log\n");
}

#[test]
fn keep_handles_executables_symlinks_and_file_to_directory_changes() {
    let dir = repo_with(&[("a.txt", "a\n"), ("x/inner.txt", "inner\n")]);
    let root = dir.path();
    let repo = open(root);
    use std::os::unix::fs::PermissionsExt;
    write(root, "run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("a.txt", root.join("link")).unwrap();
    // A file becomes a directory and a directory becomes a file.
    std::fs::remove_file(root.join("a.txt")).unwrap();
    write(root, "a.txt/now.txt", "a is a directory\n");
    std::fs::remove_dir_all(root.join("x")).unwrap();
    write(root, "x", "x is a file\n");
    let kept = repo.keep("shapes").unwrap();
    let listing = git(root, &["ls-tree", "-r", &kept]);
    let modes: BTreeMap<&str, &str> = listing
        .lines()
        .map(|l| {
            let (meta, path) = l.split_once('\t').unwrap();
            (path, meta.split(' ').next().unwrap())
        })
        .collect();
    assert_eq!(
        modes,
        BTreeMap::from([
            ("a.txt/now.txt", "100644"),
            ("link", "120000"),
            ("run.sh", "100755"),
            ("x", "100644"),
        ])
    );
    assert_eq!(status(root), "");
}

#[test]
fn snapshot_stores_the_candidate_and_changes_nothing() {
    let dir = repo_with(&[
        ("a.txt", "a\n"),
        ("b.txt", "b\n"),
        (".gitignore", "*.log\n"),
    ]);
    let root = dir.path();
    let kept = head(root);
    let repo = open(root);
    write(root, "c.txt", "committed\n");
    let c1 = commit_all(root, "agent");
    write(root, "a.txt", "unstaged\n");
    write(root, "b.txt", "staged\n");
    git(root, &["add", "b.txt"]);
    write(root, "b.txt", "staged, then changed again\n");
    write(root, "new/u.txt", "untracked\n");
    write(root, "run.log", "ignored\n");
    write(root, ".arx/journal.jsonl", "{}\n");
    let files_before = files(root);
    let index_before = std::fs::read(root.join(".git/index")).unwrap();
    let status_before = status(root);
    let id = repo
        .snapshot("refs/arx/discarded/run-1", "discarded: try 2")
        .unwrap();
    assert_eq!(
        repo.ref_target("refs/arx/discarded/run-1").as_deref(),
        Some(id.as_str())
    );
    assert_eq!(files(root), files_before);
    assert_eq!(
        std::fs::read(root.join(".git/index")).unwrap(),
        index_before
    );
    assert_eq!(status(root), status_before);
    assert_eq!(head(root), c1);
    // First parent HEAD (the candidate's commits reachable), second the index.
    assert_eq!(git(root, &["rev-parse", &format!("{id}^1")]).trim(), c1);
    assert_eq!(
        git(root, &["merge-base", "--is-ancestor", &kept, &id]),
        "",
        "the kept commit is an ancestor"
    );
    assert_eq!(show(root, &format!("{id}:a.txt")), "unstaged\n");
    assert_eq!(
        show(root, &format!("{id}:b.txt")),
        "staged, then changed again\n"
    );
    assert_eq!(show(root, &format!("{id}^2:b.txt")), "staged\n");
    assert_eq!(show(root, &format!("{id}:new/u.txt")), "untracked\n");
    assert_eq!(
        tree_files(root, &id),
        [".gitignore", "a.txt", "b.txt", "c.txt", "new/u.txt"]
    );
    assert_eq!(
        git(root, &["log", "-1", "--format=%s", &id]).trim(),
        "discarded: try 2"
    );
    // Nothing staged: no second parent.
    git(root, &["reset", "-q"]);
    let plain = repo.snapshot("refs/arx/aside", "aside").unwrap();
    assert_eq!(
        git(root, &["rev-list", "--parents", "-n1", &plain])
            .split(' ')
            .count(),
        2
    );
    repo.delete_ref("refs/arx/aside").unwrap();
    assert_eq!(repo.ref_target("refs/arx/aside"), None);
    repo.delete_ref("refs/arx/aside").unwrap();
    assert!(repo.snapshot("refs/heads/main", "no").is_err());
    assert_eq!(head(root), c1);
}
