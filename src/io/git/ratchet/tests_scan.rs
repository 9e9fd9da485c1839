//! The two-pass scan against libgit2's full status, on a repository whose
//! index stat data is current (so unchanged files are settled by `stat`
//! alone, as in a repository that has lived a while).

use std::path::Path;

use git2::StatusOptions;

use super::tests::{git, repo_with, write};
use super::*;

/// libgit2's full status, filtered as the scan filters it.
fn full_status(repo: &RatchetRepo) -> Vec<(String, Status)> {
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .exclude_submodules(true);
    let statuses = repo.repo.statuses(Some(&mut opts)).unwrap();
    let mut out: Vec<(String, Status)> = statuses
        .iter()
        .map(|e| (e.path().unwrap().to_string(), e.status()))
        .filter(|(p, _)| !p.ends_with('/') && !repo.in_state(p))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn scanned(repo: &RatchetRepo) -> Vec<(String, Status)> {
    repo.scan()
        .unwrap()
        .into_iter()
        .map(|c| (c.path, c.status))
        .collect()
}

/// Every file's modification time set `seconds` into the past, then the
/// index refreshed: its stat data is current and not racy.
fn age_and_refresh(root: &Path, seconds: i64) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds as u64);
    fn walk(dir: &Path, then: std::time::SystemTime) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap() == ".git" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                walk(&path, then);
            } else if meta.is_file() {
                let f = std::fs::File::options().write(true).open(&path).unwrap();
                f.set_modified(then).unwrap();
            }
        }
    }
    walk(root, then);
    git(root, &["update-index", "-q", "--really-refresh"]);
}

#[test]
fn the_scan_finds_what_a_full_status_finds_without_reading_unchanged_files() {
    let mut base: Vec<(String, String)> = (0..40)
        .map(|i| (format!("clean/d{}/f{i}.txt", i % 4), format!("file {i}\n")))
        .collect();
    for (path, text) in [
        ("a.txt", "a\n"),
        ("same-size.txt", "12345\n"),
        ("gone.txt", "gone\n"),
        ("staged.txt", "staged\n"),
        ("unstaged-rm.txt", "x\n"),
        ("assumed.txt", "assumed\n"),
        ("tool.sh", "#!/bin/sh\n"),
        ("becomes-dir", "file\n"),
        ("dir-becomes-file/x.txt", "x\n"),
        ("dir-goes/a.txt", "a\n"),
        ("dir-goes/deeper/b.txt", "b\n"),
        (".gitignore", "*.log\nbuild/\n"),
        (".arx/journal.jsonl", "1\n"),
    ] {
        base.push((path.to_string(), text.to_string()));
    }
    let refs: Vec<(&str, &str)> = base.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = repo_with(&refs);
    let root = dir.path();
    std::os::unix::fs::symlink("a.txt", root.join("link")).unwrap();
    git(root, &["add", "link"]);
    git(root, &["commit", "-q", "-m", "link"]);
    age_and_refresh(root, 100);
    let repo = open_with_state(root);
    // Clean: nothing, and no file is even a suspect.
    assert_eq!(scanned(&repo), []);
    assert_eq!(repo.suspects().unwrap(), Some(Vec::new()));

    write(root, "a.txt", "a changed\n");
    write(root, "same-size.txt", "54321\n");
    std::fs::remove_file(root.join("gone.txt")).unwrap();
    write(root, "staged.txt", "staged, new\n");
    git(root, &["add", "staged.txt"]);
    git(root, &["rm", "-q", "--cached", "unstaged-rm.txt"]);
    git(root, &["update-index", "--assume-unchanged", "assumed.txt"]);
    write(root, "assumed.txt", "changed behind git's back\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root.join("tool.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_file(root.join("becomes-dir")).unwrap();
    write(root, "becomes-dir/inner.txt", "inner\n");
    std::fs::remove_dir_all(root.join("dir-becomes-file")).unwrap();
    write(root, "dir-becomes-file", "now a file\n");
    std::fs::remove_dir_all(root.join("dir-goes")).unwrap();
    std::fs::remove_file(root.join("link")).unwrap();
    std::os::unix::fs::symlink("same-size.txt", root.join("link")).unwrap();
    write(
        root,
        "clean/d1/new.txt",
        "untracked in a tracked directory\n",
    );
    write(root, "fresh/deep/er/u.txt", "untracked directory\n");
    write(root, "fresh/deep/skip.log", "ignored inside it\n");
    write(
        root,
        "only-ignored/x.log",
        "an untracked directory of ignored files\n",
    );
    write(root, "run.log", "ignored\n");
    write(root, "build/out.bin", "ignored directory\n");
    write(root, ".arx/journal.jsonl", "1\n2\n");
    write(root, ".arx/new.json", "{}\n");

    let full = full_status(&repo);
    assert_eq!(scanned(&repo), full);
    let paths: Vec<&str> = full.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "a.txt",
            "becomes-dir",
            "becomes-dir/inner.txt",
            "clean/d1/new.txt",
            "dir-becomes-file",
            "dir-becomes-file/x.txt",
            "dir-goes/a.txt",
            "dir-goes/deeper/b.txt",
            "fresh/deep/er/u.txt",
            "gone.txt",
            "link",
            "same-size.txt",
            "staged.txt",
            "tool.sh",
            "unstaged-rm.txt",
        ]
    );
    // The unchanged files were settled by their stat data alone.
    let suspects = repo.suspects().unwrap().unwrap();
    assert!(
        suspects.iter().all(|p| !p.starts_with("clean/d0")),
        "{suspects:?}"
    );
    assert!(!suspects.contains(&"assumed.txt".to_string()));
    assert!(!suspects.iter().any(|p| p.starts_with(".arx")));
    assert!(!suspects.iter().any(|p| p.starts_with("build")));
}

#[test]
fn the_scan_falls_back_to_a_full_status_when_everything_changed() {
    let files: Vec<(String, String)> = (0..(super::scan::MAX_SUSPECTS + 10))
        .map(|i| (format!("d{}/f{i}.txt", i % 50), "x\n".to_string()))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = repo_with(&refs);
    let root = dir.path();
    age_and_refresh(root, 100);
    for (path, _) in &files {
        write(root, path, "y\n");
    }
    let repo = open_with_state(root);
    assert_eq!(repo.suspects().unwrap(), None);
    let scan = scanned(&repo);
    assert_eq!(scan.len(), files.len());
    assert_eq!(scan, full_status(&repo));
}

fn open_with_state(root: &Path) -> RatchetRepo {
    RatchetRepo::open(root, Path::new(".arx")).unwrap()
}
