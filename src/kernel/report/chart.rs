//! The progress chart's data: one point per run of the series (a ratchet
//! segment, or the runs of one metric), the best-so-far step line through
//! the kept runs, the target. Above [`CHART_LIMIT`] runs the chart is
//! downsampled: every kept run and every crash stays, and of the other
//! runs the lowest and the highest of each equal stretch of the x axis.

use serde::Serialize;

use super::{better, in_scope, millis, Class, Point, Scope, Status};
use crate::kernel::stats::Direction;

/// Most points a chart draws before it is downsampled.
pub const CHART_LIMIT: usize = 5_000;

/// Longest label on a kept run, in characters.
const LABEL_CHARS: usize = 24;

/// Most labels a chart carries: past this many kept runs, a label is
/// drawn only where the last one is at least 1/MAX_LABELS of the x axis
/// away (the latest kept run always has one).
const MAX_LABELS: usize = 16;

/// What the x axis counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum XAxis {
    /// Run number in the series (1, 2, ...).
    #[default]
    Run,
    /// Hours since the series' first run.
    Time,
}

/// How a point is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Kept (or supported): a solid point on the best-so-far line.
    Kept,
    /// Not kept: a faint point.
    Discarded,
    /// Crashed: a mark on the x axis.
    Crash,
    /// Not kept and no value (refused, inconclusive without a metric): a
    /// faint mark on the x axis.
    NoValue,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartPoint {
    pub x: f64,
    pub y: Option<f64>,
    /// The run's interval, for repeated runs.
    pub interval: Option<(f64, f64)>,
    pub mark: Mark,
    /// A short label (kept runs).
    pub label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    pub title: String,
    pub metric: String,
    pub direction: Option<Direction>,
    pub x_axis: XAxis,
    pub points: Vec<ChartPoint>,
    /// The best-so-far step line: its corners, left to right; a new
    /// segment starts a new line.
    pub best: Vec<Vec<(f64, f64)>>,
    pub target: Option<f64>,
    /// Runs in the series (`points` may hold fewer: downsampled).
    pub total: usize,
}

impl Chart {
    pub fn downsampled(&self) -> bool {
        self.points.len() < self.total
    }
}

/// The series a chart draws for `scope`: a segment's runs, or (without
/// segments) the runs of the latest run's metric.
fn series<'p, 'a>(points: &'p [Point<'a>], scope: Scope) -> Vec<&'p Point<'a>> {
    let latest = points.iter().map(|p| p.segment_number).max().unwrap_or(0);
    match scope {
        Scope::Segment(n) => in_scope(points, scope)
            .into_iter()
            .filter(|p| p.segment_number == n)
            .collect(),
        Scope::Latest if latest > 0 => points
            .iter()
            .filter(|p| p.segment_number == latest)
            .collect(),
        _ => {
            let metric = match points
                .iter()
                .rev()
                .find(|p| p.segment_number == latest && latest > 0)
            {
                Some(p) => p.metric.as_deref(),
                None => points
                    .iter()
                    .rev()
                    .find_map(|p| p.metric.as_deref().map(Some))
                    .flatten(),
            };
            points
                .iter()
                .filter(|p| p.metric.is_some() && p.metric.as_deref() == metric)
                .collect()
        }
    }
}

/// The value a kept run holds the line at: its samples from `record_from`.
fn kept_value(p: &Point<'_>) -> Option<f64> {
    if p.record_from > 0 && p.record_from < p.samples.len() {
        let s = &p.samples[p.record_from..];
        return Some(s.iter().sum::<f64>() / s.len() as f64);
    }
    p.value
}

fn label(p: &Point<'_>) -> Option<String> {
    let text = match p.status {
        Status::Baseline => "baseline".to_string(),
        _ => p.description.as_deref()?.to_string(),
    };
    Some(crate::kernel::text::clip(&text, LABEL_CHARS))
}

