//! The fleet's classes, pure: each class's best as the machines of that
//! class measured it, and the fleet's best as each class measured it
//! (runs of different classes are never compared raw: a try compares a
//! candidate with the best on its own class, `ops::slot_compare`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::fleet::{keep_commit, Card};
use super::journal::RunRecord;
use super::ratchet_record::TryStatus;

/// A class's best: the last best a machine of that class measured (its
/// keep, or a best it measured as its baseline or again on the class).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassBest {
    pub class: String,
    pub commit: String,
    pub machine: String,
    pub run_id: String,
    /// Its mean over the class's runs of it.
    pub value: Option<f64>,
    /// The fleet's best as this class measured it (its runs of that
    /// commit), when it has.
    pub fleet_best: Option<f64>,
}

/// The class of a record: the one it carries, else its machine's.
fn class_of<'a>(card: &'a Card, r: &'a RunRecord) -> &'a str {
    r.ratchet
        .as_ref()
        .and_then(|i| i.class.as_deref())
        .unwrap_or(&card.class)
}

/// The commit a record measured as a best, and the values it measured it
/// by: a keep's commit (its runs from `record_from` on), a baseline's or
/// a measure again's commit.
fn measured(r: &RunRecord) -> Option<(String, &[f64])> {
    let i = r.ratchet.as_ref()?;
    if i.imported.is_some() {
        return None;
    }
    let values = if r.samples.is_empty() {
        &[][..]
    } else {
        &r.samples[..]
    };
    match i.status {
        TryStatus::Keep => {
            let from = i.record_from.min(values.len());
            Some((keep_commit(r)?, &values[from..]))
        }
        TryStatus::Baseline | TryStatus::Remeasure => Some((i.kept.clone(), values)),
        _ => None,
    }
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Each class's best, by class name, from every machine's card and
/// records, with the fleet's best (`fleet_best`, the remote's branch) as
/// that class measured it.
pub fn class_bests(chains: &[(Card, Vec<RunRecord>)], fleet_best: Option<&str>) -> Vec<ClassBest> {
    // Per class: the latest best it measured, and its runs of each commit.
    let mut last: BTreeMap<&str, (&Card, &RunRecord, String)> = BTreeMap::new();
    let mut runs: BTreeMap<(&str, String), Vec<f64>> = BTreeMap::new();
    for (card, records) in chains {
        for r in records {
            let Some((commit, values)) = measured(r) else {
                continue;
            };
            let class = class_of(card, r);
            runs.entry((class, commit.clone()))
                .or_default()
                .extend_from_slice(values);
            let later = last
                .get(class)
                .is_none_or(|(_, b, _)| (&r.ended_at, &r.run_id) > (&b.ended_at, &b.run_id));
            if later {
                last.insert(class, (card, r, commit));
            }
        }
    }
    last.into_iter()
        .map(|(class, (card, r, commit))| {
            let value = runs.get(&(class, commit.clone())).and_then(|v| mean(v));
            let fleet_best = fleet_best
                .and_then(|b| runs.get(&(class, b.to_string())))
                .and_then(|v| mean(v));
            ClassBest {
                class: class.to_string(),
                machine: card.machine.clone(),
                run_id: r.run_id.clone(),
                commit,
                value,
                fleet_best,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::ratchet_record::RatchetInfo;
    use crate::kernel::stats::Direction;

    fn card(machine: &str, class: &str) -> Card {
        Card {
            machine: machine.into(),
            class: class.into(),
            seen: String::new(),
            trying: None,
            pending: None,
            tries: Vec::new(),
        }
    }

    fn rec(
        id: &str,
        status: TryStatus,
        kept: &str,
        commit: Option<&str>,
        samples: &[f64],
    ) -> RunRecord {
        let mut r: RunRecord = serde_json::from_value(serde_json::json!({
            "run_id": id, "started_at": id, "ended_at": id, "duration_ms": 1,
            "command": ["x"], "cwd": "/", "metrics": {}, "exit_code": 0,
            "timed_out": false, "failure_class": "none",
        }))
        .unwrap();
        r.samples = samples.to_vec();
        let mut i = RatchetInfo::new(
            "s".into(),
            status,
            "m".into(),
            Direction::Min,
            "confirm".into(),
            kept.into(),
        );
        i.commit = commit.map(str::to_string);
        r.ratchet = Some(i);
        r
    }

    #[test]
    fn each_class_has_its_own_best_and_its_own_measure_of_the_fleets() {
        // The slow class measures the baseline k0 (about 102); the fast
        // class measures it again (about 100) and keeps k1 (about 98).
        let slow = (
            card("s", "slow"),
            vec![rec("1", TryStatus::Baseline, "k0", None, &[102.0, 102.2])],
        );
        let mut again = rec("2", TryStatus::Remeasure, "k0", Some("k0"), &[100.0, 100.2]);
        again.ratchet.as_mut().unwrap().class = Some("fast".into());
        let fast = (
            card("f", "fast"),
            vec![
                again,
                rec("3", TryStatus::Keep, "k0", Some("k1"), &[98.0, 98.2]),
            ],
        );
        let bests = class_bests(&[slow, fast], Some("k0"));
        let tenths = |v: Option<f64>| v.map(|v| (v * 10.0).round() / 10.0);
        let by: Vec<(&str, &str, Option<f64>, Option<f64>)> = bests
            .iter()
            .map(|b| {
                let (value, fleet) = (tenths(b.value), tenths(b.fleet_best));
                (b.class.as_str(), b.commit.as_str(), value, fleet)
            })
            .collect();
        assert_eq!(
            by,
            [
                ("fast", "k1", Some(98.1), Some(100.1)),
                ("slow", "k0", Some(102.1), Some(102.1)),
            ]
        );
    }
}
