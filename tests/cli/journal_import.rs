//! `arx journal import`: other loops' nights read into the journal.

use predicates::str::contains;
use serde_json::Value;

use crate::support::{git, jsonl, run, stdout_json, Sandbox};

/// A repository with three commits; their ids, oldest first.
fn repo() -> (Sandbox, Vec<String>) {
    let sb = Sandbox::new();
    git(&sb, &["init", "-q", "-b", "main"]);
    git(&sb, &["config", "user.email", "t@example.com"]);
    git(&sb, &["config", "user.name", "T"]);
    let mut commits = Vec::new();
    for i in 0..3 {
        sb.write("train.py", format!("# {i}\n"));
        git(&sb, &["add", "-A"]);
        git(&sb, &["commit", "-qm", &format!("c{i}")]);
        commits.push(git(&sb, &["rev-parse", "HEAD"]));
    }
    (sb, commits)
}

const MALFORMED: [usize; 5] = [17, 42, 63, 88, 99];

/// The commit of row `i`: one of the repository's every third row (seven
/// digits, as karpathy's loop writes them), else one it does not hold.
fn commit(commits: &[String], i: usize) -> String {
    if i.is_multiple_of(3) {
        commits[i / 3 % commits.len()][..7].to_string()
    } else {
        format!("{:07x}", 0xfeed000 + i)
    }
}

fn status(i: usize) -> &'static str {
    ["keep", "discard", "discard", "crash"][i % 4]
}

fn value(i: usize) -> String {
    match status(i) {
        "crash" => "0.000000".into(),
        _ => format!("{:.6}", 1.0 - i as f64 * 0.001),
    }
}

/// 100 rows of karpathy's results.tsv, five of them malformed.
fn karpathy_tsv(commits: &[String]) -> String {
    let mut t = String::from("commit\tval_bpb\tmemory_gb\tstatus\tdescription\n");
    for i in 0..100 {
        let c = commit(commits, i);
        let line = match MALFORMED.iter().position(|&m| m == i) {
            Some(0) => format!("{c}\tnan-ish\t44.0\tkeep\tbad number"),
            Some(1) => format!("{c}\t0.99\tkeep"),
            Some(2) => format!("{c}\t0.99\t44.0\tmaybe\tunknown status"),
            Some(3) => String::from("garbage"),
            Some(_) => format!("{c}\t\t44.0\tkeep\ta keep with no value"),
            None => format!(
                "{c}\t{}\t{:.1}\t{}\ttry {i}: tweak the schedule",
                value(i),
                if status(i) == "crash" { 0.0 } else { 44.0 },
                status(i)
            ),
        };
        t.push_str(&line);
        t.push('\n');
    }
    t
}

/// The same night as codex writes it.
fn codex_tsv(commits: &[String]) -> String {
    let mut t = String::from("iteration\tcommit\tmetric\tdelta\tstatus\tdescription\n");
    for i in 0..100 {
        let c = commit(commits, i);
        let line = if MALFORMED.contains(&i) {
            format!("{i}\t{c}\tx\t0\tkeep\tbad metric")
        } else {
            format!(
                "{i}\t{c}\t{}\t-0.001\t{}\titeration {i}",
                value(i),
                status(i)
            )
        };
        t.push_str(&line);
        t.push('\n');
    }
    t
}

