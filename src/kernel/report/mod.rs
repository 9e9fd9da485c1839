//! What `arx report` shows, computed from the journal: the ratchet's
//! segments (baseline, best, counts, keep rate, stop advice), every run
//! grouped by metric and candidate, the last runs, the progress chart's
//! points and the runs as test cases. Journal lines in, values out; the
//! host reads the files and the clock, the output layer draws.

mod chart;
mod fold;
mod line;
mod page;
mod view;
mod walk;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

pub use chart::{chart, Chart, ChartPoint, Mark, XAxis, CHART_LIMIT};
pub use fold::{FamilyFold, FamilySummary, Fold, GroupFold, KeptFold, SegmentFold, KEEP_LOG};
pub use line::{parse_line, parse_line_by_serde, parse_line_with};
pub use page::PageFold;

use super::objective::{StopRules, INTERVAL_CONFIDENCE};
use super::ratchet::estimate;
use super::segment::StopAdvice;
use super::stats::Direction;
pub use super::tally::{Class, Status};

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
    /// The lane the try ran in.
    pub lane: Option<Cow<'a, str>>,
    /// The family of the idea the try tested.
    pub family: Option<Cow<'a, str>>,
    /// In a fleet: the class of the machine it ran on.
    pub class: Option<Cow<'a, str>>,
    /// In a fleet with `confirm_classes`: a keep waiting for other
    /// classes (not the best), and the pending keep a try measured.
    pub fleet_pending: bool,
    pub confirms: Option<Cow<'a, str>>,
    /// The best as it measured on the try's slot, which the try was
    /// compared with (`ratchet.slot_best`), when that differs from the
    /// recorded best.
    pub slot_best: Option<f64>,
    /// The slot its (last) run ran in.
    pub slot: Option<Cow<'a, str>>,
    /// Its runs that ran in a slot, oldest first (empty without slots).
    pub slot_runs: Vec<SlotRun<'a>>,
}

/// One run of a record in a slot.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotRun<'a> {
    pub slot: Cow<'a, str>,
    pub duration_ms: u64,
    /// The value it measured of the record's metric (none for a crash).
    pub value: Option<f64>,
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
        let kept = fold::kept_samples(self);
        if kept.len() >= 2 {
            if let Some((m, i)) = estimate(&kept, None, INTERVAL_CONFIDENCE) {
                return Some((m, Some(i)));
            }
        }
        Some((value, None))
    }
}

/// Number the ratchet segments of `points` in journal order and fold
/// them (a segment starts at a try whose segment id differs from the try
/// before, or that says so, as in `kernel::segment`).
pub fn fold_all(points: &mut [Point<'_>]) -> Fold {
    let mut fold = Fold::default();
    for p in points.iter_mut() {
        fold.number(p);
        fold.add(p);
    }
    fold
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
    /// Best minus baseline (the baseline on the best's slot when they were
    /// recorded on slots that differ: `baseline_on_slot`).
    pub change: Option<f64>,
    /// The baseline moved onto the slot the best was recorded on, by the
    /// slots' estimated offset: the slot and the value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_on_slot: Option<OnSlot>,
}

/// A value as it would measure on a slot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OnSlot {
    pub slot: String,
    pub value: f64,
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
    /// Tries per lane, when tries ran in lanes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lanes: Vec<LaneSummary>,
    /// Runs per slot and how busy each slot was, when runs had slots.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<SlotSummary>,
    /// Tries per family of ideas, when tries name one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<FamilySummary>,
    /// In a fleet: each class of machine's tries, its best as it measured
    /// it and the fleet's best as it measured it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<ClassSummary>,
}

/// One class of machine's share of a segment (a fleet).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassSummary {
    pub class: String,
    pub tries: usize,
    pub keeps: usize,
    /// The last best the class measured (its keep, or a best measured as
    /// its baseline or again on the class), with its value there.
    pub best: Option<OnClass>,
    /// The segment's best (the fleet's) as the class measured it, when the
    /// class has measured it.
    pub fleet_best: Option<f64>,
    /// With `confirm_classes`: the class's keep waiting for other classes
    /// (its best, pending; not the fleet's), with its value on the class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingOnClass>,
}

/// A keep waiting for other classes, as its class measured it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PendingOnClass {
    /// The pending keep's run id (for a class that found another class's
    /// keep better: that keep's).
    pub run: String,
    pub value: f64,
    pub n: usize,
}

