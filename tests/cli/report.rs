use predicates::str::contains;
use serde_json::{json, Value};

use crate::support::{id, jsonl, run, stdout_json, Sandbox};

/// A try of segment `seg`: `status` with `value` (none: a crash).
fn try_record(n: u32, seg: &str, status: &str, value: Option<f64>) -> Value {
    let mut r = run(n);
    r["spec"] = Value::Null;
    r["verdict"] = Value::Null;
    r["candidate"] = Value::Null;
    r["metrics"] = match value {
        Some(v) => json!({ "loss": v, "mem_gb": 40 }),
        None => json!({}),
    };
    if value.is_none() {
        r["exit_code"] = json!(1);
        r["failure_class"] = json!("H4");
    }
    r["ratchet"] = json!({
        "segment": seg,
        "status": status,
        "description": format!("try {n}: {status}"),
        "metric": "loss",
        "direction": "min",
        "rule": "confirm",
        "kept": "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "commit": format!("{n:07}cccccccccccccccccccccccccccccccccc"),
    });
    r
}

/// Segment 1 (three tries), then segment 2: baseline, discard, keep,
/// crash, an unknown status, keep; and two plain runs of a candidate.
fn journal(sb: &Sandbox) -> usize {
    let mut plain_refuted = run(20);
    plain_refuted["verdict"]["verdict"] = json!("refuted");
    plain_refuted["verdict"]["detail"] = json!("acc=0.61 >= 0.8 → fail");
    plain_refuted["metrics"]["acc"] = json!(0.61);
    let records = vec![
        try_record(1, "s1", "baseline", Some(2.0)),
        try_record(2, "s1", "keep", Some(1.5)),
        try_record(3, "s1", "discard", Some(1.7)),
        try_record(4, "s2", "baseline", Some(1.0)),
        try_record(5, "s2", "discard", Some(1.1)),
        try_record(6, "s2", "keep", Some(0.9)),
        try_record(7, "s2", "crash", None),
        try_record(8, "s2", "teleported", Some(0.95)),
        try_record(9, "s2", "keep", Some(0.8)),
        run(19),
        plain_refuted,
    ];
    sb.write(".arx/journal.jsonl", jsonl(&records));
    records.len()
}

const NOW: &str = "2026-11-21T12:00:00Z";

#[test]
fn the_terminal_view_summarizes_the_latest_segment_in_100_columns() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb.arx().args(["report", "--now", NOW]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("segment 2"), "{text}");
    assert!(
        !text.contains("segment 1 "),
        "only the latest segment:\n{text}"
    );
    assert!(text.contains("loss (lower is better)"), "{text}");
    assert!(
        text.contains("best              0.80000 at 0000009"),
        "{text}"
    );
    assert!(
        text.contains("5 runs: 2 kept, 1 discarded, 1 crashed, 1 other")
            || text.contains("6 tries"),
        "{text}"
    );
    assert!(text.contains("keep rate         40.0%"), "{text}");
    assert!(text.contains("since last keep   0 tries"), "{text}");
    assert!(text.contains("by metric and candidate"), "{text}");
    assert!(text.contains("acc     hybrid"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line:?}");
    }
}

#[test]
fn json_is_the_whole_report_as_one_object() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb
        .arx()
        .args(["report", "--json", "--now", NOW, "--last", "3"])
        .assert()
        .code(0);
    let v = stdout_json(&out);
    assert_eq!(v["journal"]["runs"], 11);
    assert_eq!(v["journal"]["segments"], 2);
    let seg = &v["segments"][0];
    assert_eq!(seg["number"], 2);
    assert_eq!(
        (
            seg["keeps"].as_u64(),
            seg["discards"].as_u64(),
            seg["crashes"].as_u64(),
            seg["other"].as_u64()
        ),
        (Some(2), Some(1), Some(1), Some(1))
    );
    assert_eq!(seg["statuses"]["teleported"], 1);
    assert_eq!(seg["best"]["value"], 0.8);
    assert_eq!(seg["baseline"]["value"], 1.0);
    assert_eq!(
        seg["best"]["change"].as_f64().map(|c| (c * 1e9).round()),
        Some(-2e8)
    );
    assert_eq!(seg["elapsed_hours"], 2.0 - 4.0 / 60.0);
    assert_eq!(v["last_runs"].as_array().unwrap().len(), 3);
    assert_eq!(v["last_runs"][2]["run_id"], id(20));
    assert_eq!(v["last_runs"][2]["status"], "refuted");
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert_eq!(groups[1]["candidate"], "hybrid");
    assert_eq!(groups[1]["statuses"]["refuted"], 1);
    assert_eq!(groups[1]["best"], 0.8312);
}