/// 100 lines of pi's autoresearch.jsonl: the config line, then 99 runs,
/// four of them malformed.
fn pi_jsonl(commits: &[String]) -> String {
    let mut t = String::from(
        r#"{"type":"config","name":"speed","metricName":"ms","metricUnit":"ms","bestDirection":"lower"}"#,
    );
    t.push('\n');
    for i in 1..100 {
        let c = commit(commits, i);
        let line = match i {
            17 => "{not json".to_string(),
            42 => r#"{"status":"keep","description":"no metric"}"#.to_string(),
            63 => "[1, 2, 3]".to_string(),
            88 => format!(r#"{{"commit":"{c}","metric":1,"status":"exploded"}}"#),
            _ => format!(
                r#"{{"commit":"{c}","metric":{},"metrics":{{"rss":{i}}},"status":"{}","description":"run {i}","timestamp":{},"segment":0,"confidence":null}}"#,
                100.0 - i as f64 * 0.1,
                status(i),
                1_764_000_000_000u64 + i as u64 * 60_000
            ),
        };
        t.push_str(&line);
        t.push('\n');
    }
    t
}

fn import(sb: &Sandbox, file: &str, from: &str) -> Value {
    stdout_json(
        sb.arx()
            .args(["journal", "import", file, "--from", from, "--json"])
            .args(["--now", "2026-11-27T09:00:00Z"])
            .assert()
            .code(0),
    )
}

fn skipped_lines(report: &Value) -> Vec<u64> {
    report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect()
}

/// Every row imported or skipped with its line named; commits the
/// repository holds recorded in full, the others left out and counted;
/// a second import adds nothing and leaves the journal as it was.
fn accounts_for_every_row(from: &str, file: &str, text: &str, commits: &[String], sb: &Sandbox) {
    sb.write(file, text);
    let report = import(sb, file, from);
    let lines: Vec<u64> = match from {
        // The header is line 1, row i is line i + 2.
        "pi" => [17, 42, 63, 88].iter().map(|i| i + 1).collect(),
        _ => MALFORMED.iter().map(|&i| i as u64 + 2).collect(),
    };
    assert_eq!(skipped_lines(&report), lines, "{report}");
    let rows = report["rows"].as_u64().unwrap();
    assert_eq!(
        rows + lines.len() as u64,
        if from == "pi" { 99 } else { 100 }
    );
    assert_eq!(report["imported"], rows);
    assert_eq!(report["already_present"], 0);

    let journal = sb.journal();
    assert_eq!(journal.len() as u64, rows);
    let mut without = 0;
    for r in &journal {
        let info = &r["ratchet"];
        assert_eq!(info["imported"]["from"], from);
        assert!(r["samples"].is_null() && r["attempts"].is_null(), "{r}");
        let line = info["imported"]["line"].as_u64().unwrap() as usize;
        let i = if from == "pi" { line - 2 + 1 } else { line - 2 };
        match info["commit"].as_str() {
            Some(c) => {
                assert_eq!(i % 3, 0, "row {i} is no commit of the repository");
                assert!(commits.iter().any(|k| k == c), "{c} in full");
            }
            None => {
                assert_ne!(i % 3, 0, "row {i} names a commit of the repository");
                without += 1;
            }
        }
    }
    assert_eq!(report["without_commit"], without);
    assert!(without > 0);

    let before = sb.read(".arx/journal.jsonl");
    let again = import(sb, file, from);
    assert_eq!(
        (
            again["imported"].as_u64(),
            again["already_present"].as_u64()
        ),
        (Some(0), Some(rows))
    );
    assert_eq!(sb.read(".arx/journal.jsonl"), before, "byte-identical");
}

#[test]
fn karpathys_results_tsv_every_row_accounted_for_once() {
    let (sb, commits) = repo();
    accounts_for_every_row(
        "karpathy",
        "results.tsv",
        &karpathy_tsv(&commits),
        &commits,
        &sb,
    );
    let journal = sb.journal();
    // The first keep is the night's baseline; a crash records no value.
    assert_eq!(journal[0]["ratchet"]["status"], "baseline");
    let crash = journal
        .iter()
        .find(|r| r["ratchet"]["status"] == "crash")
        .unwrap();
    assert!(crash["metrics"]["val_bpb"].is_null());
    assert_eq!(journal[1]["ratchet"]["segment"], "import:karpathy:val_bpb");
}

#[test]
fn codexs_results_tsv_every_row_accounted_for_once() {
    let (sb, commits) = repo();
    accounts_for_every_row("codex", "results.tsv", &codex_tsv(&commits), &commits, &sb);
}

#[test]
fn pis_autoresearch_jsonl_every_line_accounted_for_once() {
    let (sb, commits) = repo();
    accounts_for_every_row(
        "pi",
        "autoresearch.jsonl",
        &pi_jsonl(&commits),
        &commits,
        &sb,
    );
    let journal = sb.journal();
    assert_eq!(journal[0]["ratchet"]["metric"], "ms");
    assert_eq!(journal[0]["metrics"]["rss"], 1.0);
    assert_eq!(journal[0]["started_at"], "2025-11-24T16:01:00.000Z");
}

#[test]
fn a_grown_file_adds_only_its_new_rows() {
    let (sb, commits) = repo();
    let all = karpathy_tsv(&commits);
    let half: String = all.lines().take(51).map(|l| format!("{l}\n")).collect();
    sb.write("results.tsv", &half);
    let first = import(&sb, "results.tsv", "karpathy");
    sb.write("results.tsv", &all);
    let second = import(&sb, "results.tsv", "karpathy");
    assert_eq!(first["imported"], 48);
    assert_eq!(
        (
            second["imported"].as_u64(),
            second["already_present"].as_u64()
        ),
        (Some(47), Some(48))
    );
    assert_eq!(sb.journal().len(), 95);
}

#[test]
fn a_file_of_another_kind_or_encoding_writes_nothing() {
    let (sb, commits) = repo();
    sb.write(".arx/journal.jsonl", jsonl(&[run(1)]));
    let before = sb.read(".arx/journal.jsonl");
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        karpathy_tsv(&commits)
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    sb.write("utf16.tsv", utf16);
    let mut latin1 = karpathy_tsv(&commits).into_bytes();
    latin1.extend(b"abc1234\t0.9\t44\tkeep\tcaf\xe9\n");
    sb.write("latin1.tsv", latin1);
    sb.write("results.tsv", karpathy_tsv(&commits));
    sb.write("autoresearch.jsonl", pi_jsonl(&commits));
    let cases = [
        ("autoresearch.jsonl", "karpathy", "JSON lines", "--from pi"),
        ("results.tsv", "pi", "tab-separated", "--from karpathy"),
        (
            "results.tsv",
            "codex",
            "--from karpathy",
            "--from codex reads",
        ),
        ("utf16.tsv", "karpathy", "UTF-16", "UTF-8"),
        ("latin1.tsv", "karpathy", "not UTF-8 (line 102)", "UTF-8"),
        ("missing.tsv", "karpathy", "no such file", "check the path"),
    ];
    for (file, from, says, hint) in cases {
        sb.arx()
            .args(["journal", "import", file, "--from", from])
            .assert()
            .code(2)
            .stderr(contains(says))
            .stderr(contains("hint: "))
            .stderr(contains(hint));
        assert_eq!(
            sb.read(".arx/journal.jsonl"),
            before,
            "{file} --from {from}"
        );
    }
}

#[test]
fn the_night_goes_before_arxs_own_records_and_best_shows_it() {
    let (sb, commits) = repo();
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"true\"\n",
    );
    sb.write("results.tsv", karpathy_tsv(&commits));
    // Without a measurement of its own, arx best has none to show.
    sb.arx().args(["best"]).assert().code(1);
    sb.write(".arx/journal.jsonl", jsonl(&[run(1)]));
    import(&sb, "results.tsv", "karpathy");
    let journal = sb.journal();
    assert_eq!(journal.len(), 96);
    assert_eq!(journal[95], run(1), "arx's own record stays last");

    let best = stdout_json(sb.arx().args(["best", "--json"]).assert().code(0));
    assert_eq!(best["imported"], true);
    assert_eq!(best["segment"], "import:karpathy:val_bpb");
    // The lowest value kept (row 96 is the last keep: 1 - 0.096).
    assert_eq!(best["value"], 0.904);
    assert_eq!(best["noise"], Value::Null);
    sb.arx()
        .args(["best"])
        .assert()
        .code(0)
        .stdout(contains("imported: not measured by arx"));

    let report = stdout_json(sb.arx().args(["report", "--json"]).assert().code(0));
    let text = report.to_string();
    assert!(text.contains("import:karpathy:val_bpb"), "{text}");
    sb.arx()
        .args(["log", "--last", "200"])
        .assert()
        .code(0)
        .stdout(contains("try 96: tweak the schedule"));
}

