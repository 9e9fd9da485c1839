//! Restores (discards), applying a set-aside candidate and putting one back,
//! on real repositories.

use std::path::Path;

use super::tests::{
    commit_all, files, git, head, read, repo_with, show, status, tree_files, write,
};
use super::*;
use crate::error::Hinted;

/// The layout the discard tests share, with the state directory at
/// `state` (tracked in git or not).
struct Discard {
    dir: tempfile::TempDir,
    kept: String,
    state_file: String,
}

/// Kept: a.txt, b.txt, dir/c.txt, tool.sh (executable), .gitignore (*.log,
/// cache/). The candidate: a commit changing b.txt, adding committed.txt
/// and deleting dir/c.txt; then a.txt modified, s.txt staged, untracked
/// new/deep/u.txt and a symlink, tool.sh made plain. Ignored files and the
/// state directory change too.
fn discard_layout(state: &str, tracked: bool) -> Discard {
    let state_file = format!("{state}/journal.jsonl");
    let mut base = vec![
        ("a.txt", "a\n"),
        ("b.txt", "b\n"),
        ("dir/c.txt", "c\n"),
        ("tool.sh", "#!/bin/sh\n"),
        (".gitignore", "*.log\ncache/\n"),
    ];
    if tracked {
        base.push((&state_file, "1\n"));
    }
    let dir = repo_with(&base);
    let root = dir.path();
    git(root, &["update-index", "--chmod=+x", "tool.sh"]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root.join("tool.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let kept = commit_all(root, "tool.sh is executable");
    write(root, &state_file, "1\n2\n");
    write(root, "b.txt", "b by the agent\n");
    write(root, "committed.txt", "committed by the agent\n");
    std::fs::remove_file(root.join("dir/c.txt")).unwrap();
    git(root, &["add", "-A", "--", ".", &format!(":!{state}")]);
    git(root, &["commit", "-q", "-m", "agent"]);
    write(root, "a.txt", "a, modified\n");
    write(root, "s.txt", "staged\n");
    git(root, &["add", "s.txt"]);
    write(root, "new/deep/u.txt", "untracked\n");
    std::os::unix::fs::symlink("a.txt", root.join("new/link")).unwrap();
    std::fs::set_permissions(root.join("tool.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
    write(root, "build.log", "ignored\n");
    write(root, "cache/blob.bin", "ignored too\n");
    write(root, &state_file, "1\n2\n3\n");
    write(root, &format!("{state}/runs/r1.json"), "{}\n");
    Discard {
        dir,
        kept,
        state_file,
    }
}

#[test]
fn discard_restores_the_kept_commit_and_keeps_ignored_files_and_the_state() {
    for (state, tracked) in [
        (".arx", false),
        (".arx", true),
        ("arxstate", false),
        ("arxstate", true),
    ] {
        let case = format!("state {state}, tracked {tracked}");
        let Discard {
            dir,
            kept,
            state_file,
        } = discard_layout(state, tracked);
        let root = dir.path();
        let repo = RatchetRepo::open(root, Path::new(state)).unwrap();
        let candidate = repo.candidate(&kept).unwrap();
        assert_eq!(
            candidate.paths,
            [
                "a.txt",
                "b.txt",
                "committed.txt",
                "dir/c.txt",
                "new/deep/u.txt",
                "new/link",
                "s.txt",
                "tool.sh"
            ],
            "{case}"
        );
        let agent_head = head(root);
        let id = repo
            .snapshot("refs/arx/discarded/run-7", "discarded")
            .unwrap();
        let restored = repo.restore_to(&kept).unwrap();
        assert_eq!(
            restored.restored,
            ["a.txt", "b.txt", "dir/c.txt", "tool.sh"],
            "{case}"
        );
        assert_eq!(
            restored.removed,
            ["committed.txt", "new/deep/u.txt", "new/link", "s.txt"],
            "{case}"
        );
        assert_eq!(head(root), kept, "{case}: the branch is back");
        let now = files(root);
        let mut expected: Vec<(String, String)> = [
            (".gitignore", "*.log\ncache/\n"),
            ("a.txt", "a\n"),
            ("b.txt", "b\n"),
            ("build.log", "ignored\n"),
            ("cache/", ""),
            ("cache/blob.bin", "ignored too\n"),
            ("dir/", ""),
            ("dir/c.txt", "c\n"),
            ("tool.sh", "#!/bin/sh\n (x)"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        expected.extend([
            (format!("{state}/"), String::new()),
            (state_file.clone(), "1\n2\n3\n".to_string()),
            (format!("{state}/runs/"), String::new()),
            (format!("{state}/runs/r1.json"), "{}\n".to_string()),
        ]);
        expected.sort();
        assert_eq!(now.into_iter().collect::<Vec<_>>(), expected, "{case}");
        // Nothing left to see but the state directory, and the index
        // matches the kept commit outside it.
        let st = status(root);
        let outside: Vec<&str> = st.lines().filter(|l| !l[3..].starts_with(state)).collect();
        assert!(outside.is_empty(), "{case}: {st}");
        let diff = git(root, &["diff", "--cached", "--name-only", &kept]);
        assert!(
            diff.lines().all(|l| l.starts_with(state)),
            "{case}: the index differs from kept: {diff}"
        );
        // The snapshot holds the whole candidate, untracked files included,
        // and nothing ignored or of the state directory's changes.
        assert_eq!(
            git(root, &["rev-parse", &format!("{id}^1")]).trim(),
            agent_head
        );
        let mut stored = vec![
            ".gitignore",
            "a.txt",
            "b.txt",
            "committed.txt",
            "new/deep/u.txt",
            "new/link",
            "s.txt",
            "tool.sh",
        ];
        if tracked {
            stored.push(state_file.as_str());
            stored.sort();
        }
        assert_eq!(tree_files(root, &id), stored, "{case}");
        assert_eq!(show(root, &format!("{id}:a.txt")), "a, modified\n");
        assert_eq!(show(root, &format!("{id}:new/deep/u.txt")), "untracked\n");
        assert_eq!(show(root, &format!("{id}:new/link")), "a.txt");
        if tracked {
            assert_eq!(show(root, &format!("{id}:{state_file}")), "1\n", "{case}");
        }
        let modes = git(root, &["ls-tree", &id, "tool.sh", "new/link"]);
        assert!(modes.contains("100644 blob"), "{modes}");
        assert!(modes.contains("120000 blob"), "{modes}");
    }
}

/// Files (not directories: git does not record empty ones), index (as
/// `git ls-files -s`), HEAD and status of a repository.
fn observe(root: &Path) -> (Vec<(String, String)>, String, String, String) {
    (
        files(root)
            .into_iter()
            .filter(|(path, _)| !path.ends_with('/'))
            .collect(),
        git(root, &["ls-files", "-s"]),
        head(root),
        status(root),
    )
}

#[test]
fn restore_finishes_after_being_stopped_at_any_step_and_is_idempotent() {
    // The outcome of an uninterrupted restore.
    let reference = discard_layout(".arx", false);
    let repo = RatchetRepo::open(reference.dir.path(), Path::new(".arx")).unwrap();
    let mut steps = 0;
    repo.restore_to_with(&reference.kept, &mut |_| {
        steps += 1;
        Ok(())
    })
    .unwrap();
    let expected = observe(reference.dir.path());
    // 8 paths, the index, the branch.
    assert_eq!(steps, 10);
    // Running it again changes nothing and reports nothing.
    assert_eq!(
        repo.restore_to(&reference.kept).unwrap(),
        Restored::default()
    );
    assert_eq!(observe(reference.dir.path()), expected);
    for stop_at in 0..steps {
        let case = discard_layout(".arx", false);
        let root = case.dir.path();
        let repo = RatchetRepo::open(root, Path::new(".arx")).unwrap();
        let err = repo
            .restore_to_with(&case.kept, &mut |step| {
                if step == stop_at {
                    Err(std::io::Error::other("disk full"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
        let message = format!("{err:#}");
        assert!(message.contains("disk full"), "{message}");
        assert!(
            message.contains("running it again finishes it"),
            "{message}"
        );
        if stop_at < steps - 1 {
            assert_ne!(
                head(root),
                case.kept,
                "stopped at {stop_at}: branch moved early"
            );
        }
        // A new process finishes the job.
        let again = RatchetRepo::open(root, Path::new(".arx")).unwrap();
        again.restore_to(&case.kept).unwrap();
        let (mut got, index, branch, st) = observe(root);
        let mut want = expected.0.clone();
        // The kept commit's id differs between repositories; compare paths
        // and contents, the index by path, mode and blob.
        got.sort();
        want.sort();
        assert_eq!(got, want, "stopped at {stop_at}");
        assert_eq!(index, expected.1, "stopped at {stop_at}");
        assert_eq!(branch, case.kept, "stopped at {stop_at}");
        assert_eq!(st, expected.3, "stopped at {stop_at}");
    }
}

#[test]
fn restore_keeps_the_branch_when_only_the_state_changed_and_refuses_other_branches() {
    let dir = repo_with(&[("a.txt", "a\n"), (".arx/journal.jsonl", "1\n")]);
    let root = dir.path();
    let kept = head(root);
    write(root, ".arx/journal.jsonl", "1\n2\n");
    let state_commit = commit_all(root, "journal");
    write(root, "a.txt", "changed\n");
    let repo = RatchetRepo::open(root, Path::new(".arx")).unwrap();
    let restored = repo.restore_to(&kept).unwrap();
    assert_eq!(restored.restored, ["a.txt"]);
    assert_eq!(
        head(root),
        state_commit,
        "a state-only commit is not the candidate"
    );
    assert_eq!(read(root, "a.txt").unwrap(), "a\n");
    assert_eq!(read(root, ".arx/journal.jsonl").unwrap(), "1\n2\n");
    assert_eq!(status(root), "");
    // A kept commit the branch does not descend from is refused.
    git(root, &["checkout", "-q", "-b", "side", &kept]);
    write(root, "side.txt", "side\n");
    let side = commit_all(root, "side");
    git(root, &["checkout", "-q", "main"]);
    let err = repo.restore_to(&side).unwrap_err();
    let hinted = err.downcast_ref::<Hinted>().expect("hinted");
    assert!(
        hinted.message.contains("does not descend"),
        "{}",
        hinted.message
    );
    assert_eq!(head(root), state_commit);
}

#[test]
fn apply_snapshot_refuses_a_dirty_tree_and_puts_a_discarded_candidate_back() {
    let Discard { dir, kept, .. } = discard_layout(".arx", false);
    let root = dir.path();
    let repo = RatchetRepo::open(root, Path::new(".arx")).unwrap();
    let id = repo
        .snapshot("refs/arx/discarded/run-1", "discarded")
        .unwrap();
    repo.restore_to(&kept).unwrap();
    // A dirty tree is refused, and left as it is.
    write(root, "a.txt", "someone's edit\n");
    let before = files(root);
    let err = repo.apply_snapshot("refs/arx/discarded/run-1").unwrap_err();
    let hinted = err.downcast_ref::<Hinted>().expect("hinted");
    assert!(hinted.message.contains("has changes"), "{}", hinted.message);
    assert!(hinted.message.contains("a.txt"), "{}", hinted.message);
    assert_eq!(files(root), before);
    git(root, &["checkout", "--", "a.txt"]);
    // Clean: the candidate comes back as uncommitted changes on kept.
    let written = repo.apply_snapshot("refs/arx/discarded/run-1").unwrap();
    assert_eq!(
        written,
        [
            "a.txt",
            "b.txt",
            "committed.txt",
            "dir/c.txt",
            "new/deep/u.txt",
            "new/link",
            "s.txt",
            "tool.sh"
        ]
    );
    assert_eq!(head(root), kept);
    for path in tree_files(root, &id) {
        let want = show(root, &format!("{id}:{path}"));
        let full = root.join(&path);
        let got = match std::fs::read_link(&full) {
            Ok(target) => target.display().to_string(),
            Err(_) => std::fs::read_to_string(&full).unwrap(),
        };
        assert_eq!(got, want, "{path}");
    }
    assert!(!root.join("dir/c.txt").exists());
    assert_eq!(read(root, "build.log").unwrap(), "ignored\n");
    // The same by commit id works too; a snapshot that conflicts with
    // later changes is refused.
    repo.restore_to(&kept).unwrap();
    write(root, "a.txt", "kept differently\n");
    let later = repo.keep("a later keep").unwrap();
    let err = repo.apply_snapshot(&id).unwrap_err();
    let hinted = err.downcast_ref::<Hinted>().expect("hinted");
    assert!(hinted.message.contains("a.txt"), "{}", hinted.message);
    assert_eq!(read(root, "a.txt").unwrap(), "kept differently\n");
    assert_eq!(head(root), later);
    assert_eq!(
        status(root),
        "?? .arx/journal.jsonl\n?? .arx/runs/r1.json\n"
    );
    assert!(repo.apply_snapshot("refs/arx/nothing").is_err());
}

#[test]
fn put_back_round_trips_commits_staged_unstaged_and_untracked_changes() {
    let Discard { dir, kept, .. } = discard_layout(".arx", false);
    let root = dir.path();
    // Something staged and then changed again, a staged deletion.
    write(root, "a.txt", "staged a\n");
    git(root, &["add", "a.txt"]);
    write(root, "a.txt", "staged a, changed again\n");
    git(root, &["rm", "-q", "--cached", "b.txt"]);
    let before = observe(root);
    let repo = RatchetRepo::open(root, Path::new(".arx")).unwrap();
    repo.snapshot("refs/arx/aside", "aside for a baseline")
        .unwrap();
    repo.restore_to(&kept).unwrap();
    assert_eq!(head(root), kept);
    let st = status(root);
    assert!(st.lines().all(|l| l.contains(".arx/")), "{st}");
    // The baseline runs here; then everything comes back.
    repo.put_back("refs/arx/aside").unwrap();
    assert_eq!(observe(root), before);
    assert!(before.3.contains("MM a.txt"), "{}", before.3);
    assert!(before.3.contains("D  b.txt"), "{}", before.3);
    assert!(before.3.contains("A  s.txt"), "{}", before.3);
    // With a clean tree and no commits (HEAD at the snapshot's parent).
    let clean = repo_with(&[("a.txt", "a\n")]);
    let croot = clean.path();
    write(croot, "a.txt", "dirty\n");
    write(croot, "u.txt", "new\n");
    let before = observe(croot);
    let repo = RatchetRepo::open(croot, Path::new(".arx")).unwrap();
    let kept = head(croot);
    repo.snapshot("refs/arx/aside", "aside").unwrap();
    repo.restore_to(&kept).unwrap();
    assert_eq!(status(croot), "");
    repo.put_back("refs/arx/aside").unwrap();
    assert_eq!(observe(croot), before);
}

#[test]
fn put_back_refuses_a_dirty_tree_or_a_moved_branch_and_undoes_a_failure() {
    let Discard { dir, kept, .. } = discard_layout(".arx", false);
    let root = dir.path();
    let repo = RatchetRepo::open(root, Path::new(".arx")).unwrap();
    repo.snapshot("refs/arx/aside", "aside").unwrap();
    repo.restore_to(&kept).unwrap();
    let restored = observe(root);
    // A failure at any step leaves the restored state as it was.
    let mut steps = 0;
    {
        let probe = discard_layout(".arx", false);
        let r = RatchetRepo::open(probe.dir.path(), Path::new(".arx")).unwrap();
        r.snapshot("refs/arx/aside", "aside").unwrap();
        r.restore_to(&probe.kept).unwrap();
        r.put_back_with("refs/arx/aside", &mut |_| {
            steps += 1;
            Ok(())
        })
        .unwrap();
    }
    assert_eq!(steps, 10, "8 paths, the index, the branch");
    for stop_at in 0..steps {
        let err = repo
            .put_back_with("refs/arx/aside", &mut |step| {
                if step == stop_at {
                    Err(std::io::Error::other("injected"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("nothing was changed"),
            "{err:#}"
        );
        assert_eq!(observe(root), restored, "stopped at {stop_at}");
    }
    // A dirty tree is refused.
    write(root, "a.txt", "an edit\n");
    let err = repo.put_back("refs/arx/aside").unwrap_err();
    assert!(err
        .downcast_ref::<Hinted>()
        .unwrap()
        .message
        .contains("has changes"));
    git(root, &["checkout", "--", "a.txt"]);
    // A branch that moved on is refused.
    write(root, "later.txt", "later\n");
    commit_all(root, "later");
    let moved = observe(root);
    let err = repo.put_back("refs/arx/aside").unwrap_err();
    assert!(
        err.downcast_ref::<Hinted>()
            .unwrap()
            .message
            .contains("not where the snapshot"),
        "{err:#}"
    );
    assert_eq!(observe(root), moved);
}

#[test]
fn discard_in_one_call_does_what_snapshot_then_restore_does() {
    let two = discard_layout(".arx", true);
    let one = discard_layout(".arx", true);
    let repo_two = RatchetRepo::open(two.dir.path(), Path::new(".arx")).unwrap();
    let repo_one = RatchetRepo::open(one.dir.path(), Path::new(".arx")).unwrap();
    repo_two
        .snapshot("refs/arx/discarded/r", "discarded")
        .unwrap();
    let restored_two = repo_two.restore_to(&two.kept).unwrap();
    let (id, restored_one) = repo_one
        .discard(&one.kept, "refs/arx/discarded/r", "discarded")
        .unwrap();
    assert_eq!(restored_one, restored_two);
    assert!(!restored_one.removed.is_empty());
    assert_eq!(observe(one.dir.path()), {
        let (files, index, _, status) = observe(two.dir.path());
        (files, index, one.kept.clone(), status)
    });
    let tree = |dir: &Path, spec: &str| git(dir, &["rev-parse", &format!("{spec}^{{tree}}")]);
    assert_eq!(
        tree(one.dir.path(), &id),
        tree(two.dir.path(), "refs/arx/discarded/r")
    );
    assert_eq!(repo_one.ref_target("refs/arx/discarded/r"), Some(id));
    // A kept commit the branch does not descend from: nothing is stored.
    let err = repo_one
        .discard("refs/arx/discarded/r", "refs/arx/other", "x")
        .unwrap_err();
    assert!(format!("{err:#}").contains("does not descend"), "{err:#}");
    assert_eq!(repo_one.ref_target("refs/arx/other"), None);
}