#[test]
fn segment_narrows_to_one_segment_and_all_summarizes_every_one() {
    let sb = Sandbox::new();
    journal(&sb);
    let one = stdout_json(
        sb.arx()
            .args(["report", "--json", "--now", NOW, "--segment", "1"])
            .assert()
            .code(0),
    );
    assert_eq!(one["runs"], 3);
    assert_eq!(one["segments"][0]["number"], 1);
    assert_eq!(one["segments"][0]["best"]["value"], 1.5);
    let all = stdout_json(
        sb.arx()
            .args(["report", "--json", "--now", NOW, "--segment", "all"])
            .assert()
            .code(0),
    );
    assert_eq!(all["segments"].as_array().unwrap().len(), 2);
    assert_eq!(all["runs"], 11);
    sb.arx()
        .args(["report", "--segment", "3"])
        .assert()
        .code(2)
        .stderr(contains("no segment 3: the journal has 2 segments"))
        .stderr(contains("from 1 to 2"));
    sb.arx()
        .args(["report", "--segment", "zero"])
        .assert()
        .code(2);
}

#[test]
fn markdown_has_the_summary_and_a_row_per_last_run_and_is_deterministic() {
    let sb = Sandbox::new();
    journal(&sb);
    let md = |last: &str| {
        let out = sb
            .arx()
            .args(["report", "--markdown", "--now", NOW, "--last", last])
            .assert()
            .code(0);
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = md("4");
    assert_eq!(
        text,
        md("4"),
        "the same journal and --now give the same bytes"
    );
    // Two tries and two plain runs: records.
    let (_, after) = text.split_once("### Last 4 records\n\n").expect(&text);
    let table: Vec<&str> = after.lines().take_while(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), 2 + 4, "header, divider and four rows:\n{text}");
    assert_eq!(
        table[0],
        "| # | commit | value | change | status | description |"
    );
    assert!(table[2].starts_with("| 8 | "), "{}", table[2]);
    assert!(table[5].contains("| refuted |"), "{}", table[5]);
    assert!(text.contains("| keep rate | 40.0% |"), "{text}");
    sb.arx()
        .args(["report", "--markdown", "--json"])
        .assert()
        .code(2);
}

/// The marks of an SVG chart: circles (runs with a value) and polygons
/// (runs on the axis); the document must parse as XML.
fn svg_marks(svg: &str) -> (usize, usize) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(svg);
    let (mut circles, mut polygons) = (0, 0);
    loop {
        match reader.read_event().expect("the SVG parses as XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                b"circle" => circles += 1,
                b"polygon" => polygons += 1,
                _ => {}
            },
            _ => {}
        }
    }
    (circles, polygons)
}

#[test]
fn the_svg_chart_parses_and_has_one_mark_per_run_of_the_segment() {
    let sb = Sandbox::new();
    journal(&sb);
    sb.arx()
        .args(["report", "-q", "--svg", "chart.svg"])
        .assert()
        .code(0)
        .stderr(contains("wrote the chart to chart.svg"));
    let svg = sb.read("chart.svg");
    assert!(svg.contains("loss: segment 2"));
    // Six tries: five with a value (circles), the crash on the axis.
    assert_eq!(svg_marks(&svg), (5, 1));
    sb.arx()
        .args([
            "report",
            "-q",
            "--svg",
            "one.svg",
            "--segment",
            "1",
            "--x",
            "time",
        ])
        .assert()
        .code(0);
    let svg = sb.read("one.svg");
    assert_eq!(svg_marks(&svg), (3, 0));
    assert!(svg.contains("hours since the first run"));
}