/// karpathy's night imported into a repository with no record of its own.
fn imported_night() -> Sandbox {
    let (sb, commits) = repo();
    sb.write("results.tsv", karpathy_tsv(&commits));
    import(&sb, "results.tsv", "karpathy");
    assert_eq!(sb.journal().len(), 95);
    sb
}

#[test]
fn the_precision_engine_counts_no_imported_row_as_a_run() {
    let sb = imported_night();
    let fresh = Sandbox::new();
    std::fs::create_dir(fresh.path().join(".arx")).unwrap();
    let show = |s: &Sandbox, args: &[&str]| {
        stdout_json(
            s.arx()
                .args(["precision", "--json"])
                .args(args)
                .assert()
                .code(0),
        )
    };
    let shown = show(&sb, &[]);
    assert_eq!(shown["runs"], 0, "{shown}");
    assert_eq!(shown, show(&fresh, &[]), "the night moves no precision");
    assert_eq!(show(&sb, &["rebuild"]), show(&fresh, &["rebuild"]));
    // A run of this machine counts, after the night as before it.
    for s in [&sb, &fresh] {
        s.arx()
            .args(["run", "--approve", "--quiet", "--", "true"])
            .assert()
            .code(0);
    }
    assert_eq!(show(&sb, &[])["runs"], 1);
    assert_eq!(show(&sb, &[]), show(&fresh, &[]));
}