/// A commit as a class measured it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OnClass {
    pub commit: String,
    pub value: f64,
    /// Its runs on the class.
    pub n: usize,
}

/// One lane's tries in a segment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct LaneSummary {
    pub lane: String,
    pub tries: usize,
    pub keeps: usize,
    /// Discarded because another lane kept first and they no longer applied.
    pub stale: usize,
}

/// One slot's runs in a segment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct SlotSummary {
    pub slot: String,
    /// Tries (or runs) whose last run had the slot.
    pub tries: usize,
    /// Their wall time.
    pub busy_ms: u64,
    /// `busy_ms` over the segment's wall time (its first start to its last
    /// end): the share of the night the slot was busy.
    pub utilisation: Option<f64>,
    /// How tries on this slot measured against their best, next to the
    /// other slots' tries (from two slots with two such tries each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<SlotEffect>,
    /// What the slot adds to the metric over another, from the commits
    /// measured on both (the offset `arx try` compares across slots with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<SlotOffset>,
}

/// A slot's estimated offset over the first slot with runs
/// ([`crate::kernel::slot_offset`]).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct SlotOffset {
    /// The slot it is measured against.
    pub over: String,
    /// What the slot adds to the metric over `over` (in the metric's
    /// units; shrunk toward 0 by how far apart the slots are).
    pub value: f64,
    /// Its standard error, with a noise estimate.
    pub se: Option<f64>,
}

/// The slot effect as the tries show it: tries run on a slot are compared
/// with the best of their moment, whatever slot measured that best, so a
/// slot that reads better or worse than the others shows here (so does a
/// lane that works on something else and runs mostly on one slot).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct SlotEffect {
    /// Tries on the slot that had a value and a best to compare with.
    pub tries: usize,
    /// Their mean change against the best: their value less the best's,
    /// in the metric's units (as the slots' offsets and the rows' change).
    pub change: f64,
    /// `change` less the mean change of every slot's tries: what the slot
    /// adds to the metric over the others (positive = it reads higher).
    pub effect: f64,
    /// The standard error of `change` (its tries' spread over √tries).
    pub se: f64,
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
    /// Against the best before it (segment runs): its value less the
    /// best's, in the metric's units (negative is better when lower is).
    pub change: Option<f64>,
    pub status: String,
    pub commit: Option<String>,
    pub description: Option<String>,
    pub detail: Option<String>,
    pub metrics: Vec<(String, f64)>,
    /// The lane the try ran in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    /// The slot its (last) run ran in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
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
    /// Records in scope (tries and plain runs).
    pub runs: usize,
    /// Of them, tries of the ratchet.
    pub tries: usize,
    /// Experiment runs the records in scope took (a try takes one or more).
    pub experiment_runs: u64,
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

/// One run as a row, its change taken against `best` (the best kept
/// value of its segment before it).
pub fn row(number: usize, p: &Point<'_>, best: Option<f64>) -> Row {
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
        // In the metric's units, as the try's line and the summary's
        // change against the baseline (negative is better when lower is);
        // against the best on the try's slot when it was compared there,
        // as its line says.
        // A fleet's best measured again on a class is no change: the best
        // it would be set against was measured on another class.
        change: if p.segment_number > 0 && !(p.class.is_some() && p.status == Status::Remeasure) {
            p.value.zip(p.slot_best.or(best)).map(|(v, b)| v - b)
        } else {
            None
        },
        status: p.status_text().to_string(),
        commit: p.commit.as_deref().map(str::to_string),
        description: p.description.as_deref().map(str::to_string),
        detail: p.detail.clone(),
        metrics: p.metrics.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        lane: p.lane.as_deref().map(str::to_string),
        slot: {
            let runs = p.slot_runs.iter().map(|r| r.slot.as_ref());
            let text = crate::kernel::slot_offset::slots_text(p.slot.as_deref(), runs);
            (!text.is_empty()).then_some(text)
        },
    }
}

/// The last runs of a report: `(journal position, point)` pairs, their
/// changes taken from the fold's record of kept values.
pub fn last_rows(points: &[(usize, &Point<'_>)], fold: &Fold) -> Vec<Row> {
    points
        .iter()
        .map(|(i, p)| row(*i, p, fold.best_before(p.segment_number, *i)))
        .collect()
}

/// The last `n` runs of `scope` among numbered `points` (the whole
/// journal), with their journal positions.
pub fn last_in_scope<'p, 'a>(
    points: &'p [Point<'a>],
    scope: Scope,
    n: usize,
) -> Vec<(usize, &'p Point<'a>)> {
    let mut out: Vec<(usize, &Point<'_>)> = points
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, p)| match scope {
            Scope::Segment(s) => p.segment_number == s,
            _ => true,
        })
        .take(n)
        .map(|(i, p)| (i + 1, p))
        .collect();
    out.reverse();
    out
}

