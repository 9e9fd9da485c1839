//! The classes of a fleet in the segment fold: each class's tries and
//! keeps, and the last best it measured (its keep, or a best it measured
//! as its baseline or again on the class) with its runs there, for the
//! class's best and the fleet's best as the class measured it. Values of
//! different classes are never set against one another.

use serde::{Deserialize, Serialize};

use super::{entry, kept_samples, mean, SegmentFold};
use crate::kernel::report::{ClassSummary, OnClass, Point, Status};

/// One class's share of a segment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassFold {
    pub class: String,
    pub tries: usize,
    pub keeps: usize,
    /// The last commit the class measured as a best.
    pub commit: String,
    /// Its values on the class.
    pub samples: Vec<f64>,
}

impl SegmentFold {
    /// A record of a machine of a fleet: its class's counts and measured
    /// best.
    pub(super) fn add_class(&mut self, p: &Point<'_>, is_try: bool) {
        let Some(class) = p.class.as_deref() else {
            return;
        };
        let c = entry(
            &mut self.classes,
            class,
            |c| &c.class,
            || ClassFold {
                class: class.to_string(),
                ..ClassFold::default()
            },
        );
        c.tries += usize::from(is_try);
        c.keeps += usize::from(p.status == Status::Keep);
        if !matches!(
            p.status,
            Status::Keep | Status::Baseline | Status::Remeasure
        ) {
            return;
        }
        let Some(commit) = p.commit.as_deref() else {
            return;
        };
        let samples = kept_samples(p);
        if samples.is_empty() {
            return;
        }
        if c.commit != commit {
            c.commit = commit.to_string();
            c.samples.clear();
        }
        c.samples.extend(samples);
    }

    /// Each class's summary: its best as it measured it, and the
    /// segment's best (the fleet's) when that is the best it measured last.
    pub(super) fn class_summaries(&self) -> Vec<ClassSummary> {
        let fleet = self.kept.as_ref().map(|k| k.commit.as_str());
        self.classes
            .iter()
            .map(|c| {
                let best = (!c.samples.is_empty()).then(|| OnClass {
                    commit: c.commit.clone(),
                    value: mean(&c.samples),
                    n: c.samples.len(),
                });
                ClassSummary {
                    class: c.class.clone(),
                    tries: c.tries,
                    keeps: c.keeps,
                    fleet_best: best
                        .as_ref()
                        .filter(|b| Some(b.commit.as_str()) == fleet)
                        .map(|b| b.value),
                    best,
                }
            })
            .collect()
    }
}
