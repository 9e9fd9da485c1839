//! The classes of a fleet in the segment fold: each class's tries and
//! keeps, and the last best it measured (its keep, or a best it measured
//! as its baseline or again on the class) with its runs there, for the
//! class's best and the fleet's best as the class measured it. Values of
//! different classes are never set against one another.

use serde::{Deserialize, Serialize};

use super::{entry, kept_samples, mean, SegmentFold};
use crate::kernel::report::{millis, ClassSummary, OnClass, OnSlot, PendingOnClass, Point, Status};

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
    /// The segment's baseline commit as the class measured it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline: Vec<f64>,
    /// When it measured `commit` last (its record's end, in ms).
    #[serde(default)]
    pub at_ms: i64,
    /// With `confirm_classes`: its keep waiting for other classes (or its
    /// verdict that found another class's keep better), while the best it
    /// was kept over is the segment's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingFold>,
}

/// A keep waiting for other classes, on one class.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PendingFold {
    /// The pending keep's run id.
    pub run: String,
    pub samples: Vec<f64>,
}

impl SegmentFold {
    /// A record of a machine of a fleet: its class's counts and measured
    /// best.
    pub(super) fn add_class(&mut self, p: &Point<'_>, is_try: bool) {
        self.settle_pending(p);
        let Some(class) = p.class.as_deref() else {
            return;
        };
        // The baseline's commit: its own record's, or the one the segment
        // has when the class measures it again.
        let of_baseline = p.status == Status::Baseline
            || (p.status == Status::Remeasure
                && self
                    .baseline
                    .as_ref()
                    .is_some_and(|b| p.commit.as_deref() == Some(b.commit.as_str())));
        let end = millis(&p.started_at).map_or(0, |t| t + p.duration_ms as i64);
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
        if p.fleet_pending && p.status == Status::Keep {
            let run = p.confirms.as_deref().unwrap_or(&p.run_id);
            c.pending = Some(PendingFold {
                run: run.to_string(),
                samples: kept_samples(p),
            });
            return;
        }
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
        if of_baseline {
            c.baseline.extend_from_slice(&samples);
        }
        // The journal orders records by their start: a best measured again
        // during a try starts after that try, and may end before it.
        if c.commit == commit {
            c.samples.extend(samples);
            c.at_ms = c.at_ms.max(end);
        } else if end >= c.at_ms {
            c.commit = commit.to_string();
            c.samples = samples;
            c.at_ms = end;
        }
    }

    /// A keep waiting for other classes is settled by a keep that moves the
    /// best (it, or another: it is overtaken), and refuted by a verdict on
    /// it that does not keep.
    fn settle_pending(&mut self, p: &Point<'_>) {
        let refuted = match (&p.confirms, p.status) {
            (_, Status::Keep) if !p.fleet_pending => None,
            // Any decided outcome of a verdict that is not a keep (as
            // `kernel::fleet_confirm` judges it).
            (Some(of), s)
                if !matches!(
                    s,
                    Status::Keep
                        | Status::Baseline
                        | Status::Remeasure
                        | Status::Interrupted
                        | Status::Stale
                        | Status::AlreadyInBest
                        | Status::Protected
                ) =>
            {
                Some(of.as_ref())
            }
            _ => return,
        };
        for c in &mut self.classes {
            if refuted.is_none_or(|of| c.pending.as_ref().is_some_and(|x| x.run == of)) {
                c.pending = None;
            }
        }
    }

    /// The baseline as the best's class measured it, when the best and the
    /// baseline were measured on different classes: `Some(None)` when that
    /// class has not measured it (no change is told then).
    pub(super) fn baseline_on_best_class(&self) -> Option<Option<OnSlot>> {
        let best = self.kept.as_ref()?.class.as_deref()?;
        let base = self.baseline.as_ref()?.class.as_deref()?;
        if best == base {
            return None;
        }
        let c = self.classes.iter().find(|c| c.class == best)?;
        Some((!c.baseline.is_empty()).then(|| OnSlot {
            slot: best.to_string(),
            value: mean(&c.baseline),
        }))
    }

    /// Each class's summary: its best as it measured it, and the
    /// segment's best (the fleet's) when that is the best it measured last.
    pub fn class_summaries(&self) -> Vec<ClassSummary> {
        let fleet = self.kept.as_ref().map(|k| k.commit.as_str());
        self.classes
            .iter()
            .map(|c| {
                let best = (!c.samples.is_empty()).then(|| OnClass {
                    commit: c.commit.clone(),
                    value: mean(&c.samples),
                    n: c.samples.len(),
                });
                let pending = c.pending.as_ref().filter(|x| !x.samples.is_empty());
                ClassSummary {
                    class: c.class.clone(),
                    tries: c.tries,
                    keeps: c.keeps,
                    pending: pending.map(|x| PendingOnClass {
                        run: x.run.clone(),
                        value: mean(&x.samples),
                        n: x.samples.len(),
                    }),
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
