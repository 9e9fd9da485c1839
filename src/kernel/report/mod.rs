//! What `arx report` shows, computed from the journal: the ratchet's
//! segments (baseline, best, counts, keep rate, stop advice), every run
//! grouped by metric and candidate, the last runs, the progress chart's
//! points and the runs as test cases. Journal lines in, values out; the
//! host reads the files and the clock, the output layer draws.

mod chart;
mod line;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

pub use chart::{chart, Chart, ChartPoint, Mark, XAxis, CHART_LIMIT};
pub use line::parse_line;

use super::objective::{StopRules, INTERVAL_CONFIDENCE};
use super::ratchet::{estimate, pooled_noise};
use super::segment::{stop_advice, Segment, StopAdvice};
use super::stats::Direction;

/// What a run came to, across the ratchet's statuses and plain runs'
/// verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Baseline,
    Keep,
    Discard,
    Crash,
    ChecksFailed,
    Protected,
    Interrupted,
    /// Stopped early as hopeless (counts like a discard).
    Pruned,
    /// Its process was lost (counts like a crash).
    Lost,
    Supported,
    Refuted,
    Inconclusive,
    /// A run without a metric spec that ran cleanly.
    Ok,
    /// A run without a metric spec that did not.
    Failed,
    /// A status this version does not know.
    Other,
}

/// How a status counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Kept, a baseline, supported, ran cleanly: a pass.
    Pass,
    /// Not kept, refuted: a failure with its reason.
    Fail,
    /// The experiment crashed: an error with its failure class.
    Crash,
    /// Neither way.
    Inconclusive,
    Other,
}

impl Status {
    /// The ratchet status of `text`, when known.
    pub fn from_try(text: &str) -> Option<Status> {
        Some(match text {
            "baseline" => Status::Baseline,
            "keep" => Status::Keep,
            "discard" => Status::Discard,
            "crash" => Status::Crash,
            "checks_failed" => Status::ChecksFailed,
            "protected" => Status::Protected,
            "interrupted" => Status::Interrupted,
            "pruned" => Status::Pruned,
            "lost" => Status::Lost,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Baseline => "baseline",
            Status::Keep => "keep",
            Status::Discard => "discard",
            Status::Crash => "crash",
            Status::ChecksFailed => "checks_failed",
            Status::Protected => "protected",
            Status::Interrupted => "interrupted",
            Status::Pruned => "pruned",
            Status::Lost => "lost",
            Status::Supported => "supported",
            Status::Refuted => "refuted",
            Status::Inconclusive => "inconclusive",
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::Other => "other",
        }
    }

    pub fn class(self) -> Class {
        match self {
            Status::Baseline | Status::Keep | Status::Supported | Status::Ok => Class::Pass,
            Status::Discard
            | Status::ChecksFailed
            | Status::Protected
            | Status::Pruned
            | Status::Refuted => Class::Fail,
            Status::Crash | Status::Interrupted | Status::Lost | Status::Failed => Class::Crash,
            Status::Inconclusive => Class::Inconclusive,
            Status::Other => Class::Other,
        }
    }
}

/// One journal record as the report sees it (borrowed from the journal's
/// text where it can be).
#[derive(Debug, Clone, PartialEq)]
pub struct Point<'a> {
    /// The ratchet segment it belongs to (1-based), 0 for a plain run.
    pub segment_number: usize,
    pub run_id: Cow<'a, str>,
    pub started_at: Cow<'a, str>,
    pub duration_ms: u64,
    pub candidate: Option<Cow<'a, str>>,
    /// The metric it measured: the ratchet's, the spec's, or its first.
    pub metric: Option<Cow<'a, str>>,
    pub direction: Option<Direction>,
    /// The mean of its samples, or the metric's value; none for a crash.
    pub value: Option<f64>,
    /// Repeated samples (two or more), else empty.
    pub samples: Vec<f64>,
    /// For a keep: its value counts from this sample on.
    pub record_from: usize,
    pub confirmed: bool,
    /// The interval the run recorded (repeated runs).
    pub interval: Option<(f64, f64)>,
    pub status: Status,
    /// The text of a status this version does not know.
    pub unknown_status: Option<String>,
    pub segment: Option<Cow<'a, str>>,
    pub new_segment: bool,
    pub commit: Option<Cow<'a, str>>,
    pub description: Option<Cow<'a, str>>,
    /// The verdict's detail, or why it crashed.
    pub detail: Option<String>,
    pub failure_class: Option<String>,
    pub metrics: Vec<(Cow<'a, str>, f64)>,
    /// Experiment runs it took.
    pub runs: u64,
}

impl Point<'_> {
    /// The status as text (an unknown one as written).
    pub fn status_text(&self) -> &str {
        self.unknown_status
            .as_deref()
            .unwrap_or(self.status.as_str())
    }

