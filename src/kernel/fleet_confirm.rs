//! `[fleet] confirm_classes = N`, pure: where a keep waiting for other
//! classes stands. A keep made on a machine of one class is the best of
//! that class, pending; machines of other classes measure it against
//! their own class's measure of the best it was kept over (the comparison
//! a try makes) and each gives a verdict: better or not. The keep becomes
//! the fleet's best once machines of N classes (its own class counts as
//! the first) have each found it better; any verdict that is not "better"
//! refutes it (a false keep costs more than a late one), and a keep whose
//! best the fleet has left behind is overtaken (measured against a best
//! the fleet no longer has).

use std::collections::BTreeSet;

use serde::Serialize;

use super::journal::RunRecord;
use super::ratchet_record::TryStatus;

/// A keep that waits for other classes: `commit`, kept over `parent`
/// (the fleet's best it was measured against) on a machine of `class`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pending {
    pub commit: String,
    pub parent: String,
    pub class: String,
    pub machine: String,
    /// When it was kept (RFC 3339): the oldest is confirmed first.
    pub at: String,
}

/// A machine's verdict on a pending keep, measured on its class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub commit: String,
    pub class: String,
    pub machine: String,
    /// Found better than the best it was kept over, on this class.
    pub better: bool,
}

/// Where a pending keep stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// It is the fleet's best.
    Landed,
    /// N classes found it better: the best moves to it.
    Confirmed { classes: Vec<String> },
    /// A class did not find it better: it never becomes the fleet's best.
    Refuted { class: String, machine: String },
    /// The fleet's best is no longer the one it was kept over.
    Overtaken,
    /// Waiting: the classes that found it better so far, and how many more
    /// are needed.
    Waiting { classes: Vec<String>, needed: usize },
}

/// Where `p` stands, given every verdict, the fleet's best and `n`
/// (`confirm_classes`). A class counts once however many of its machines
/// found it better.
pub fn standing(p: &Pending, verdicts: &[Verdict], best: Option<&str>, n: u32) -> Standing {
    if best == Some(p.commit.as_str()) {
        return Standing::Landed;
    }
    let on_it = verdicts.iter().filter(|v| v.commit == p.commit);
    if let Some(v) = on_it.clone().find(|v| !v.better) {
        return Standing::Refuted {
            class: v.class.clone(),
            machine: v.machine.clone(),
        };
    }
    if best != Some(p.parent.as_str()) {
        return Standing::Overtaken;
    }
    let classes: BTreeSet<&str> = std::iter::once(p.class.as_str())
        .chain(on_it.map(|v| v.class.as_str()))
        .collect();
    let classes: Vec<String> = classes.into_iter().map(str::to_string).collect();
    let needed = (n.max(1) as usize).saturating_sub(classes.len());
    if needed == 0 {
        Standing::Confirmed { classes }
    } else {
        Standing::Waiting { classes, needed }
    }
}

/// The pending keep a machine of `class` measures next: the oldest one
/// still waiting, kept over the fleet's best, on which no machine of this
/// class has given a verdict yet (its own class's keeps are not its to
/// confirm).
pub fn to_confirm<'a>(
    pending: &'a [Pending],
    verdicts: &[Verdict],
    best: Option<&str>,
    (class, n): (&str, u32),
) -> Option<&'a Pending> {
    let judged = |p: &Pending| {
        p.class == class
            || verdicts
                .iter()
                .any(|v| v.commit == p.commit && v.class == class)
    };
    pending
        .iter()
        .filter(|p| !judged(p))
        .filter(|p| matches!(standing(p, verdicts, best, n), Standing::Waiting { .. }))
        .min_by(|a, b| (&a.at, &a.commit).cmp(&(&b.at, &b.commit)))
}

/// The pending keeps (by run id, kept over `parent`) and the verdicts on
/// them, from records: a keep marked `fleet_pending` that is no verdict
/// is a pending keep; a record naming one (`confirms`) is a verdict,
/// better when it kept. Runs of the best and interrupted, stale or
/// unrun tries are no verdict.
pub fn from_records<'a>(
    records: impl IntoIterator<Item = &'a RunRecord>,
) -> (Vec<Pending>, Vec<Verdict>) {
    let (mut pending, mut verdicts) = (Vec::new(), Vec::new());
    for r in records {
        let Some(i) = r.ratchet.as_ref() else {
            continue;
        };
        let class = i.class.clone().unwrap_or_default();
        if i.status == TryStatus::Keep && i.fleet_pending && i.confirms.is_none() {
            pending.push(Pending {
                commit: r.run_id.clone(),
                parent: i.kept.clone(),
                class: class.clone(),
                machine: String::new(),
                at: r.started_at.clone(),
            });
        }
        let no_verdict = matches!(
            i.status,
            TryStatus::Baseline
                | TryStatus::Remeasure
                | TryStatus::Interrupted
                | TryStatus::Stale
                | TryStatus::AlreadyInBest
                | TryStatus::Protected
        );
        if let (Some(run), false) = (&i.confirms, no_verdict) {
            verdicts.push(Verdict {
                commit: run.clone(),
                class,
                machine: String::new(),
                better: i.status == TryStatus::Keep,
            });
        }
    }
    (pending, verdicts)
}