#[test]
fn arx_next_counts_no_imported_row_as_a_run() {
    let sb = imported_night();
    let fresh = Sandbox::new();
    let candidates = "[[candidate]]\nname = \"a\"\nstatement = \"A reaches 0.8\"\n\n[[candidate]]\nname = \"b\"\nstatement = \"B reaches 0.8\"\n";
    let next = |s: &Sandbox| {
        let file = s.write("c.toml", candidates);
        stdout_json(
            s.arx()
                .args(["next", "--json", "--candidates"])
                .arg(file)
                .assert()
                .code(0),
        )
    };
    let chosen = next(&sb);
    assert_eq!(
        (chosen["journal_runs"].as_u64(), chosen["seed"].as_u64()),
        (Some(0), Some(0)),
        "{chosen}"
    );
    assert_eq!(chosen, next(&fresh), "the night changes no choice");
}

#[test]
fn the_report_counts_imported_tries_and_no_runs() {
    let sb = imported_night();
    let report = stdout_json(sb.arx().args(["report", "--json"]).assert().code(0));
    let seg = &report["segments"][0];
    assert_eq!(seg["id"], "import:karpathy:val_bpb");
    assert_eq!(
        (seg["tries"].as_u64(), seg["runs"].as_u64()),
        (Some(95), Some(0)),
        "{seg}"
    );
    assert_eq!(report["precision"]["runs"], 0, "{report}");
    sb.arx()
        .args(["report"])
        .assert()
        .code(0)
        .stdout(contains("95 tries, 0 runs"));
}

/// The report's cached fold in `.arx/report.json`, parsed.
fn report_cache(sb: &Sandbox) -> Value {
    serde_json::from_str(&sb.read(".arx/report.json")).expect("the report cache is JSON")
}

/// The cache as a command that folds the whole journal again leaves it.
fn rebuilt_cache(sb: &Sandbox) -> Value {
    std::fs::remove_file(sb.path().join(".arx/report.json")).expect("a report cache");
    sb.arx().args(["report", "--json"]).assert().code(0);
    report_cache(sb)
}

#[test]
fn an_import_and_its_undo_leave_the_report_cache_current() {
    let (sb, commits) = repo();
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"true\"\n",
    );
    sb.write("results.tsv", karpathy_tsv(&commits));
    sb.write(".arx/journal.jsonl", jsonl(&[run(1)]));
    // A cache of the journal before the import.
    sb.arx().args(["report", "--json"]).assert().code(0);
    let report = import(&sb, "results.tsv", "karpathy");
    let size = std::fs::metadata(sb.path().join(".arx/journal.jsonl"))
        .expect("a journal")
        .len();
    // The import folded what it wrote: the next command reads the cache
    // and has nothing to fold again.
    let after = report_cache(&sb);
    assert_eq!(
        after["journal_bytes"], size,
        "the cache covers the new journal"
    );
    assert_eq!(after, rebuilt_cache(&sb), "the same fold as a rebuild");

    let id = report["import"]
        .as_str()
        .expect("the import's id")
        .to_string();
    sb.arx()
        .args(["journal", "import", "--undo", &id])
        .assert()
        .code(0);
    let undone = report_cache(&sb);
    assert_eq!(undone["journal_bytes"], jsonl(&[run(1)]).len() as u64);
    assert_eq!(undone, rebuilt_cache(&sb));
}
