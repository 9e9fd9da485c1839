//! `arx next` over an imported night: the night's tries, read by `arx
//! journal import`, count as evidence about the backlog's families (each
//! in the family of the most similar idea), and its discards at the same
//! parent are left out as the loop's own are.

use serde_json::{json, Value};

use crate::support::{git, json, Sandbox};

const NOW: &str = "2026-11-27T09:00:00Z";

/// A repository with `n` commits; their ids, oldest first.
fn repo(n: usize) -> (Sandbox, Vec<String>) {
    let sb = Sandbox::new();
    git(&sb, &["init", "-q", "-b", "main"]);
    git(&sb, &["config", "user.email", "t@example.com"]);
    git(&sb, &["config", "user.name", "T"]);
    sb.write(".gitignore", ".arx/\n");
    let mut commits = Vec::new();
    for i in 0..n {
        sb.write("train.py", format!("# {i}\n"));
        git(&sb, &["add", "-A"]);
        git(&sb, &["commit", "-qm", &format!("c{i}")]);
        commits.push(git(&sb, &["rev-parse", "HEAD"]));
    }
    (sb, commits)
}

/// karpathy's results.tsv of `rows` (commit, status, description).
fn import(sb: &Sandbox, rows: &[(String, &str, &str)]) {
    let mut t = String::from("commit\tval_bpb\tmemory_gb\tstatus\tdescription\n");
    for (i, (commit, status, text)) in rows.iter().enumerate() {
        t.push_str(&format!(
            "{commit}\t{:.6}\t44.0\t{status}\t{text}\n",
            1.0 - i as f64 * 0.001
        ));
    }
    sb.write("results.tsv", t);
    let out = sb
        .arx()
        .args(["journal", "import", "results.tsv", "--from", "karpathy"])
        .args(["--now", NOW])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// `arx idea add --family F STATEMENT`: the new id.
fn add(sb: &Sandbox, family: &str, statement: &str) -> String {
    let out = sb
        .arx()
        .args(["idea", "add", "--family", family, statement])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn next(sb: &Sandbox) -> (i32, Value) {
    let out = sb
        .arx()
        .args(["--json", "--now", NOW, "next", "--greedy"])
        .output()
        .unwrap();
    (out.status.code().unwrap(), json(&out.stdout))
}

fn row<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["ideas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["idea"] == id)
        .unwrap_or_else(|| panic!("{id} in {report}"))
}

/// The night kept the batch changes often and discarded every init change:
/// with ideas in both families (the init idea written first, so a record
/// that knew nothing of the night would offer it on the tie), `arx next`
/// gives the batch idea, and says how many imported tries informed each.
#[test]
fn the_imported_night_steers_toward_the_family_it_kept() {
    let (sb, c) = repo(5);
    let unknown = |i: usize| format!("{:07x}", 0xbad0000 + i);
    let mut rows = vec![(c[0][..7].to_string(), "keep", "baseline")];
    rows.extend([
        (
            c[1][..7].to_string(),
            "keep",
            "increase the batch size to 256",
        ),
        (
            unknown(1),
            "discard",
            "orthogonal init of the embeddings, scale 0.5",
        ),
        (
            c[2][..7].to_string(),
            "keep",
            "increase the batch size to 512",
        ),
        (
            unknown(2),
            "discard",
            "orthogonal init of the embeddings, scale 1.5",
        ),
        (
            c[3][..7].to_string(),
            "keep",
            "increase the batch size to 1024",
        ),
        (
            unknown(3),
            "discard",
            "orthogonal init of the embeddings, scale 0.1",
        ),
        (unknown(4), "discard", "increase the batch size to 2048"),
        (
            unknown(5),
            "discard",
            "orthogonal init of the embeddings, scale 3",
        ),
        (unknown(6), "discard", "rewrite the tokenizer"),
    ]);
    import(&sb, &rows);
    let init = add(
        &sb,
        "init",
        "orthogonal init of the embeddings with scale 2",
    );
    // Asked before the batch idea is written: the night's batch tries are
    // unsorted then, and sorted once it is.
    let (_, report) = next(&sb);
    assert_eq!(row(&report, &init)["imported"], 4, "{report}");
    assert_eq!(report["idea"], init.as_str(), "{report}");
    let batch = add(&sb, "batch", "increase the batch size to 4096");

    let (code, report) = next(&sb);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["idea"], batch.as_str(), "{report}");
    assert_eq!(report["imported_tries"], 9, "{report}");
    let (b, i) = (row(&report, &batch), row(&report, &init));
    let counts = |r: &Value| (r["imported"].as_u64(), r["scores"]["keeps"].as_u64());
    assert_eq!(counts(b), (Some(4), Some(3)), "{report}");
    assert_eq!(counts(i), (Some(4), Some(0)), "{report}");
    assert!(b["scores"]["keep_rate"].as_f64() > i["scores"]["keep_rate"].as_f64());

    let out = sb
        .arx()
        .args(["--now", NOW, "next", "--greedy", "--explain"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("9 tries of imported nights"), "{text}");
    assert!(text.contains("imported"), "{text}");
    assert!(text.contains("imported: tries"), "the legend: {text}");
}

/// The night discarded a change after its last keep; the loop goes on
/// from that commit: the same change in the backlog is left out, with
/// the imported try named, while another value of it is offered. At
/// another parent it is offered again.
#[test]
fn a_change_the_imported_night_discarded_at_the_same_parent_is_left_out() {
    let (sb, c) = repo(3);
    import(
        &sb,
        &[
            (c[0][..7].to_string(), "keep", "baseline"),
            (
                c[1][..7].to_string(),
                "keep",
                "increase the batch size to 256",
            ),
            (
                "bad0001".to_string(),
                "discard",
                "use a cosine learning rate schedule with warmup 100",
            ),
        ],
    );
    let cosine = add(
        &sb,
        "lr",
        "Use a cosine learning rate schedule with warmup 100",
    );
    let other = add(
        &sb,
        "lr",
        "use a cosine learning rate schedule with warmup 500",
    );

    let left_out = |report: &Value| row(report, &cosine)["left_out"].clone();
    // Nothing run by arx yet: the night's last kept commit is the parent.
    let (_, report) = next(&sb);
    assert_eq!(report["parent"], c[1].as_str(), "{report}");
    assert_eq!(report["idea"], other.as_str(), "{report}");
    assert_eq!(left_out(&report)["reason"], "repeat", "{report}");

    // The loop's own baseline at that commit: still the same parent.
    let baseline = |kept: &str| {
        json!({
            "run_id": format!("own-{kept}"), "started_at": NOW, "ended_at": NOW,
            "command": ["sh", "train.sh"], "exit_code": 0,
            "metrics": {"val_bpb": 0.99}, "attempts": [{"exit_code": 0}],
            "ratchet": {"segment": format!("s-{kept}"), "status": "baseline",
                        "metric": "val_bpb", "direction": "minimize",
                        "rule": "noise", "kept": kept},
        })
    };
    let mut journal = sb.read(".arx/journal.jsonl");
    journal.push_str(&format!("{}\n", baseline(&c[1])));
    sb.write(".arx/journal.jsonl", &journal);
    let (_, report) = next(&sb);
    assert_eq!(report["parent"], c[1].as_str(), "{report}");
    assert_eq!(left_out(&report)["reason"], "repeat", "{report}");
    assert_eq!(left_out(&report)["imported"], true, "{report}");
    let out = sb
        .arx()
        .args(["--now", NOW, "next", "--greedy", "--explain"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("by the imported try"), "{text}");

    // A new segment from another commit: a new parent, offered again.
    journal.push_str(&format!("{}\n", baseline(&c[2])));
    sb.write(".arx/journal.jsonl", &journal);
    let (_, report) = next(&sb);
    assert!(left_out(&report).is_null(), "{report}");
}
