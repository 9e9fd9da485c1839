//! The slots in the segment fold: each try's change against the best per
//! slot (the slots' effects), each slot's runs and wall time, and the
//! measured commits' runs per slot that the offsets are estimated from.

use serde::{Deserialize, Serialize};

use super::{entry, kept_samples, mean, SegmentFold};
use crate::kernel::report::{millis, OnSlot, Point, SlotEffect, SlotOffset, SlotSummary, Status};

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

impl SegmentFold {
    /// Fold a record's slots: its change against the best on its slot
    /// (a try's), its runs and wall time per slot, and a measured commit's
    /// runs per slot.
    pub(super) fn add_slots(&mut self, p: &Point<'_>, is_try: bool) {
        if let (Some(slot), true, Some(kept)) = (
            p.slot.as_deref(),
            is_try && p.status != Status::Baseline,
            &self.kept,
        ) {
            // In the metric's units (the value less the best's), as the
            // slots' offsets and the rows' change are, so the report's
            // slot lines read one way.
            let best = (!kept.samples.is_empty()).then(|| mean(&kept.samples));
            if let Some(c) = p.value.zip(best).map(|(v, b)| v - b) {
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
        if let (Status::Baseline | Status::Keep | Status::Remeasure, Some(commit)) =
            (p.status, p.commit.as_deref())
        {
            crate::kernel::slot_offset::add_runs(&mut self.slot_runs, commit, slotted(p));
        }
    }

    /// Each slot's summary as people read it: its utilisation of the
    /// segment's wall time, its effect and its offset.
    pub(super) fn slot_summaries(&self) -> Vec<SlotSummary> {
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
    }

    /// The baseline as it would measure on the slot the best was recorded
    /// on, when the two were recorded on different slots and an offset
    /// between them can be estimated: the slot and the value.
    pub fn baseline_on_best_slot(&self) -> Option<OnSlot> {
        let (base, best) = (self.baseline.as_ref()?, self.kept.as_ref()?);
        let slot = best.slot.as_deref()?;
        if base.slot.as_deref()? == slot {
            return None;
        }
        let runs = self.slot_runs.iter().find(|c| c.commit == base.commit)?;
        let sd = self.noise().map(|(sd, _)| sd);
        let r = crate::kernel::slot_offset::reference(&self.slot_runs, runs, slot, sd)?;
        Some(OnSlot {
            slot: slot.to_string(),
            value: r.mean(),
        })
    }

    /// Each slot's offset over the first slot with runs of a measured
    /// commit, where a path between them is known (none with one slot).
    pub fn slot_offsets(&self) -> Vec<(String, SlotOffset)> {
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
                    SlotOffset {
                        over: anchor.to_string(),
                        value: o.d,
                        se: sd.map(|sd| o.var.sqrt() * sd),
                    },
                ))
            })
            .collect()
    }
}
