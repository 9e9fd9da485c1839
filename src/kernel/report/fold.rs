//! The report's fold of the journal: per segment its counts, baseline,
//! kept commit and noise; per segment, metric and candidate the group's
//! counts and values. It is extended one record at a time, so a host can
//! save it and later fold only the records appended since (the fold of a
//! journal is the same whether it was built at once or in pieces).

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use super::{
    better, millis, Best, Context, Group, LaneSummary, Point, Scope, SegmentSummary, SlotEffect,
    SlotSummary, Status, Value,
};
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::ratchet::estimate;
use crate::kernel::segment::{stop_advice, Segment, StopAdvice};
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
}

/// The changes against the best of the tries on one slot: count, sum and
/// sum of squares.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SlotChanges {
    pub slot: String,
    pub n: usize,
    pub sum: f64,
    pub ss: f64,
}

/// Each slot's effect from the changes of its tries, when two slots have
/// two tries each (else none).
pub fn slot_effects(changes: &[SlotChanges]) -> Vec<(String, SlotEffect)> {
    let measured: Vec<&SlotChanges> = changes.iter().filter(|c| c.n >= 2).collect();
    if measured.len() < 2 {
        return Vec::new();
    }
    let (n, sum) = measured
        .iter()
        .fold((0usize, 0.0), |(n, s), c| (n + c.n, s + c.sum));
    let overall = sum / n as f64;
    measured
        .iter()
        .map(|c| {
            let k = c.n as f64;
            let change = c.sum / k;
            let var = ((c.ss - k * change * change) / (k - 1.0)).max(0.0);
            (
                c.slot.clone(),
                SlotEffect {
                    tries: c.n,
                    change,
                    effect: change - overall,
                    se: (var / k).sqrt(),
                },
            )
        })
        .collect()
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

/// Slot `slot`'s summary in `slots`, added when it is new.
fn slot_summary<'s>(slots: &'s mut Vec<SlotSummary>, slot: &str) -> &'s mut SlotSummary {
    entry(
        slots,
        slot,
        |s| &s.slot,
        || SlotSummary {
            slot: slot.to_string(),
            ..SlotSummary::default()
        },
    )
}

/// The slot of each of a record's kept samples: paired with its runs in
/// slots when it journaled them (as the ratchet folds them), else all on
/// its own slot.
fn slotted(p: &Point<'_>) -> Vec<(String, f64)> {
    let samples = kept_samples(p);
    if !p.slot_runs.is_empty() {
        let runs = p.slot_runs.iter().map(|r| (Some(r.slot.as_ref()), r.value));
        return crate::kernel::slot_offset::pair_slots(runs, &samples);
    }
    match p.slot.as_deref() {
        Some(slot) => samples.into_iter().map(|x| (slot.to_string(), x)).collect(),
        None => Vec::new(),
    }
}

/// A record's wall time on each slot: shared among the slots its runs
/// took in proportion to their durations (equally when they say none),
/// else all on its own slot.
fn busy_per_slot<'p>(p: &'p Point<'_>) -> Vec<(&'p str, u64)> {
    let mut per: Vec<(&str, u64)> = Vec::new();
    for r in &p.slot_runs {
        match per.iter_mut().find(|(s, _)| *s == r.slot.as_ref()) {
            Some((_, ms)) => *ms += r.duration_ms,
            None => per.push((r.slot.as_ref(), r.duration_ms)),
        }
    }
    match per.len() {
        0 => p
            .slot
            .as_deref()
            .map(|s| (s, p.duration_ms))
            .into_iter()
            .collect(),
        1 => vec![(per[0].0, p.duration_ms)],
        n => {
            let total: u64 = per.iter().map(|(_, ms)| ms).sum();
            let mut left = p.duration_ms;
            let mut out = Vec::with_capacity(n);
            for (i, (slot, ms)) in per.iter().enumerate() {
                let share = if i + 1 == n {
                    left
                } else if total == 0 {
                    p.duration_ms / n as u64
                } else {
                    (u128::from(p.duration_ms) * u128::from(*ms) / u128::from(total)) as u64
                };
                let share = share.min(left);
                left -= share;
                out.push((*slot, share));
            }
            out
        }
    }
}

