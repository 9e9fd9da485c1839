//! A candidate replayed onto a newer best with its runs: the runs it had
//! on the best it was measured against are carried over as evidence, each
//! moved by the difference of the two bests (its difference from the old
//! best, added to the new best); but a keep also needs
//! [`FRESH_RUNS`] runs of its own on the new best whose mean beats the new
//! best. So every keep is compared with the best it lands on, and a
//! candidate whose effect does not carry over (the new best made it moot)
//! is not kept on runs measured elsewhere. Chosen with
//! `examples/fleet_sim --keep-runs-fresh 3`: lanes and machines of a fleet
//! spend their time on decided candidates rather than on measuring a
//! replayed one again from nothing, at no more false keeps than one
//! machine.

use serde::{Deserialize, Serialize};

use super::ratchet::{leans_better, Decision, Step};
use crate::kernel::ratchet_noise::mean;
use crate::kernel::stats::Direction;
use crate::kernel::verdict::Verdict;

/// The runs of its own on the new best a replayed candidate needs before
/// it is kept, their mean better than the new best's.
pub const FRESH_RUNS: usize = 3;

/// The runs of a replayed candidate at most, carried and fresh: the rule
/// keeping it on all of them while its runs on the new best do not beat
/// the new best, it runs again until this many, then is discarded (as
/// `examples/fleet_sim` plays it).
pub const RUNS_CAP: usize = 16;

/// The start of the detail of a candidate that the rule keeps on all its
/// runs but whose runs on the new best do not beat it.
const FELL_SHORT: &str = "discard: its runs on the new best";

/// A replayed try's runs carried over, as its record tells them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    /// The best each carried run was measured on, in the order they ran:
    /// the record's first attempts (the record's `samples` are its runs on
    /// `kept` only).
    pub on: Vec<String>,
    /// Those runs as the decision weighed them on `kept`: each one's
    /// difference from the best it was measured on, added to `kept`'s
    /// value.
    pub values: Vec<f64>,
    /// The runs of its own on `kept` a keep needed ([`FRESH_RUNS`]).
    pub fresh_runs: usize,
}

/// Each of `values`' difference from the mean of `reference` (nothing
/// when the reference has no runs).
pub fn effects(values: &[f64], reference: &[f64]) -> Vec<f64> {
    match mean(reference) {
        Some(m) => values.iter().map(|x| x - m).collect(),
        None => Vec::new(),
    }
}

/// Carried `effects` moved onto `reference`: each added to its mean.
pub fn moved(effects: &[f64], reference: &[f64]) -> Vec<f64> {
    let m = mean(reference).unwrap_or(f64::NAN);
    effects.iter().map(|e| m + e).collect()
}

/// A replayed candidate's runs: how many were carried over, its runs on
/// the new best, and the new best's as it compares them.
pub struct Fresh<'a> {
    pub carried: usize,
    pub fresh: &'a [f64],
    pub reference: &'a [f64],
    pub direction: Direction,
}

/// The rule's `step` on all a replayed candidate's runs, and the fresh
/// check: a keep stands only with [`FRESH_RUNS`] runs on the new best or
/// more whose mean beats it; short of that it runs again, up to
/// [`RUNS_CAP`] runs, then it is discarded. Without carried runs, `step`.
pub fn fresh_step(step: Step, f: &Fresh<'_>) -> Step {
    let d = match step {
        Step::Decide(d) if d.keep() && f.carried > 0 => d,
        other => return other,
    };
    let n = f.fresh.len();
    let beats = n >= FRESH_RUNS && leans_better(f.fresh, f.reference, f.direction);
    if beats {
        return Step::Decide(d);
    }
    if f.carried + n < RUNS_CAP {
        return Step::RunAgain;
    }
    let shown = |v: &[f64]| mean(v).map_or("–".to_string(), |m| format!("{m:.4}"));
    Step::Decide(Decision {
        verdict: Verdict::Refuted,
        confirmed: true,
        record_from: 0,
        detail: format!(
            "{FELL_SHORT} ({n}, mean {}) do not beat it ({}), though all {} runs would keep it",
            shown(f.fresh),
            shown(f.reference),
            f.carried + n
        ),
        ..d
    })
}

/// Whether a decision is [`fresh_step`]'s discard: kept on all runs, its
/// runs on the new best short of beating it.
pub fn fell_short(d: &Decision) -> bool {
    d.detail.starts_with(FELL_SHORT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep() -> Step {
        Step::Decide(Decision {
            verdict: Verdict::Supported,
            improvement: 1.0,
            noise: Some(1.0),
            blind: false,
            confirmed: true,
            record_from: 2,
            per_instance: None,
            detail: "keep".into(),
            paired: None,
            basis: None,
        })
    }

    fn fresh<'a>(carried: usize, fresh: &'a [f64], reference: &'a [f64]) -> Fresh<'a> {
        Fresh {
            carried,
            fresh,
            reference,
            direction: Direction::Max,
        }
    }

    #[test]
    fn a_keep_needs_fresh_runs_that_beat_the_new_best() {
        let reference = [10.0, 10.0];
        // No carried runs: the rule's step as it is.
        assert!(
            matches!(fresh_step(keep(), &fresh(0, &[], &reference)), Step::Decide(d) if d.keep())
        );
        // Carried, too few fresh runs: again.
        let two = [12.0, 12.0];
        assert!(matches!(
            fresh_step(keep(), &fresh(4, &two, &reference)),
            Step::RunAgain
        ));
        // Three that beat it: kept.
        let three = [12.0, 11.0, 10.5];
        assert!(
            matches!(fresh_step(keep(), &fresh(4, &three, &reference)), Step::Decide(d) if d.keep())
        );
        // Three that do not: again, until the cap, then discarded.
        let tie = [10.0, 10.0, 10.0];
        assert!(matches!(
            fresh_step(keep(), &fresh(4, &tie, &reference)),
            Step::RunAgain
        ));
        let many = [10.0; RUNS_CAP - 4];
        match fresh_step(keep(), &fresh(4, &many, &reference)) {
            Step::Decide(d) => {
                assert!(!d.keep() && fell_short(&d), "{}", d.detail);
                assert_eq!(d.record_from, 0);
            }
            Step::RunAgain => panic!("ran past the cap"),
        }
        // A discard or a run again is never changed.
        assert!(matches!(
            fresh_step(Step::RunAgain, &fresh(4, &tie, &reference)),
            Step::RunAgain
        ));
    }

    #[test]
    fn carried_runs_move_by_the_difference_of_the_two_bests() {
        let e = effects(&[12.0, 14.0], &[10.0, 10.0]);
        assert_eq!(e, [2.0, 4.0]);
        assert_eq!(moved(&e, &[20.0, 21.0]), [22.5, 24.5]);
        assert!(effects(&[1.0], &[]).is_empty());
    }
}
