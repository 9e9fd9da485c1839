//! A segment's tries per family of ideas: how many, how many were kept,
//! and what the keeps gained together (each over the best before it), for
//! the report's family table with each family's keep rate and its
//! interval.

use serde::{Deserialize, Serialize};

use super::{entry, SegmentFold};
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::ratchet_record::UNSORTED;
use crate::kernel::report::{Point, Status};
use crate::kernel::stats::{rate_interval, Direction};

/// One family's tries as folded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilyFold {
    pub family: String,
    pub tries: usize,
    pub keeps: usize,
    /// The keeps' improvements over the best before each, summed
    /// (positive = better, in the metric's units).
    pub gain: f64,
}

/// One family's row of the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilySummary {
    pub family: String,
    pub tries: usize,
    pub keeps: usize,
    /// Keeps per try.
    pub keep_rate: f64,
    /// The keep rate's interval (Jeffreys, at the report's confidence).
    pub interval: Option<(f64, f64)>,
    /// The keeps' improvements summed (positive = better).
    pub gain: f64,
}

impl SegmentFold {
    /// A try's count in its family (a try that names none: `unsorted`);
    /// for a keep, its gain over the best before it (the keep log's last
    /// value: this runs before the keep joins it).
    pub(super) fn add_family(&mut self, p: &Point<'_>, is_try: bool) {
        if !is_try || p.status == Status::Baseline {
            return;
        }
        // A family of its own (not the `unsorted` of a try that named none
        // in a loop without ideas) makes the table worth showing.
        self.any_family |= p.family.as_deref().is_some_and(|f| f != UNSORTED);
        let family = p.family.as_deref().unwrap_or(UNSORTED);
        let gain = match (p.status, p.value, self.keep_log.back(), self.direction) {
            (Status::Keep, Some(v), Some(&(_, best)), Some(d)) => match d {
                Direction::Max => v - best,
                Direction::Min => best - v,
            },
            _ => 0.0,
        };
        let f = entry(
            &mut self.families,
            family,
            |f| &f.family,
            || FamilyFold {
                family: family.to_string(),
                ..FamilyFold::default()
            },
        );
        f.tries += 1;
        if p.status == Status::Keep {
            f.keeps += 1;
            f.gain += gain;
        }
    }

    /// The family table: none when no try of the segment named a family;
    /// the families with the most tries first.
    pub(super) fn family_summaries(&self) -> Vec<FamilySummary> {
        if !self.any_family {
            return Vec::new();
        }
        let mut rows: Vec<FamilySummary> = self
            .families
            .iter()
            .map(|f| FamilySummary {
                family: f.family.clone(),
                tries: f.tries,
                keeps: f.keeps,
                keep_rate: if f.tries == 0 {
                    0.0
                } else {
                    f.keeps as f64 / f.tries as f64
                },
                interval: rate_interval(f.keeps as u64, f.tries as u64, INTERVAL_CONFIDENCE),
                gain: f.gain,
            })
            .collect();
        rows.sort_by(|a, b| b.tries.cmp(&a.tries).then(a.family.cmp(&b.family)));
        rows
    }
}
