use super::*;

const KARPATHY: &str = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\n\
a1b2c3d\t0.997900\t44.0\tkeep\tbaseline\n\
b2c3d4e\t0.993200\t44.2\tkeep\tincrease LR to 0.04\n\
c3d4e5f\t1.005000\t44.0\tdiscard\tswitch to GeLU activation\n\
d4e5f6g\t0.000000\t0.0\tcrash\tdouble model width (OOM)\n";

fn karpathy(text: &str) -> Night {
    parse(Source::Karpathy, text.as_bytes(), &Options::default()).unwrap()
}

#[test]
fn reads_karpathys_results_tsv() {
    let n = karpathy(KARPATHY);
    assert_eq!((n.metric(), n.direction()), ("val_bpb", Direction::Min));
    assert!(n.skipped.is_empty(), "{:?}", n.skipped);
    let st: Vec<_> = n.rows.iter().map(|r| r.status).collect();
    use TryStatus::*;
    assert_eq!(st, [Baseline, Keep, Discard, Crash]);
    assert_eq!(n.rows[1].value, Some(0.9932));
    assert_eq!(n.rows[1].metrics, [("memory_gb".to_string(), 44.2)]);
    assert_eq!(n.rows[1].commit.as_deref(), Some("b2c3d4e"));
    assert_eq!(n.rows[1].line, 3);
    // A crash's logged zeros are not measurements; a commit that is not
    // hex is no commit.
    assert_eq!((n.rows[3].value, n.rows[3].metrics.len()), (None, 0));
    assert_eq!(n.rows[3].commit, None);
    assert_eq!(
        n.rows[2].description.as_deref(),
        Some("switch to GeLU activation")
    );
    assert_eq!(n.nights[0].segment, "import:karpathy:val_bpb");
    assert_eq!(n.nights[0].direction_from, "keeps");
}

#[test]
fn a_malformed_row_is_skipped_with_its_line() {
    let text = format!(
        "{KARPATHY}e5f6a7b\tabc\t44\tdiscard\tbad number\nf6a7b8c\t0.99\tkeep\n\
         a7b8c9d\t0.99\t44\tmaybe\tunknown status\n\r\n\
         b8c9d0e\t0.98\t44\tkeep\tdescription\twith a tab\r\n"
    );
    let n = karpathy(&text);
    let lines: Vec<usize> = n.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, [6, 7, 8], "{:?}", n.skipped);
    assert!(n.skipped[0].reason.contains("val_bpb \"abc\""));
    assert!(n.skipped[1].reason.contains("3 fields, the header has 5"));
    assert!(n.skipped[2].reason.contains("\"maybe\""));
    let last = n.rows.last().unwrap();
    assert_eq!(
        (last.line, last.description.as_deref()),
        (10, Some("description\twith a tab"))
    );
}

#[test]
fn identities_are_stable_and_distinct() {
    let dup = format!("{KARPATHY}c3d4e5f\t1.005000\t44.0\tdiscard\tswitch to GeLU activation\n");
    let a = karpathy(KARPATHY);
    let b = karpathy(&dup);
    let ids = |n: &Night| n.rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    // A file grown by rows keeps the identities of the rows it had.
    assert_eq!(ids(&b)[..4], ids(&a)[..]);
    // An equal row again is another run.
    assert_ne!(ids(&b)[4], ids(&b)[2]);
    assert!(uuid::Uuid::parse_str(&ids(&a)[0]).is_ok());
    let mut all = ids(&b);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 5);
}