    /// The value and interval people read: the kept samples' estimate for
    /// a repeated run, else the value alone.
    pub fn estimate(&self) -> Option<(f64, Option<(f64, f64)>)> {
        let value = self.value?;
        if let Some(i) = self.interval {
            return Some((value, Some(i)));
        }
        if self.samples.len() >= 2 {
            if let Some((m, i)) = estimate(&self.samples, None, INTERVAL_CONFIDENCE) {
                return Some((m, Some(i)));
            }
        }
        Some((value, None))
    }
}

/// Number the ratchet segments in journal order, as `kernel::segment`
/// does: a segment starts at a try whose segment id differs from the try
/// before, or that says so.
pub fn number_segments(points: &mut [Point<'_>]) -> usize {
    let mut n = 0;
    let mut last: Option<Cow<'_, str>> = None;
    for p in points.iter_mut() {
        let Some(id) = &p.segment else { continue };
        if last.as_deref() != Some(id.as_ref()) || p.new_segment {
            n += 1;
            last = Some(Cow::Owned(id.to_string()));
        }
        p.segment_number = n;
    }
    n
}

/// Which runs a report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Every run; the summary is the latest segment's.
    Latest,
    /// One ratchet segment's runs.
    Segment(usize),
    /// Every run; a summary for every segment.
    All,
}

/// A value with its interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Value {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub n: usize,
}

/// The best of a segment: the kept commit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Best {
    #[serde(flatten)]
    pub value: Value,
    pub run_id: String,
    pub commit: String,
    pub description: Option<String>,
    pub confirmed: bool,
    /// Best minus baseline.
    pub change: Option<f64>,
}

/// A ratchet segment in summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SegmentSummary {
    pub number: usize,
    pub id: String,
    pub metric: String,
    pub direction: Option<Direction>,
    pub started_at: String,
    pub last_at: String,
    pub elapsed_hours: f64,
    pub baseline: Option<Value>,
    pub best: Option<Best>,
    /// Tries (journal records), the baseline's included.
    pub tries: usize,
    /// Experiment runs.
    pub runs: u64,
    pub keeps: usize,
    /// Discards, checks failed, protected and pruned tries.
    pub discards: usize,
    /// Crashes, interruptions and lost runs.
    pub crashes: usize,
    /// Tries with a status this version does not know.
    pub other: usize,
    /// Keeps per try after the baseline.
    pub keep_rate: Option<f64>,
    /// Tries since the last keep (or the baseline).
    pub since_keep: usize,
    /// Pooled noise (sd of one run), when the segment has replicates.
    pub noise: Option<f64>,
    pub statuses: BTreeMap<String, usize>,
    pub target: Option<f64>,
    pub advice: StopAdvice,
}

/// The runs of one metric and candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub metric: Option<String>,
    pub candidate: Option<String>,
    pub direction: Option<Direction>,
    pub runs: usize,
    /// Runs by status.
    pub statuses: BTreeMap<String, usize>,
    pub best: Option<f64>,
    pub best_run: Option<String>,
    pub latest: Option<f64>,
}

/// One run as a table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// 1-based position in the journal.
    pub number: usize,
    pub run_id: String,
    pub started_at: String,
    pub duration_ms: u64,
    pub segment: Option<usize>,
    pub candidate: Option<String>,
    pub metric: Option<String>,
    pub value: Option<f64>,
    pub interval: Option<(f64, f64)>,
    /// Against the best before it (segment runs) as a signed difference,
    /// positive when better.
    pub change: Option<f64>,
    pub status: String,
    pub commit: Option<String>,
    pub description: Option<String>,
    pub detail: Option<String>,
    pub metrics: Vec<(String, f64)>,
}

/// What the journal holds overall.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JournalSummary {
    pub runs: usize,
    pub segments: usize,
    pub first_at: Option<String>,
    pub last_at: Option<String>,
    /// Lines that are not run records (skipped).
    pub unreadable: usize,
}

/// The report: what the terminal view, `--json` and `--markdown` show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overview {
    pub generated_at: String,
    pub scope: Scope,
    pub journal: JournalSummary,
    /// Runs in scope.
    pub runs: usize,
    /// The segment summaries: the latest or chosen one, or every one.
    pub segments: Vec<SegmentSummary>,
    pub groups: Vec<Group>,
    /// The last runs in scope, oldest first.
    pub last_runs: Vec<Row>,
    pub precision: Option<PrecisionSummary>,
    pub dead_ends: Vec<DeadEnd>,
    /// Dead ends recorded, of which `dead_ends` lists the latest.
    pub dead_ends_total: usize,
    pub rounds: Vec<Round>,
    pub rounds_total: usize,
}