#[test]
fn the_junit_file_parses_and_its_counts_match_the_journal() {
    use quick_xml::events::Event;
    let sb = Sandbox::new();
    let runs = journal(&sb);
    sb.arx()
        .args(["report", "-q", "--junit", "runs.xml"])
        .assert()
        .code(0)
        .stderr(contains(format!("wrote {runs} test cases")));
    let xml = sb.read("runs.xml");
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    let mut totals = None;
    loop {
        match reader.read_event().expect("the JUnit file parses") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
                };
                match e.name().as_ref() {
                    b"testsuites" => {
                        totals = Some((
                            attr("tests"),
                            attr("failures"),
                            attr("errors"),
                            attr("skipped"),
                        ))
                    }
                    b"testcase" => cases += 1,
                    b"failure" => failures += 1,
                    b"error" => errors += 1,
                    b"skipped" => skipped += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    // Fails: two discards and the refuted run; the crash errs; the
    // unknown status is skipped; the rest pass.
    assert_eq!((cases, failures, errors, skipped), (runs, 3, 1, 1));
    let s = |n: usize| Some(n.to_string());
    assert_eq!(totals, Some((s(runs), s(3), s(1), s(1))));
    assert!(
        xml.contains("acc=0.61 &gt;= 0.8 → fail") || xml.contains("acc=0.61 >= 0.8 → fail"),
        "{xml}"
    );
    assert!(
        xml.contains("type=\"H4\""),
        "the crash carries its failure class:\n{xml}"
    );
}

#[test]
fn the_html_page_is_self_contained_with_the_chart_and_every_run() {
    let sb = Sandbox::new();
    let runs = journal(&sb);
    sb.arx()
        .args(["report", "-q", "--html", "report.html", "--refresh", "30"])
        .assert()
        .code(0);
    let html = sb.read("report.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<svg"));
    assert!(html.contains("<meta http-equiv=\"refresh\" content=\"30\">"));
    assert!(html.contains("default-src 'none'"));
    let body = html.split("<table id=\"runs\">").nth(1).unwrap();
    let body = body.split("</table>").next().unwrap();
    assert_eq!(
        body.matches("<tr>").count(),
        1 + runs,
        "a header and every run"
    );
    // Nothing is fetched: no src or href attributes, no URL but the SVG
    // namespace.
    assert!(!html.contains(" src=") && !html.contains(" href="));
    let urls = html.matches("http://").count() + html.matches("https://").count();
    assert_eq!(urls, html.matches("http://www.w3.org/2000/svg").count());
    // --refresh needs --html, and a positive number.
    sb.arx().args(["report", "--refresh", "5"]).assert().code(2);
    sb.arx()
        .args(["report", "--html", "x.html", "--refresh", "0"])
        .assert()
        .code(2);
}

#[test]
fn text_from_the_journal_is_escaped_in_the_page() {
    let sb = Sandbox::new();
    let mut r = try_record(1, "s1", "baseline", Some(1.0));
    r["ratchet"]["description"] = json!("<script>alert(1)</script> & \"quotes\"");
    sb.write(".arx/journal.jsonl", jsonl(&[r]));
    sb.arx()
        .args(["report", "-q", "--html", "report.html"])
        .assert()
        .code(0);
    let html = sb.read("report.html");
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"));
}

#[test]
fn an_empty_journal_reports_no_runs_and_torn_lines_are_skipped_with_a_warning() {
    let sb = Sandbox::new();
    sb.arx()
        .arg("report")
        .assert()
        .code(0)
        .stdout(contains("no runs recorded"));
    assert!(
        !sb.path().join(".arx").exists(),
        "a report creates no state"
    );
    let mut text = jsonl(&[run(1)]);
    text.push_str("{\"run_id\": \"torn");
    sb.write(".arx/journal.jsonl", text);
    let out = sb.arx().args(["report", "--json"]).assert().code(0);
    assert!(crate::support::stderr(&out).contains("1 journal line(s) are not run records"));
    let v = stdout_json(&out);
    assert_eq!(v["journal"]["runs"], 1);
    assert_eq!(v["journal"]["unreadable"], 1);
}

#[test]
fn report_files_are_not_written_through_a_symbolic_link() {
    let sb = Sandbox::new();
    journal(&sb);
    sb.write("elsewhere.html", "old");
    std::os::unix::fs::symlink(
        sb.path().join("elsewhere.html"),
        sb.path().join("report.html"),
    )
    .unwrap();
    sb.arx()
        .args(["report", "-q", "--html", "report.html"])
        .assert()
        .code(2)
        .stderr(contains("symbolic link"));
    assert_eq!(sb.read("elsewhere.html"), "old");
}

