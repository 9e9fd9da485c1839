//! The learning rules of the policy cache: the Wilson lower bound,
//! crystallization of repeated successes into standing policies, and the
//! TD(0) update that keeps their Q values current.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::kernel::verdict::Verdict;

/// A (fingerprint, action) group needs at least this many events.
pub const MIN_EVENTS: u64 = 3;

/// The Wilson lower bound must be strictly above this to crystallize.
pub const WILSON_THRESHOLD: f64 = 0.6;

/// The z of the Wilson bound (95%).
pub const WILSON_Z: f64 = 1.96;

/// Default TD(0) learning rate.
pub const TD_ALPHA: f64 = 0.1;

/// Default TD(0) discount.
pub const TD_GAMMA: f64 = 0.95;

/// Lower bound of the Wilson score interval for `successes` out of
/// `total`: with `p = s/n`,
/// `(p + z²/2n − z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`; 0 when `total` is
/// 0. Successes beyond `total` count as `total`. The square root is
/// `f64::sqrt` (correctly rounded); the reference's `** 0.5` can differ
/// from it in the last bit for a few counts (5 of 17, say).
pub fn wilson_lower(successes: u64, total: u64, z: f64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    let n = total as f64;
    let p = successes.min(total) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (center - spread) / denominator
}

/// One TD(0) step: `delta = reward + gamma·max_next_q − q`, returns
/// `(q + alpha·delta, delta)`. A positive delta means better than
/// expected. Use `max_next_q = 0` for a terminal step.
pub fn td0_update(q: f64, reward: f64, max_next_q: f64, alpha: f64, gamma: f64) -> (f64, f64) {
    let delta = reward + gamma * max_next_q - q;
    (q + alpha * delta, delta)
}

/// The reward of a verdict: supported +1, refuted −1, inconclusive 0.
pub fn reward(verdict: Verdict) -> f64 {
    match verdict {
        Verdict::Supported => 1.0,
        Verdict::Refuted => -1.0,
        Verdict::Inconclusive => 0.0,
    }
}

/// One outcome of taking `action` in the state `fingerprint`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeEvent {
    pub fingerprint: String,
    pub action: String,
    pub success: bool,
}

/// A crystallized policy: `action` has earned its place in state
/// `fingerprint`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyEntry {
    pub fingerprint: String,
    pub action: String,
    /// The Q value: the Wilson bound at crystallization, then TD(0).
    pub q: f64,
    /// The evidence it crystallized from.
    pub successes: u64,
    pub total: u64,
}

impl PolicyEntry {
    /// Apply [`td0_update`] to the entry's Q value; returns the TD error.
    pub fn td_update(&mut self, reward: f64, max_next_q: f64, alpha: f64, gamma: f64) -> f64 {
        let (q, delta) = td0_update(self.q, reward, max_next_q, alpha, gamma);
        self.q = q;
        delta
    }
}

/// Whether `successes` out of `total` crystallize: `total >= 3` and the
/// Wilson lower bound (z = 1.96) strictly above 0.6. With every outcome a
/// success the first such total is 6.
pub fn crystallizes(successes: u64, total: u64) -> bool {
    total >= MIN_EVENTS && wilson_lower(successes, total, WILSON_Z) > WILSON_THRESHOLD
}

