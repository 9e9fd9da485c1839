use predicates::prelude::*;
use predicates::str::contains;
use serde_json::{json, Value};

use crate::support::{id, jsonl, run, stdout_json, Sandbox};

fn ids(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn merge_unions_files_and_drops_duplicates() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), run(3)]));
    sb.write("artifacts/a/journal.jsonl", jsonl(&[run(3), run(2)]));
    // A job killed mid-write leaves a torn last line: skipped, with a warning.
    let mut b = jsonl(&[run(4), run(2), run(1)]);
    b.push_str(r#"{"run_id": "0196c0de-1a2b-7c3d-8e4f-0000000000ff", "started"#);
    sb.write("artifacts/b/journal.jsonl", b);

    let report = stdout_json(
        sb.arx()
            .args(["journal", "merge", "--json"])
            .args(["artifacts/a/journal.jsonl", "artifacts/b/journal.jsonl"])
            .assert()
            .code(0)
            .stderr(contains("torn last line")),
    );
    assert_eq!(report["unique_runs"], 4);
    assert_eq!(report["duplicates_dropped"], 3);
    assert_eq!(report["rewritten"], true);
    assert_eq!(report["conflicts"], json!([]));
    let counts: Vec<u64> = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["records"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [2, 2, 3]);
    assert_eq!(report["inputs"][2]["torn_tail"], true);

    // Sorted by start time; a complete file; no temporary file left behind.
    let merged = sb.journal();
    assert_eq!(ids(&merged), [id(1), id(2), id(3), id(4)]);
    assert_eq!(merged[0], run(1));
    let mut leftovers: Vec<_> = std::fs::read_dir(sb.path().join(".arx"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    leftovers.sort();
    // The journal, and the engines' state refolded from it.
    assert_eq!(leftovers, ["journal.jsonl", "precision.json"]);
    // The inputs are never changed.
    assert_eq!(sb.read_jsonl("artifacts/a/journal.jsonl").len(), 2);

    // Merging the same files again changes nothing.
    let before = sb.read(".arx/journal.jsonl");
    sb.arx()
        .args(["journal", "merge"])
        .args(["artifacts/a/journal.jsonl", "artifacts/b/journal.jsonl"])
        .assert()
        .code(0)
        .stdout(contains("unchanged"));
    assert_eq!(sb.read(".arx/journal.jsonl"), before);
}

#[test]
fn merge_into_a_new_journal_creates_it() {
    let sb = Sandbox::new();
    sb.write("a.jsonl", jsonl(&[run(2), run(1), run(2)]));
    sb.arx()
        .args(["journal", "merge", "a.jsonl"])
        .assert()
        .code(0)
        .stdout(contains("2 unique runs").and(contains("1 duplicate dropped")));
    assert_eq!(ids(&sb.journal()), [id(1), id(2)]);
}

#[test]
fn conflicting_records_are_warned_and_the_first_is_kept() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1)]));
    let mut other = run(1);
    other["metrics"]["acc"] = json!(0.5);
    sb.write("b.jsonl", jsonl(&[other, run(2)]));
    let report = stdout_json(
        sb.arx()
            .args(["journal", "merge", "--json", "b.jsonl"])
            .assert()
            .code(0)
            .stderr(
                contains(id(1))
                    .and(contains("differ"))
                    .and(contains("first")),
            ),
    );
    assert_eq!(report["conflicts"], json!([id(1)]));
    let merged = sb.journal();
    assert_eq!(ids(&merged), [id(1), id(2)]);
    assert_eq!(merged[0]["metrics"]["acc"], 0.8312);
    sb.arx()
        .args(["journal", "verify"])
        .assert()
        .code(0)
        .stdout(contains("sound"));
}

#[test]
fn merge_without_files_dedupes_in_place() {
    let sb = Sandbox::new();
    // What a `merge=union` git merge leaves: both sides' lines, shared ones twice.
    sb.write(
        ".arx/journal.jsonl",
        jsonl(&[run(1), run(2), run(3), run(1), run(2), run(4)]),
    );
    sb.arx()
        .args(["journal", "verify"])
        .assert()
        .code(0)
        .stdout(contains("2 duplicate records").and(contains("arx journal merge")));
    sb.arx()
        .args(["journal", "merge"])
        .assert()
        .code(0)
        .stdout(contains("4 unique runs").and(contains("2 duplicates dropped")));
    assert_eq!(ids(&sb.journal()), [id(1), id(2), id(3), id(4)]);
    let v = stdout_json(
        sb.arx()
            .args(["journal", "verify", "--json"])
            .assert()
            .code(0),
    );
    assert_eq!(v["duplicates"], json!([]));
    assert_eq!(v["duplicate_records"], 0);
}

