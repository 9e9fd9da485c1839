//! `arx lane` and `arx try` in lanes, on real git repositories: the
//! repository is `repo/` in the sandbox, so its lanes (`repo.lanes/`, beside
//! it) go when the sandbox goes. The experiment's metric is the sum of the
//! numbers in `a.txt` and `b.txt`, to be maximised.

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use serde_json::Value;

use crate::support::{json_lines, stderr, stdout_json, with_barrier, Sandbox};

/// The experiment, behind the barrier (see [`with_barrier`]): every lane
/// named in `$ARX_SYNC_WANT` starts its run before any decides, so that
/// their tries are decided at the same time.
fn score() -> String {
    with_barrier(GATED)
}

/// Run N (from 0) of a try started with `$ARX_GATE` says it started, then
/// waits until told to go; the metric is the sum of `a.txt` … `d.txt`.
const GATED: &str = r#"if [ -n "$ARX_GATE" ]; then
  n=$(ls "$ARX_GATE" | grep -c '^started')
  : > "$ARX_GATE/started.$n"
  while [ ! -e "$ARX_GATE/go.$n" ]; do sleep 0.02; done
fi
echo "__RESULT__ {\"m\": $(( $(cat a.txt) + $(cat b.txt) + $(cat c.txt) + $(cat d.txt) ))}"
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = 1
baseline_repeat = 1
rule = "strict"
"#;

struct Repo {
    sb: Sandbox,
}

impl Repo {
    fn new() -> Repo {
        let sb = Sandbox::new();
        let r = Repo { sb };
        std::fs::create_dir(r.root()).unwrap();
        r.write("score.sh", &score());
        r.write("a.txt", "1\n");
        r.write("b.txt", "1\n");
        r.write("c.txt", "1\n");
        r.write("d.txt", "1\n");
        r.write("arx.toml", CONFIG);
        r.write(".gitignore", ".arx/\n");
        r.git(&["init", "-q", "-b", "main"]);
        r.git(&["config", "user.email", "t@example.com"]);
        r.git(&["config", "user.name", "T"]);
        r.git(&["add", "-A"]);
        r.git(&["commit", "-qm", "start"]);
        r
    }

    fn root(&self) -> PathBuf {
        self.sb.path().join("repo")
    }