/// The precision engine's state in brief.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrecisionSummary {
    pub runs: u64,
    pub execution: f64,
    pub planning: f64,
    #[serde(rename = "abstract")]
    pub abstract_level: f64,
    pub adaptation_due: bool,
}

/// A dead end in brief.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeadEnd {
    pub statement: String,
    pub reason: String,
    pub approach_hash: String,
    pub created_at: Option<String>,
}

/// A round in brief.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    pub round_id: String,
    pub status: String,
    pub detail: String,
    pub created_at: String,
    pub commit: Option<String>,
}

/// What the host read besides the journal.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub now: String,
    /// Hours from an RFC 3339 time to `now` (the host parses the clock).
    pub now_ms: Option<i64>,
    pub stop: StopRules,
    pub precision: Option<PrecisionSummary>,
    pub dead_ends: Vec<DeadEnd>,
    pub rounds: Vec<Round>,
    /// How many last runs, dead ends and rounds to list.
    pub last: usize,
    pub unreadable: usize,
}

/// Milliseconds since the epoch of an RFC 3339 time.
pub fn millis(text: &str) -> Option<i64> {
    text.parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_millisecond())
}

/// The runs `scope` covers.
pub fn in_scope<'p, 'a>(points: &'p [Point<'a>], scope: Scope) -> Vec<&'p Point<'a>> {
    match scope {
        Scope::Segment(n) => points.iter().filter(|p| p.segment_number == n).collect(),
        Scope::Latest | Scope::All => points.iter().collect(),
    }
}

/// Is `a` better than `b` in `direction`?
pub fn better(direction: Direction, a: f64, b: f64) -> bool {
    match direction {
        Direction::Max => a > b,
        Direction::Min => a < b,
    }
}

/// The summary of segment `number` (its points in journal order).
pub fn summarize_segment(
    number: usize,
    points: &[&Point<'_>],
    ctx: &Context,
) -> Option<SegmentSummary> {
    let first = points.first()?;
    let last = points.last()?;
    let metric = first.metric.as_deref().unwrap_or_default().to_string();
    let direction = first.direction;
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    let (mut keeps, mut discards, mut crashes, mut other, mut baselines) = (0, 0, 0, 0, 0);
    let mut since_keep = 0;
    let mut runs = 0u64;
    let mut baseline: Option<&Point<'_>> = None;
    let mut kept: Option<&Point<'_>> = None;
    let mut replicates: Vec<&[f64]> = Vec::new();
    for p in points {
        *statuses.entry(p.status_text().to_string()).or_default() += 1;
        runs += p.runs;
        if p.samples.len() >= 2 {
            replicates.push(&p.samples);
        }
        match p.status {
            Status::Baseline => {
                baselines += 1;
                baseline = Some(p);
                kept = Some(p);
            }
            Status::Keep => {
                keeps += 1;
                kept = Some(p);
            }
            s => match s.class() {
                Class::Fail => discards += 1,
                Class::Crash => crashes += 1,
                _ => other += 1,
            },
        }
        if matches!(p.status, Status::Baseline | Status::Keep) {
            since_keep = 0;
        } else {
            since_keep += 1;
        }
    }
    let noise = pooled_noise(&replicates);
    let value_of = |p: &Point<'_>| -> Option<Value> {
        let samples: Vec<f64> = if p.samples.is_empty() {
            p.value.into_iter().collect()
        } else if p.record_from > 0 && p.record_from < p.samples.len() {
            p.samples[p.record_from..].to_vec()
        } else {
            p.samples.clone()
        };
        match estimate(&samples, noise, INTERVAL_CONFIDENCE) {
            Some((value, interval)) => Some(Value {
                value,
                interval: (samples.len() > 1 || noise.is_some()).then_some(interval),
                n: samples.len(),
            }),
            // One sample and no noise to go by: the value alone.
            None => samples.first().map(|&value| Value {
                value,
                interval: None,
                n: samples.len(),
            }),
        }
    };
    let base = baseline.and_then(value_of);
    let best = kept.and_then(|k| {
        let v = value_of(k)?;
        Some(Best {
            change: base.as_ref().map(|b| v.value - b.value),
            value: v,
            run_id: k.run_id.to_string(),
            commit: k.commit.as_deref().unwrap_or_default().to_string(),
            description: k.description.as_deref().map(str::to_string),
            confirmed: k.confirmed,
        })
    });
    let hours = match (ctx.now_ms, millis(&first.started_at)) {
        (Some(now), Some(start)) => (now - start).max(0) as f64 / 3_600_000.0,
        _ => 0.0,
    };
    let tries = points.len();
    let seg = Segment {
        runs,
        non_keeps_in_a_row: since_keep,
        ..Segment::default()
    };
    let advice = match direction {
        Some(d) => stop_advice(
            &seg,
            &ctx.stop,
            best.as_ref().map(|b| b.value.value),
            d,
            hours,
        ),
        None => StopAdvice {
            stop: false,
            reason: None,
        },
    };
    let after_baseline = tries - baselines;
    Some(SegmentSummary {
        number,
        id: first.segment.as_deref().unwrap_or_default().to_string(),
        metric,
        direction,
        started_at: first.started_at.to_string(),
        last_at: last.started_at.to_string(),
        elapsed_hours: hours,
        baseline: base,
        best,
        tries,
        runs,
        keeps,
        discards,
        crashes,
        other,
        keep_rate: (after_baseline > 0).then(|| keeps as f64 / after_baseline as f64),
        since_keep,
        noise: noise.map(|(sd, _)| sd),
        statuses,
        target: ctx.stop.target,
        advice,
    })
}

