//! `arx journal import` with no flags: twelve nights built from the
//! loops' published formats (tests/fixtures/nights, expectations in
//! EXPECTED.tsv), each read with the right metric, direction and best; and
//! what an import refuses, undoes and bounds.

use std::time::Duration;

use predicates::str::contains;
use serde_json::Value;

use crate::support::{stdout_json, Sandbox};

const NIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/nights");

fn night(name: &str) -> Vec<u8> {
    std::fs::read(format!("{NIGHTS}/{name}")).unwrap()
}

fn import(sb: &Sandbox, file: &str, args: &[&str]) -> Value {
    stdout_json(
        sb.arx()
            .args([
                "journal",
                "import",
                file,
                "--json",
                "--now",
                "2026-11-27T09:00:00Z",
            ])
            .args(args)
            .assert()
            .code(0),
    )
}

/// The report's per-metric table, its row for `metric`.
fn group_best(report: &Value, metric: &str) -> Option<f64> {
    report["groups"]
        .as_array()?
        .iter()
        .rev()
        .find(|g| g["metric"] == metric)?["best"]
        .as_f64()
}

#[test]
fn twelve_nights_import_right_with_no_flags() {
    let expected = String::from_utf8(night("EXPECTED.tsv")).unwrap();
    let mut right = 0;
    let mut wrong = Vec::new();
    for line in expected.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, metric, direction, best) = (f[0], f[1], f[2], f[3].parse::<f64>().unwrap());
        let sb = Sandbox::new();
        sb.write(file, night(file));
        let out = sb
            .arx()
            .args(["journal", "import", file, "--json"])
            .output()
            .unwrap();
        let got: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        // The report's segment best (what `arx best` shows) and its
        // per-metric table, by the same rule as the import line.
        let report = stdout_json(sb.arx().args(["report", "--json"]).assert());
        let segment = report["segments"]
            .as_array()
            .and_then(|s| s.last())
            .cloned();
        let seen = (
            got["metric"].as_str(),
            got["direction"].as_str(),
            got["best"].as_f64(),
            segment.and_then(|s| s["best"]["value"].as_f64()),
            group_best(&report, metric),
        );
        let want = (
            Some(metric),
            Some(direction),
            Some(best),
            Some(best),
            Some(best),
        );
        if out.status.code() == Some(0) && seen == want {
            right += 1;
        } else {
            wrong.push(format!(
                "{file}: {seen:?} != {want:?}; {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert_eq!(right, 12, "{wrong:#?}");
}

#[test]
fn codex_worker_rows_fold_into_their_round_and_its_statuses_map_quietly() {
    let sb = Sandbox::new();
    sb.write("results.tsv", night("08-codex-higher.tsv"));
    let assert = sb
        .arx()
        .args(["journal", "import", "results.tsv", "--json"])
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    let got = stdout_json(assert);
    assert!(stderr.is_empty(), "no warning: {stderr}");
    assert_eq!(got["nights"][0]["direction_from"], "file");
    assert_eq!(got["other_lines"]["worker"], 3);
    assert_eq!(got["other_lines"]["meta"], 2);
    // Rounds 0..=8 less the search and the refine: 7 tries, 3 keeps
    // counted once each (the baseline, 2, 5 and 8: 5's worker keep is not).
    assert_eq!(got["rows"], 7);
    let journal = sb.journal();
    let keeps = journal
        .iter()
        .filter(|r| r["ratchet"]["status"] == "keep")
        .count();
    assert_eq!(keeps, 3);
    let noop = journal
        .iter()
        .find(|r| r["ratchet"]["description"] == "no diff produced")
        .unwrap();
    assert_eq!(noop["ratchet"]["status"], "discard");
    assert_eq!(noop["ratchet"]["metric"], "accuracy");
}

#[test]
fn a_pi_reinit_starts_a_night_of_its_own_and_hooks_are_counted_once() {
    let sb = Sandbox::new();
    sb.write("autoresearch.jsonl", night("11-pi-reinit.jsonl"));
    let assert = sb
        .arx()
        .args(["journal", "import", "autoresearch.jsonl"])
        .assert()
        .code(0)
        .stdout(contains("1 hook line,"));
    assert!(assert.get_output().stderr.is_empty());
    let got = import(&sb, "autoresearch.jsonl", &[]);
    let nights = got["nights"].as_array().unwrap();
    let seen: Vec<(&str, &str, &str)> = nights
        .iter()
        .map(|n| {
            (
                n["segment"].as_str().unwrap(),
                n["metric"].as_str().unwrap(),
                n["direction"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("import:pi:ms:0", "ms", "min"),
            ("import:pi:score:1", "score", "max")
        ]
    );
    assert_eq!(nights[0]["best"], 47.0);
    let journal = sb.journal();
    let first = journal
        .iter()
        .find(|r| r["ratchet"]["metric"] == "score")
        .unwrap();
    assert_eq!(first["ratchet"]["direction"], "max");
    assert_eq!(first["ratchet"]["status"], "baseline");
}

#[test]
fn a_metric_that_is_no_column_is_an_error_naming_the_numeric_columns() {
    let sb = Sandbox::new();
    sb.write("results.tsv", night("01-karpathy.tsv"));
    sb.arx()
        .args(["journal", "import", "results.tsv", "--metric", "val_bp"])
        .assert()
        .code(2)
        .stderr(contains("no column \"val_bp\""))
        .stderr(contains("val_bpb, memory_gb"))
        .stderr(contains("hint: name the column: --metric val_bpb"));
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
}

/// A night whose keeps went both ways: nothing tells the direction.
const UNDECIDED: &str = "commit\tscore\tstatus\tdescription\n\
aaaaaaa\t0.50\tkeep\tbaseline\n\
bbbbbbb\t0.60\tkeep\tup\n\
ccccccc\t0.55\tkeep\tdown\n\
ddddddd\t0.40\tdiscard\tworse\n";

#[test]
fn a_direction_nothing_tells_is_asked_for_and_arx_toml_tells_it() {
    let sb = Sandbox::new();
    sb.write("results.tsv", UNDECIDED);
    sb.arx()
        .args(["journal", "import", "results.tsv"])
        .assert()
        .code(2)
        .stderr(contains("nothing tells which way score improves"))
        .stderr(contains("hint: pass --direction min"));
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
    // arx.toml naming another metric tells nothing about this one.
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"true\"\n",
    );
    sb.arx()
        .args(["journal", "import", "results.tsv"])
        .assert()
        .code(2);
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"score\"\ndirection = \"max\"\ncommand = \"true\"\n",
    );
    let got = import(&sb, "results.tsv", &[]);
    assert_eq!(
        (
            got["direction"].as_str(),
            got["nights"][0]["direction_from"].as_str()
        ),
        (Some("max"), Some("config"))
    );
    // The best is the last keep, by one rule everywhere.
    assert_eq!(got["best"], 0.55);
    let best = stdout_json(sb.arx().args(["best", "--json"]).assert().code(0));
    assert_eq!(best["value"], 0.55);
    let report = stdout_json(sb.arx().args(["report", "--json"]).assert().code(0));
    assert_eq!(group_best(&report, "score"), Some(0.55));
}

#[test]
fn data_rows_of_which_none_import_are_an_error() {
    let sb = Sandbox::new();
    sb.write(
        "results.tsv",
        "commit\tval_bpb\tmemory_gb\tstatus\tdescription\n\
         aaaaaaa\t1.0\t44\tkept-ish\tone\n\
         bbbbbbb\t0.9\t44\tmaybe\ttwo\n",
    );
    sb.arx()
        .args(["journal", "import", "results.tsv"])
        .assert()
        .code(2)
        .stderr(contains("none of its 2 data rows imports"))
        .stderr(contains("line 2: status \"kept-ish\""))
        .stderr(contains("hint: "));
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
}

#[test]
fn an_import_undone_can_be_redone_with_other_flags() {
    let sb = Sandbox::new();
    sb.write("results.tsv", UNDECIDED);
    sb.write(".arx/journal.jsonl", "");
    let first = import(&sb, "results.tsv", &["--direction", "min"]);
    assert_eq!(first["imported"], 4);
    // Another night, imported beside it, stays.
    sb.write("other.tsv", night("04-roc-auc.tsv"));
    import(&sb, "other.tsv", &[]);
    let before = sb.journal().len();
    let undone = stdout_json(
        sb.arx()
            .args(["journal", "import", "--undo", "results.tsv", "--json"])
            .assert()
            .code(0),
    );
    assert_eq!(undone["removed"], 4);
    assert_eq!(sb.journal().len(), before - 4);
    let again = import(&sb, "results.tsv", &["--direction", "max"]);
    assert_eq!(
        (
            again["imported"].as_u64(),
            again["already_present"].as_u64()
        ),
        (Some(4), Some(0))
    );
    let dirs: Vec<Value> = sb
        .journal()
        .iter()
        .filter(|r| r["ratchet"]["metric"] == "score")
        .map(|r| r["ratchet"]["direction"].clone())
        .collect();
    assert!(dirs.iter().all(|d| *d == "max"), "{dirs:?}");
    // By id, too; and an id nothing holds is an error naming the imports.
    let id = again["import"].as_str().unwrap().to_string();
    sb.arx()
        .args(["journal", "import", "--undo", "nosuchid"])
        .assert()
        .code(2)
        .stderr(contains("no import of nosuchid"))
        .stderr(contains(id.as_str()));
    sb.arx()
        .args(["journal", "import", "--undo", &id])
        .assert()
        .code(0)
        .stdout(contains("4 imported records removed"));
    assert_eq!(sb.journal().len(), before - 4);
}

#[test]
fn only_a_regular_file_is_imported() {
    let sb = Sandbox::new();
    std::os::unix::fs::symlink("/dev/zero", sb.path().join("z.tsv")).unwrap();
    sb.arx()
        .args(["journal", "import", "z.tsv", "--from", "karpathy"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(contains("is a device, not a regular file"))
        .stderr(contains("hint: import a regular file"));
    let fifo = sb.path().join("f.tsv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        sb.arx()
            .args(["journal", "import", "f.tsv"])
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(contains("is a FIFO"));
    }
    assert!(!sb.path().join(".arx/journal.jsonl").exists());
}

#[test]
fn a_line_over_one_mib_is_skipped_with_a_warning() {
    let sb = Sandbox::new();
    let mut text = String::from_utf8(night("01-karpathy.tsv")).unwrap();
    let rows = text.lines().count() - 1;
    text.push_str(&format!(
        "abcdef0\t0.5\t44\tdiscard\t{}\n",
        "x".repeat(1 << 21)
    ));
    text.push_str("abcdef1\t0.99\t44\tdiscard\tafter the long line\n");
    sb.write("results.tsv", text);
    let assert = sb
        .arx()
        .args(["journal", "import", "results.tsv", "--json"])
        .assert()
        .code(0)
        .stderr(contains(format!(
            "line {}: skipped: a line over 1 MiB",
            rows + 2
        )));
    let got = stdout_json(assert);
    assert_eq!(got["rows"].as_u64(), Some(rows as u64 + 1));
}