#[test]
fn the_cached_summary_is_the_summary_of_every_record() {
    let sb = Sandbox::new();
    journal(&sb);
    let report = |extra: &[&str]| {
        let out = sb
            .arx()
            .args(["report", "--json", "--now", NOW])
            .args(extra)
            .assert()
            .code(0);
        stdout_json(&out)
    };
    // Built at once, then from the cache, then from the cache extended by
    // an appended try: each equal to the report that reads every record.
    let cold = report(&[]);
    assert!(sb.path().join(".arx/report.json").exists());
    assert_eq!(report(&[]), cold);
    assert_eq!(report(&["--junit", "runs.xml"]), cold);
    let mut text = sb.read(".arx/journal.jsonl");
    text.push_str(&jsonl(&[try_record(30, "s2", "keep", Some(0.5))]));
    sb.write(".arx/journal.jsonl", text);
    let warm = report(&[]);
    assert_eq!(warm["segments"][0]["keeps"], 3);
    assert_eq!(warm["segments"][0]["best"]["value"], 0.5);
    assert_eq!(warm, report(&["--junit", "runs.xml"]));
    // A journal rewritten (not appended to) is folded anew.
    journal(&sb);
    assert_eq!(report(&[]), cold);
}

#[test]
fn dead_ends_and_rounds_are_listed() {
    let sb = Sandbox::new();
    journal(&sb);
    sb.write(
        ".arx/dead-ends.jsonl",
        jsonl(&[json!({
            "approach_hash": "adf460601cafce90",
            "statement": "BM25 alone reaches 0.8",
            "reason": "acc=0.61 >= 0.8 → fail",
            "iteration": 2,
            "evidence_level": "deterministic",
            "created_at": "2026-11-21T10:20:00Z"
        })]),
    );
    sb.write(
        ".arx/rounds/r-0001/RECORD.json",
        json!({
            "round_id": "r-0001",
            "status": "applied",
            "detail": "raise the timeout of the eval",
            "patch_hash": "0123456789abcdef",
            "created_at": "2026-11-21T11:00:00Z",
            "applied_sha": "89abcdef0123456789abcdef0123456789abcdef"
        })
        .to_string(),
    );
    let out = sb.arx().args(["report", "--now", NOW]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("dead ends (1 recorded)"), "{text}");
    assert!(text.contains("BM25 alone reaches 0.8 — acc=0.61"), "{text}");
    assert!(text.contains("rounds (1 recorded)"), "{text}");
    assert!(
        text.contains("applied  raise the timeout of the eval"),
        "{text}"
    );
    let v = stdout_json(sb.arx().args(["report", "--json"]).assert().code(0));
    assert_eq!(v["dead_ends"][0]["approach_hash"], "adf460601cafce90");
    assert_eq!(
        v["rounds"][0]["commit"],
        "89abcdef0123456789abcdef0123456789abcdef"
    );
    sb.arx()
        .args(["report", "-q", "--html", "page.html"])
        .assert()
        .code(0);
    let html = sb.read("page.html");
    assert!(html.contains("<h2>Rounds") && html.contains("raise the timeout of the eval"));
    assert!(html.contains("<h2>Dead ends") && html.contains("BM25 alone reaches 0.8"));
}

