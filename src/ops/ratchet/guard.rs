//! The guard step of a try: once the rule says keep, every guard of the
//! objective is judged on the candidate's runs (this best's), against the
//! best's recorded runs or the segment's baseline's (as the bound names
//! them), with the guard metric's noise pooled over the segment's
//! repeated records as the target's is. The first guard the candidate is
//! not shown to hold vetoes the keep.
//!
//! With slots (`[objective] slots`, two or more), a relative guard is
//! judged as the target is: on the slot of the candidate's first run, the
//! best's runs there and its runs on other slots moved by the slots'
//! offsets *for the guard's metric* (estimated from the segment's measured
//! commits, as [`crate::kernel::slot_offset`] does for the target), and
//! the candidate's runs on other slots moved onto it the same way. An
//! absolute bound is on the values as measured: a memory or time limit is
//! one of the card the run ran on.

use anyhow::Result;

use super::candidate::{Against, Try, TryEnv};
use crate::kernel::guard::{judge, Bound, Guard, Judged};
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet::pooled_noise;
use crate::kernel::ratchet_record::{GuardBreach, TryStatus};
use crate::kernel::segment::runs_of;
use crate::kernel::slot_offset::{self, add_runs, CommitRuns};

/// Judge the objective's guards; the first that does not hold, or `None`
/// when all do (or there are none). `frame`: the slot the candidate is
/// compared on (its first run's), with two slots or more.
pub(super) fn guards(
    env: &TryEnv<'_, '_>,
    at: &Against,
    t: &Try,
    frame: Option<&str>,
) -> Result<Option<GuardBreach>> {
    let objective = env.runner.objective;
    if objective.guards.is_empty() {
        return Ok(None);
    }
    let records = crate::io::state::journal(env.state, env.runner.warn).read()?;
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let best_record = records.iter().rev().find(|r| r.run_id == best.run_id);
    let baseline = at.segment.baseline.as_ref();
    let baseline_record =
        baseline.and_then(|b| records.iter().rev().find(|r| r.run_id == b.run_id));
    let in_segment: Vec<&RunRecord> = records
        .iter()
        .filter(|r| {
            r.ratchet
                .as_ref()
                .is_some_and(|i| i.segment == at.segment.id)
        })
        .collect();
    // In a fleet a run's frame is its class (and slot), as the target's.
    let class = env.runner.class.as_deref();
    let candidate_runs: Vec<_> = t.outcomes[t.first..]
        .iter()
        .filter(|o| o.effective_exit_code() == 0 && !o.interrupted)
        .map(|o| (slot_offset::frame(class, o.slot.as_deref()), &o.metrics))
        .collect();
    for g in &objective.guards {
        let candidate: Vec<(Option<&str>, f64)> = candidate_runs
            .iter()
            .filter_map(|(s, m)| Some((s.as_deref(), m.get(&g.metric)?)))
            .filter(|(_, x)| x.is_finite())
            .collect();
        let of_baseline = matches!(g.bound, Bound::Baseline { .. });
        let (reference, reference_commit) = match of_baseline {
            true => (baseline_record, baseline.map(|b| b.commit.as_str())),
            false => (best_record, Some(best.commit.as_str())),
        };
        let best_values = reference.map_or_else(Vec::new, |r| values(r, &g.metric));
        let noise = noise_of(&in_segment, &g.metric, &candidate);
        let relative = g.bound.relative();
        let on = frame.filter(|_| relative).and_then(|slot| {
            let commits = slot_runs(&in_segment, &g.metric);
            on_slot(
                slot,
                &commits,
                reference_commit?,
                &candidate,
                (noise.map(|n| n.0), class.is_some()),
            )
        });
        let (best_values, candidate, slot) = match on {
            Some((b, c, slot)) => (b, c, Some(slot)),
            None => (best_values, candidate.iter().map(|c| c.1).collect(), None),
        };
        let reference_mean = (!best_values.is_empty())
            .then(|| best_values.iter().sum::<f64>() / best_values.len() as f64)
            .filter(|_| relative);
        let judged = judge(g, &candidate, &best_values, noise, objective.confidence);
        if let Some(b) = breach_of(g, judged, reference_mean, slot) {
            return Ok(Some(b));
        }
    }
    Ok(None)
}