#[test]
fn merge_without_a_journal_leaves_no_trace() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["journal", "merge"])
        .assert()
        .code(0)
        .stdout(contains("0 unique runs"));
    assert!(!sb.path().join(".arx").exists());
}

#[test]
fn merge_drops_bad_lines_of_the_local_journal_with_a_warning() {
    let sb = Sandbox::new();
    let text = format!("{}<<<<<<< HEAD\n{}", jsonl(&[run(1)]), jsonl(&[run(2)]));
    sb.write(".arx/journal.jsonl", format!("{text}{{\"run_id\": \"to"));
    let report = stdout_json(
        sb.arx()
            .args(["journal", "merge", "--json"])
            .assert()
            .code(0)
            .stderr(contains(":2:").and(contains("torn"))),
    );
    assert_eq!(report["inputs"][0]["unreadable"], 1);
    assert_eq!(report["rewritten"], true);
    assert_eq!(sb.read(".arx/journal.jsonl"), jsonl(&[run(1), run(2)]));
}

#[test]
fn merge_of_a_missing_file_or_a_directory_is_an_error() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1)]));
    sb.write("a.jsonl", jsonl(&[run(2)]));
    sb.arx()
        .args(["journal", "merge", "a.jsonl", "missing.jsonl"])
        .assert()
        .code(2)
        .stderr(contains("missing.jsonl").and(contains("hint:")));
    std::fs::create_dir_all(sb.path().join("artifacts/job-1")).unwrap();
    sb.arx()
        .args(["journal", "merge", "artifacts/job-1"])
        .assert()
        .code(2)
        .stderr(contains("directory").and(contains("journal.jsonl")));
    // Nothing was merged.
    assert_eq!(sb.read(".arx/journal.jsonl"), jsonl(&[run(1)]));
}

#[test]
fn concurrent_merges_lose_no_run() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("arx");
    for w in 0..6u32 {
        let runs: Vec<Value> = (0..10).map(|i| run(w * 100 + i)).collect();
        sb.write(&format!("in/{w}.jsonl"), jsonl(&runs));
    }
    let children: Vec<_> = (0..6)
        .map(|w| {
            std::process::Command::new(&bin)
                .args(["journal", "merge", "--quiet", &format!("in/{w}.jsonl")])
                .current_dir(sb.path())
                .env_remove("ARX_STATE_DIR")
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let merged = sb.journal();
    assert_eq!(merged.len(), 60);
    let leftovers: Vec<_> = std::fs::read_dir(sb.path().join(".arx"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "precision.json")
        .collect();
    assert_eq!(leftovers, ["journal.jsonl"]);
}

#[test]
fn verify_sound_journal_exits_0() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1), run(2)]));
    let v = stdout_json(
        sb.arx()
            .args(["journal", "verify", "--json"])
            .assert()
            .code(0),
    );
    assert_eq!(v["ok"], true);
    assert_eq!(v["records"], 2);
    assert_eq!(v["unique_runs"], 2);
    assert_eq!(v["conflicts"], json!([]));
    assert_eq!(v["missing_ids"], 0);
    assert_eq!(v["unreadable_lines"], json!([]));
    assert_eq!(v["torn_tail"], false);
    // No journal yet: nothing to verify, and nothing created.
    let empty = Sandbox::new();
    empty
        .arx()
        .args(["journal", "verify"])
        .assert()
        .code(0)
        .stdout(contains("no journal"));
    assert!(!empty.path().join(".arx").exists());
}