#[test]
fn reads_codexs_results_tsv() {
    let text = "iteration\tcommit\tmetric\tdelta\tstatus\tdescription\n\
                0\tabc1234\t0.81\t0.0\tbaseline\tbaseline\n\
                1\tbcd2345\t0.83\t0.02\tkeep\tadd dropout\n\
                2\tcde3456\t0.80\t-0.03\tdiscard\twider\n";
    let o = Options {
        metric: Some("acc".into()),
        direction: Some(Direction::Max),
        configured: None,
    };
    let n = parse(Source::Codex, text.as_bytes(), &o).unwrap();
    assert_eq!((n.metric(), n.direction()), ("acc", Direction::Max));
    let st: Vec<_> = n.rows.iter().map(|r| r.status).collect();
    assert_eq!(
        st,
        [TryStatus::Baseline, TryStatus::Keep, TryStatus::Discard]
    );
    // Neither the iteration nor the delta is a measurement.
    assert!(n.rows.iter().all(|r| r.metrics.is_empty()));
    assert_eq!(n.rows[1].value, Some(0.83));
}

#[test]
fn reads_pis_jsonl() {
    let text = r#"{"type":"config","name":"speed","metricName":"ms","metricUnit":"ms","bestDirection":"lower"}
{"commit":"abc1234","metric":120.5,"metrics":{"ms":120.5,"rss":30},"status":"keep","description":"baseline","timestamp":1764000000000,"segment":0,"confidence":null}
{"commit":"bcd2345","metric":110,"metrics":{},"status":"keep","description":"cache the parse","timestamp":1764000060000,"segment":0}
not json
{"commit":"cde3456","metric":0,"status":"crash","description":"oom","timestamp":1764000120000,"segment":0}
{"commit":"def4567","metric":111,"status":"checks_failed","description":"skip validation","segment":0}
[1,2]
{"metric":1,"status":"bogus"}
"#;
    let n = parse(Source::Pi, text.as_bytes(), &Options::default()).unwrap();
    assert_eq!((n.metric(), n.direction()), ("ms", Direction::Min));
    let st: Vec<_> = n.rows.iter().map(|r| r.status).collect();
    use TryStatus::*;
    assert_eq!(st, [Baseline, Keep, Crash, ChecksFailed]);
    assert_eq!(n.rows[0].metrics, [("rss".to_string(), 30.0)]);
    assert_eq!(n.rows[0].at.as_deref(), Some("2025-11-24T16:00:00.000Z"));
    assert_eq!(n.nights[n.rows[0].night].segment, "import:pi:ms:0");
    assert_eq!(n.rows[2].value, None);
    let lines: Vec<usize> = n.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, [4, 7, 8]);
}

#[test]
fn a_file_of_another_kind_is_refused() {
    let jsonl = "{\"metric\":1,\"status\":\"keep\"}\n";
    let kinds = [
        (Source::Karpathy, jsonl, "JSON lines"),
        (Source::Pi, KARPATHY, "tab-separated"),
        (Source::Codex, KARPATHY, "--from karpathy"),
        (
            Source::Karpathy,
            "iteration\tcommit\tmetric\tdelta\tstatus\tdescription\n",
            "--from codex",
        ),
        (Source::Karpathy, "", "empty"),
        (Source::Karpathy, "hello world\n", "not tab-separated"),
    ];
    for (from, text, says) in kinds {
        match parse(from, text.as_bytes(), &Options::default()) {
            Err(ImportError::Kind(m)) => assert!(m.contains(says), "{from}: {m}"),
            other => panic!("{from} {text:?}: {other:?}"),
        }
    }
}