/// The guard metric's noise: pooled over the segment's records with
/// repeated runs of it, and the candidate's own runs.
fn noise_of(
    in_segment: &[&RunRecord],
    metric: &str,
    candidate: &[(Option<&str>, f64)],
) -> Option<(f64, f64)> {
    let groups: Vec<Vec<f64>> = in_segment
        .iter()
        .map(|r| values(r, metric))
        .filter(|v| v.len() > 1)
        .chain((candidate.len() > 1).then(|| candidate.iter().map(|c| c.1).collect()))
        .collect();
    let groups: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    pooled_noise(&groups)
}

/// The breach a guard's judgement comes to, `None` when it holds: the
/// values, the mean its bound is relative to (as `best` or `baseline`),
/// the slot, or whose runs did not print the metric.
fn breach_of(
    g: &Guard,
    judged: Judged,
    reference_mean: Option<f64>,
    slot: Option<String>,
) -> Option<GuardBreach> {
    let of_baseline = matches!(g.bound, Bound::Baseline { .. });
    let breach = |value, bound, missing: Option<&str>| GuardBreach {
        guard: g.text.clone(),
        metric: g.metric.clone(),
        value,
        bound,
        best: reference_mean.filter(|_| !of_baseline),
        baseline: reference_mean.filter(|_| of_baseline),
        slot: slot.clone(),
        missing: missing.map(str::to_string),
    };
    match judged {
        Judged::Holds { .. } => None,
        Judged::Breach { value, bound } => Some(breach(Some(value), Some(bound), None)),
        Judged::MissingCandidate => Some(breach(None, None, Some("candidate"))),
        Judged::MissingBest => Some(breach(None, None, g.bound.reference())),
    }
}

/// The runs of `metric` on each slot of the segment's measured commits:
/// the baseline, the best measured again on another slot, the keeps — the
/// runs the target's offsets come from, read for another metric.
fn slot_runs(records: &[&RunRecord], metric: &str) -> Vec<CommitRuns> {
    let mut all = Vec::new();
    for r in records {
        let Some(info) = r.ratchet.as_ref().filter(|i| i.imported.is_none()) else {
            continue;
        };
        let commit = match info.status {
            TryStatus::Baseline | TryStatus::Remeasure => info.kept.as_str(),
            TryStatus::Keep => info.commit.as_deref().unwrap_or(&info.kept),
            _ => continue,
        };
        add_runs(&mut all, commit, slotted(r, info.class.as_deref(), metric));
    }
    all
}

/// The guard's comparison on `slot`: the best's runs there and moved
/// there, the candidate's runs moved there, and the slot; `None` (compare
/// as recorded) without a noise estimate (an offset cannot be told from
/// noise) or when none of the best's runs can be moved there — as the
/// target is compared ([`crate::ops::slot_compare`]). In a fleet
/// (`classes`) without a noise estimate, the best's runs on the
/// candidate's class itself: never another class's raw values.
fn on_slot(
    slot: &str,
    commits: &[CommitRuns],
    best_commit: &str,
    candidate: &[(Option<&str>, f64)],
    (sd, classes): (Option<f64>, bool),
) -> Option<(Vec<f64>, Vec<f64>, String)> {
    let best = runs_of(commits, best_commit);
    let Some(sd) = sd else {
        if !classes {
            return None;
        }
        let own = best
            .and_then(|b| b.by_slot.get(slot))
            .cloned()
            .unwrap_or_default();
        let same: Vec<f64> = candidate
            .iter()
            .filter(|(s, _)| *s == Some(slot))
            .map(|c| c.1)
            .collect();
        return Some((own, same, slot.to_string()));
    };
    let best = best?;
    let reference = slot_offset::reference(commits, best, slot, Some(sd))?;
    let moved = candidate
        .iter()
        .map(|&(s, x)| match s {
            Some(s) if s != slot => {
                slot_offset::offset(commits, slot, s, Some(sd)).map_or(x, |o| x + o.d)
            }
            _ => x,
        })
        .collect();
    Some((reference.samples, moved, slot.to_string()))
}

/// The frame (slot, and in a fleet the record's class) and value of
/// `metric` in a record's successful runs that ran in one.
fn slotted(r: &RunRecord, class: Option<&str>, metric: &str) -> Vec<(String, f64)> {
    let ok = |x: &f64| x.is_finite();
    let frame = |slot: &Option<String>| slot_offset::frame(class, slot.as_deref());
    if r.attempts.is_empty() {
        return r
            .succeeded()
            .then(|| Some((frame(&r.slot)?, r.metrics.get(metric).filter(ok)?)))
            .flatten()
            .into_iter()
            .collect();
    }
    r.attempts
        .iter()
        .filter(|a| a.exit_code == 0 && !a.timed_out)
        .filter_map(|a| Some((frame(&a.slot)?, a.metrics.get(metric).filter(ok)?)))
        .collect()
}