    fn lane(&self, name: &str) -> PathBuf {
        self.sb.path().join("repo.lanes").join(name)
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.root().join(name), text).unwrap();
    }

    fn git(&self, args: &[&str]) -> String {
        git_in(&self.root(), args)
    }

    fn arx(&self, dir: &Path, args: &[&str]) -> std::process::Output {
        self.sb.arx().current_dir(dir).args(args).output().unwrap()
    }

    /// `arx --json try` in `dir`: exit code and report.
    fn try_in(&self, dir: &Path, message: &str) -> (i32, Value) {
        let out = self.arx(dir, &["--json", "try", "-m", message]);
        let code = out.status.code().unwrap_or(-1);
        assert!(
            !out.stdout.is_empty(),
            "no report ({code}): {}",
            stderr(&out)
        );
        (code, stdout_json(&out))
    }

    /// `arx --json [PRE...] try -m MESSAGE` started in `dir` and left
    /// running, its experiment held at the barrier in `sync` until `want`
    /// lanes have started theirs (see [`score`]).
    fn spawn_try(
        &self,
        dir: &Path,
        pre: &[&std::ffi::OsStr],
        message: &str,
        sync: &Path,
        want: usize,
    ) -> std::process::Child {
        Std::new(assert_cmd::cargo::cargo_bin("arx"))
            .arg("--json")
            .args(pre)
            .args(["try", "-m", message])
            .current_dir(dir)
            .env_remove("ARX_STATE_DIR")
            .env("ARX_SYNC", sync)
            .env("ARX_SYNC_WANT", want.to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn journal(&self) -> Vec<Value> {
        json_lines(std::fs::read(self.root().join(".arx/journal.jsonl")).unwrap_or_default())
    }
}

fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Std::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn write_in(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn read_in(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_default()
}

/// Each journal record's try status and direction, in order.
fn statuses_and_directions(r: &Repo) -> Vec<(String, String)> {
    r.journal()
        .iter()
        .map(|x| {
            (
                x["ratchet"]["status"].as_str().unwrap().to_string(),
                x["ratchet"]["direction"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn status(report: &Value) -> &str {
    report["ratchet"]["status"].as_str().unwrap_or("")
}

/// A repository with its baseline measured and lanes `names` added.
fn with_lanes(names: &[&str]) -> Repo {
    let r = Repo::new();
    let (code, report) = r.try_in(&r.root(), "baseline");
    assert_eq!((code, status(&report)), (0, "baseline"), "{report}");
    let mut args = vec!["lane", "add"];
    args.extend(names);
    let out = r.arx(&r.root(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    r
}

#[test]
fn a_lane_is_a_worktree_beside_the_repository_sharing_its_state() {
    let r = with_lanes(&["a", "b"]);
    let best = r.git(&["rev-parse", "HEAD"]);
    for name in ["a", "b"] {
        let lane = r.lane(name);
        assert!(lane.join(".git").is_file(), "{}", lane.display());
        assert_eq!(git_in(&lane, &["rev-parse", "HEAD"]), best);
        assert_eq!(
            git_in(&lane, &["branch", "--show-current"]),
            format!("arx/lane/{name}")
        );
    }
    // Nothing of the lanes shows in the main working tree.
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // A try in a lane writes the main working tree's state, not its own.
    write_in(&r.lane("a"), "a.txt", "5\n");
    let (code, report) = r.try_in(&r.lane("a"), "a to 5");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert_eq!(report["ratchet"]["lane"], "a");
    assert!(!r.lane("a").join(".arx").exists());
    assert_eq!(r.journal().len(), 2);
    // The keep advanced main, and the (clean) main working tree followed.
    let keep = report["ratchet"]["commit"].as_str().unwrap().to_string();
    assert_eq!(r.git(&["rev-parse", "main"]), keep);
    assert_eq!(read_in(&r.root(), "a.txt"), "5\n");
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // The list, from anywhere.
    let out = r.arx(&r.lane("b"), &["--json", "lane", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lanes = stdout_json(&out);
    let lanes = lanes.as_array().unwrap();
    assert_eq!(lanes.len(), 2);
    assert_eq!(lanes[0]["name"], "a");
    assert_eq!(lanes[0]["behind"], 0);
    assert_eq!(lanes[0]["last_try"]["status"], "keep");
    assert_eq!(lanes[1]["name"], "b");
    assert_eq!(lanes[1]["behind"], 1);
    assert_eq!(lanes[1]["base"], best.as_str());
    assert!(lanes[1]["last_try"].is_null());
    assert_eq!(
        PathBuf::from(lanes[1]["path"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        r.lane("b").canonicalize().unwrap()
    );
}

#[test]
fn a_lane_behind_the_best_takes_it_up_before_its_try() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    // b committed its change (and someone rebased its branch meanwhile).
    write_in(&r.lane("b"), "b.txt", "3\n");
    git_in(&r.lane("b"), &["commit", "-qam", "b to 3"]);
    let (code, report) = r.try_in(&r.lane("b"), "b to 3");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let keep = report["ratchet"]["commit"].as_str().unwrap();
    // Measured on top of a's keep: 5 + 3 + 1 + 1.
    assert_eq!(report["metrics"]["m"], 10.0, "{report}");
    assert_eq!(
        git_in(&r.lane("b"), &["rev-parse", &format!("{keep}^")]),
        r.journal()[1]["ratchet"]["commit"].as_str().unwrap()
    );
    assert_eq!(r.git(&["rev-list", "--count", "main"]), "3");
}

#[test]
fn a_lane_whose_work_conflicts_with_the_best_stops_and_changes_nothing() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "a.txt", "7\n");
    let head = git_in(&r.lane("b"), &["rev-parse", "HEAD"]);
    let out = r.arx(&r.lane("b"), &["try", "-m", "a to 7"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("conflicts with the best") && err.contains("a.txt"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(read_in(&r.lane("b"), "a.txt"), "7\n");
    assert_eq!(git_in(&r.lane("b"), &["rev-parse", "HEAD"]), head);
    assert_eq!(r.journal().len(), 2);
    // `lane sync` says the same, exit 1, and changes nothing either.
    let out = r.arx(&r.root(), &["--json", "lane", "sync", "b"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let synced = stdout_json(&out);
    assert_eq!(synced["lanes"][0]["status"], "conflict");
    assert_eq!(synced["lanes"][0]["conflicts"][0], "a.txt");
    assert_eq!(read_in(&r.lane("b"), "a.txt"), "7\n");
}

#[test]
fn lane_sync_replays_the_work_onto_the_best() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "b.txt", "4\n");
    write_in(&r.lane("b"), "new.txt", "untracked\n");
    let out = r.arx(&r.lane("b"), &["--json", "lane", "sync"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["lanes"][0]["status"], "synced");
    assert_eq!(
        git_in(&r.lane("b"), &["rev-parse", "HEAD"]),
        r.git(&["rev-parse", "main"])
    );
    assert_eq!(read_in(&r.lane("b"), "a.txt"), "5\n");
    assert_eq!(read_in(&r.lane("b"), "b.txt"), "4\n");
    assert_eq!(read_in(&r.lane("b"), "new.txt"), "untracked\n");
    // Unstaged and untracked, as the work was.
    assert_eq!(
        git_in(&r.lane("b"), &["status", "--porcelain"]),
        "M b.txt\n?? new.txt"
    );
    assert_eq!(
        git_in(&r.lane("b"), &["diff", "--cached", "--name-only"]),
        ""
    );
    // Again: nothing to do.
    let out = r.arx(&r.lane("b"), &["--json", "lane", "sync"]);
    assert_eq!(stdout_json(&out)["lanes"][0]["status"], "already");
}

#[test]
fn a_winner_that_no_longer_applies_to_the_new_best_is_stale_and_restorable() {
    let r = with_lanes(&["a", "b"]);
    let sync = r.sb.path().join("sync");
    std::fs::create_dir(&sync).unwrap();
    // Both change a.txt, both run at once; one keeps, the other is stale.
    write_in(&r.lane("a"), "a.txt", "5\n");
    write_in(&r.lane("b"), "a.txt", "6\n");
    let spawn = |lane: &str| r.spawn_try(&r.lane(lane), &[], &format!("{lane}'s a.txt"), &sync, 2);
    let (a, b) = (spawn("a"), spawn("b"));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let mut seen: Vec<(i32, String)> = [&a, &b]
        .iter()
        .map(|o| {
            (
                o.status.code().unwrap_or(-1),
                status(&stdout_json(*o)).to_string(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![(0, "keep".to_string()), (1, "stale".to_string())],
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    let journal = r.journal();
    let stale = journal
        .iter()
        .find(|x| x["ratchet"]["status"] == "stale")
        .unwrap();
    let keep = journal
        .iter()
        .find(|x| x["ratchet"]["status"] == "keep")
        .unwrap();
    // Measured against the old best; set aside; its lane now at the new one.
    assert_eq!(stale["ratchet"]["kept"], journal[0]["ratchet"]["commit"]);
    let refname = stale["ratchet"]["discarded_ref"].as_str().unwrap();
    let lane = stale["ratchet"]["lane"].as_str().unwrap();
    let winner = keep["ratchet"]["commit"].as_str().unwrap();
    assert_eq!(git_in(&r.lane(lane), &["rev-parse", "HEAD"]), winner);
    assert_eq!(git_in(&r.lane(lane), &["status", "--porcelain"]), "");
    let stored = git_in(&r.root(), &["show", &format!("{refname}:a.txt")]);
    assert!(stored == "5" || stored == "6", "{stored}");
    assert_ne!(stored, read_in(&r.root(), "a.txt").trim());
}

/// `lanes` lanes (each with its own file) decide at the same instant,
/// `rounds` times, every candidate a win: each keep is a compare-and-swap
/// of the best, so the best's branch stays linear, each keep's `kept` is
/// its commit's parent, and no keep is lost. Returns the keeps' records.
fn race(lanes: &[(&str, &str)], rounds: usize) -> Vec<Value> {
    let names: Vec<&str> = lanes.iter().map(|(l, _)| *l).collect();
    let r = with_lanes(&names);
    for i in 0..rounds {
        let sync = r.sb.path().join(format!("sync{i}"));
        std::fs::create_dir(&sync).unwrap();
        let mut children = Vec::new();
        for (lane, file) in lanes {
            let dir = r.lane(lane);
            let now: i64 = read_in(&dir, file).trim().parse().unwrap();
            write_in(&dir, file, &format!("{}\n", now + 1));
            children.push(r.spawn_try(&dir, &[], &format!("{lane} {i}"), &sync, lanes.len()));
        }
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(
                (out.status.code(), status(&stdout_json(&out)).to_string()),
                (Some(0), "keep".to_string()),
                "round {i}: {}",
                stderr(&out)
            );
        }
    }
    let journal = r.journal();
    let keeps: Vec<Value> = journal
        .into_iter()
        .filter(|x| x["ratchet"]["status"] == "keep")
        .collect();
    assert_eq!(keeps.len(), lanes.len() * rounds, "a keep was lost");
    for k in &keeps {
        let commit = k["ratchet"]["commit"].as_str().unwrap();
        assert_eq!(
            r.git(&["rev-parse", &format!("{commit}^")]),
            k["ratchet"]["kept"].as_str().unwrap(),
            "{k}"
        );
    }
    // Linear: no merges, and every keep is on main's first-parent line.
    assert_eq!(r.git(&["rev-list", "--merges", "main"]), "");
    let line = r.git(&["rev-list", "--first-parent", "main"]);
    assert_eq!(line.lines().count(), 1 + lanes.len() * rounds);
    assert_eq!(
        line.lines().next().unwrap(),
        keeps.last().unwrap()["ratchet"]["commit"].as_str().unwrap()
    );
    // Every lane's work is all in the best.
    let expected = format!("{}\n", 1 + rounds);
    for (_, file) in lanes {
        assert_eq!(read_in(&r.root(), file), expected, "{file}");
    }
    keeps
}

/// How many times each keep was replayed onto a newer best, sorted.
fn replays(keeps: &[Value]) -> Vec<usize> {
    let mut n: Vec<usize> = keeps
        .iter()
        .map(|k| k["ratchet"]["replayed_from"].as_array().map_or(0, Vec::len))
        .collect();
    n.sort();
    n
}

/// Two lanes keep at the same instant, 50 times.
#[test]
fn two_lanes_keeping_at_once_never_fork_or_lose_the_best() {
    let keeps = race(&[("a", "a.txt"), ("b", "b.txt")], 50);
    // In every round, one of the two found the best moved and was replayed.
    let mut expected = vec![0; 50];
    expected.extend(vec![1; 50]);
    assert_eq!(replays(&keeps), expected);
}

/// Three lanes win at once, 8 times: in each round one keeps, one is
/// replayed once and one twice (the second time measured with the best
/// reserved), and still nothing forks or is lost.
#[test]
fn three_lanes_winning_at_once_are_replayed_in_turn() {
    let rounds = 8;
    let keeps = race(&[("a", "a.txt"), ("b", "b.txt"), ("c", "c.txt")], rounds);
    let mut expected = Vec::new();
    for n in 0..3 {
        expected.extend(vec![n; rounds]);
    }
    assert_eq!(replays(&keeps), expected);
}

#[test]
fn the_main_working_tree_refuses_tries_while_lanes_keep_on_its_branch() {
    let r = with_lanes(&["a"]);
    r.write("a.txt", "9\n");
    let out = r.arx(&r.root(), &["try", "-m", "in main"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("lanes keep on main") && err.contains("arx lane"),
        "{err}"
    );
    assert_eq!(r.journal().len(), 1);
    assert_eq!(read_in(&r.root(), "a.txt"), "9\n");
}

#[test]
fn lane_rm_refuses_unsaved_work_unless_forced_and_cleans_up_a_deleted_lane() {
    let r = with_lanes(&["a", "b", "c"]);
    // Unsaved work: refused, nothing removed.
    write_in(&r.lane("a"), "b.txt", "7\n");
    let out = r.arx(&r.root(), &["lane", "rm", "a"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unsaved work") && err.contains("--force"),
        "{err}"
    );
    assert!(r.lane("a").exists());
    // --force stores it first.
    let out = r.arx(&r.root(), &["--json", "lane", "rm", "a", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = stdout_json(&out)["saved"].as_str().unwrap().to_string();
    assert!(saved.starts_with("refs/arx/discarded/lane-a-"), "{saved}");
    assert_eq!(r.git(&["show", &format!("{saved}:b.txt")]), "7");
    assert!(!r.lane("a").exists());
    assert_eq!(r.git(&["branch", "--list", "arx/lane/a"]), "");
    // A clean lane goes without --force.
    let out = r.arx(&r.root(), &["lane", "rm", "c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A lane whose directory was deleted by hand: listed as missing,
    // and rm cleans up after it.
    std::fs::remove_dir_all(r.lane("b")).unwrap();
    let out = r.arx(&r.root(), &["--json", "lane", "list"]);
    let listed = stdout_json(&out);
    assert_eq!(listed[0]["name"], "b");
    assert_eq!(listed[0]["exists"], false);
    let out = r.arx(&r.root(), &["lane", "list"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("missing: arx lane rm b cleans up"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = r.arx(&r.root(), &["lane", "rm", "b"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(r.git(&["worktree", "list"]).lines().count(), 1);
    assert_eq!(r.git(&["branch", "--list", "arx/lane/*"]), "");
    let out = r.arx(&r.root(), &["--json", "lane", "list"]);
    assert_eq!(stdout_json(&out), serde_json::json!([]));
    // Bad input.
    for (args, needle) in [
        (vec!["lane", "add", "../x"], "invalid lane name"),
        (vec!["lane", "add", "x", "x"], "named twice"),
        (vec!["lane", "rm", "nope"], "there is no lane nope"),
        (
            vec!["lane", "add", "d", "--dir", "inside"],
            "inside the repository",
        ),
    ] {
        let out = r.arx(&r.root(), &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle) && err.contains("hint:"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_dry_run_in_a_lane_behind_the_best_says_it_would_take_it_up_and_changes_nothing() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "b.txt", "3\n");
    let head = git_in(&r.lane("b"), &["rev-parse", "HEAD"]);
    let out = r.arx(&r.lane("b"), &["--json", "try", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dry = stdout_json(&out);
    let would = dry["would"][0].as_str().unwrap();
    assert!(would.starts_with("take up the best"), "{dry}");
    assert_eq!(dry["paths"], serde_json::json!(["b.txt"]), "{dry}");
    assert_eq!(git_in(&r.lane("b"), &["rev-parse", "HEAD"]), head);
    assert_eq!(read_in(&r.lane("b"), "b.txt"), "3\n");
}

#[test]
fn a_lane_rebased_by_hand_onto_the_best_tries_as_usual() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "b.txt", "3\n");
    git_in(&r.lane("b"), &["commit", "-qam", "b to 3"]);
    git_in(&r.lane("b"), &["rebase", "-q", "main"]);
    let (code, report) = r.try_in(&r.lane("b"), "b to 3");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let keep = report["ratchet"]["commit"].as_str().unwrap();
    assert_eq!(
        r.git(&["rev-parse", &format!("{keep}^")]),
        report["ratchet"]["kept"].as_str().unwrap()
    );
    assert!(report["ratchet"].get("replayed_from").is_none(), "{report}");
    assert_eq!(r.git(&["rev-parse", "main"]), keep);
}

/// Four lanes win at once, 5 times: a candidate may find the best moved
/// again while it is replayed, and is replayed again; still nothing forks
/// or is lost, and every lane's candidates are all kept.
#[test]
fn four_lanes_winning_at_once_all_keep_in_turn() {
    let keeps = race(
        &[
            ("a", "a.txt"),
            ("b", "b.txt"),
            ("c", "c.txt"),
            ("d", "d.txt"),
        ],
        5,
    );
    assert_eq!(keeps.len(), 20);
    assert!(
        replays(&keeps).iter().all(|n| *n <= 3),
        "{:?}",
        replays(&keeps)
    );
}

/// A candidate still being measured, and leading, when another lane keeps
/// is replayed onto the new best at once: no decision against a best that
/// is gone, and no runs spent finishing one.
#[test]
fn a_leading_candidate_is_replayed_as_soon_as_the_best_moves() {
    let r = with_lanes(&["a", "b"]);
    // Lane a's tries take two runs (the same objective otherwise).
    let config = r.sb.path().join("two-runs.toml");
    std::fs::write(&config, CONFIG.replace("\nrepeat = 1\n", "\nrepeat = 2\n")).unwrap();
    let sync = r.sb.path().join("sync");
    std::fs::create_dir(&sync).unwrap();
    write_in(&r.lane("a"), "a.txt", "5\n");
    let pre = ["--config".as_ref(), config.as_os_str()];
    let a = r.spawn_try(&r.lane("a"), &pre, "a wins", &sync, 2);
    // a's first run has started (and waits): b keeps meanwhile.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while std::fs::read_dir(&sync).unwrap().count() == 0 {
        assert!(std::time::Instant::now() < until, "a's run never started");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    write_in(&r.lane("b"), "b.txt", "2\n");
    let (code, report) = r.try_in(&r.lane("b"), "b wins");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    std::fs::write(sync.join("go"), "").unwrap();
    let out = a.wait_with_output().unwrap();
    let report = stdout_json(&out);
    assert_eq!(
        (out.status.code(), status(&report)),
        (Some(0), "keep"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("the candidate leads after 1 run and the best moved"),
        "{}",
        stderr(&out)
    );
    // One run against the old best, then measured from nothing on the new.
    let journal = r.journal();
    let keep = journal.last().unwrap();
    let first_best = journal[0]["ratchet"]["commit"].as_str().unwrap();
    assert_eq!(
        keep["ratchet"]["replayed_from"],
        serde_json::json!([first_best])
    );
    let b_keep = &journal[journal.len() - 2];
    assert_eq!(keep["ratchet"]["kept"], b_keep["ratchet"]["commit"]);
    let runs = keep["attempts"].as_array().map_or(1, Vec::len);
    let on_new = keep["samples"].as_array().map_or(1, Vec::len);
    assert_eq!(runs, 1 + on_new, "{keep}");
    // Both lanes' work is in the best.
    assert_eq!(read_in(&r.root(), "a.txt"), "5\n");
    assert_eq!(read_in(&r.root(), "b.txt"), "2\n");
}

/// Two lanes on two slots that differ: slot "1" reads 5 higher. Neither
/// lane's change changes anything, and neither is kept: the lane that ran
/// on slot "1" first measured the best there (a `remeasure` of its lane,
/// every run on slot "1") and was compared with that.
#[test]
fn lanes_on_slots_that_differ_compare_on_their_own_slot() {
    let r = Repo::new();
    r.write(
        "score.sh",
        &with_barrier(
            "b=0; [ \"$SLOT\" = 1 ] && b=5\n\
             n=$(cat .noise 2>/dev/null || echo 0); echo $((n + 1)) > .noise\n\
             echo \"__RESULT__ {\\\"m\\\": $(( ($(cat a.txt) + b) * 1000 + n % 3 ))}\"\n",
        ),
    );
    r.write(
        "arx.toml",
        &CONFIG
            .replace("baseline_repeat = 1\n", "baseline_repeat = 3\n")
            .replace(
                "rule = \"strict\"\n",
                "slots = [\"0\", \"1\"]\nslot_env = \"SLOT\"\n",
            ),
    );
    r.write(".gitignore", ".arx/\n.noise\n");
    r.git(&["add", "-A"]);
    r.git(&["commit", "-qm", "slots"]);
    let (code, report) = r.try_in(&r.root(), "baseline");
    assert_eq!((code, status(&report)), (0, "baseline"), "{report}");
    let out = r.arx(&r.root(), &["lane", "add", "a", "b"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sync = r.sb.path().join("sync");
    std::fs::create_dir(&sync).unwrap();
    let mut tries = Vec::new();
    for lane in ["a", "b"] {
        write_in(&r.lane(lane), "notes.txt", "nothing that matters\n");
        tries.push(r.spawn_try(&r.lane(lane), &[], "no real change", &sync, 2));
    }
    for t in tries {
        let out = t.wait_with_output().unwrap();
        let report = stdout_json(&out);
        assert_eq!(status(&report), "discard", "{report}\n{}", stderr(&out));
    }
    let journal = r.journal();
    let remeasures: Vec<&Value> = journal
        .iter()
        .filter(|j| j["ratchet"]["status"] == "remeasure")
        .collect();
    assert_eq!(remeasures.len(), 1, "{journal:?}");
    let m = remeasures[0];
    assert!(
        ["a", "b"].contains(&m["ratchet"]["lane"].as_str().unwrap_or("")),
        "{m}"
    );
    assert_eq!(m["ratchet"]["kept"], journal[0]["ratchet"]["kept"]);
    for a in m["attempts"].as_array().unwrap() {
        assert_eq!(a["slot"], "1", "{m}");
    }
    // The discard on slot "1" was compared with the best there.
    let on_1 = journal
        .iter()
        .find(|j| j["ratchet"]["status"] == "discard" && j["slot"] == "1")
        .expect("a discard on slot 1");
    let best = on_1["ratchet"]["slot_best"]["value"].as_f64().unwrap();
    assert!((best - 6001.0).abs() < 2.0, "{on_1}");
}

/// The main working tree with changes of its own follows a lane's keep on
/// the paths it did not change, and keeps its own changes: nothing the
/// keep did reads as undone there, and nothing of its own is lost.
#[test]
fn a_main_tree_with_changes_of_its_own_follows_a_keep_around_them() {
    let r = with_lanes(&["a"]);
    r.write("c.txt", "1\nmine\n");
    r.write("notes.md", "my notes\n");
    write_in(&r.lane("a"), "a.txt", "5\n");
    let (code, report) = r.try_in(&r.lane("a"), "a wins");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let commit = report["ratchet"]["commit"].as_str().unwrap().to_string();
    assert_eq!(r.git(&["rev-parse", "HEAD"]), commit);
    assert_eq!(read_in(&r.root(), "a.txt"), "5\n", "the keep reached main");
    assert_eq!(read_in(&r.root(), "c.txt"), "1\nmine\n");
    assert_eq!(read_in(&r.root(), "notes.md"), "my notes\n");
    let status_lines = r.git(&["status", "--porcelain"]);
    // (trimmed: " M c.txt")
    assert_eq!(status_lines, "M c.txt\n?? notes.md", "{status_lines}");
    // A path both changed: left as main had it, and the keep says so.
    r.write("b.txt", "7\n");
    write_in(&r.lane("a"), "b.txt", "2\n");
    let (code, report) = r.try_in(&r.lane("a"), "b too");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert_eq!(read_in(&r.root(), "b.txt"), "7\n");
    let notes = report["notes"].to_string();
    assert!(notes.contains("changes of its own in b.txt"), "{report}");
}

/// `arx --json try -m MESSAGE` in `dir`, killed at the failpoint `point`
/// (`ARX_FAILPOINT`, see `io::failpoint`), as `kill -9` would.
fn try_killed_at(r: &Repo, dir: &Path, message: &str, point: &str) {
    let out =
        r.sb.arx()
            .current_dir(dir)
            .env("ARX_FAILPOINT", point)
            .args(["--json", "try", "-m", message])
            .output()
            .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        out.status.signal(),
        Some(9),
        "{point}: not killed ({:?}): {}",
        out.status.code(),
        stderr(&out)
    );
}

/// The keeps of the journal: (run id, commit, lane).
fn keeps(r: &Repo) -> Vec<(String, String, String)> {
    r.journal()
        .iter()
        .filter(|rec| rec["ratchet"]["status"] == "keep")
        .map(|rec| {
            (
                rec["run_id"].as_str().unwrap_or("").to_string(),
                rec["ratchet"]["commit"].as_str().unwrap_or("").to_string(),
                rec["ratchet"]["lane"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_keep_killed_at_any_step_is_completed_by_the_next_try_in_another_lane() {
    for point in [
        "keep:after-intent",
        "keep:after-branch",
        "keep:after-best",
        "keep:after-main",
        "keep:after-record",
    ] {
        let r = with_lanes(&["a", "b"]);
        let start = r.git(&["rev-parse", "main"]);
        write_in(&r.lane("a"), "a.txt", "5\n");
        try_killed_at(&r, &r.lane("a"), "a to 5", point);
        // Another lane's next try finishes the keep, then makes its own.
        write_in(&r.lane("b"), "b.txt", "3\n");
        let out = r.arx(&r.lane("b"), &["--json", "try", "-m", "b to 3"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{point}: {err}");
        let report = stdout_json(&out);
        assert_eq!(status(&report), "keep", "{point}: {report}\n{err}");
        if point != "keep:after-record" {
            assert!(
                err.contains("finished an interrupted keep"),
                "{point}: {err}"
            );
        }
        // The best's branch, the journal's best and the work agree; a's
        // keep is not lost and b's keep sits on it.
        let keeps = keeps(&r);
        assert_eq!(keeps.len(), 2, "{point}: {keeps:?}");
        assert_eq!(keeps[0].2, "a", "{point}");
        assert_eq!(keeps[1].2, "b", "{point}");
        let (a_keep, b_keep) = (keeps[0].1.clone(), keeps[1].1.clone());
        assert_eq!(r.git(&["rev-parse", "main"]), b_keep, "{point}");
        assert_eq!(
            r.git(&["rev-parse", &format!("{b_keep}^")]),
            a_keep,
            "{point}"
        );
        assert_eq!(
            r.git(&["rev-parse", &format!("{a_keep}^")]),
            start,
            "{point}"
        );
        assert_eq!(r.git(&["show", "main:a.txt"]), "5", "{point}");
        assert_eq!(r.git(&["show", "main:b.txt"]), "3", "{point}");
        // The main working tree followed both keeps; nothing is staged.
        assert_eq!(read_in(&r.root(), "a.txt"), "5\n", "{point}");
        assert_eq!(read_in(&r.root(), "b.txt"), "3\n", "{point}");
        assert_eq!(r.git(&["status", "--porcelain"]), "", "{point}");
        assert!(!r.root().join(".arx/ratchet-keep.json").exists(), "{point}");
        // Lane a goes on from the best: its work is in it, nothing to redo.
        write_in(&r.lane("a"), "c.txt", "2\n");
        let (code, report) = r.try_in(&r.lane("a"), "c to 2");
        assert_eq!((code, status(&report)), (0, "keep"), "{point}: {report}");
        assert_eq!(read_in(&r.lane("a"), "a.txt"), "5\n", "{point}");
        assert_eq!(read_in(&r.lane("a"), "b.txt"), "3\n", "{point}");
        let out = r.arx(&r.root(), &["journal", "verify"]);
        assert_eq!(out.status.code(), Some(0), "{point}: {}", stderr(&out));
    }
}

#[test]
fn a_main_tree_dirty_on_a_file_a_keep_changed_holds_no_staged_undo_of_it() {
    let r = with_lanes(&["a"]);
    // The main working tree has its own, unstaged change to c.txt.
    r.write("c.txt", "7\n");
    write_in(&r.lane("a"), "c.txt", "3\n");
    let (code, report) = r.try_in(&r.lane("a"), "c to 3");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let commit = report["ratchet"]["commit"].as_str().unwrap().to_string();
    assert_eq!(r.git(&["rev-parse", "HEAD"]), commit);
    assert_eq!(read_in(&r.root(), "c.txt"), "7\n", "main's change stays");
    // The index follows the keep: nothing staged, so a plain `git commit`
    // cannot revert it.
    assert_eq!(r.git(&["diff", "--cached", "--name-only"]), "");
    assert_eq!(r.git(&["status", "--porcelain"]), "M c.txt");
    assert_eq!(r.git(&["show", ":c.txt"]), "3");
}

#[test]
fn the_work_lane_rm_force_stores_is_restored_by_the_name_it_prints() {
    let r = with_lanes(&["a"]);
    write_in(&r.lane("a"), "b.txt", "7\n");
    write_in(&r.lane("a"), "notes.md", "an idea\n");
    let out = r.arx(&r.root(), &["lane", "rm", "a", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let name = text
        .split_whitespace()
        .skip_while(|w| *w != "restore")
        .nth(1)
        .unwrap_or_else(|| panic!("no restore name: {text}"))
        .to_string();
    assert!(name.starts_with("lane-a-"), "{text}");
    let out = r.arx(&r.root(), &["--json", "restore", &name]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let restored = stdout_json(&out);
    assert_eq!(
        restored["discarded_ref"],
        format!("refs/arx/discarded/{name}")
    );
    assert!(restored.get("run_id").is_none(), "{restored}");
    assert_eq!(read_in(&r.root(), "b.txt"), "7\n");
    assert_eq!(read_in(&r.root(), "notes.md"), "an idea\n");
    // A name that is neither a run nor stored work: the usual error.
    let out = r.arx(&r.root(), &["restore", "lane-zz-1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("hint:"), "{}", stderr(&out));
}

#[test]
fn a_lane_in_conflict_takes_up_the_best_with_lane_sync_theirs() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "a.txt", "7\n");
    write_in(&r.lane("b"), "b.txt", "3\n");
    let out = r.arx(&r.lane("b"), &["try", "-m", "a to 7, b to 3"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // The hint names the command, not a hand merge.
    assert!(err.contains("arx lane sync --theirs b"), "{err}");
    assert!(!err.contains("git merge"), "{err}");
    let out = r.arx(&r.lane("b"), &["--json", "lane", "sync", "--theirs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let synced = stdout_json(&out);
    let row = &synced["lanes"][0];
    assert_eq!(row["status"], "synced", "{synced}");
    assert_eq!(row["best_won"], serde_json::json!(["a.txt"]), "{synced}");
    let saved = row["saved"].as_str().unwrap().to_string();
    assert!(saved.starts_with("refs/arx/discarded/lane-b-"), "{saved}");
    // The best's side where they conflicted, the rest of the work kept;
    // the work as it was is stored.
    assert_eq!(read_in(&r.lane("b"), "a.txt"), "5\n");
    assert_eq!(read_in(&r.lane("b"), "b.txt"), "3\n");
    assert_eq!(
        git_in(&r.lane("b"), &["rev-parse", "HEAD"]),
        r.git(&["rev-parse", "main"])
    );
    assert_eq!(r.git(&["show", &format!("{saved}:a.txt")]), "7");
    let (code, report) = r.try_in(&r.lane("b"), "b to 3");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    // Without --theirs, a conflict still changes nothing.
    write_in(&r.lane("a"), "b.txt", "9\n");
    let out = r.arx(&r.lane("a"), &["lane", "sync"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("arx lane sync --theirs a"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(read_in(&r.lane("a"), "b.txt"), "9\n");
}

#[test]
fn a_keep_that_cannot_be_completed_is_rolled_back_and_its_work_kept() {
    let r = with_lanes(&["a", "b"]);
    let start = r.git(&["rev-parse", "main"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    try_killed_at(&r, &r.lane("a"), "a to 5", "keep:after-intent");
    // The best's branch is moved by hand meanwhile.
    r.git(&["commit", "-q", "--allow-empty", "-m", "by hand"]);
    let moved = r.git(&["rev-parse", "main"]);
    let out = r.arx(&r.lane("b"), &["lane", "sync"]);
    let err = stderr(&out);
    assert!(err.contains("rolled back an interrupted keep"), "{err}");
    assert!(!r.root().join(".arx/ratchet-keep.json").exists());
    // No branch holds the keep's commit (it was cut off before the first
    // moved): it is put under a ref, and the message says so.
    assert!(!err.contains("stays on its branch"), "{err}");
    let (_, held) = err.split_once("is kept under ").expect(&err);
    let held = held.split_whitespace().next().unwrap();
    assert!(held.starts_with("refs/arx/discarded/"), "{err}");
    assert_eq!(r.git(&["show", &format!("{held}:a.txt")]), "5");
    // Nothing journaled, the best's branch as it was left, and lane a's
    // work still in lane a.
    assert!(keeps(&r).is_empty());
    assert_eq!(r.git(&["rev-parse", "main"]), moved);
    assert_ne!(moved, start);
    assert_eq!(read_in(&r.lane("a"), "a.txt"), "5\n");
}

#[test]
fn a_keep_killed_part_way_is_completed_by_the_same_lanes_next_try() {
    for point in ["keep:after-intent", "keep:after-best"] {
        let r = with_lanes(&["a"]);
        write_in(&r.lane("a"), "a.txt", "5\n");
        try_killed_at(&r, &r.lane("a"), "a to 5", point);
        write_in(&r.lane("a"), "c.txt", "2\n");
        let out = r.arx(&r.lane("a"), &["--json", "try", "-m", "c to 2"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{point}: {err}");
        assert!(
            err.contains("finished an interrupted keep"),
            "{point}: {err}"
        );
        let keeps = keeps(&r);
        assert_eq!(keeps.len(), 2, "{point}: {keeps:?}");
        assert_eq!(r.git(&["rev-parse", "main"]), keeps[1].1, "{point}");
        assert_eq!(
            r.git(&["rev-parse", &format!("{}^", keeps[1].1)]),
            keeps[0].1,
            "{point}"
        );
        // The second keep is c.txt alone: a's first keep is not in it twice.
        assert_eq!(
            r.git(&["diff", "--name-only", &keeps[0].1, &keeps[1].1]),
            "c.txt",
            "{point}"
        );
        assert_eq!(read_in(&r.root(), "a.txt"), "5\n", "{point}");
        assert_eq!(read_in(&r.root(), "c.txt"), "2\n", "{point}");
        assert_eq!(r.git(&["status", "--porcelain"]), "", "{point}");
        // The first keep's record was journaled by the recovery, and says so.
        let journal: Vec<serde_json::Value> =
            std::fs::read_to_string(r.root().join(".arx/journal.jsonl"))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
        let first = journal
            .iter()
            .find(|j| j["ratchet"]["description"] == "a to 5")
            .expect("a to 5 journaled");
        assert_eq!(
            first["tags"],
            serde_json::json!(["recovered"]),
            "{point}: {first}"
        );
    }
}

/// Lane a's try waits in its first run until told to go, past many of its
/// heartbeats; lane b keeps meanwhile, so a's try is replayed onto b's
/// keep and measured again. While it is, `arx ps` shows it `running`:
/// its live file goes on with the start and the clock the try began with.
#[test]
fn a_replayed_try_is_shown_running_while_it_is_measured_again() {
    let r = with_lanes(&["a", "b"]);
    // Each run of a's experiment waits for `go.N`, N its number.
    let gate = r.sb.path().join("gate");
    std::fs::create_dir(&gate).unwrap();
    write_in(&r.lane("a"), "a.txt", "5\n");
    let a = Std::new(assert_cmd::cargo::cargo_bin("arx"))
        .arg("--json")
        .args(["try", "--heartbeat", "200ms", "-m", "a wins"])
        .current_dir(r.lane("a"))
        .env_remove("ARX_STATE_DIR")
        .env("ARX_GATE", &gate)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let wait_for = |name: &str| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !gate.join(name).exists() {
            assert!(std::time::Instant::now() < until, "{name} never came");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    let a_state = || -> Vec<String> {
        let out = r.arx(&r.root(), &["ps", "--json"]);
        stdout_json(&out)["runs"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter(|x| x["kind"] == "try")
            .map(|x| x["state"].as_str().unwrap_or("").to_string())
            .collect()
    };
    wait_for("started.0");
    // Well past two heartbeats (400 ms) before the replay.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(a_state(), ["running"]);
    write_in(&r.lane("b"), "b.txt", "2\n");
    let (code, report) = r.try_in(&r.lane("b"), "b wins");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    std::fs::write(gate.join("go.0"), "").unwrap();
    // Replayed onto b's keep, a's second run waits.
    wait_for("started.1");
    for _ in 0..5 {
        assert_eq!(a_state(), ["running"]);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::fs::write(gate.join("go.1"), "").unwrap();
    let out = a.wait_with_output().unwrap();
    let report = stdout_json(&out);
    assert_eq!(
        (out.status.code(), status(&report)),
        (Some(0), "keep"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        report["ratchet"]["replayed_from"].as_array().map(Vec::len),
        Some(1)
    );
}

/// `arx --json --state-dir .arx try --lane a` from the main working tree
/// (and `ARX_STATE_DIR=.arx`): the state directory is the one where arx was
/// started, not one inside the lane.
#[test]
fn a_relative_state_dir_with_a_lane_is_where_arx_was_started() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    let out = r.arx(
        &r.root(),
        &[
            "--json",
            "--state-dir",
            ".arx",
            "try",
            "--lane",
            "a",
            "-m",
            "a",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(status(&stdout_json(&out)), "keep", "{}", stderr(&out));
    assert!(!r.lane("a").join(".arx").exists());
    write_in(&r.lane("b"), "b.txt", "3\n");
    let out =
        r.sb.arx()
            .current_dir(r.root())
            .env("ARX_STATE_DIR", ".arx")
            .args(["--json", "try", "--lane", "b", "-m", "b"])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(status(&stdout_json(&out)), "keep", "{}", stderr(&out));
    assert!(!r.lane("b").join(".arx").exists());
    // One journal: the baseline and both keeps.
    let statuses: Vec<Value> = r
        .journal()
        .iter()
        .map(|x| x["ratchet"]["status"].clone())
        .collect();
    assert_eq!(statuses, ["baseline", "keep", "keep"]);
    // `--events FILE` too.
    write_in(&r.lane("a"), "c.txt", "4\n");
    let out = r.arx(
        &r.root(),
        &[
            "--json", "try", "--lane", "a", "--events", "ev.jsonl", "-m", "c",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(r.root().join("ev.jsonl").is_file());
    assert!(!r.lane("a").join("ev.jsonl").exists());
}

/// `--dir` is compared with the working tree as the file system has it:
/// `..` from a lane and a symbolic link to the repository are seen
/// through; a relative directory beside the repository is fine.
#[test]
fn lane_add_resolves_dir_before_comparing_it_with_the_working_tree() {
    let r = with_lanes(&["a"]);
    let inside = |out: &std::process::Output| {
        let err = stderr(out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("is inside the repository's working tree"),
            "{err}"
        );
    };
    let out = r.arx(
        &r.lane("a"),
        &["lane", "add", "x", "--dir", "../../repo/inside"],
    );
    inside(&out);
    std::os::unix::fs::symlink(r.root(), r.sb.path().join("link")).unwrap();
    let through = r.sb.path().join("link").join("inside");
    let out = r.arx(
        &r.root(),
        &["lane", "add", "y", "--dir", through.to_str().unwrap()],
    );
    inside(&out);
    assert!(!r.root().join("inside").exists());
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // Beside the repository, written relative to it.
    let out = r.arx(
        &r.root(),
        &["--json", "lane", "add", "z", "--dir", "../elsewhere"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let z = r.sb.path().join("elsewhere").join("z");
    assert!(z.join(".git").is_file(), "{}", stderr(&out));
    let shown = stdout_json(&out)["lanes"][0]["path"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!shown.contains(".."), "{shown}");
}

#[test]
fn lane_add_in_a_repository_without_a_commit_says_so() {
    let sb = Sandbox::new();
    git_in(sb.path(), &["init", "-q", "-b", "main"]);
    let out = sb.arx().args(["lane", "add", "a"]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no commit yet"), "{err}");
    assert!(!err.contains("not on a branch"), "{err}");
}

/// The baseline a lane measures is that lane's record.
#[test]
fn a_baseline_measured_in_a_lane_carries_the_lane() {
    let r = Repo::new();
    let out = r.arx(&r.root(), &["lane", "add", "a"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    write_in(&r.lane("a"), "a.txt", "5\n");
    let (code, report) = r.try_in(&r.lane("a"), "a to 5");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let journal = r.journal();
    assert_eq!(journal[0]["ratchet"]["status"], "baseline");
    assert_eq!(journal[0]["ratchet"]["lane"], "a", "{}", journal[0]);
}

/// A process that has exited: the pid of a lost arx.
fn gone_pid() -> u32 {
    let mut c = Std::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

/// A try in lane a whose arx died long ago: `lane list` says `lost`, as
/// `arx ps` does, never `running`.
#[test]
fn lane_list_says_a_lost_run_is_lost_as_ps_does() {
    let r = with_lanes(&["a"]);
    let id = "0190aaaa-bbbb-7ccc-8ddd-eeeeffff0007";
    let host = nix::unistd::gethostname().unwrap();
    let live = serde_json::json!({
        "run_id": id,
        "kind": "try",
        "pid": gone_pid(),
        "host": host.to_string_lossy(),
        "command": ["sh", "score.sh"],
        "shell": false,
        "cwd": r.lane("a").display().to_string(),
        "label": "",
        "started_at": "2026-01-01T00:00:00.000Z",
        "started_ms": 1_767_225_600_000_i64,
        "heartbeat_ms": 1000,
        "last_heartbeat_ms": 1_767_225_601_000_i64,
    });
    std::fs::create_dir_all(r.root().join(".arx/live")).unwrap();
    std::fs::write(
        r.root().join(format!(".arx/live/{id}.json")),
        live.to_string(),
    )
    .unwrap();
    let out = r.arx(&r.root(), &["--json", "ps"]);
    assert_eq!(stdout_json(&out)["runs"][0]["state"], "lost");
    let out = r.arx(&r.root(), &["--json", "lane", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lanes = stdout_json(&out);
    assert_eq!(lanes[0]["live"], id, "{lanes}");
    assert_eq!(lanes[0]["live_state"], "lost", "{lanes}");
    let out = r.arx(&r.root(), &["lane", "list"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains("lost 0190aaaa"), "{text}");
    assert!(!text.contains("running"), "{text}");
}

/// Two lanes make the same change at once: one keeps it, the other's
/// candidate, replayed onto that keep, is no change at all — "already in
/// the best", not run again, no finding, exit 1 — and every reader of the
/// journal takes the new status.
#[test]
fn a_candidate_a_replay_empties_is_already_in_the_best() {
    let r = with_lanes(&["a", "b"]);
    let sync = r.sb.path().join("sync");
    std::fs::create_dir(&sync).unwrap();
    write_in(&r.lane("a"), "a.txt", "5\n");
    write_in(&r.lane("b"), "a.txt", "5\n");
    let spawn =
        |lane: &str| r.spawn_try(&r.lane(lane), &[], &format!("same idea {lane}"), &sync, 2);
    let (a, b) = (spawn("a"), spawn("b"));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let mut seen: Vec<(i32, String)> = [&a, &b]
        .iter()
        .map(|o| {
            (
                o.status.code().unwrap_or(-1),
                status(&stdout_json(*o)).to_string(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![(0, "keep".to_string()), (1, "already_in_best".to_string())],
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    let journal = r.journal();
    assert_eq!(journal.len(), 3, "{journal:?}");
    let keep = journal
        .iter()
        .find(|x| x["ratchet"]["status"] == "keep")
        .unwrap();
    let already = journal
        .iter()
        .find(|x| x["ratchet"]["status"] == "already_in_best")
        .unwrap();
    let winner = keep["ratchet"]["commit"].as_str().unwrap();
    assert_eq!(already["ratchet"]["kept"], winner);
    let lane = already["ratchet"]["lane"].as_str().unwrap();
    // Run once before the replay, never after it.
    assert_eq!(
        already["attempts"].as_array().map_or(1, Vec::len),
        1,
        "{already}"
    );
    assert_eq!(git_in(&r.lane(lane), &["rev-parse", "HEAD"]), winner);
    assert_eq!(git_in(&r.lane(lane), &["status", "--porcelain"]), "");
    // No finding of it: neither a refutation nor a second confirmation.
    let findings = read_in(&r.root(), ".arx/findings.jsonl");
    assert!(
        !findings.contains(&format!("same idea {lane}")),
        "{findings}"
    );
    readers_take(&r, "already_in_best");
}

/// A lane whose (uncommitted) work another lane kept first: taken up
/// before its try, it is no change — "already in the best", exit 1.
#[test]
fn work_another_lane_kept_first_is_already_in_the_best_before_its_try() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    assert_eq!(r.try_in(&r.lane("a"), "a to 5").0, 0);
    write_in(&r.lane("b"), "a.txt", "5\n");
    let (code, report) = r.try_in(&r.lane("b"), "a to 5 again");
    assert_eq!((code, status(&report)), (1, "already_in_best"), "{report}");
    assert_eq!(report["ratchet"]["lane"], "b");
    assert_eq!(r.journal().len(), 3);
    // A lane merely behind, with no work: nothing to try, as before.
    let out = r.arx(&r.lane("b"), &["try", "-m", "nothing"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing to try"), "{}", stderr(&out));
    readers_take(&r, "already_in_best");
}

/// `log`, `report`, `status`, `best` and `journal verify` all read a
/// journal holding a try of `status`.
fn readers_take(r: &Repo, status: &str) {
    for args in [
        &["--json", "log"][..],
        &["--json", "report"],
        &["report"],
        &["--json", "status"],
        &["--json", "best"],
        &["journal", "verify"],
    ] {
        let out = r.arx(&r.root(), args);
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "{args:?}: {code:?} {}",
            stderr(&out)
        );
        assert!(
            !stderr(&out).contains("unknown"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = r.arx(&r.root(), &["--json", "report"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(status),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The objective is the main working tree's `arx.toml` (here changed and
/// not committed) for every lane: one new segment with one baseline, both
/// lanes deciding by the new direction; a lane whose own `arx.toml` says
/// otherwise is told so.
#[test]
fn lanes_decide_by_the_main_trees_config_and_change_segment_together() {
    let r = with_lanes(&["a", "b"]);
    r.write(
        "arx.toml",
        &CONFIG.replace("direction = \"max\"", "direction = \"min\""),
    );
    write_in(&r.lane("a"), "a.txt", "0\n");
    let out = r.arx(&r.lane("a"), &["--json", "try", "-m", "a lower"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(status(&stdout_json(&out)), "keep", "{err}");
    assert!(
        err.contains(r#"objective.direction "max" here, "min" there"#),
        "{err}"
    );
    write_in(&r.lane("b"), "b.txt", "0\n");
    let (code, report) = r.try_in(&r.lane("b"), "b lower");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let seen = statuses_and_directions(&r);
    let want = [
        ("baseline", "max"),
        ("baseline", "min"),
        ("keep", "min"),
        ("keep", "min"),
    ]
    .map(|(s, d)| (s.to_string(), d.to_string()));
    assert_eq!(seen, want);
    // The main working tree's change is still its own, uncommitted.
    assert!(read_in(&r.root(), "arx.toml").contains("direction = \"min\""));
    let out = r.arx(&r.root(), &["--json", "status"]);
    assert_eq!(stdout_json(&out)["direction"], "min", "{}", stderr(&out));
}

/// A lane that commits a change to its own `arx.toml` with its work: the
/// keep carries the work, and the best keeps the main working tree's
/// configuration.
#[test]
fn a_lanes_keep_never_carries_its_own_arx_toml_into_the_best() {
    let r = with_lanes(&["a"]);
    let mine = CONFIG.replace("repeat = 1\n", "repeat = 1\ntimeout = \"9m\"\n");
    write_in(&r.lane("a"), "arx.toml", &mine);
    write_in(&r.lane("a"), "a.txt", "5\n");
    git_in(
        &r.lane("a"),
        &["commit", "-qam", "a to 5, and my own settings"],
    );
    let out = r.arx(&r.lane("a"), &["--json", "try", "-m", "a to 5"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let report = stdout_json(&out);
    assert_eq!(status(&report), "keep", "{err}");
    assert_eq!(report["ratchet"]["paths"], serde_json::json!(["a.txt"]));
    assert!(err.contains("arx.toml changed too"), "{err}");
    assert_eq!(r.git(&["show", "main:arx.toml"]), CONFIG.trim_end());
    assert_eq!(r.git(&["show", "main:a.txt"]), "5");
    assert_eq!(read_in(&r.root(), "arx.toml"), CONFIG);
    // The lane's own settings stay in the lane, as a change of its own.
    assert_eq!(read_in(&r.lane("a"), "arx.toml"), mine);
}

/// A try that runs by the old objective while the main working tree's
/// `arx.toml` changes and another lane begins the new segment: its record,
/// journaled late, stays in the old segment, and the new segment goes on
/// without a second baseline.
#[test]
fn a_try_journaled_after_the_objective_changed_does_not_restart_its_segment() {
    let r = with_lanes(&["a", "b"]);
    let sync = r.sb.path().join("sync");
    std::fs::create_dir(&sync).unwrap();
    // a's candidate (worse by the old direction) waits in its run.
    write_in(&r.lane("a"), "a.txt", "0\n");
    let a = r.spawn_try(&r.lane("a"), &[], "a lower", &sync, 2);
    let started = std::time::Instant::now();
    while !sync.join("a").exists() {
        assert!(
            started.elapsed().as_secs() < 20,
            "lane a's run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    r.write(
        "arx.toml",
        &CONFIG.replace("direction = \"max\"", "direction = \"min\""),
    );
    write_in(&r.lane("b"), "b.txt", "0\n");
    let (code, report) = r.try_in(&r.lane("b"), "b lower");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    std::fs::write(sync.join("go"), "").unwrap();
    let a = a.wait_with_output().unwrap();
    assert_eq!(a.status.code(), Some(1), "{}", stderr(&a));
    assert_eq!(status(&stdout_json(&a)), "discard", "{}", stderr(&a));
    write_in(&r.lane("b"), "c.txt", "0\n");
    let (code, report) = r.try_in(&r.lane("b"), "c lower");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let seen = statuses_and_directions(&r);
    let want = [
        ("baseline", "max"),
        ("baseline", "min"),
        ("keep", "min"),
        ("discard", "max"),
        ("keep", "min"),
    ]
    .map(|(s, d)| (s.to_string(), d.to_string()));
    assert_eq!(seen, want);
    let out = r.arx(&r.root(), &["--json", "status"]);
    let st = stdout_json(&out);
    assert_eq!(
        (st["direction"].as_str(), st["keeps"].as_u64()),
        (Some("min"), Some(2)),
        "{st}"
    );
}

#[test]
fn a_lock_a_killed_try_left_on_the_lanes_branch_does_not_stop_its_next_try() {
    let r = with_lanes(&["a"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    // git's lock on the lane's branch, as a try killed while it moved the
    // branch leaves it.
    let lock = r.root().join(".git/refs/heads/arx/lane/a.lock");
    std::fs::write(&lock, "").unwrap();
    let (code, report) = r.try_in(&r.lane("a"), "a to 5");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert!(!lock.exists());
}

/// Lane b's try is measuring when lane a's keep is killed after it moved
/// the best's branch: b's keep finishes a's first (it never writes its
/// intent over a's), then takes a's keep up and measures again.
#[test]
fn a_keep_killed_while_another_lane_measures_is_finished_by_that_lanes_keep() {
    for point in ["keep:after-intent", "keep:after-branch", "keep:after-best"] {
        let r = with_lanes(&["a", "b"]);
        let gate = r.sb.path().join("gate");
        std::fs::create_dir(&gate).unwrap();
        write_in(&r.lane("b"), "b.txt", "3\n");
        let b = Std::new(assert_cmd::cargo::cargo_bin("arx"))
            .args(["--json", "try", "-m", "b to 3"])
            .current_dir(r.lane("b"))
            .env_remove("ARX_STATE_DIR")
            .env("ARX_GATE", &gate)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !gate.join("started.0").exists() {
            assert!(std::time::Instant::now() < until, "{point}: b never ran");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        write_in(&r.lane("a"), "a.txt", "5\n");
        try_killed_at(&r, &r.lane("a"), "a to 5", point);
        for n in 0..4 {
            std::fs::write(gate.join(format!("go.{n}")), "").unwrap();
        }
        let out = b.wait_with_output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{point}: {err}");
        assert_eq!(status(&stdout_json(&out)), "keep", "{point}: {err}");
        assert!(
            err.contains("finished an interrupted keep"),
            "{point}: {err}"
        );
        let keeps = keeps(&r);
        assert_eq!(keeps.len(), 2, "{point}: {keeps:?}");
        assert_eq!((keeps[0].2.as_str(), keeps[1].2.as_str()), ("a", "b"));
        assert_eq!(r.git(&["rev-parse", "main"]), keeps[1].1, "{point}");
        assert_eq!(
            r.git(&["rev-parse", &format!("{}^", keeps[1].1)]),
            keeps[0].1,
            "{point}"
        );
        assert_eq!(r.git(&["show", "main:a.txt"]), "5", "{point}");
        assert_eq!(r.git(&["show", "main:b.txt"]), "3", "{point}");
        assert!(!r.root().join(".arx/ratchet-keep.json").exists(), "{point}");
        let out = r.arx(&r.root(), &["journal", "verify"]);
        assert_eq!(out.status.code(), Some(0), "{point}: {}", stderr(&out));
    }
}

/// The locks git leaves on what a try killed part-way was writing: the
/// lane's snapshot ref of a take-up and its index (a take-up of the best
/// has no marker), and the best's branch of a keep (its intent names it).
/// None stops the next try.
#[test]
fn locks_a_killed_take_up_left_do_not_stop_the_lanes_next_try() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("b"), "b.txt", "3\n");
    assert_eq!(r.try_in(&r.lane("b"), "b to 3").0, 0);
    let ref_lock = r.root().join(".git/refs/arx/lane/a/before-sync.lock");
    std::fs::create_dir_all(ref_lock.parent().unwrap()).unwrap();
    std::fs::write(&ref_lock, "").unwrap();
    let index_lock = r.root().join(".git/worktrees/a/index.lock");
    std::fs::write(&index_lock, "").unwrap();
    write_in(&r.lane("a"), "a.txt", "5\n");
    let (code, report) = r.try_in(&r.lane("a"), "a to 5");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert!(!ref_lock.exists() && !index_lock.exists());
    assert_eq!(r.git(&["show", "main:b.txt"]), "3");
}

#[test]
fn a_lock_a_killed_keep_left_on_the_bests_branch_is_cleared_by_the_next_keep() {
    let r = with_lanes(&["a", "b"]);
    write_in(&r.lane("a"), "a.txt", "5\n");
    try_killed_at(&r, &r.lane("a"), "a to 5", "keep:after-intent");
    // As a kill while the best's branch was being moved leaves it.
    let lock = r.root().join(".git/refs/heads/main.lock");
    std::fs::write(&lock, "").unwrap();
    write_in(&r.lane("b"), "b.txt", "3\n");
    let (code, report) = r.try_in(&r.lane("b"), "b to 3");
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    assert!(!lock.exists());
    assert_eq!(keeps(&r).len(), 2);
    assert_eq!(r.git(&["show", "main:a.txt"]), "5");
    assert_eq!(r.git(&["show", "main:b.txt"]), "3");
}

/// A lane's take-up of the best killed after it wrote part of the merge
/// (or the index too), before its branch moved: the best then moves again.
/// The lane's next try undoes the cut-off take-up (its work as it was,
/// not the old best's files as changes of its own, which would conflict
/// with the new best) and takes the newest best up.
#[test]
fn a_take_up_killed_part_way_is_undone_by_the_lanes_next_try() {
    for point in ["take-up:after-files", "take-up:after-index"] {
        let r = with_lanes(&["a", "b"]);
        write_in(&r.lane("b"), "b.txt", "3\n");
        assert_eq!(r.try_in(&r.lane("b"), "b to 3").0, 0, "{point}");
        write_in(&r.lane("a"), "a.txt", "5\n");
        try_killed_at(&r, &r.lane("a"), "a to 5", point);
        write_in(&r.lane("b"), "b.txt", "4\n");
        assert_eq!(r.try_in(&r.lane("b"), "b to 4").0, 0, "{point}");
        let out = r.arx(&r.lane("a"), &["--json", "try", "-m", "a to 5"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{point}: {err}");
        assert_eq!(status(&stdout_json(&out)), "keep", "{point}: {err}");
        assert!(err.contains("undid a take-up"), "{point}: {err}");
        assert_eq!(r.git(&["show", "main:a.txt"]), "5", "{point}");
        assert_eq!(r.git(&["show", "main:b.txt"]), "4", "{point}");
        assert_eq!(
            git_in(&r.lane("a"), &["status", "--porcelain"]),
            "",
            "{point}"
        );
        let left = std::fs::read_dir(r.root().join(".arx"))
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("ratchet-take-up")
            })
            .count();
        assert_eq!(left, 0, "{point}");
    }
}

/// A take-up killed part-way, undone, then taken up again and killed at
/// the same step: the second take-up stores the same work on the same
/// commit, which within the same second is the same snapshot commit as
/// the first one's. The next try must still see that the second one
/// changed the working tree, undo it, and take up the newest best (not
/// keep the old best's file as the lane's own change, which conflicts
/// with the newest best at every later try). Killed several times in a
/// row so that two of the kills fall within one second.
#[test]
fn a_take_up_killed_again_after_its_undo_is_undone_again() {
    for point in ["take-up:after-files", "take-up:after-index"] {
        let r = with_lanes(&["a", "b"]);
        write_in(&r.lane("b"), "b.txt", "3\n");
        assert_eq!(r.try_in(&r.lane("b"), "b to 3").0, 0, "{point}");
        write_in(&r.lane("a"), "a.txt", "5\n");
        for _ in 0..5 {
            try_killed_at(&r, &r.lane("a"), "a to 5", point);
        }
        write_in(&r.lane("b"), "b.txt", "4\n");
        assert_eq!(r.try_in(&r.lane("b"), "b to 4").0, 0, "{point}");
        let out = r.arx(&r.lane("a"), &["--json", "try", "-m", "a to 5"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{point}: {err}");
        assert_eq!(status(&stdout_json(&out)), "keep", "{point}: {err}");
        assert_eq!(r.git(&["show", "main:a.txt"]), "5", "{point}");
        assert_eq!(r.git(&["show", "main:b.txt"]), "4", "{point}");
        assert_eq!(
            git_in(&r.lane("a"), &["status", "--porcelain"]),
            "",
            "{point}"
        );
    }
}
