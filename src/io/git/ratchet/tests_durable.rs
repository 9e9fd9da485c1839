//! A lane's work replayed with the best's side winning, a working tree
//! following a keep path by path, and an interrupted discard finished only
//! on the files that still hold what was stored.

use super::tests::{commit_all, git, head, open, read, repo_with, status, write};
use super::Replay;

#[test]
fn a_replay_where_the_best_wins_keeps_the_rest_of_the_work() {
    let dir = repo_with(&[("a.txt", "1\n2\n3\n"), ("d.txt", "x\n")]);
    let root = dir.path();
    let base = head(root);
    git(root, &["checkout", "-q", "-b", "best"]);
    write(root, "a.txt", "one\n2\n3\n");
    git(root, &["rm", "-q", "d.txt"]);
    let best = commit_all(root, "the best");
    git(root, &["checkout", "-q", "main"]);
    assert_eq!(head(root), base);
    // The work: a conflicting line, a line of its own, a change to a file
    // the best deleted, and a new file.
    write(root, "a.txt", "uno\n2\nthree\n");
    write(root, "d.txt", "y\n");
    write(root, "e.txt", "new\n");
    let repo = open(root);
    assert!(matches!(
        repo.replay_onto(&best, "refs/arx/before").unwrap(),
        Replay::Conflicts(_)
    ));
    assert_eq!(head(root), base, "a conflict changes nothing");
    let (replay, won) = repo
        .replay_onto_best_wins(&best, "refs/arx/before")
        .unwrap();
    assert!(matches!(replay, Replay::Replayed { .. }), "{replay:?}");
    assert_eq!(won, ["a.txt", "d.txt"]);
    assert_eq!(head(root), best);
    assert_eq!(read(root, "a.txt").unwrap(), "one\n2\nthree\n");
    assert_eq!(read(root, "d.txt"), None);
    assert_eq!(read(root, "e.txt").unwrap(), "new\n");
    // The work as it was is stored.
    assert_eq!(
        git(root, &["show", "refs/arx/before:a.txt"]),
        "uno\n2\nthree\n"
    );
    assert_eq!(git(root, &["show", "refs/arx/before:d.txt"]), "y\n");
}

#[test]
fn a_working_tree_follows_a_keep_around_its_own_changes() {
    let dir = repo_with(&[("a.txt", "1\n"), ("b.txt", "1\n")]);
    let root = dir.path();
    let kept = head(root);
    write(root, "a.txt", "2\n");
    write(root, "b.txt", "2\n");
    write(root, "n.txt", "new\n");
    let keep = commit_all(root, "the keep");
    // The branch moved under a working tree still at `kept`, with a change
    // of its own to b.txt.
    git(root, &["reset", "-q", "--hard", &kept]);
    git(root, &["reset", "-q", "--soft", &keep]);
    git(root, &["reset", "-q", &kept, "--", "."]);
    write(root, "b.txt", "mine\n");
    let repo = open(root);
    let left = repo.follow_keep(&kept, &keep).unwrap();
    assert_eq!(left, ["b.txt"]);
    assert_eq!(read(root, "a.txt").unwrap(), "2\n");
    assert_eq!(read(root, "b.txt").unwrap(), "mine\n");
    assert_eq!(read(root, "n.txt").unwrap(), "new\n");
    assert_eq!(git(root, &["diff", "--cached", "--name-only"]), "");
    assert_eq!(status(root), " M b.txt\n");
    // Again: nothing more to do.
    assert_eq!(repo.follow_keep(&kept, &keep).unwrap(), ["b.txt"]);
}

#[test]
fn finishing_a_discard_moves_only_what_was_stored() {
    let dir = repo_with(&[("a.txt", "1\n"), ("b.txt", "1\n")]);
    let root = dir.path();
    let kept = head(root);
    write(root, "a.txt", "candidate\n");
    write(root, "b.txt", "candidate\n");
    write(root, "new.txt", "candidate\n");
    let repo = open(root);
    let snapshot = repo.snapshot("refs/arx/discarded/r", "discarded").unwrap();
    // New work since: a.txt changed again, a new file.
    write(root, "a.txt", "new work\n");
    write(root, "more.txt", "new work\n");
    let f = repo.finish_discard(&kept, &snapshot).unwrap();
    assert!(!f.branch_moved);
    assert_eq!(f.left, ["a.txt"]);
    assert_eq!(f.restored.restored, ["b.txt"]);
    assert_eq!(f.restored.removed, ["new.txt"]);
    assert_eq!(read(root, "a.txt").unwrap(), "new work\n");
    assert_eq!(read(root, "b.txt").unwrap(), "1\n");
    assert_eq!(read(root, "more.txt").unwrap(), "new work\n");
    assert_eq!(read(root, "new.txt"), None);
    // Finished already: nothing more to do, nothing else left.
    let again = repo.finish_discard(&kept, &snapshot).unwrap();
    assert_eq!(again.left, ["a.txt"]);
    assert!(again.restored.restored.is_empty() && again.restored.removed.is_empty());
    // The branch moved since the snapshot: nothing is put back.
    write(root, "b.txt", "candidate\n");
    commit_all(root, "by hand");
    let moved = repo.finish_discard(&kept, &snapshot).unwrap();
    assert!(moved.branch_moved);
    assert_eq!(read(root, "b.txt").unwrap(), "candidate\n");
}