/// The values of `metric` in a record's successful runs.
fn values(r: &RunRecord, metric: &str) -> Vec<f64> {
    let ok = |x: &f64| x.is_finite();
    if r.attempts.is_empty() {
        return r
            .succeeded()
            .then(|| r.metrics.get(metric))
            .flatten()
            .filter(ok)
            .into_iter()
            .collect();
    }
    r.attempts
        .iter()
        .filter(|a| a.exit_code == 0 && !a.timed_out)
        .filter_map(|a| a.metrics.get(metric))
        .filter(ok)
        .collect()
}

/// The guard's part of a try's line: the guard, and the values it judged
/// (the candidate's, the bound, the best's or the baseline's for a
/// relative bound), or whose runs did not print its metric. A candidate
/// on the good side of the bound by less than the noise can tell is "not
/// shown within" it, not "broken".
pub(super) fn describe(b: &GuardBreach) -> String {
    use crate::kernel::number::fmt_table_value as fmt_number;
    match (&b.missing, b.value, b.bound) {
        (Some(side), _, _) => {
            let whose = match side.as_str() {
                "best" => "the best's runs",
                "baseline" => "the baseline's runs",
                _ => "the candidate's runs",
            };
            format!("guard `{}`: {whose} did not print {}", b.guard, b.metric)
        }
        (None, Some(v), Some(bound)) => {
            let on = b
                .slot
                .as_ref()
                .map(|s| format!(" on slot {s}"))
                .unwrap_or_default();
            let reference = match (b.best, b.baseline) {
                (Some(x), _) => format!(", best {}{on}", fmt_number(x)),
                (None, Some(x)) => format!(", baseline {}{on}", fmt_number(x)),
                _ => String::new(),
            };
            let inside = crate::kernel::guard::parse(&b.guard).is_ok_and(|g| {
                if g.cmp.upper() {
                    v <= bound
                } else {
                    v >= bound
                }
            });
            let how = if inside {
                "not shown within its bound (the noise cannot tell)"
            } else {
                "broken"
            };
            format!(
                "guard `{}` {how}: {} {} against a bound of {}{reference}",
                b.guard,
                b.metric,
                fmt_number(v),
                fmt_number(bound)
            )
        }
        _ => format!("guard `{}` broken", b.guard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breach_on_a_slot_names_the_slot_of_the_best() {
        let mut b = GuardBreach {
            guard: "step <= 1.05 * best".into(),
            metric: "step".into(),
            value: Some(1.8),
            bound: Some(1.575),
            best: Some(1.5),
            baseline: None,
            slot: Some("1".into()),
            missing: None,
        };
        assert_eq!(
            describe(&b),
            "guard `step <= 1.05 * best` broken: step 1.8 against a bound of 1.575, best 1.5 on slot 1"
        );
        b.slot = None;
        assert!(describe(&b).ends_with("best 1.5"));
        // Relative to the baseline, and under the bound by less than the
        // noise can tell.
        b.guard = "step <= 1.05 * baseline".into();
        (b.best, b.baseline, b.value) = (None, Some(1.5), Some(1.55));
        assert_eq!(
            describe(&b),
            "guard `step <= 1.05 * baseline` not shown within its bound (the noise cannot tell): \
             step 1.55 against a bound of 1.575, baseline 1.5"
        );
    }

    #[test]
    fn a_guard_metric_is_moved_by_its_own_offset_and_not_without_noise() {
        let commits = vec![CommitRuns {
            commit: "k".into(),
            by_slot: [
                ("0".to_string(), vec![1.0, 1.0, 1.0]),
                ("1".to_string(), vec![1.5, 1.5, 1.5]),
            ]
            .into(),
        }];
        let candidate = [(Some("1"), 1.5), (Some("0"), 1.0)];
        let (best, cand, slot) =
            on_slot("1", &commits, "k", &candidate, (Some(0.0), false)).unwrap();
        assert_eq!(slot, "1");
        assert_eq!(best, vec![1.5; 6]);
        assert_eq!(cand, vec![1.5, 1.5]);
        assert!(on_slot("1", &commits, "k", &candidate, (None, false)).is_none());
        assert!(on_slot("1", &commits, "other", &candidate, (Some(0.0), false)).is_none());
    }
}