impl Overview {
    /// What is in scope, each word for one thing: `10 tries (25 runs)`,
    /// `3 runs`, or `10 tries and 2 plain runs (27 runs)`.
    pub fn in_scope(&self) -> String {
        let count =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let runs = count(self.experiment_runs, "run", "runs");
        let plain = self.runs.saturating_sub(self.tries) as u64;
        match (self.tries as u64, plain) {
            (0, _) => count(plain, "run", "runs"),
            (t, 0) => format!("{} ({runs})", count(t, "try", "tries")),
            (t, p) => format!(
                "{} and {} ({runs})",
                count(t, "try", "tries"),
                count(p, "plain run", "plain runs")
            ),
        }
    }
}

impl Overview {
    /// The report's opening counts: what is in scope (and, when that is
    /// not the whole journal, how many records the journal holds) and the
    /// segments.
    pub fn counts(&self) -> String {
        let n = self.journal.segments;
        let segments = format!("{n} segment{}", if n == 1 { "" } else { "s" });
        if self.runs == self.journal.runs {
            return format!("{}, {segments}", self.in_scope());
        }
        let r = self.journal.runs;
        format!(
            "{} in scope, {r} record{} in the journal, {segments}",
            self.in_scope(),
            if r == 1 { "" } else { "s" }
        )
    }
}

/// The report of a journal's `fold` for `scope`, with its last runs.
pub fn overview(fold: &Fold, scope: Scope, ctx: &Context, last_runs: Vec<Row>) -> Overview {
    let segments = match scope {
        Scope::Segment(n) => fold.segments.get(n.wrapping_sub(1)).into_iter().collect(),
        Scope::Latest => fold.segments.last().into_iter().collect(),
        Scope::All => fold.segments.iter().collect::<Vec<_>>(),
    };
    let (runs, tries, experiment_runs) = match scope {
        Scope::Segment(n) => fold
            .segments
            .get(n.wrapping_sub(1))
            .map_or((0, 0, 0), |s| (s.tries, s.tries, s.runs)),
        _ => (fold.runs, fold.tries, fold.experiment_runs),
    };
    Overview {
        generated_at: ctx.now.clone(),
        scope,
        journal: JournalSummary {
            runs: fold.runs,
            segments: fold.segments.len(),
            first_at: fold.first_at.clone(),
            last_at: fold.last_at.clone(),
            unreadable: ctx.unreadable,
        },
        runs,
        tries,
        experiment_runs,
        segments: segments.into_iter().map(|s| s.summary(ctx)).collect(),
        groups: fold.groups(scope),
        last_runs,
        precision: ctx.precision.clone(),
        dead_ends_total: ctx.dead_ends.len(),
        dead_ends: ctx.dead_ends[ctx.dead_ends.len().saturating_sub(ctx.last)..].to_vec(),
        rounds_total: ctx.rounds.len(),
        rounds: ctx.rounds[ctx.rounds.len().saturating_sub(ctx.last)..].to_vec(),
    }
}

/// Every row of the scope for the page's run table: all of them up to
/// `limit`, else the latest `limit` (the page says how many are left
/// out); changes against the best kept value before each, walked in
/// journal order.
pub fn table_rows(points: &[Point<'_>], scope: Scope, limit: usize) -> (Vec<Row>, usize) {
    let scoped: Vec<(usize, &Point<'_>)> = points
        .iter()
        .enumerate()
        .filter(|(_, p)| match scope {
            Scope::Segment(n) => p.segment_number == n,
            _ => true,
        })
        .map(|(i, p)| (i + 1, p))
        .collect();
    let from = scoped.len().saturating_sub(limit);
    let mut best: BTreeMap<usize, f64> = BTreeMap::new();
    let mut rows = Vec::with_capacity(scoped.len() - from);
    for (k, (i, p)) in scoped.iter().enumerate() {
        if k >= from {
            rows.push(row(*i, p, best.get(&p.segment_number).copied()));
        }
        if matches!(p.status, Status::Baseline | Status::Keep) && p.segment_number > 0 {
            if let Some(v) = p.value {
                best.insert(p.segment_number, v);
            }
        }
    }
    (rows, scoped.len())
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
