//! Git LFS (Debian's `git-lfs`): a candidate's file tracked by LFS is kept
//! as its pointer, as `git add` stores it, and a discard writes the real
//! content back, as `git checkout` does.

use std::path::Path;
use std::process::Command;

use libtest_mimic::{Failed, Trial};

use crate::needs;

const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 3)) in 0) j=0;; 1) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"m\": %.6f}\n", v + j }'
"#;

pub fn trials() -> Vec<Trial> {
    vec![
        needs::trial(
            "lfs::keep_commits_the_pointer_and_discard_writes_the_content",
            needs::git_lfs,
            |_| keep_and_discard(),
        ),
        needs::trial(
            "lfs::the_main_working_tree_follows_a_lanes_keep_of_an_lfs_file",
            needs::git_lfs,
            |_| lane_keep(),
        ),
    ]
}

fn git(dir: &Path, args: &[&str]) -> Result<String, Failed> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", dir.join(".home"))
        .output()
        .map_err(|e| Failed::from(format!("git: {e}")))?;
    if !out.status.success() {
        return Err(format!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn arx_try(dir: &Path, args: &[&str]) -> Result<(i32, String), Failed> {
    let out = Command::new(needs::arx())
        .args(["--json", "try"])
        .args(args)
        .current_dir(dir)
        .env("HOME", dir.join(".home"))
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| Failed::from(format!("arx: {e}")))?;
    Ok((
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    ))
}

fn keep_and_discard() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().map_err(|e| Failed::from(e.to_string()))?;
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join(".home")).map_err(|e| Failed::from(e.to_string()))?;
    git(dir, &["init", "-q", "-b", "main"])?;
    git(dir, &["config", "user.email", "t@example.com"])?;
    git(dir, &["config", "user.name", "T"])?;
    git(dir, &["lfs", "install", "--local"])?;
    git(dir, &["lfs", "track", "*.bin"])?;
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes);
    write("score.sh", SCORE.as_bytes()).map_err(|e| Failed::from(e.to_string()))?;
    write("value.txt", b"1.0").map_err(|e| Failed::from(e.to_string()))?;
    write(".gitignore", b".noise\n.home/\n").map_err(|e| Failed::from(e.to_string()))?;
    write("weights.bin", &[1u8; 4096]).map_err(|e| Failed::from(e.to_string()))?;
    write(
        "arx.toml",
        b"[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 3\n",
    )
    .map_err(|e| Failed::from(e.to_string()))?;
    git(dir, &["add", "-A"])?;
    git(dir, &["commit", "-qm", "start"])?;
    let (code, out) = arx_try(dir, &[])?;
    if code != 0 {
        return Err(format!("baseline: {out}").into());
    }
    // A keep commits the LFS pointer, not the bytes.
    write("weights.bin", &[2u8; 300 * 1024]).map_err(|e| Failed::from(e.to_string()))?;
    write("value.txt", b"0.4").map_err(|e| Failed::from(e.to_string()))?;
    let (code, out) = arx_try(dir, &["-m", "new weights"])?;
    if code != 0 {
        return Err(format!("keep: {out}").into());
    }
    let blob = git(dir, &["cat-file", "-p", "HEAD:weights.bin"])?;
    if !blob.starts_with("version https://git-lfs.github.com/spec/v1") {
        return Err(format!(
            "the keep committed the content, not the pointer: {} bytes",
            blob.len()
        )
        .into());
    }
    let status = git(dir, &["status", "--porcelain", "--", ".", ":!.arx"])?;
    if !status.is_empty() {
        return Err(format!("git status after the keep: {status}").into());
    }
    // A discard writes the content back, not the pointer.
    write("weights.bin", &[3u8; 1024]).map_err(|e| Failed::from(e.to_string()))?;
    write("value.txt", b"1.2").map_err(|e| Failed::from(e.to_string()))?;
    let (code, out) = arx_try(dir, &["-m", "worse"])?;
    if code != 1 {
        return Err(format!("discard: {out}").into());
    }
    let bytes = std::fs::read(dir.join("weights.bin")).map_err(|e| Failed::from(e.to_string()))?;
    if bytes != vec![2u8; 300 * 1024] {
        return Err(format!(
            "the discard wrote {} bytes, not the kept weights",
            bytes.len()
        )
        .into());
    }
    let status = git(dir, &["status", "--porcelain", "--", ".", ":!.arx"])?;
    if !status.is_empty() {
        return Err(format!("git status after the discard: {status}").into());
    }
    Ok(())
}