#[test]
fn text_that_is_not_utf8_is_refused() {
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("commit\tval_bpb".encode_utf16().flat_map(u16::to_le_bytes));
    let latin1 = b"commit\tval_bpb\tstatus\tdescription\nabc1234\t1.0\tkeep\tcaf\xe9\n";
    for (bytes, says) in [
        (&utf16[..], "UTF-16"),
        (&latin1[..], "not UTF-8 (line 2)"),
        (&b"commit\0"[..], "NUL"),
    ] {
        match parse(Source::Karpathy, bytes, &Options::default()) {
            Err(ImportError::Encoding(m)) => assert!(m.contains(says), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    // A byte-order mark is not an error.
    let bom = format!("\u{feff}{KARPATHY}");
    assert_eq!(karpathy(&bom).rows.len(), 4);
}

#[test]
fn records_are_imported_ratchet_records() {
    let n = karpathy(KARPATHY);
    let full = |c: &str| Some(format!("{c}{}", "0".repeat(33)));
    let commits = [full("a1b2c3d"), None, full("c3d4e5f"), None];
    let rs = records(&n, &commits, "2026-11-27T09:00:00Z");
    assert_eq!(rs.len(), 4);
    let info = |i: usize| rs[i].ratchet.as_ref().unwrap();
    assert_eq!(
        info(0).imported,
        Some(Imported {
            from: Source::Karpathy,
            line: 2,
            import: None,
            file: None,
        })
    );
    assert_eq!(info(0).rule, IMPORTED_RULE);
    assert_eq!(info(0).kept, full("a1b2c3d").unwrap());
    // The keep without a commit in the repository: measured against the
    // baseline, recorded without a commit.
    assert_eq!(
        (info(1).commit.clone(), info(1).kept.clone()),
        (None, full("a1b2c3d").unwrap())
    );
    assert_eq!(rs[1].metrics.get("val_bpb"), Some(0.9932));
    assert_eq!(rs[1].started_at, "2026-11-27T09:00:00Z");
    assert_eq!((rs[3].exit_code, rs[3].metrics.get("val_bpb")), (1, None));
    assert!(rs
        .iter()
        .all(|r| r.samples.is_empty() && r.attempts.is_empty()));
}

/// Imported records with replicates and a slot, as a hand edit or a later
/// format may hold: still never the noise's, never a slot's.
fn with_samples() -> Vec<RunRecord> {
    let n = karpathy(KARPATHY);
    let mut rs = records(&n, &[None, None, None, None], "2026-11-27T09:00:00Z");
    for r in &mut rs[..3] {
        r.samples = vec![1.0, 2.0, 4.0];
        r.slot = Some("gpu0".into());
    }
    rs
}

#[test]
fn imported_records_are_never_replicates_of_the_segment_noise() {
    let rs = with_samples();
    let seg = crate::kernel::segment::segments(&rs).pop().unwrap();
    assert_eq!(seg.tries, 4);
    // Tries shown, no run of this machine.
    assert_eq!(seg.runs, 0);
    assert!(seg.replicates.is_empty(), "{:?}", seg.replicates);
    assert!(seg.slot_runs.is_empty());
}

#[test]
fn imported_records_are_never_replicates_of_the_report_noise() {
    use crate::kernel::report::{fold_all, parse_line};
    for escaped in [false, true] {
        let lines: Vec<String> = with_samples()
            .iter()
            .map(|r| {
                let l = serde_json::to_string(r).unwrap();
                // An escaped key sends the line to serde instead of the walk.
                match escaped {
                    true => l.replace("\"imported\"", "\"\\u0069mported\""),
                    false => l,
                }
            })
            .collect();
        let mut points: Vec<_> = lines
            .iter()
            .map(|l| parse_line(l.as_bytes()).expect("a record"))
            .collect();
        let fold = fold_all(&mut points);
        assert!(points
            .iter()
            .all(|p| p.samples.is_empty() && p.slot.is_none()));
        let seg = fold.segments.last().unwrap();
        assert_eq!(seg.noise(), None, "escaped {escaped}");
        assert_eq!((seg.tries, seg.runs), (4, 0), "escaped {escaped}");
    }
}

#[test]
fn names_from_a_file_cannot_drive_a_terminal() {
    let text = "commit\tval\u{1b}[2J\tmem\u{7}\tstatus\tdescription\n\
                a1b2c3d\t1.0\t4\tkeep\tbaseline\n\
                b2c3d4e\t0.9\t5\tkeep\tbetter\n";
    let n = karpathy(text);
    assert_eq!(n.metric(), "val\u{fffd}[2J");
    assert_eq!(n.rows[0].metrics[0].0, "mem\u{fffd}");
}

#[test]
fn a_header_alone_is_a_night_of_no_rows() {
    let n = karpathy("commit\tval_bpb\tmemory_gb\tstatus\tdescription\n");
    assert!(n.rows.is_empty() && n.skipped.is_empty());
}
