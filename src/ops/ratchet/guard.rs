//! The guard step of a try: once the rule says keep, every guard of the
//! objective is judged on the candidate's runs (this best's), against the
//! best's recorded runs, with the guard metric's noise pooled over the
//! segment's repeated records as the target's is. The first guard that
//! does not hold vetoes the keep.

use anyhow::Result;

use super::candidate::{Against, Try, TryEnv};
use crate::kernel::guard::{judge, Judged};
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet::pooled_noise;
use crate::kernel::ratchet_record::GuardBreach;

/// Judge the objective's guards; the first that does not hold, or `None`
/// when all do (or there are none).
pub(super) fn guards(env: &TryEnv<'_, '_>, at: &Against, t: &Try) -> Result<Option<GuardBreach>> {
    let objective = env.runner.objective;
    if objective.guards.is_empty() {
        return Ok(None);
    }
    let records = crate::io::state::journal(env.state, env.runner.warn).read()?;
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let best_record = records.iter().rev().find(|r| r.run_id == best.run_id);
    let in_segment: Vec<&RunRecord> = records
        .iter()
        .filter(|r| {
            r.ratchet
                .as_ref()
                .is_some_and(|i| i.segment == at.segment.id)
        })
        .collect();
    let candidate_runs: Vec<_> = t.outcomes[t.first..]
        .iter()
        .filter(|o| o.effective_exit_code() == 0 && !o.interrupted)
        .map(|o| &o.metrics)
        .collect();
    for g in &objective.guards {
        let candidate: Vec<f64> = candidate_runs
            .iter()
            .filter_map(|m| m.get(&g.metric))
            .filter(|x| x.is_finite())
            .collect();
        let best_values = best_record.map_or_else(Vec::new, |r| values(r, &g.metric));
        let groups: Vec<Vec<f64>> = in_segment
            .iter()
            .map(|r| values(r, &g.metric))
            .filter(|v| v.len() > 1)
            .chain((candidate.len() > 1).then(|| candidate.clone()))
            .collect();
        let groups: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
        let noise = pooled_noise(&groups);
        let breach = |value, bound, missing: Option<&str>| GuardBreach {
            guard: g.text.clone(),
            metric: g.metric.clone(),
            value,
            bound,
            best: (!best_values.is_empty())
                .then(|| best_values.iter().sum::<f64>() / best_values.len() as f64)
                .filter(|_| matches!(g.bound, crate::kernel::guard::Bound::Best { .. })),
            missing: missing.map(str::to_string),
        };
        match judge(g, &candidate, &best_values, noise, objective.confidence) {
            Judged::Holds { .. } => {}
            Judged::Breach { value, bound } => {
                return Ok(Some(breach(Some(value), Some(bound), None)))
            }
            Judged::MissingCandidate => return Ok(Some(breach(None, None, Some("candidate")))),
            Judged::MissingBest => return Ok(Some(breach(None, None, Some("best")))),
        }
    }
    Ok(None)
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
/// (the candidate's, the bound, the best's for a relative bound), or whose
/// runs did not print its metric.
pub(super) fn describe(b: &GuardBreach) -> String {
    use crate::kernel::number::fmt_table_value as fmt_number;
    match (&b.missing, b.value, b.bound) {
        (Some(side), _, _) => {
            let whose = if side == "best" {
                "the best's runs"
            } else {
                "the candidate's runs"
            };
            format!("guard `{}`: {whose} did not print {}", b.guard, b.metric)
        }
        (None, Some(v), Some(bound)) => {
            let best = b
                .best
                .map(|x| format!(", best {}", fmt_number(x)))
                .unwrap_or_default();
            format!(
                "guard `{}` broken: {} {} against a bound of {}{best}",
                b.guard,
                b.metric,
                fmt_number(v),
                fmt_number(bound)
            )
        }
        _ => format!("guard `{}` broken", b.guard),
    }
}
