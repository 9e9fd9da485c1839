//! The report's fold of the journal: per segment its counts, baseline,
//! kept commit and noise; per segment, metric and candidate the group's
//! counts and values. It is extended one record at a time, so a host can
//! save it and later fold only the records appended since (the fold of a
//! journal is the same whether it was built at once or in pieces).

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

mod classes;
mod families;
mod segment;
mod slots;

pub use classes::ClassFold;
pub use families::{FamilyFold, FamilySummary};
pub use slots::SlotChanges;

use super::{better, Group, LaneSummary, Point, Scope, SlotSummary, Status};
use crate::kernel::slot_offset::CommitRuns;
use crate::kernel::stats::Direction;
use crate::kernel::tally::Tally;

/// Kept values remembered per segment, for the change column of the last
/// runs (the best before each of them).
pub const KEEP_LOG: usize = 1024;

/// A measured commit: the baseline or a keep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptFold {
    pub run_id: String,
    pub commit: String,
    pub description: Option<String>,
    pub confirmed: bool,
    /// Its samples (from `record_from` on), or its value.
    pub samples: Vec<f64>,
    /// The slot its (last) run ran in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// In a fleet: the class of the machine that measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SegmentFold {
    pub number: usize,
    pub id: String,
    pub metric: String,
    pub direction: Option<Direction>,
    pub started_at: String,
    pub last_at: String,
    pub tries: usize,
    pub runs: u64,
    /// The wall time of the records with runs, in ms (what one run takes,
    /// over `runs`).
    #[serde(default)]
    pub run_ms: u64,
    /// The counts, by the one rule the ratchet counts with too.
    #[serde(flatten)]
    pub tally: Tally,
    pub baseline: Option<KeptFold>,
    pub kept: Option<KeptFold>,
    /// Pooled noise: the sum of squares within replicate groups and its
    /// degrees of freedom.
    pub noise_ss: f64,
    pub noise_df: usize,
    /// The latest kept values: (journal position, value).
    pub keep_log: VecDeque<(usize, f64)>,
    /// Tries per lane (lanes in order of their first try).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lanes: Vec<LaneSummary>,
    /// Runs per slot, with their wall time (utilisation left to the
    /// summary).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<SlotSummary>,
    /// The latest end of a record (its start plus its duration), in ms.
    #[serde(default)]
    pub end_ms: i64,
    /// Per slot: the tries' changes against the best of their moment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slot_changes: Vec<SlotChanges>,
    /// The measured commits' runs per slot (baselines, keeps, and the best
    /// measured again on another slot), each run on the slot it ran in:
    /// what the slots' offsets are estimated from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slot_runs: Vec<CommitRuns>,
    /// Tries per family of ideas (a try that names none as `unsorted`),
    /// in order of their first try.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<FamilyFold>,
    /// A try of the segment has a family other than `unsorted` (records
    /// of an older arx, and loops without ideas, have no family table).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_family: bool,
    /// In a fleet: tries per class of machine, each with the last best it
    /// measured (classes in order of their first record).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<ClassFold>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupFold {
    pub segment: usize,
    pub metric: Option<String>,
    pub candidate: Option<String>,
    pub direction: Option<Direction>,
    pub first: usize,
    pub last: usize,
    pub runs: usize,
    pub statuses: BTreeMap<String, usize>,
    pub best: Option<f64>,
    pub best_run: Option<String>,
    pub latest: Option<f64>,
}

/// The whole fold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fold {
    /// Records folded.
    pub runs: usize,
    /// Of them, tries of the ratchet (the rest are plain runs).
    #[serde(default)]
    pub tries: usize,
    /// Experiment runs the records took.
    #[serde(default)]
    pub experiment_runs: u64,
    pub first_at: Option<String>,
    pub last_at: Option<String>,
    pub segments: Vec<SegmentFold>,
    pub groups: Vec<GroupFold>,
    /// The segment id of the last try, to number the next one.
    pub last_segment_id: Option<String>,
}

/// Count one more `status` (its text copied only the first time).
fn count(statuses: &mut BTreeMap<String, usize>, status: &str) {
    match statuses.get_mut(status) {
        Some(n) => *n += 1,
        None => {
            statuses.insert(status.to_string(), 1);
        }
    }
}

/// The item of `items` whose key (`key_of`) is `key`, added by `new` when
/// there is none (lanes and slots are few: a scan beats a map here, and
/// keeps their first-seen order).
fn entry<'a, T>(
    items: &'a mut Vec<T>,
    key: &str,
    key_of: impl Fn(&T) -> &str,
    new: impl FnOnce() -> T,
) -> &'a mut T {
    let i = match items.iter().position(|x| key_of(x) == key) {
        Some(i) => i,
        None => {
            items.push(new());
            items.len() - 1
        }
    };
    &mut items[i]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The value a kept run holds: its samples from `record_from` on, or its
/// value.
pub fn kept_samples(p: &Point<'_>) -> Vec<f64> {
    if p.samples.is_empty() {
        p.value.into_iter().collect()
    } else if p.record_from > 0 && p.record_from < p.samples.len() {
        p.samples[p.record_from..].to_vec()
    } else {
        p.samples.clone()
    }
}