/// The change of `value` against `best` (positive = better).
pub fn change(direction: Option<Direction>, value: Option<f64>, best: Option<f64>) -> Option<f64> {
    match (direction?, value?, best?) {
        (Direction::Max, v, b) => Some(v - b),
        (Direction::Min, v, b) => Some(b - v),
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
            if let Some(d) = g.direction {
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

impl SegmentFold {
    fn add(&mut self, index: usize, p: &Point<'_>) {
        // The best measured again on another slot is not a try.
        let is_try = p.status != Status::Remeasure;
        self.tries += usize::from(is_try);
        self.last_at.clear();
        self.last_at.push_str(&p.started_at);
        self.runs += p.runs;
        self.tally.add(p.status, p.status_text());
        if p.samples.len() >= 2 {
            let m = mean(&p.samples);
            self.noise_ss += p.samples.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
            self.noise_df += p.samples.len() - 1;
        }
        if let Some(lane) = p.lane.as_deref().filter(|_| is_try) {
            let l = entry(
                &mut self.lanes,
                lane,
                |l| &l.lane,
                || LaneSummary {
                    lane: lane.to_string(),
                    ..LaneSummary::default()
                },
            );
            l.tries += 1;
            match p.status {
                Status::Keep => l.keeps += 1,
                Status::Stale => l.stale += 1,
                _ => {}
            }
        }
        if let (Some(slot), true, Some(kept)) = (
            p.slot.as_deref(),
            is_try && p.status != Status::Baseline,
            &self.kept,
        ) {
            let best = (!kept.samples.is_empty()).then(|| mean(&kept.samples));
            if let Some(c) = change(p.direction.or(self.direction), p.value, best) {
                let s = entry(
                    &mut self.slot_changes,
                    slot,
                    |s| &s.slot,
                    || SlotChanges {
                        slot: slot.to_string(),
                        ..SlotChanges::default()
                    },
                );
                s.n += 1;
                s.sum += c;
                s.ss += c * c;
            }
        }
        if let Some(slot) = p.slot.as_deref() {
            slot_summary(&mut self.slots, slot).tries += usize::from(is_try);
        }
        // Its wall time, on the slots its runs took (in proportion to
        // theirs), else on its own slot.
        for (slot, ms) in busy_per_slot(p) {
            slot_summary(&mut self.slots, slot).busy_ms += ms;
        }
        if !self.lanes.is_empty() || !self.slots.is_empty() {
            if let Some(start) = millis(&p.started_at) {
                self.end_ms = self.end_ms.max(start.saturating_add(p.duration_ms as i64));
            }
        }
        let kept = || KeptFold {
            run_id: p.run_id.to_string(),
            commit: p.commit.as_deref().unwrap_or_default().to_string(),
            description: p.description.as_deref().map(str::to_string),
            confirmed: p.confirmed,
            samples: kept_samples(p),
            slot: p.slot.as_deref().map(str::to_string),
        };
        if let (Status::Baseline | Status::Keep | Status::Remeasure, Some(commit)) =
            (p.status, p.commit.as_deref())
        {
            crate::kernel::slot_offset::add_runs(&mut self.slot_runs, commit, slotted(p));
        }
        match p.status {
            Status::Baseline => {
                self.baseline = Some(kept());
                self.kept = Some(kept());
            }
            Status::Keep => self.kept = Some(kept()),
            _ => {}
        }
        if matches!(p.status, Status::Baseline | Status::Keep) {
            if let Some(v) = p.value {
                if self.keep_log.len() == KEEP_LOG {
                    self.keep_log.pop_front();
                }
                self.keep_log.push_back((index, v));
            }
        }
    }

    /// The pooled noise: the sd of one run and its degrees of freedom.
    pub fn noise(&self) -> Option<(f64, f64)> {
        (self.noise_df > 0).then(|| {
            (
                (self.noise_ss / self.noise_df as f64).sqrt(),
                self.noise_df as f64,
            )
        })
    }

    /// The baseline as it would measure on the slot the best was recorded
    /// on, when the two were recorded on different slots and an offset
    /// between them can be estimated: the slot and the value.
    pub fn baseline_on_best_slot(&self) -> Option<super::OnSlot> {
        let (base, best) = (self.baseline.as_ref()?, self.kept.as_ref()?);
        let slot = best.slot.as_deref()?;
        if base.slot.as_deref()? == slot {
            return None;
        }
        let runs = self.slot_runs.iter().find(|c| c.commit == base.commit)?;
        let sd = self.noise().map(|(sd, _)| sd);
        let r = crate::kernel::slot_offset::reference(&self.slot_runs, runs, slot, sd)?;
        Some(super::OnSlot {
            slot: slot.to_string(),
            value: r.mean(),
        })
    }

    /// Each slot's offset over the first slot with runs of a measured
    /// commit, where a path between them is known (none with one slot).
    pub fn slot_offsets(&self) -> Vec<(String, super::SlotOffset)> {
        let mut slots: Vec<&str> = self
            .slot_runs
            .iter()
            .flat_map(|c| c.by_slot.keys().map(String::as_str))
            .collect();
        slots.sort_unstable();
        slots.dedup();
        let Some((anchor, rest)) = slots.split_first() else {
            return Vec::new();
        };
        let sd = self.noise().map(|(sd, _)| sd);
        rest.iter()
            .filter_map(|s| {
                let o = crate::kernel::slot_offset::offset(&self.slot_runs, s, anchor, sd)?;
                Some((
                    s.to_string(),
                    super::SlotOffset {
                        over: anchor.to_string(),
                        value: o.d,
                        se: sd.map(|sd| o.var.sqrt() * sd),
                    },
                ))
            })
            .collect()
    }

    /// The summary people read, at `ctx`'s time and stop rules.
    pub fn summary(&self, ctx: &Context) -> SegmentSummary {
        let noise = self.noise();
        let value_of = |k: &KeptFold| -> Option<Value> {
            let samples = &k.samples;
            match estimate(samples, noise, INTERVAL_CONFIDENCE) {
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
        let base = self.baseline.as_ref().and_then(value_of);
        let on_slot = self.baseline_on_best_slot();
        let best = self.kept.as_ref().and_then(|k| {
            let v = value_of(k)?;
            Some(Best {
                change: match &on_slot {
                    Some(b) => Some(v.value - b.value),
                    None => base.as_ref().map(|b| v.value - b.value),
                },
                baseline_on_slot: on_slot.clone(),
                value: v,
                run_id: k.run_id.clone(),
                commit: k.commit.clone(),
                description: k.description.clone(),
                confirmed: k.confirmed,
            })
        });
        let hours = match (ctx.now_ms, millis(&self.started_at)) {
            (Some(now), Some(start)) => (now - start).max(0) as f64 / 3_600_000.0,
            _ => 0.0,
        };
        let seg = Segment {
            runs: self.runs,
            tally: self.tally.clone(),
            ..Segment::default()
        };
        let advice = match self.direction {
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
        let after_baseline = self.tries - self.tally.baselines;
        SegmentSummary {
            number: self.number,
            id: self.id.clone(),
            metric: self.metric.clone(),
            direction: self.direction,
            started_at: self.started_at.clone(),
            last_at: self.last_at.clone(),
            elapsed_hours: hours,
            baseline: base,
            best,
            tries: self.tries,
            runs: self.runs,
            keeps: self.tally.keeps,
            discards: self.tally.discards,
            crashes: self.tally.crashes,
            other: self.tally.other,
            keep_rate: (after_baseline > 0)
                .then(|| self.tally.keeps as f64 / after_baseline as f64),
            since_keep: self.tally.since_keep,
            noise: noise.map(|(sd, _)| sd),
            statuses: self.tally.statuses.clone(),
            target: ctx.stop.target,
            advice,
            lanes: self.lanes.clone(),
            slots: {
                let wall = millis(&self.started_at)
                    .map(|start| self.end_ms - start)
                    .filter(|w| *w > 0);
                let effects = slot_effects(&self.slot_changes);
                let offsets = self.slot_offsets();
                self.slots
                    .iter()
                    .map(|s| SlotSummary {
                        utilisation: wall.map(|w| (s.busy_ms as f64 / w as f64).min(1.0)),
                        effect: effects
                            .iter()
                            .find(|(slot, _)| *slot == s.slot)
                            .map(|(_, e)| e.clone()),
                        offset: offsets
                            .iter()
                            .find(|(slot, _)| *slot == s.slot)
                            .map(|(_, o)| o.clone()),
                        ..s.clone()
                    })
                    .collect()
            },
        }
    }
}
