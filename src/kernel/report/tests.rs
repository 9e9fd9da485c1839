use super::*;

fn line(status: &str, value: Option<f64>, extra: &str) -> String {
    let metrics = match value {
        Some(v) => format!("{{\"loss\":{v}}}"),
        None => "{}".to_string(),
    };
    format!(
        "{{\"run_id\":\"01a2-{status}-{}\",\"started_at\":\"2026-01-01T00:00:00Z\",\"duration_ms\":5,\
         \"metrics\":{metrics},\"exit_code\":0,\"timed_out\":false,\"failure_class\":\"none\",\
         \"ratchet\":{{\"segment\":\"s1\",\"status\":\"{status}\",\"metric\":\"loss\",\"direction\":\"min\",\
         \"kept\":\"k0\",\"description\":\"try {status}\"{extra}}}}}",
        value.unwrap_or(0.0)
    )
}

fn parse(lines: &[String]) -> Vec<Point<'_>> {
    let mut points: Vec<Point<'_>> = lines
        .iter()
        .map(|l| parse_line(l.as_bytes()).expect("a record"))
        .collect();
    fold_all(&mut points);
    points
}

fn report(points: &[Point<'_>], scope: Scope) -> Overview {
    let mut owned = points.to_vec();
    let fold = fold_all(&mut owned);
    let last = last_rows(&last_in_scope(&owned, scope, 10), &fold);
    overview(&fold, scope, &ctx(), last)
}

fn ctx() -> Context {
    Context {
        now: "2026-01-01T02:00:00Z".into(),
        now_ms: millis("2026-01-01T02:00:00Z"),
        last: 10,
        ..Context::default()
    }
}

#[test]
fn a_segment_counts_keeps_discards_crashes_and_unknown_statuses() {
    let lines = vec![
        line("baseline", Some(1.0), ""),
        line("discard", Some(1.2), ""),
        line("keep", Some(0.8), ",\"commit\":\"c1\""),
        line("crash", None, ""),
        line("pruned", Some(1.5), ""),
        line("lost", None, ""),
        line("teleported", Some(0.1), ""),
    ];
    let points = parse(&lines);
    assert_eq!(points[4].status, Status::Pruned);
    assert_eq!(points[6].status, Status::Other);
    assert_eq!(points[6].status_text(), "teleported");
    let o = report(&points, Scope::Latest);
    let s = &o.segments[0];
    assert_eq!((s.keeps, s.discards, s.crashes, s.other), (1, 2, 2, 1));
    assert_eq!(s.since_keep, 4);
    assert_eq!(s.keep_rate, Some(1.0 / 6.0));
    let best = s.best.as_ref().unwrap();
    assert_eq!(best.commit, "c1");
    assert_eq!(best.value.value, 0.8);
    assert!((best.change.unwrap() + 0.2).abs() < 1e-12);
    assert_eq!(s.elapsed_hours, 2.0);
    assert_eq!(o.groups.len(), 1);
    // A try's best in the per-metric table is the segment's last keep,
    // as the segment's best: not a value the ratchet did not keep.
    assert_eq!(o.groups[0].best, Some(0.8));
    assert_eq!(o.last_runs.len(), 7);
    // Changes against the best before, in the metric's units: the
    // discard is 0.2 worse (higher, where lower is better).
    assert!(
        (o.last_runs[1].change.unwrap() - 0.2).abs() < 1e-12,
        "{:?}",
        o.last_runs[1]
    );
}

#[test]
fn the_groups_best_is_never_a_value_a_veto_refused() {
    let lines = vec![
        line("baseline", Some(1.0), ""),
        line("keep", Some(0.8), ",\"commit\":\"c1\""),
        line("holdout", Some(0.1), ""),
        line("guard", Some(0.2), ""),
        line("checks_failed", Some(0.3), ""),
    ];
    let points = parse(&lines);
    assert_eq!(points[2].status, Status::Holdout);
    let o = report(&points, Scope::Latest);
    assert_eq!(o.groups[0].best, Some(0.8), "{:?}", o.groups[0]);
    assert_eq!(o.groups[0].latest, Some(0.3));
}

#[test]
fn plain_runs_group_by_metric_and_candidate() {
    let run = |cand: &str, verdict: &str, v: f64| {
        format!(
            "{{\"run_id\":\"r-{cand}-{v}\",\"started_at\":\"2026-01-01T00:00:00Z\",\"candidate\":\"{cand}\",\
             \"spec\":{{\"metric_key\":\"acc\",\"comparator\":\">=\",\"target\":0.8}},\
             \"metrics\":{{\"acc\":{v},\"note\":\"x\"}},\"exit_code\":0,\"timed_out\":false,\"failure_class\":\"none\",\
             \"verdict\":{{\"verdict\":\"{verdict}\",\"detail\":\"acc={v}\"}}}}"
        )
    };
    let lines = [
        run("a", "supported", 0.9),
        run("b", "refuted", 0.5),
        run("a", "supported", 0.95),
        "not json".to_string(),
    ];
    let points: Vec<Point<'_>> = lines
        .iter()
        .filter_map(|l| parse_line(l.as_bytes()))
        .collect();
    assert_eq!(points.len(), 3);
    assert_eq!(points[0].metrics.len(), 1, "a non-number metric is skipped");
    let o = report(&points, Scope::Latest);
    assert!(o.segments.is_empty());
    assert_eq!(o.groups.len(), 2);
    assert_eq!(o.groups[0].runs, 2);
    assert_eq!(o.groups[0].best, Some(0.95));
    assert_eq!(o.groups[0].statuses["supported"], 2);
    assert_eq!(o.groups[1].statuses["refuted"], 1);
    let cases = cases(&points, Scope::Latest);
    assert_eq!(cases[1].class, Class::Fail);
    assert_eq!(cases[1].detail.as_deref(), Some("acc=0.5"));
}

#[test]
fn the_chart_has_a_point_per_run_and_a_step_line_through_kept_runs() {
    let lines = vec![
        line("baseline", Some(1.0), ""),
        line("discard", Some(1.2), ""),
        line("keep", Some(0.8), ""),
        line("crash", None, ""),
    ];
    let points = parse(&lines);
    let c = chart(&points, Scope::Latest, XAxis::Run, Some(0.5));
    assert_eq!(c.points.len(), 4);
    let marks: Vec<Mark> = c.points.iter().map(|p| p.mark).collect();
    assert_eq!(
        marks,
        [Mark::Kept, Mark::Discarded, Mark::Kept, Mark::Crash]
    );
    assert_eq!(
        c.best,
        vec![vec![(1.0, 1.0), (3.0, 1.0), (3.0, 0.8), (4.0, 0.8)]]
    );
    assert_eq!(c.points[0].label.as_deref(), Some("baseline"));
    assert_eq!(c.points[2].label.as_deref(), Some("try keep"));
}

#[test]
fn downsampling_keeps_every_kept_run_and_crash() {
    let pts: Vec<ChartPoint> = (0..10_000)
        .map(|i| ChartPoint {
            x: i as f64,
            y: Some((i % 97) as f64),
            interval: None,
            mark: match i % 1000 {
                0 => Mark::Kept,
                1 => Mark::Crash,
                _ => Mark::Discarded,
            },
            label: None,
        })
        .collect();
    let kept = downsample_for_test(pts.clone(), 1_000);
    assert!(kept.len() <= 2_020, "{}", kept.len());
    assert_eq!(kept.iter().filter(|p| p.mark == Mark::Kept).count(), 10);
    assert_eq!(kept.iter().filter(|p| p.mark == Mark::Crash).count(), 10);
    // The envelope survives: the highest and lowest values are drawn.
    assert!(kept.iter().any(|p| p.y == Some(96.0)));
    assert!(kept
        .iter()
        .any(|p| p.y == Some(0.0) && p.mark == Mark::Discarded));
    assert!(kept.windows(2).all(|w| w[0].x < w[1].x));
    assert_eq!(downsample_for_test(pts[..500].to_vec(), 1_000).len(), 500);
    // A million runs: crashes on the same pixel of the axis, and kept runs
    // on the same pixel, are drawn once.
    let many: Vec<ChartPoint> = (0..1_000_000)
        .map(|i| ChartPoint {
            x: i as f64,
            y: (i % 20 != 1).then_some(1.0 - i as f64 * 1e-7),
            interval: None,
            mark: match i % 20 {
                0 => Mark::Kept,
                1 => Mark::Crash,
                _ => Mark::Discarded,
            },
            label: None,
        })
        .collect();
    let drawn = downsample_for_test(many, CHART_LIMIT);
    let count = |m: Mark| drawn.iter().filter(|p| p.mark == m).count();
    assert!(count(Mark::Crash) <= 1_000 && count(Mark::Crash) >= 999);
    assert!(count(Mark::Kept) <= 1_500, "{}", count(Mark::Kept));
    assert!(drawn.len() <= 4_600, "{}", drawn.len());
}

fn downsample_for_test(p: Vec<ChartPoint>, limit: usize) -> Vec<ChartPoint> {
    chart::downsample(p, limit)
}

#[test]
fn runs_arx_ended_count_as_pruned_or_lost() {
    let plain = |status: &str| {
        format!(
            "{{\"run_id\":\"r-{status}\",\"metrics\":{{\"acc\":0.5}},\"exit_code\":143,\
             \"timed_out\":false,\"failure_class\":\"none\",\"status\":\"{status}\"}}"
        )
    };
    let pruned = plain("pruned");
    let lost = plain("lost");
    let odd = plain("vanished");
    assert_eq!(
        parse_line(pruned.as_bytes()).unwrap().status,
        Status::Pruned
    );
    assert_eq!(parse_line(lost.as_bytes()).unwrap().status, Status::Lost);
    let p = parse_line(odd.as_bytes()).unwrap();
    assert_eq!((p.status, p.status_text()), (Status::Other, "vanished"));
    assert_eq!(Status::Pruned.class(), Class::Fail);
    assert_eq!(Status::Lost.class(), Class::Crash);
}

/// A try of lane `lane` whose run had slot `slot`, started `start_s`
/// seconds into the hour and lasting `secs`.
fn lane_line(status: &str, lane: &str, slot: &str, start_s: u32, secs: u64) -> String {
    format!(
        "{{\"run_id\":\"01a2-{lane}-{start_s}\",\"started_at\":\"2026-01-01T00:00:{start_s:02}Z\",\
         \"duration_ms\":{},\"metrics\":{{\"loss\":1}},\"exit_code\":0,\"slot\":\"{slot}\",\
         \"ratchet\":{{\"segment\":\"s1\",\"status\":\"{status}\",\"metric\":\"loss\",\
         \"direction\":\"min\",\"kept\":\"k0\",\"commit\":\"c{start_s}\",\"lane\":\"{lane}\"}}}}",
        secs * 1000
    )
}

#[test]
fn a_segment_counts_tries_per_lane_and_how_busy_each_slot_was() {
    let lines = vec![
        line("baseline", Some(1.0), ""),
        lane_line("keep", "a", "0", 0, 10),
        lane_line("discard", "b", "1", 0, 5),
        lane_line("stale", "b", "1", 5, 5),
        lane_line("keep", "b", "0", 10, 10),
        lane_line("discard", "a", "1", 10, 10),
    ];
    // The walk and serde read the lane and the slot alike.
    for l in &lines[1..] {
        let walked = parse_line(l.as_bytes()).unwrap();
        let serde = parse_line_by_serde(l.as_bytes()).unwrap();
        assert_eq!(
            (walked.lane.clone(), walked.slot.clone()),
            (serde.lane, serde.slot)
        );
        assert!(walked.lane.is_some() && walked.slot.is_some());
    }
    let points = parse(&lines);
    let o = report(&points, Scope::Latest);
    let s = &o.segments[0];
    assert_eq!(
        s.lanes,
        vec![
            LaneSummary {
                lane: "a".into(),
                tries: 2,
                keeps: 1,
                stale: 0
            },
            LaneSummary {
                lane: "b".into(),
                tries: 3,
                keeps: 1,
                stale: 1
            },
        ]
    );
    // 20 s from the first start to the last end; slot 0 busy 20 s, slot 1
    // 20 s too (5 + 5 + 10).
    let busy: Vec<(&str, u64, Option<f64>)> = s
        .slots
        .iter()
        .map(|x| (x.slot.as_str(), x.busy_ms, x.utilisation))
        .collect();
    assert_eq!(
        busy,
        vec![("0", 20_000, Some(1.0)), ("1", 20_000, Some(1.0))]
    );
    assert_eq!(s.discards, 2 + 1);
    // The last runs carry their lane and slot.
    assert_eq!(o.last_runs[1].lane.as_deref(), Some("a"));
    assert_eq!(o.last_runs[2].slot.as_deref(), Some("1"));
}

#[test]
fn a_record_whose_runs_took_two_slots_is_put_down_run_by_run() {
    // The baseline's three runs: 1.0 on slot 0 (3 s), a crash on slot 0
    // (1 s), 2.0 and 3.0 on slot 1 (2 s each); the record is 10 s long
    // and names its last slot.
    let attempt = |slot: &str, ms: u64, loss: Option<f64>| {
        let metrics = loss.map_or("{}".to_string(), |x| format!("{{\"loss\":{x}}}"));
        format!(
            "{{\"exit_code\":0,\"timed_out\":false,\"failure_class\":\"none\",\
             \"metrics\":{metrics},\"duration_ms\":{ms},\"slot\":\"{slot}\"}}"
        )
    };
    let attempts = [
        attempt("0", 3000, Some(1.0)),
        attempt("0", 1000, None),
        attempt("1", 2000, Some(2.0)),
        attempt("1", 2000, Some(3.0)),
    ]
    .join(",");
    let baseline = format!(
        "{{\"run_id\":\"01a2-b\",\"started_at\":\"2026-01-01T00:00:00Z\",\"duration_ms\":10000,\
         \"metrics\":{{\"loss\":3.0}},\"exit_code\":0,\"slot\":\"1\",\"attempts\":[{attempts}],\
         \"samples\":[1.0,2.0,3.0],\"ratchet\":{{\"segment\":\"s1\",\"status\":\"baseline\",\
         \"metric\":\"loss\",\"direction\":\"min\",\"kept\":\"k0\"}}}}"
    );
    let walked = parse_line(baseline.as_bytes()).unwrap();
    let serde = parse_line_by_serde(baseline.as_bytes()).unwrap();
    assert_eq!(walked.slot_runs, serde.slot_runs);
    assert_eq!(walked.runs, 4);
    let runs: Vec<(&str, u64, Option<f64>)> = walked
        .slot_runs
        .iter()
        .map(|r| (r.slot.as_ref(), r.duration_ms, r.value))
        .collect();
    assert_eq!(
        runs,
        vec![
            ("0", 3000, Some(1.0)),
            ("0", 1000, None),
            ("1", 2000, Some(2.0)),
            ("1", 2000, Some(3.0))
        ]
    );
    let mut points = vec![walked];
    let fold = fold_all(&mut points);
    // Each kept sample on the slot its run took.
    let by_slot = &fold.segments[0].slot_runs[0].by_slot;
    assert_eq!(by_slot["0"], vec![1.0]);
    assert_eq!(by_slot["1"], vec![2.0, 3.0]);
    // The record's 10 s shared as its runs' 4 s and 4 s.
    let o = report(&points, Scope::Latest);
    let busy: Vec<(&str, u64)> = o.segments[0]
        .slots
        .iter()
        .map(|x| (x.slot.as_str(), x.busy_ms))
        .collect();
    assert_eq!(busy, vec![("1", 5000), ("0", 5000)]);
    // Its row names both slots.
    assert_eq!(o.last_runs[0].slot.as_deref(), Some("0,1"));
}

#[test]
fn a_slot_effect_is_how_its_tries_measured_against_their_best_next_to_other_slots() {
    // A loss; the baseline reads 1.0. Discards only, so the best stays.
    let on = |slot: &str, start: u32, loss: f64| {
        lane_line("discard", "a", slot, start, 1)
            .replace("\"loss\":1}", &format!("\"loss\":{loss}}}"))
    };
    let lines = vec![
        line("baseline", Some(1.0), ""),
        on("0", 1, 1.1),
        on("0", 2, 1.3),
        on("1", 3, 1.5),
        on("1", 4, 1.7),
        on("2", 5, 9.0),
    ];
    let o = report(&parse(&lines), Scope::Latest);
    let effects: Vec<(&str, Option<&SlotEffect>)> = o.segments[0]
        .slots
        .iter()
        .map(|x| (x.slot.as_str(), x.effect.as_ref()))
        .collect();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let (zero, one) = (effects[0].1.unwrap(), effects[1].1.unwrap());
    // Slot 0's tries were 0.2 worse (higher) than the best, slot 1's 0.6:
    // in the metric's units, against their mean (+0.4), slot 0 reads 0.2
    // lower (better for a loss), slot 1 0.2 higher.
    assert!(
        close(zero.change, 0.2) && close(zero.effect, -0.2),
        "{zero:?}"
    );
    assert!(close(one.change, 0.6) && close(one.effect, 0.2), "{one:?}");
    assert!(close(zero.se, 0.1) && zero.tries == 2, "{zero:?}");
    // One try is not enough to tell.
    assert_eq!(effects[2], ("2", None));
    // No slot effect from a single slot.
    let single = report(&parse(&lines[..3]), Scope::Latest);
    assert!(single.segments[0].slots.iter().all(|x| x.effect.is_none()));
}

#[test]
fn the_slot_effect_and_the_slot_offset_read_one_way() {
    // A loss. The baseline (commit k0) on two slots: 9.8 and 11.3 on slot
    // 0 (10.55), 10.2 and 12.0 on slot 1 (11.10); runs that vary, so one
    // commit does not make the offset exact. Then tries that read 0.85
    // higher on slot 1 than on slot 0.
    let attempt = |slot: &str, loss: f64| {
        format!(
            "{{\"exit_code\":0,\"timed_out\":false,\"failure_class\":\"none\",\
             \"metrics\":{{\"loss\":{loss}}},\"duration_ms\":1000,\"slot\":\"{slot}\"}}"
        )
    };
    let attempts = [
        attempt("0", 9.8),
        attempt("0", 11.3),
        attempt("1", 10.2),
        attempt("1", 12.0),
    ]
    .join(",");
    let baseline = format!(
        "{{\"run_id\":\"01a2-b\",\"started_at\":\"2026-01-01T00:00:00Z\",\"duration_ms\":4000,\
         \"metrics\":{{\"loss\":12.0}},\"exit_code\":0,\"slot\":\"1\",\"attempts\":[{attempts}],\
         \"samples\":[9.8,11.3,10.2,12.0],\"ratchet\":{{\"segment\":\"s1\",\"status\":\"baseline\",\
         \"metric\":\"loss\",\"direction\":\"min\",\"kept\":\"k0\",\"commit\":\"k0\"}}}}"
    );
    let on = |slot: &str, start: u32, loss: f64| {
        lane_line("discard", "a", slot, start, 1)
            .replace("\"loss\":1}", &format!("\"loss\":{loss}}}"))
    };
    let lines = vec![
        baseline,
        on("0", 5, 10.6),
        on("0", 6, 10.8),
        on("1", 7, 11.5),
        on("1", 8, 11.6),
    ];
    let o = report(&parse(&lines), Scope::Latest);
    let slots = &o.segments[0].slots;
    let one = slots.iter().find(|x| x.slot == "1").expect("slot 1");
    let zero = slots.iter().find(|x| x.slot == "0").expect("slot 0");
    let offset = one.offset.as_ref().expect("an offset of slot 1 over 0");
    assert_eq!(offset.over, "0");
    // Not locked at an exact +0 ± 0 by one commit of runs that vary.
    assert!(offset.value > 0.0, "{offset:?}");
    assert!(offset.se.is_some_and(|se| se > 0.0), "{offset:?}");
    // Both lines say slot 1 reads higher, in the metric's units.
    let (e1, e0) = (one.effect.as_ref().unwrap(), zero.effect.as_ref().unwrap());
    assert!(e1.effect > 0.0 && e0.effect < 0.0, "{e1:?} {e0:?}");
    assert!((e1.change - e0.change - 0.85).abs() < 1e-9, "{e1:?} {e0:?}");
}

#[test]
fn a_tries_row_is_changed_against_the_best_it_was_compared_with_on_its_slot() {
    // The best reads 10 as recorded (slot 0); the try on slot 1 was
    // compared with the best as it measures there, 15, and read 15.5.
    let on_slot_1 = lane_line("discard", "a", "1", 5, 1)
        .replace("\"loss\":1}", "\"loss\":15.5}")
        .replace(
            "\"lane\":\"a\"}",
            "\"lane\":\"a\",\"slot_best\":{\"slot\":\"1\",\"value\":15.0,\"runs\":0,\"moved\":5}}",
        );
    let walked = parse_line(on_slot_1.as_bytes()).unwrap();
    let serde = parse_line_by_serde(on_slot_1.as_bytes()).unwrap();
    assert_eq!(
        (walked.slot_best, serde.slot_best),
        (Some(15.0), Some(15.0))
    );
    let lines = vec![line("baseline", Some(10.0), ""), on_slot_1];
    let o = report(&parse(&lines), Scope::Latest);
    let row = o
        .last_runs
        .iter()
        .find(|r| r.slot.as_deref() == Some("1"))
        .unwrap();
    // +0.5 as its try line says (`vs 15 on slot 1`), not +5.5.
    assert!((row.change.unwrap() - 0.5).abs() < 1e-9, "{row:?}");
    // A slot_best without its value is no record the walk reads.
    let bad = lines[1].replace("\"value\":15.0,", "");
    assert!(parse_line(bad.as_bytes()).is_none());
}

/// A record of a fleet's machine of class `class`.
fn class_line(
    status: &str,
    class: &str,
    kept: &str,
    commit: &str,
    samples: [f64; 2],
    s: u32,
) -> String {
    format!(
        "{{\"run_id\":\"01a3-{class}-{s}\",\"started_at\":\"2026-01-01T00:00:{s:02}Z\",\
         \"duration_ms\":1000,\"metrics\":{{\"loss\":{}}},\"exit_code\":0,\"samples\":[{},{}],\
         \"ratchet\":{{\"segment\":\"s1\",\"status\":\"{status}\",\"metric\":\"loss\",\
         \"direction\":\"min\",\"kept\":\"{kept}\",\"commit\":\"{commit}\",\"class\":\"{class}\"}}}}",
        samples[1], samples[0], samples[1]
    )
}

#[test]
fn a_fleets_segment_is_grouped_by_class_never_comparing_them() {
    // The slow class measures the baseline k0 (about 102); the fast class
    // measures it again (about 100) and keeps k1 (about 98); the slow
    // class has not measured k1.
    let lines = vec![
        class_line("baseline", "slow", "k0", "k0", [102.0, 102.2], 0),
        class_line("remeasure", "fast", "k0", "k0", [100.0, 100.2], 1),
        class_line("keep", "fast", "k0", "k1", [98.0, 98.2], 2),
        class_line("discard", "slow", "k1", "c3", [103.0, 103.2], 3),
    ];
    for l in &lines {
        let walked = parse_line(l.as_bytes()).unwrap();
        let serde = parse_line_by_serde(l.as_bytes()).unwrap();
        assert_eq!(walked.class, serde.class);
        assert!(walked.class.is_some());
    }
    let points = parse(&lines);
    let o = report(&points, Scope::Latest);
    let s = &o.segments[0];
    let tenths = |v: f64| (v * 10.0).round() / 10.0;
    type Row<'r> = (&'r str, usize, usize, Option<(&'r str, f64)>, Option<f64>);
    let by: Vec<Row<'_>> = s
        .classes
        .iter()
        .map(|c| {
            (
                c.class.as_str(),
                c.tries,
                c.keeps,
                c.best
                    .as_ref()
                    .map(|b| (b.commit.as_str(), tenths(b.value))),
                c.fleet_best.map(tenths),
            )
        })
        .collect();
    assert_eq!(
        by,
        vec![
            ("slow", 2, 0, Some(("k0", 102.1)), None),
            ("fast", 1, 1, Some(("k1", 98.1)), Some(98.1)),
        ]
    );
}

/// A record of a fleet with `confirm_classes`: `extra` is the rest of its
/// `ratchet` (`fleet_pending`, `confirms`).
fn pending_line(run: &str, status: &str, class: &str, samples: [f64; 2], extra: &str) -> String {
    format!(
        "{{\"run_id\":\"{run}\",\"started_at\":\"2026-01-01T00:00:{run}Z\",\
         \"duration_ms\":1000,\"metrics\":{{\"loss\":{}}},\"exit_code\":0,\"samples\":[{},{}],\
         \"ratchet\":{{\"segment\":\"s1\",\"status\":\"{status}\",\"metric\":\"loss\",\
         \"direction\":\"min\",\"kept\":\"k0\",\"class\":\"{class}\"{extra}}}}}",
        samples[1], samples[0], samples[1]
    )
}

/// The segment's best commit and the fast class's summary.
fn best_and_fast(lines: &[String]) -> (Option<String>, ClassSummary) {
    let points = parse(lines);
    let o = report(&points, Scope::Latest);
    let s = o.segments[0].clone();
    let best = s
        .best
        .as_ref()
        .map(|b| format!("{} by {}", b.commit, b.run_id));
    let fast = s.classes.iter().find(|c| c.class == "fast").cloned();
    (best, fast.unwrap())
}

#[test]
fn a_keep_waiting_for_other_classes_is_its_class_best_pending_not_the_fleets() {
    // The slow class measures the baseline k0 (about 102), the fast class
    // measures it again (about 100) and keeps a change (about 98) that
    // waits for the slow class.
    let mut lines = vec![
        class_line("baseline", "slow", "k0", "k0", [102.0, 102.2], 0),
        class_line("remeasure", "fast", "k0", "k0", [100.0, 100.2], 1),
        pending_line(
            "02",
            "keep",
            "fast",
            [98.0, 98.2],
            ",\"fleet_pending\":true",
        ),
    ];
    for l in &lines {
        let walked = parse_line(l.as_bytes()).unwrap();
        let serde = parse_line_by_serde(l.as_bytes()).unwrap();
        assert_eq!(
            (walked.fleet_pending, &walked.confirms),
            (serde.fleet_pending, &serde.confirms)
        );
    }
    let tenths = |v: f64| (v * 10.0).round() / 10.0;
    let (best, fast) = best_and_fast(&lines);
    // The fleet's best is still k0, as the fast class measured it; the
    // keep is the fast class's best, pending.
    assert_eq!(best.as_deref(), Some("k0 by 01a3-slow-0"));
    let b = fast.best.as_ref().unwrap();
    assert_eq!((b.commit.as_str(), tenths(b.value), b.n), ("k0", 100.1, 2));
    let p = fast.pending.as_ref().expect("the pending keep");
    assert_eq!((p.run.as_str(), tenths(p.value), p.n), ("02", 98.1, 2));
    // The slow class finds it better too, pending: still pending.
    lines.push(pending_line(
        "03",
        "keep",
        "slow",
        [100.0, 100.2],
        ",\"fleet_pending\":true,\"confirms\":\"02\"",
    ));
    assert!(best_and_fast(&lines).1.pending.is_some());
    // A third class does not: refuted, no longer pending.
    let mut refuted = lines.clone();
    refuted.push(pending_line(
        "04",
        "discard",
        "big",
        [99.0, 99.2],
        ",\"confirms\":\"02\"",
    ));
    assert_eq!(best_and_fast(&refuted).1.pending, None);
    // An interrupted verdict is none.
    let mut cut = lines.clone();
    cut.push(pending_line(
        "04",
        "interrupted",
        "big",
        [99.0, 99.2],
        ",\"confirms\":\"02\"",
    ));
    assert!(best_and_fast(&cut).1.pending.is_some());
    // A keep that moves the best settles it.
    lines.push(class_line("keep", "big", "k0", "k2", [97.0, 97.2], 5));
    let (best, fast) = best_and_fast(&lines);
    assert_eq!(best.as_deref(), Some("k2 by 01a3-big-5"));
    assert_eq!(fast.pending, None);
}