/// The runs grouped by metric and candidate, in order of first appearance.
pub fn groups(points: &[&Point<'_>]) -> Vec<Group> {
    let mut index: BTreeMap<(Option<&str>, Option<&str>), usize> = BTreeMap::new();
    let mut out: Vec<Group> = Vec::new();
    for p in points {
        let key = (p.metric.as_deref(), p.candidate.as_deref());
        let i = *index.entry(key).or_insert_with(|| {
            out.push(Group {
                metric: key.0.map(str::to_string),
                candidate: key.1.map(str::to_string),
                direction: p.direction,
                runs: 0,
                statuses: BTreeMap::new(),
                best: None,
                best_run: None,
                latest: None,
            });
            out.len() - 1
        });
        let g = &mut out[i];
        g.runs += 1;
        if g.direction.is_none() {
            g.direction = p.direction;
        }
        *g.statuses.entry(p.status_text().to_string()).or_default() += 1;
        if let Some(v) = p.value {
            g.latest = Some(v);
            if let Some(d) = g.direction {
                if g.best.is_none_or(|b| better(d, v, b)) {
                    g.best = Some(v);
                    g.best_run = Some(p.run_id.to_string());
                }
            }
        }
    }
    out
}

/// The table rows of `points` (journal positions from `numbers`), with the
/// change against the best so far of their segment.
pub fn rows(points: &[&Point<'_>], numbers: &[usize], changes: &[Option<f64>]) -> Vec<Row> {
    points
        .iter()
        .zip(numbers)
        .zip(changes)
        .map(|((p, &number), &change)| {
            let estimate = p.estimate();
            Row {
                number,
                run_id: p.run_id.to_string(),
                started_at: p.started_at.to_string(),
                duration_ms: p.duration_ms,
                segment: (p.segment_number > 0).then_some(p.segment_number),
                candidate: p.candidate.as_deref().map(str::to_string),
                metric: p.metric.as_deref().map(str::to_string),
                value: estimate.map(|e| e.0),
                interval: estimate.and_then(|e| e.1),
                change,
                status: p.status_text().to_string(),
                commit: p.commit.as_deref().map(str::to_string),
                description: p.description.as_deref().map(str::to_string),
                detail: p.detail.clone(),
                metrics: p.metrics.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            }
        })
        .collect()
}

/// Each point's change against the best kept value of its segment before
/// it (positive = better); `None` outside a segment or before a baseline.
pub fn changes(points: &[&Point<'_>]) -> Vec<Option<f64>> {
    let mut best: BTreeMap<usize, f64> = BTreeMap::new();
    points
        .iter()
        .map(|p| {
            if p.segment_number == 0 {
                return None;
            }
            let d = p.direction?;
            let prior = best.get(&p.segment_number).copied();
            let change = match (p.value, prior) {
                (Some(v), Some(b)) => Some(match d {
                    Direction::Max => v - b,
                    Direction::Min => b - v,
                }),
                _ => None,
            };
            if matches!(p.status, Status::Baseline | Status::Keep) {
                if let Some(v) = p.value {
                    best.insert(p.segment_number, v);
                }
            }
            change
        })
        .collect()
}

/// The whole report of `points` (every journal record, numbered) for
/// `scope`.
pub fn overview(points: &[Point<'_>], scope: Scope, ctx: &Context) -> Overview {
    let segments_total = points.iter().map(|p| p.segment_number).max().unwrap_or(0);
    let scoped = in_scope(points, scope);
    let numbers: Vec<usize> = match scope {
        Scope::Segment(_) => {
            let mut out = Vec::with_capacity(scoped.len());
            for (i, p) in points.iter().enumerate() {
                if let Scope::Segment(n) = scope {
                    if p.segment_number == n {
                        out.push(i + 1);
                    }
                }
            }
            out
        }
        _ => (1..=points.len()).collect(),
    };
    let wanted: Vec<usize> = match scope {
        Scope::Segment(n) => vec![n],
        Scope::Latest => (segments_total > 0)
            .then_some(segments_total)
            .into_iter()
            .collect(),
        Scope::All => (1..=segments_total).collect(),
    };
    let mut by_segment: BTreeMap<usize, Vec<&Point<'_>>> = BTreeMap::new();
    for p in points {
        if wanted.contains(&p.segment_number) {
            by_segment.entry(p.segment_number).or_default().push(p);
        }
    }
    let segments = by_segment
        .iter()
        .filter_map(|(n, ps)| summarize_segment(*n, ps, ctx))
        .collect();
    let from = scoped.len().saturating_sub(ctx.last);
    let changes = changes(&scoped);
    let last_runs = rows(&scoped[from..], &numbers[from..], &changes[from..]);
    Overview {
        generated_at: ctx.now.clone(),
        scope,
        journal: JournalSummary {
            runs: points.len(),
            segments: segments_total,
            first_at: points.first().map(|p| p.started_at.to_string()),
            last_at: points.last().map(|p| p.started_at.to_string()),
            unreadable: ctx.unreadable,
        },
        runs: scoped.len(),
        segments,
        groups: groups(&scoped),
        last_runs,
        precision: ctx.precision.clone(),
        dead_ends_total: ctx.dead_ends.len(),
        dead_ends: ctx.dead_ends[ctx.dead_ends.len().saturating_sub(ctx.last)..].to_vec(),
        rounds_total: ctx.rounds.len(),
        rounds: ctx.rounds[ctx.rounds.len().saturating_sub(ctx.last)..].to_vec(),
    }
}

/// Every row of the scope for the page's run table: all of them up to
/// `limit`, else the latest `limit` (the page says how many are left out).
pub fn table_rows(points: &[Point<'_>], scope: Scope, limit: usize) -> (Vec<Row>, usize) {
    let scoped = in_scope(points, scope);
    let numbers: Vec<usize> = points
        .iter()
        .enumerate()
        .filter(|(_, p)| match scope {
            Scope::Segment(n) => p.segment_number == n,
            _ => true,
        })
        .map(|(i, _)| i + 1)
        .collect();
    let changes = changes(&scoped);
    let from = scoped.len().saturating_sub(limit);
    (
        rows(&scoped[from..], &numbers[from..], &changes[from..]),
        scoped.len(),
    )
}

/// A run as a test case (`--junit`).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The suite: the segment, or the metric and candidate.
    pub suite: String,
    pub name: String,
    pub class: Class,
    pub status: String,
    pub detail: Option<String>,
    pub failure_class: Option<String>,
    pub duration_ms: u64,
    pub started_at: String,
}

/// Every run in scope as a test case.
pub fn cases(points: &[Point<'_>], scope: Scope) -> Vec<Case> {
    in_scope(points, scope)
        .into_iter()
        .map(|p| {
            let suite = if p.segment_number > 0 {
                format!(
                    "segment {} ({})",
                    p.segment_number,
                    p.metric.as_deref().unwrap_or("-")
                )
            } else {
                format!(
                    "{} / {}",
                    p.metric.as_deref().unwrap_or("-"),
                    p.candidate.as_deref().unwrap_or("-")
                )
            };
            let short = p.run_id.get(..13).unwrap_or(&p.run_id);
            let name = match &p.description {
                Some(d) => format!("{short} {d}"),
                None => short.to_string(),
            };
            let detail = match (&p.detail, p.value) {
                (Some(d), _) => Some(d.clone()),
                (None, Some(v)) => Some(format!(
                    "{} = {}",
                    p.metric.as_deref().unwrap_or("value"),
                    crate::kernel::number::fmt_number(v)
                )),
                (None, None) => None,
            };
            Case {
                suite,
                name,
                class: p.status.class(),
                status: p.status_text().to_string(),
                detail,
                failure_class: p.failure_class.clone(),
                duration_ms: p.duration_ms,
                started_at: p.started_at.to_string(),
            }
        })
        .collect()
}