impl Fold {
    /// Give `p` its segment number, continuing the numbering of what was
    /// folded so far (as `kernel::segment` numbers segments).
    pub fn number(&mut self, p: &mut Point<'_>) {
        let Some(id) = &p.segment else { return };
        let n = self.segments.len();
        // A late record of an earlier segment folds into it (as
        // `kernel::segment` folds it).
        if let Some(i) = crate::kernel::segment::late_into(
            self.segments.iter().map(|s| s.id.as_str()),
            id,
            p.new_segment || p.status == Status::Baseline,
        ) {
            p.segment_number = i + 1;
            return;
        }
        if n == 0 || p.new_segment || self.last_segment_id.as_deref() != Some(id.as_ref()) {
            self.segments.push(SegmentFold {
                number: n + 1,
                id: id.to_string(),
                metric: p.metric.as_deref().unwrap_or_default().to_string(),
                direction: p.direction,
                started_at: p.started_at.to_string(),
                ..SegmentFold::default()
            });
            self.last_segment_id = Some(id.to_string());
        }
        p.segment_number = self.segments.len();
    }

    /// Fold the next record (numbered with [`Fold::number`]).
    pub fn add(&mut self, p: &Point<'_>) {
        self.runs += 1;
        self.tries += usize::from(p.segment_number > 0);
        self.experiment_runs += p.runs;
        let index = self.runs;
        if self.first_at.is_none() {
            self.first_at = Some(p.started_at.to_string());
        }
        // Reuse the text's buffer: this runs once per journaled run.
        let last = self.last_at.get_or_insert_with(String::new);
        last.clear();
        last.push_str(&p.started_at);
        if p.segment_number > 0 {
            if let Some(seg) = self.segments.get_mut(p.segment_number - 1) {
                seg.add(index, p);
            }
        }
        self.add_to_group(index, p);
    }

    fn add_to_group(&mut self, index: usize, p: &Point<'_>) {
        let found = self.groups.iter().rposition(|g| {
            g.segment == p.segment_number
                && g.metric.as_deref() == p.metric.as_deref()
                && g.candidate.as_deref() == p.candidate.as_deref()
        });
        let i = match found {
            Some(i) => i,
            None => {
                self.groups.push(GroupFold {
                    segment: p.segment_number,
                    metric: p.metric.as_deref().map(str::to_string),
                    candidate: p.candidate.as_deref().map(str::to_string),
                    direction: p.direction,
                    first: index,
                    ..GroupFold::default()
                });
                self.groups.len() - 1
            }
        };
        let g = &mut self.groups[i];
        g.runs += 1;
        g.last = index;
        if g.direction.is_none() {
            g.direction = p.direction;
        }
        count(&mut g.statuses, p.status_text());
        if let Some(v) = p.value {
            g.latest = Some(v);
            // A try's best is the ratchet's: its segment's last keep (what
            // `best` shows; never a value a veto refused to keep: the
            // held-out check, a guard, a check); a plain run's, the best
            // value.
            if p.segment_number > 0 {
                if matches!(p.status, Status::Keep | Status::Baseline) && !p.fleet_pending {
                    g.best = Some(v);
                    g.best_run = Some(p.run_id.to_string());
                }
            } else if let Some(d) = g.direction {
                if g.best.is_none_or(|b| better(d, v, b)) {
                    g.best = Some(v);
                    g.best_run = Some(p.run_id.to_string());
                }
            }
        }
    }

    /// The groups `scope` covers, by metric and candidate, in order of
    /// first appearance.
    pub fn groups(&self, scope: Scope) -> Vec<Group> {
        let mut merged: Vec<GroupFold> = Vec::new();
        let mut parts: Vec<&GroupFold> = self
            .groups
            .iter()
            .filter(|g| match scope {
                Scope::Segment(n) => g.segment == n,
                _ => true,
            })
            .collect();
        parts.sort_by_key(|g| g.first);
        for g in parts {
            match merged
                .iter_mut()
                .find(|m| m.metric == g.metric && m.candidate == g.candidate)
            {
                None => merged.push(g.clone()),
                Some(m) => {
                    m.runs += g.runs;
                    for (s, n) in &g.statuses {
                        *m.statuses.entry(s.clone()).or_default() += n;
                    }
                    if m.direction.is_none() {
                        m.direction = g.direction;
                    }
                    if g.last > m.last {
                        m.last = g.last;
                        if g.latest.is_some() {
                            m.latest = g.latest;
                        }
                    }
                    if let (Some(d), Some(b)) = (m.direction, g.best) {
                        if m.best.is_none_or(|mb| better(d, b, mb)) {
                            m.best = Some(b);
                            m.best_run = g.best_run.clone();
                        }
                    }
                }
            }
        }
        merged
            .into_iter()
            .map(|g| Group {
                metric: g.metric,
                candidate: g.candidate,
                direction: g.direction,
                runs: g.runs,
                statuses: g.statuses,
                best: g.best,
                best_run: g.best_run,
                latest: g.latest,
            })
            .collect()
    }

    /// The best kept value of segment `n` before journal position `index`.
    pub fn best_before(&self, n: usize, index: usize) -> Option<f64> {
        let seg = self.segments.get(n.checked_sub(1)?)?;
        seg.keep_log
            .iter()
            .rev()
            .find(|(i, _)| *i < index)
            .map(|(_, v)| *v)
    }
}