/// `arx status` (the ratchet) and `arx report` (the report's fold) count a
/// segment's tries by one rule: over every try status, in every order the
/// counts can take, they give the same numbers.
#[test]
fn status_and_report_count_every_try_status_alike() {
    let sb = Sandbox::new();
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"loss\"\ndirection = \"min\"\ncommand = \"true\"\n",
    );
    let empty = stdout_json(sb.arx().args(["status", "--json"]).assert().code(1));
    let seg = empty["segment"].as_str().unwrap().to_string();
    let statuses = [
        ("baseline", Some(1.0)),
        ("discard", Some(1.1)),
        ("checks_failed", Some(0.9)),
        ("protected", None),
        ("crash", None),
        ("keep", Some(0.8)),
        ("pruned", Some(1.3)),
        ("interrupted", None),
        ("discard", Some(1.2)),
    ];
    let records: Vec<Value> = statuses
        .iter()
        .enumerate()
        .map(|(i, (s, v))| {
            let mut r = try_record(i as u32 + 1, &seg, s, *v);
            // The baseline and the keep are repeated: an estimate with noise.
            if let (Some(v), "baseline" | "keep") = (v, *s) {
                r["samples"] = json!([v, v + 0.02, v - 0.01]);
            }
            r
        })
        .collect();
    // Every prefix of the journal: the counts agree at each step.
    for n in 1..=records.len() {
        sb.write(".arx/journal.jsonl", jsonl(&records[..n]));
        let status = stdout_json(sb.arx().args(["status", "--json", "--now", NOW]).assert());
        let report = stdout_json(
            sb.arx()
                .args(["report", "--json", "--now", NOW])
                .assert()
                .code(0),
        );
        let summary = &report["segments"][0];
        for (s, r) in [
            ("tries", "tries"),
            ("runs", "runs"),
            ("keeps", "keeps"),
            ("discards", "discards"),
            ("crashes", "crashes"),
            ("non_keeps_in_a_row", "since_keep"),
        ] {
            assert_eq!(
                status[s], summary[r],
                "{s} after {n} tries: {status} vs {summary}"
            );
        }
        let (a, b) = (status["best"].as_f64(), summary["best"]["value"].as_f64());
        assert!(a.is_some() && b.is_some(), "{n}: {status} vs {summary}");
        assert!(
            (a.unwrap() - b.unwrap()).abs() < 1e-9,
            "best after {n}: {a:?} vs {b:?}"
        );
        assert_eq!(status["noise"].is_null(), summary["noise"].is_null(), "{n}");
        assert_eq!(status["stop"], summary["advice"]["stop"], "{n}");
    }
    let status = stdout_json(sb.arx().args(["status", "--json", "--now", NOW]).assert());
    assert_eq!(
        (&status["keeps"], &status["discards"], &status["crashes"]),
        (&json!(1), &json!(5), &json!(2)),
        "{status}"
    );
    assert_eq!(
        (&status["checks_failed"], &status["protected"]),
        (&json!(1), &json!(1))
    );
}

#[test]
fn the_slot_effect_is_shown_in_every_view_once_two_slots_have_two_tries() {
    let sb = Sandbox::new();
    // Tries on slot "a" read 0.1 worse than the best, on slot "b" 0.5: in
    // the metric's units (a loss), b reads 0.2 higher than the mean, a 0.2
    // lower.
    let mut records = vec![try_record(1, "s1", "baseline", Some(1.0))];
    for (n, slot, loss) in [
        (2, "a", 1.05),
        (3, "b", 1.45),
        (4, "a", 1.15),
        (5, "b", 1.55),
    ] {
        let mut r = try_record(n, "s1", "discard", Some(loss));
        r["slot"] = json!(slot);
        records.push(r);
    }
    sb.write(".arx/journal.jsonl", jsonl(&records));
    let out = sb.arx().args(["report", "--now", NOW]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("a \u{2212}0.20000 ± 0.050000 (2 tries) · b +0.20000 ± 0.050000 (2 tries)"),
        "{text}"
    );
    let md = sb
        .arx()
        .args(["report", "--markdown", "--now", NOW])
        .assert()
        .code(0);
    assert!(String::from_utf8_lossy(&md.get_output().stdout).contains("slot effect"));
    let json = stdout_json(
        sb.arx()
            .args(["report", "--json", "--now", NOW])
            .assert()
            .code(0),
    );
    let slots = &json["segments"][0]["slots"];
    assert_eq!(slots[1]["slot"], "b", "{slots}");
    assert!(
        (slots[1]["effect"]["change"].as_f64().unwrap() - 0.5).abs() < 1e-9,
        "{slots}"
    );
    assert_eq!(slots[1]["effect"]["tries"], 2);
}

#[test]
fn a_page_written_to_a_file_is_not_printed_again_as_the_terminal_report() {
    let sb = Sandbox::new();
    journal(&sb);
    let out = sb
        .arx()
        .args(["report", "--now", NOW, "--html", "report.html"])
        .assert()
        .code(0);
    let out = out.get_output();
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote the page to report.html"));
    assert!(sb.read("report.html").contains("<html"));
    // Asked for as data, the report still comes out.
    let out = sb
        .arx()
        .args(["report", "--json", "--now", NOW, "--svg", "chart.svg"])
        .assert()
        .code(0);
    assert!(stdout_json(&out)["segments"].is_array());
}
