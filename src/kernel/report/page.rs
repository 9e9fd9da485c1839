//! The report of a journal read a piece at a time, for a page that stays
//! open all night (`arx serve`): the fold, the latest rows of the run
//! table and the chart's series, extended by each record as it is
//! appended. What it holds does not grow with the journal but for the
//! chart's series, one lean point (no metrics, texts or slot runs; about
//! 200 bytes) per run of the latest segment.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};

use super::{chart, overview, row, Chart, Class, Context, Fold, Overview, Point, Row, Scope};
use super::{Status, XAxis};

/// The report of the records seen so far.
#[derive(Debug, Clone)]
pub struct PageFold {
    fold: Fold,
    /// The best kept value of each segment so far: the change column.
    best: BTreeMap<usize, f64>,
    /// The latest rows, oldest first, at most `limit`.
    rows: VecDeque<Row>,
    limit: usize,
    /// The chart's series: the latest segment's runs (without segments,
    /// every run), as lean points.
    series: Vec<Point<'static>>,
}

impl PageFold {
    /// An empty report whose run table holds at most `limit` rows.
    pub fn new(limit: usize) -> PageFold {
        PageFold {
            fold: Fold::default(),
            best: BTreeMap::new(),
            rows: VecDeque::new(),
            limit: limit.max(1),
            series: Vec::new(),
        }
    }

    /// Fold the journal's next record; its row (numbered in the journal).
    pub fn add(&mut self, mut p: Point<'_>) -> &Row {
        self.fold.number(&mut p);
        let number = self.fold.runs + 1;
        let seg = p.segment_number;
        let r = row(number, &p, self.best.get(&seg).copied());
        if matches!(p.status, Status::Baseline | Status::Keep) && seg > 0 {
            if let Some(v) = p.value {
                self.best.insert(seg, v);
            }
        }
        self.fold.add(&p);
        let latest = self.series.last().map_or(0, |s| s.segment_number);
        if seg > latest {
            self.series.clear();
        }
        if seg >= latest {
            self.series.push(lean(p));
        }
        if self.rows.len() == self.limit {
            self.rows.pop_front();
        }
        self.rows.push_back(r);
        self.rows.back().expect("a row was pushed")
    }

    /// Records folded.
    pub fn runs(&self) -> usize {
        self.fold.runs
    }

    pub fn fold(&self) -> &Fold {
        &self.fold
    }

    /// The latest rows, oldest first.
    pub fn rows(&self) -> &VecDeque<Row> {
        &self.rows
    }

    /// The latest rows, oldest first, as one slice.
    pub fn rows_slice(&mut self) -> &[Row] {
        self.rows.make_contiguous()
    }

    /// The rows numbered after `number`, oldest first; `None` when some of
    /// them are no longer held.
    pub fn rows_after(&self, number: usize) -> Option<Vec<&Row>> {
        let first = self.rows.front().map_or(self.fold.runs + 1, |r| r.number);
        if number + 1 < first && number < self.fold.runs {
            return None;
        }
        Some(self.rows.iter().filter(|r| r.number > number).collect())
    }

    /// The progress chart of the latest segment (or of the runs of the
    /// latest metric, without segments).
    pub fn chart(&self, target: Option<f64>) -> Chart {
        chart(&self.series, Scope::Latest, XAxis::Run, target)
    }

    /// The summary, with the latest `ctx.last` rows as its last runs.
    pub fn overview(&self, ctx: &Context) -> Overview {
        let skip = self.rows.len().saturating_sub(ctx.last);
        let last = self.rows.iter().skip(skip).cloned().collect();
        overview(&self.fold, Scope::Latest, ctx, last)
    }

    /// Points held for the chart (what grows with the night).
    pub fn series_len(&self) -> usize {
        self.series.len()
    }
}

fn owned(c: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(c.into_owned())
}

/// What the chart reads of a point, owned: its place, value, samples and
/// status, and the description of a kept run (its label).
fn lean(p: Point<'_>) -> Point<'static> {
    let kept = p.status.class() == Class::Pass;
    Point {
        segment_number: p.segment_number,
        run_id: Cow::Borrowed(""),
        started_at: owned(p.started_at),
        duration_ms: p.duration_ms,
        candidate: None,
        metric: p.metric.map(owned),
        direction: p.direction,
        value: p.value,
        samples: p.samples,
        record_from: p.record_from,
        confirmed: p.confirmed,
        interval: p.interval,
        status: p.status,
        unknown_status: None,
        segment: None,
        new_segment: false,
        commit: None,
        description: if kept { p.description.map(owned) } else { None },
        detail: None,
        failure_class: None,
        metrics: Vec::new(),
        runs: p.runs,
        lane: None,
        family: None,
        class: None,
        fleet_pending: false,
        confirms: None,
        slot_best: None,
        slot: None,
        slot_runs: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::report::{fold_all, parse_line, table_rows};

    fn line(i: usize, status: &str, value: f64) -> String {
        serde_json::json!({
            "run_id": format!("019{i:05x}-0000-7000-8000-{i:012x}"),
            "started_at": format!("2026-11-21T22:{:02}:00Z", i % 60),
            "duration_ms": 1000,
            "command": ["x"],
            "metrics": {"loss": value, "vram": 3.0},
            "exit_code": 0,
            "ratchet": {"segment": if i < 30 { "s1" } else { "s2" }, "status": status,
                        "description": format!("idea {i}"), "metric": "loss",
                        "direction": "min", "kept": "a", "commit": "b"}
        })
        .to_string()
    }

    fn night() -> Vec<String> {
        (0..60)
            .map(|i| {
                let status = match i % 30 {
                    0 => "baseline",
                    n if n % 7 == 0 => "keep",
                    n if n % 11 == 0 => "crash",
                    _ => "discard",
                };
                line(i, status, 1.0 - i as f64 / 100.0)
            })
            .collect()
    }

    #[test]
    fn a_night_folded_a_record_at_a_time_reports_as_the_whole_journal() {
        let lines = night();
        let mut page = PageFold::new(1000);
        for l in &lines {
            page.add(parse_line(l.as_bytes()).unwrap());
        }
        let mut points: Vec<_> = lines
            .iter()
            .map(|l| parse_line(l.as_bytes()).unwrap())
            .collect();
        let fold = fold_all(&mut points);
        assert_eq!(page.fold(), &fold);
        let (rows, total) = table_rows(&points, Scope::Latest, 1000);
        assert_eq!(total, 60);
        assert_eq!(page.rows().iter().cloned().collect::<Vec<_>>(), rows);
        let whole = chart(&points, Scope::Latest, XAxis::Run, Some(0.5));
        assert_eq!(page.chart(Some(0.5)), whole);
        assert_eq!(page.series_len(), 30, "only the latest segment is held");
    }

    #[test]
    fn the_table_holds_the_latest_rows_and_says_when_a_gap_is_lost() {
        let mut page = PageFold::new(10);
        for l in night() {
            page.add(parse_line(l.as_bytes()).unwrap());
        }
        assert_eq!(page.rows().len(), 10);
        assert_eq!(page.rows().front().unwrap().number, 51);
        let after = page.rows_after(55).unwrap();
        assert_eq!(
            after.iter().map(|r| r.number).collect::<Vec<_>>(),
            [56, 57, 58, 59, 60]
        );
        assert!(page.rows_after(50).unwrap().len() == 10);
        assert!(page.rows_after(49).is_none());
        assert!(page.rows_after(60).unwrap().is_empty());
    }
}