/// A lane keeps a new LFS file: the best's branch holds its pointer, and
/// the main working tree on that branch follows the keep (the file as it
/// was is the kept commit's once cleaned, not a change of its own), so
/// `git status` there stays clean.
fn lane_keep() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().map_err(|e| Failed::from(e.to_string()))?;
    let dir = &tmp.path().join("repo");
    std::fs::create_dir_all(tmp.path().join(".home")).map_err(|e| Failed::from(e.to_string()))?;
    std::fs::create_dir_all(dir).map_err(|e| Failed::from(e.to_string()))?;
    std::fs::create_dir_all(dir.join(".home")).map_err(|e| Failed::from(e.to_string()))?;
    git(dir, &["init", "-q", "-b", "main"])?;
    git(dir, &["config", "user.email", "t@example.com"])?;
    git(dir, &["config", "user.name", "T"])?;
    git(dir, &["lfs", "install", "--local"])?;
    git(dir, &["lfs", "track", "*.bin"])?;
    let write = |d: &Path, name: &str, bytes: &[u8]| {
        std::fs::write(d.join(name), bytes).map_err(|e| Failed::from(e.to_string()))
    };
    write(dir, "score.sh", SCORE.as_bytes())?;
    write(dir, "value.txt", b"1.0")?;
    write(dir, ".gitignore", b".noise\n.home/\n")?;
    write(dir, "weights.bin", &[1u8; 4096])?;
    write(
        dir,
        "arx.toml",
        b"[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 3\n",
    )?;
    git(dir, &["add", "-A"])?;
    git(dir, &["commit", "-qm", "start"])?;
    let (code, out) = arx_try(dir, &[])?;
    if code != 0 {
        return Err(format!("baseline: {out}").into());
    }
    let lane = Command::new(needs::arx())
        .args(["lane", "add", "a"])
        .current_dir(dir)
        .env("HOME", dir.join(".home"))
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| Failed::from(format!("arx: {e}")))?;
    if !lane.status.success() {
        return Err(format!("lane add: {}", String::from_utf8_lossy(&lane.stderr)).into());
    }
    let a = &tmp.path().join("repo.lanes/a");
    std::fs::create_dir_all(a.join(".home")).map_err(|e| Failed::from(e.to_string()))?;
    write(a, "weights.bin", &[2u8; 4096])?;
    write(a, "value.txt", b"0.4")?;
    let (code, out) = arx_try(a, &["-m", "new weights"])?;
    if code != 0 {
        return Err(format!("keep in the lane: {out}").into());
    }
    let blob = git(dir, &["cat-file", "-p", "main:weights.bin"])?;
    if !blob.starts_with("version https://git-lfs.github.com/spec/v1") {
        return Err("the lane's keep committed the content, not the pointer".into());
    }
    let bytes = std::fs::read(dir.join("weights.bin")).map_err(|e| Failed::from(e.to_string()))?;
    if bytes != vec![2u8; 4096] {
        return Err(format!("the main working tree did not follow the keep: {out}").into());
    }
    let status = git(dir, &["status", "--porcelain", "--", ".", ":!.arx"])?;
    if !status.is_empty() {
        return Err(format!("git status in the main working tree: {status}").into());
    }
    Ok(())
}
