//! One segment's fold: a record added as named steps (its counts and
//! noise, its lane, its slots, the measured commit it makes), and the
//! summary people read.

use super::{entry, kept_samples, mean, KeptFold, SegmentFold, KEEP_LOG};
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::ratchet::estimate;
use crate::kernel::report::{
    millis, Best, Context, LaneSummary, Point, SegmentSummary, Status, Value,
};
use crate::kernel::segment::{stop_advice, Segment, StopAdvice};

impl SegmentFold {
    pub(super) fn add(&mut self, index: usize, p: &Point<'_>) {
        // The best measured again on another slot is not a try.
        let is_try = p.status != Status::Remeasure;
        self.add_counts(p, is_try);
        self.add_lane(p, is_try);
        self.add_class(p, is_try);
        self.add_slots(p, is_try);
        // Before the keep log takes this keep: its gain is over the best
        // before it.
        self.add_family(p, is_try);
        self.add_kept(index, p);
    }

    /// Its counts, its runs and its replicates' share of the noise.
    fn add_counts(&mut self, p: &Point<'_>, is_try: bool) {
        self.tries += usize::from(is_try);
        self.last_at.clear();
        self.last_at.push_str(&p.started_at);
        self.runs += p.runs;
        if p.runs > 0 {
            self.run_ms += p.duration_ms;
        }
        self.tally.add(p.status, p.status_text());
        if p.samples.len() >= 2 {
            let m = mean(&p.samples);
            self.noise_ss += p.samples.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
            self.noise_df += p.samples.len() - 1;
        }
    }

    /// A try's count in its lane.
    fn add_lane(&mut self, p: &Point<'_>, is_try: bool) {
        let Some(lane) = p.lane.as_deref().filter(|_| is_try) else {
            return;
        };
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

    /// A baseline or a keep: the segment's measured commit, and its value
    /// in the keep log.
    fn add_kept(&mut self, index: usize, p: &Point<'_>) {
        let kept = || KeptFold {
            run_id: p.run_id.to_string(),
            commit: p.commit.as_deref().unwrap_or_default().to_string(),
            description: p.description.as_deref().map(str::to_string),
            confirmed: p.confirmed,
            samples: kept_samples(p),
            slot: p.slot.as_deref().map(str::to_string),
            class: p.class.as_deref().map(str::to_string),
        };
        // A keep waiting for other classes is not the best.
        if p.fleet_pending {
            return;
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

    /// About how long one run of the segment takes, in ms.
    pub fn run_ms(&self) -> Option<u64> {
        crate::kernel::cost::per_run(self.run_ms, self.runs)
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

    /// The summary people read, at `ctx`'s time and stop rules.
    pub fn summary(&self, ctx: &Context) -> SegmentSummary {
        let noise = self.noise();
        let base = self.baseline.as_ref().and_then(|k| value_of(k, noise));
        let best = self.best(base.as_ref(), noise);
        let hours = match (ctx.now_ms, millis(&self.started_at)) {
            (Some(now), Some(start)) => (now - start).max(0) as f64 / 3_600_000.0,
            _ => 0.0,
        };
        let advice = self.advice(ctx, best.as_ref(), hours);
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
            slots: self.slot_summaries(),
            families: self.family_summaries(),
            classes: self.class_summaries(),
        }
    }

    /// The best as people read it: its value, and its change against the
    /// baseline (as the baseline measures on the best's slot when the two
    /// differ and an offset is known).
    fn best(&self, base: Option<&Value>, noise: Option<(f64, f64)>) -> Option<Best> {
        // In a fleet, a best and a baseline of different classes are
        // compared only on the best's class.
        let (on_slot, base) = match self.baseline_on_best_class() {
            Some(on_class) => (on_class, None),
            None => (self.baseline_on_best_slot(), base),
        };
        self.kept.as_ref().and_then(|k| {
            let v = value_of(k, noise)?;
            Some(Best {
                change: match &on_slot {
                    Some(b) => Some(v.value - b.value),
                    None => base.map(|b| v.value - b.value),
                },
                baseline_on_slot: on_slot.clone(),
                value: v,
                run_id: k.run_id.clone(),
                commit: k.commit.clone(),
                description: k.description.clone(),
                confirmed: k.confirmed,
            })
        })
    }

    /// Whether to stop, by `ctx`'s stop rules (never without a direction).
    fn advice(&self, ctx: &Context, best: Option<&Best>, hours: f64) -> StopAdvice {
        let seg = Segment {
            runs: self.runs,
            tally: self.tally.clone(),
            ..Segment::default()
        };
        match self.direction {
            Some(d) => stop_advice(&seg, &ctx.stop, best.map(|b| b.value.value), d, hours),
            None => StopAdvice {
                stop: false,
                reason: None,
            },
        }
    }
}

/// A measured commit's value: its estimate and interval, or its one
/// sample alone when there is no noise to go by.
fn value_of(k: &KeptFold, noise: Option<(f64, f64)>) -> Option<Value> {
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
}