/// The keeps still waiting for classes, each with where it stands,
/// oldest first.
pub fn waiting<'a>(
    records: impl IntoIterator<Item = &'a RunRecord>,
    best: Option<&str>,
    n: u32,
) -> Vec<(Pending, Standing)> {
    let (pending, verdicts) = from_records(records);
    let mut out: Vec<(Pending, Standing)> = pending
        .into_iter()
        .map(|p| {
            let s = standing(&p, &verdicts, best, n);
            (p, s)
        })
        .filter(|(_, s)| matches!(s, Standing::Waiting { .. }))
        .collect();
    out.sort_by(|(a, _), (b, _)| (&a.at, &a.commit).cmp(&(&b.at, &b.commit)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(commit: &str, parent: &str, class: &str, at: &str) -> Pending {
        Pending {
            commit: commit.into(),
            parent: parent.into(),
            class: class.into(),
            machine: format!("m-{class}"),
            at: at.into(),
        }
    }

    fn verdict(commit: &str, class: &str, machine: &str, better: bool) -> Verdict {
        Verdict {
            commit: commit.into(),
            class: class.into(),
            machine: machine.into(),
            better,
        }
    }

    #[test]
    fn a_keep_waits_until_n_classes_found_it_better() {
        let p = pending("p", "k", "fast", "1");
        let waiting = |classes: &[&str], needed| Standing::Waiting {
            classes: classes.iter().map(|c| c.to_string()).collect(),
            needed,
        };
        assert_eq!(standing(&p, &[], Some("k"), 2), waiting(&["fast"], 1));
        // A second machine of the same class does not count again.
        let same = [verdict("p", "fast", "f2", true)];
        assert_eq!(standing(&p, &same, Some("k"), 2), waiting(&["fast"], 1));
        // A verdict on another commit does not count.
        let other = [verdict("q", "slow", "s1", true)];
        assert_eq!(standing(&p, &other, Some("k"), 2), waiting(&["fast"], 1));
        let slow = [verdict("p", "slow", "s1", true)];
        assert_eq!(
            standing(&p, &slow, Some("k"), 2),
            Standing::Confirmed {
                classes: vec!["fast".into(), "slow".into()]
            }
        );
        assert_eq!(
            standing(&p, &slow, Some("k"), 3),
            waiting(&["fast", "slow"], 1)
        );
        // N = 1: its own class is enough.
        assert!(matches!(
            standing(&p, &[], Some("k"), 1),
            Standing::Confirmed { .. }
        ));
        assert_eq!(standing(&p, &slow, Some("p"), 2), Standing::Landed);
    }

    #[test]
    fn one_class_that_does_not_find_it_better_refutes_it() {
        let p = pending("p", "k", "fast", "1");
        let verdicts = [
            verdict("p", "slow", "s1", true),
            verdict("p", "big", "b1", false),
        ];
        assert_eq!(
            standing(&p, &verdicts, Some("k"), 2),
            Standing::Refuted {
                class: "big".into(),
                machine: "b1".into()
            }
        );
        // Refuted even when the best moved on since.
        assert!(matches!(
            standing(&p, &verdicts, Some("z"), 2),
            Standing::Refuted { .. }
        ));
        // Without a verdict against it, a best that moved on overtakes it.
        assert_eq!(standing(&p, &[], Some("z"), 2), Standing::Overtaken);
        assert_eq!(standing(&p, &[], None, 2), Standing::Overtaken);
    }

    #[test]
    fn a_machine_confirms_the_oldest_keep_of_another_class_it_has_not_judged() {
        let all = [
            pending("p2", "k", "fast", "2"),
            pending("p1", "k", "fast", "1"),
            pending("own", "k", "slow", "0"),
            pending("old", "j", "fast", "0"),
        ];
        let pick = |verdicts: &[Verdict], class| {
            to_confirm(&all, verdicts, Some("k"), (class, 2)).map(|p| p.commit.as_str())
        };
        // Not its own class's keep, not one kept over another best.
        assert_eq!(pick(&[], "slow"), Some("p1"));
        // Judged by this class, or confirmed already: the next one.
        assert_eq!(
            pick(&[verdict("p1", "slow", "s2", true)], "slow"),
            Some("p2")
        );
        assert_eq!(pick(&[verdict("p1", "big", "b", true)], "slow"), Some("p2"));
        let both = [
            verdict("p1", "slow", "s", true),
            verdict("p2", "slow", "s", false),
        ];
        assert_eq!(pick(&both, "slow"), None);
        let refuted = [verdict("p1", "big", "b", false)];
        assert_eq!(pick(&refuted, "slow"), Some("p2"));
        assert_eq!(pick(&[], "fast"), Some("own"));
    }

    #[test]
    fn with_three_classes_a_keep_lands_only_after_the_third_and_one_no_refutes_it() {
        let p = pending("p", "k", "fast", "1");
        let all = [p.clone()];
        let slow = verdict("p", "slow", "s1", true);
        let big = verdict("p", "big", "b1", true);
        // Its own class: waiting for two more.
        assert!(matches!(
            standing(&p, &[], Some("k"), 3),
            Standing::Waiting { needed: 2, .. }
        ));
        // The second class: still waiting, for one more; two machines of
        // that class count once.
        let two = [slow.clone(), verdict("p", "slow", "s2", true)];
        assert!(matches!(
            standing(&p, &two, Some("k"), 3),
            Standing::Waiting { needed: 1, .. }
        ));
        // The second class does not measure it again; the third does.
        let pick = |verdicts: &[Verdict], class| {
            to_confirm(&all, verdicts, Some("k"), (class, 3)).map(|p| p.commit.as_str())
        };
        assert_eq!(pick(&two, "slow"), None);
        assert_eq!(pick(&two, "big"), Some("p"));
        // The third class finds it better: confirmed, by all three.
        let three = [slow.clone(), big.clone()];
        assert_eq!(
            standing(&p, &three, Some("k"), 3),
            Standing::Confirmed {
                classes: vec!["big".into(), "fast".into(), "slow".into()]
            }
        );
        assert_eq!(
            pick(&three, "other"),
            None,
            "confirmed is not measured again"
        );
        // Two classes better and the third not: refuted, whatever the
        // order the verdicts came in.
        let no = verdict("p", "big", "b1", false);
        for verdicts in [[slow.clone(), no.clone()], [no.clone(), slow.clone()]] {
            assert_eq!(
                standing(&p, &verdicts, Some("k"), 3),
                Standing::Refuted {
                    class: "big".into(),
                    machine: "b1".into()
                }
            );
            assert_eq!(pick(&verdicts, "other"), None);
        }
        // One class's no refutes it even after a third class said yes.
        let late = [slow, big, verdict("p", "tiny", "t1", false)];
        assert!(matches!(
            standing(&p, &late, Some("k"), 3),
            Standing::Refuted { .. }
        ));
    }

    fn record(id: &str, status: &str, class: &str, extra: serde_json::Value) -> RunRecord {
        let mut ratchet = serde_json::json!({
            "segment": "s", "status": status, "metric": "m", "direction": "min",
            "kept": "k", "class": class,
        });
        for (key, value) in extra.as_object().unwrap() {
            ratchet[key] = value.clone();
        }
        serde_json::from_value(serde_json::json!({
            "run_id": id, "started_at": id, "ended_at": id, "duration_ms": 1,
            "command": ["x"], "cwd": "/", "metrics": {}, "exit_code": 0,
            "timed_out": false, "failure_class": "none", "ratchet": ratchet,
        }))
        .unwrap()
    }

    #[test]
    fn records_tell_the_pending_keeps_and_the_verdicts_on_them() {
        let none = serde_json::json!({});
        let records = [
            record(
                "1",
                "keep",
                "fast",
                serde_json::json!({"fleet_pending": true}),
            ),
            record("2", "keep", "fast", none.clone()),
            record(
                "3",
                "remeasure",
                "slow",
                serde_json::json!({"confirms": "1"}),
            ),
            record(
                "4",
                "interrupted",
                "slow",
                serde_json::json!({"confirms": "1"}),
            ),
            record(
                "5",
                "keep",
                "fast",
                serde_json::json!({"fleet_pending": true}),
            ),
            record("6", "discard", "slow", serde_json::json!({"confirms": "5"})),
        ];
        let (pending, verdicts) = from_records(&records);
        let runs: Vec<&str> = pending.iter().map(|p| p.commit.as_str()).collect();
        assert_eq!(runs, ["1", "5"]);
        assert_eq!(pending[0].parent, "k");
        assert_eq!(verdicts, [verdict("5", "slow", "", false)]);
        // The one refuted is no longer waiting.
        let waiting = waiting(&records, Some("k"), 2);
        let runs: Vec<&str> = waiting.iter().map(|(p, _)| p.commit.as_str()).collect();
        assert_eq!(runs, ["1"]);
        // A verdict that kept, with a third class needed.
        let mut more = records.to_vec();
        more.push(record(
            "7",
            "keep",
            "slow",
            serde_json::json!({"confirms": "1", "fleet_pending": true}),
        ));
        let (pending, _) = from_records(&more);
        assert_eq!(
            pending.len(),
            2,
            "a verdict is not a pending keep of its own"
        );
        let waiting = super::waiting(&more, Some("k"), 3);
        assert!(matches!(&waiting[0].1, Standing::Waiting { needed: 1, .. }));
    }
}