/// New policy entries from outcome events grouped by (fingerprint,
/// action): every group that [`crystallizes`] and is not already among
/// `known`, with `q` the Wilson bound. Each group is returned once, in the
/// order of its first event; events with an empty fingerprint or action
/// are skipped. Counts cover only the events given, so pass the whole
/// history to count cumulatively.
pub fn crystallize(events: &[OutcomeEvent], known: &[PolicyEntry]) -> Vec<PolicyEntry> {
    let mut order: Vec<(&str, &str)> = Vec::new();
    let mut counts: HashMap<(&str, &str), (u64, u64)> = HashMap::new();
    for e in events {
        if e.fingerprint.is_empty() || e.action.is_empty() {
            continue;
        }
        let key = (e.fingerprint.as_str(), e.action.as_str());
        let entry = counts.entry(key).or_insert_with(|| {
            order.push(key);
            (0, 0)
        });
        entry.0 += u64::from(e.success);
        entry.1 += 1;
    }
    order
        .into_iter()
        .filter(|(fp, action)| {
            !known
                .iter()
                .any(|k| k.fingerprint == *fp && k.action == *action)
        })
        .filter_map(|key| {
            let (successes, total) = counts[&key];
            crystallizes(successes, total).then(|| PolicyEntry {
                fingerprint: key.0.to_string(),
                action: key.1.to_string(),
                q: wilson_lower(successes, total, WILSON_Z),
                successes,
                total,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= TOL
    }

    #[test]
    fn wilson_checks() {
        for (s, n, expected) in [
            (3, 3, 0.4384939195509822),
            (5, 5, 0.565508505247919),
            (6, 6, 0.6096569663469354),
            (8, 8, 0.6755843804891231),
            (8, 10, 0.49015684672072346),
            (10, 10, 0.7224598312333834),
            (0, 4, 0.0),
        ] {
            let w = wilson_lower(s, n, WILSON_Z);
            assert!(close(w, expected), "({s}, {n}): {w} vs {expected}");
        }
        assert_eq!(wilson_lower(0, 0, WILSON_Z), 0.0);
        assert_eq!(wilson_lower(7, 5, WILSON_Z), wilson_lower(5, 5, WILSON_Z));
    }

    #[test]
    fn td0() {
        let (q, delta) = td0_update(0.5, 1.0, 0.0, TD_ALPHA, TD_GAMMA);
        assert!(close(delta, 0.5));
        assert!(close(q, 0.55));
        let (q, delta) = td0_update(0.2, -1.0, 0.8, 0.5, 0.9);
        assert!(close(delta, -1.0 + 0.72 - 0.2));
        assert!(close(q, 0.2 + 0.5 * delta));
        let mut e = PolicyEntry {
            fingerprint: "f".into(),
            action: "a".into(),
            q: 0.5,
            successes: 6,
            total: 6,
        };
        let d = e.td_update(reward(Verdict::Refuted), 0.0, TD_ALPHA, TD_GAMMA);
        assert!(close(d, -1.5));
        assert!(close(e.q, 0.35));
    }

    #[test]
    fn rewards() {
        assert_eq!(reward(Verdict::Supported), 1.0);
        assert_eq!(reward(Verdict::Refuted), -1.0);
        assert_eq!(reward(Verdict::Inconclusive), 0.0);
    }

    fn events(fp: &str, action: &str, outcomes: &[bool]) -> Vec<OutcomeEvent> {
        outcomes
            .iter()
            .map(|s| OutcomeEvent {
                fingerprint: fp.into(),
                action: action.into(),
                success: *s,
            })
            .collect()
    }

    #[test]
    fn smallest_crystallizing_count_is_six() {
        let first = (1..=20).find(|n| crystallizes(*n, *n));
        assert_eq!(first, Some(6));
        assert!(crystallize(&events("f", "a", &[true; 5]), &[]).is_empty());
        let entries = crystallize(&events("f", "a", &[true; 6]), &[]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].q, wilson_lower(6, 6, WILSON_Z));
        assert!(close(entries[0].q, 0.6096569663469354));
        assert_eq!((entries[0].successes, entries[0].total), (6, 6));
    }

    #[test]
    fn crystallization_groups_and_never_duplicates() {
        let mut all = events("f1", "retry", &[true, true, true]);
        all.extend(events("f2", "retry", &[true; 10]));
        all.extend(events("f1", "retry", &[true; 7]));
        all.extend(events("f1", "skip", &[true, false, true, true]));
        all.extend(events("", "retry", &[true; 10]));
        all.extend(events("f3", "", &[true; 10]));
        let entries = crystallize(&all, &[]);
        let keys: Vec<_> = entries
            .iter()
            .map(|e| (e.fingerprint.as_str(), e.action.as_str(), e.total))
            .collect();
        // First-appearance order; 8 of 10 does not pass (0.49), 10 of 10 does.
        assert_eq!(keys, vec![("f1", "retry", 10), ("f2", "retry", 10)]);
        assert!(close(entries[0].q, 0.7224598312333834));
        // A later batch does not crystallize the same pairs again.
        assert!(crystallize(&all, &entries).is_empty());
        let mut more = all.clone();
        more.extend(events("f4", "retry", &[true; 8]));
        let new = crystallize(&more, &entries);
        assert_eq!(new.len(), 1);
        assert_eq!(new[0].fingerprint, "f4");
        assert!(close(new[0].q, 0.6755843804891231));
        // 8 successes out of 10: below the threshold.
        let mixed = events(
            "f5",
            "a",
            &[true, true, true, true, false, true, true, true, false, true],
        );
        assert!(crystallize(&mixed, &[]).is_empty());
    }
}