#[test]
fn verify_reports_unreadable_and_torn_lines() {
    let sb = Sandbox::new();
    let text = format!(
        "{}not json\n{}[1, 2]\n{{\"run_id\": \"0196\", \"half",
        jsonl(&[run(1)]),
        jsonl(&[run(2)])
    );
    sb.write("j.jsonl", text);
    let v = stdout_json(
        sb.arx()
            .args(["journal", "verify", "--json", "j.jsonl"])
            .assert()
            .code(1),
    );
    assert_eq!(v["unreadable_lines"], json!([2, 4]));
    assert_eq!(v["torn_tail"], true);
    assert_eq!(v["records"], 2);
    sb.arx()
        .args(["journal", "verify", "j.jsonl"])
        .assert()
        .code(1)
        .stdout(contains("line 2: unreadable").and(contains("torn last line")));
    // A torn last line alone (a crash during an append) is still sound.
    let torn = format!("{}{{\"run_id\": \"0196\", \"half", jsonl(&[run(1)]));
    sb.write("torn.jsonl", torn);
    sb.arx()
        .args(["journal", "verify", "torn.jsonl"])
        .assert()
        .code(0)
        .stdout(contains("torn last line"));
}

#[test]
fn verify_conflicts_and_missing_ids_exit_1() {
    let sb = Sandbox::new();
    let mut changed = run(1);
    changed["exit_code"] = json!(1);
    sb.write("conflict.jsonl", jsonl(&[run(1), run(2), changed]));
    let v = stdout_json(
        sb.arx()
            .args(["journal", "verify", "--json", "conflict.jsonl"])
            .assert()
            .code(1),
    );
    assert_eq!(v["ok"], false);
    assert_eq!(v["conflicts"], json!([id(1)]));
    sb.arx()
        .args(["journal", "verify", "conflict.jsonl"])
        .assert()
        .code(1)
        .stdout(contains("not sound").and(contains(id(1))));

    let mut no_id = run(3);
    no_id.as_object_mut().unwrap().remove("run_id");
    let mut empty_id = run(4);
    empty_id["run_id"] = json!("");
    sb.write("noid.jsonl", jsonl(&[run(1), no_id, empty_id]));
    let v = stdout_json(
        sb.arx()
            .args(["journal", "verify", "--json", "noid.jsonl"])
            .assert()
            .code(1),
    );
    assert_eq!(v["missing_ids"], 2);
}

#[test]
fn verify_of_an_unreadable_file_exits_2() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["journal", "verify", "missing.jsonl"])
        .assert()
        .code(2)
        .stderr(contains("arx: error:").and(contains("missing.jsonl")));
    std::fs::create_dir_all(sb.path().join("dir")).unwrap();
    sb.arx()
        .args(["journal", "verify", "dir"])
        .assert()
        .code(2)
        .stderr(contains("directory"));
}

#[test]
fn merge_through_a_symlinked_journal_is_refused() {
    let sb = Sandbox::new();
    sb.write("shared/journal.jsonl", jsonl(&[run(2), run(1), run(2)]));
    std::fs::create_dir_all(sb.path().join(".arx")).unwrap();
    std::os::unix::fs::symlink(
        sb.path().join("shared/journal.jsonl"),
        sb.path().join(".arx/journal.jsonl"),
    )
    .unwrap();
    sb.arx()
        .args(["journal", "merge"])
        .assert()
        .code(2)
        .stderr(contains("symbolic link"));
    let link = std::fs::symlink_metadata(sb.path().join(".arx/journal.jsonl")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        sb.read("shared/journal.jsonl"),
        jsonl(&[run(2), run(1), run(2)])
    );
}

#[test]
fn runs_appended_during_merges_are_kept() {
    let sb = Sandbox::new();
    let bin = assert_cmd::cargo::cargo_bin("arx");
    for k in 0..15u32 {
        sb.write(&format!("in/{k}.jsonl"), jsonl(&[run(1000 + k)]));
    }
    let shell = |script: String| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .current_dir(sb.path())
            .env_remove("ARX_STATE_DIR")
            .spawn()
            .unwrap()
    };
    let bin = bin.display();
    let mut children: Vec<_> = (0..3)
        .map(|_| {
            shell(format!(
                "for i in 1 2 3 4 5 6 7 8; do '{bin}' run --quiet --no-gates -- true || exit 1; done"
            ))
        })
        .collect();
    // Every merge brings a new record, so every merge rewrites the journal.
    children.push(shell(format!(
        "for k in $(seq 0 14); do '{bin}' journal merge --quiet in/$k.jsonl || exit 1; done"
    )));
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let merged = sb.journal();
    assert_eq!(merged.len(), 3 * 8 + 15);
    let mut unique = ids(&merged);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), merged.len());
}