/// The chart of `scope`'s series, with `target` drawn when given.
pub fn chart(points: &[Point<'_>], scope: Scope, x_axis: XAxis, target: Option<f64>) -> Chart {
    let series = series(points, scope);
    let first = series.first();
    let metric = first
        .and_then(|p| p.metric.as_deref())
        .unwrap_or("value")
        .to_string();
    let direction = series.iter().find_map(|p| p.direction);
    let start_ms = first.and_then(|p| millis(&p.started_at));
    let mut all = Vec::with_capacity(series.len());
    let mut best = StepLine::default();
    let mut last_x = 0.0;
    for (i, p) in series.iter().enumerate() {
        let x = match x_axis {
            XAxis::Run => (i + 1) as f64,
            XAxis::Time => match (millis(&p.started_at), start_ms) {
                (Some(t), Some(s)) => (t - s) as f64 / 3_600_000.0,
                _ => last_x,
            },
        };
        last_x = x;
        let mark = mark_of(p);
        if mark == Mark::Kept {
            best.add(p, x, direction);
        }
        all.push(ChartPoint {
            x,
            y: if mark == Mark::Crash || mark == Mark::NoValue {
                None
            } else {
                p.value
            },
            interval: p.estimate().and_then(|e| e.1),
            mark,
            label: (mark == Mark::Kept && p.segment_number > 0)
                .then(|| label(p))
                .flatten(),
        });
    }
    let best = best.finish(last_x);
    thin_labels(&mut all, MAX_LABELS);
    let total = all.len();
    let title = match series.first() {
        Some(p) if p.segment_number > 0 && scope != Scope::All => {
            format!("{metric}: segment {}", p.segment_number)
        }
        _ => metric.clone(),
    };
    Chart {
        title,
        metric,
        direction,
        x_axis,
        points: downsample(all, CHART_LIMIT),
        best,
        target,
        total,
    }
}

/// How a point is drawn.
fn mark_of(p: &Point<'_>) -> Mark {
    match (p.status.class(), p.value) {
        (Class::Crash, _) => Mark::Crash,
        (Class::Pass, Some(_)) => Mark::Kept,
        (_, Some(_)) => Mark::Discarded,
        (_, None) => Mark::NoValue,
    }
}

/// The best-so-far step line, one line per segment.
#[derive(Default)]
struct StepLine {
    lines: Vec<Vec<(f64, f64)>>,
    /// The segment and value the line stands at.
    current: Option<(usize, f64)>,
}

impl StepLine {
    /// A kept point at `x`: a kept value starts or lowers (raises) the
    /// line; a plain run's pass moves it only when better.
    fn add(&mut self, p: &Point<'_>, x: f64, direction: Option<Direction>) {
        let v = kept_value(p).unwrap_or_default();
        let moves = match (self.current, direction) {
            (Some((seg, _)), _) if seg != p.segment_number => {
                self.lines.push(Vec::new());
                true
            }
            (None, _) => {
                self.lines.push(Vec::new());
                true
            }
            _ if p.segment_number > 0 => true,
            (Some((_, b)), Some(d)) => better(d, v, b),
            (Some(_), None) => false,
        };
        if moves {
            let line = self.lines.last_mut().expect("a line was started");
            if let Some(&(_, y)) = line.last() {
                line.push((x, y));
            }
            line.push((x, v));
            self.current = Some((p.segment_number, v));
        }
    }

    /// The lines, the last drawn on to `last_x`.
    fn finish(mut self, last_x: f64) -> Vec<Vec<(f64, f64)>> {
        if let Some(line) = self.lines.last_mut() {
            if let Some(&(x, y)) = line.last() {
                if x < last_x {
                    line.push((last_x, y));
                }
            }
        }
        self.lines
    }
}

/// Keep at most about `max` labels, spread along the x axis.
fn thin_labels(points: &mut [ChartPoint], max: usize) {
    let labelled = points.iter().filter(|p| p.label.is_some()).count();
    if labelled <= max {
        return;
    }
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    let gap = (hi - lo) / max as f64;
    let last = points.iter().rposition(|p| p.label.is_some());
    let mut at = f64::NEG_INFINITY;
    for (i, p) in points.iter_mut().enumerate() {
        if p.label.is_none() {
            continue;
        }
        if Some(i) == last || p.x - at >= gap {
            at = p.x;
        } else {
            p.label = None;
        }
    }
}

/// Columns and rows of the grid a downsampled chart is drawn on: about
/// the plot area's pixels.
const GRID_COLUMNS: usize = 1000;
const GRID_ROWS: usize = 500;

/// Above `limit` points: every kept run and every crash is drawn, those
/// that would land on the same grid cell (the same pixel of the plot:
/// marks drawn exactly over each other) once; of the other runs, the
/// lowest and the highest of each grid column. Order is kept.
pub fn downsample(points: Vec<ChartPoint>, limit: usize) -> Vec<ChartPoint> {
    if points.len() <= limit {
        return points;
    }
    let range = |vals: &mut dyn Iterator<Item = f64>| {
        vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
    };
    let (x0, x1) = range(&mut points.iter().map(|p| p.x));
    let (y0, y1) = range(&mut points.iter().filter_map(|p| p.y));
    let cell = |v: f64, lo: f64, hi: f64, n: usize| -> usize {
        let w = hi - lo;
        if w.is_nan() || w <= 0.0 || !v.is_finite() {
            return 0;
        }
        (((v - lo) / w * n as f64) as usize).min(n - 1)
    };
    let column = |p: &ChartPoint| cell(p.x, x0, x1, GRID_COLUMNS);
    let row = |p: &ChartPoint| p.y.map_or(GRID_ROWS, |y| cell(y, y0, y1, GRID_ROWS));
    let mut seen = std::collections::HashSet::new();
    // Per column: the index of its lowest and highest other run.
    let mut extremes: Vec<Option<(usize, usize)>> = vec![None; GRID_COLUMNS];
    let mut keep = vec![false; points.len()];
    for (i, p) in points.iter().enumerate() {
        match p.mark {
            Mark::Kept | Mark::Crash | Mark::NoValue => {
                keep[i] = seen.insert((p.mark as u8, column(p), row(p)));
            }
            Mark::Discarded => {
                let y = p.y.unwrap_or(f64::NAN);
                let slot = &mut extremes[column(p)];
                *slot = Some(match *slot {
                    None => (i, i),
                    Some((a, b)) => {
                        let ya = points[a].y.unwrap_or(f64::NAN);
                        let yb = points[b].y.unwrap_or(f64::NAN);
                        (if y < ya { i } else { a }, if y > yb { i } else { b })
                    }
                });
            }
        }
    }
    for (a, b) in extremes.into_iter().flatten() {
        keep[a] = true;
        keep[b] = true;
    }
    points
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(p, _)| p)
        .collect()
}
