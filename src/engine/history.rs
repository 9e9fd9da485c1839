//! What the engines learn from the run journal, as one fold over it: the
//! precision hierarchy, success counts per candidate and step, plateau
//! tracking, the policy cache's Q-values, and when failures happen.
//!
//! Pure: the host turns journal records into [`Observation`]s, in journal
//! order, and persists the [`History`]. Replaying the same journal always
//! gives the same history, so a merged journal gives the same state on every
//! machine. Nothing here reads files or clocks.

use std::borrow::Cow;

use indexmap::IndexMap;

/// Insertion-ordered map with a fast hash (see Cargo.toml).
pub type Map<K, V> = IndexMap<K, V, rustc_hash::FxBuildHasher>;

use serde::{Deserialize, Serialize};

use super::efe::Posterior;
use super::policy_cache::{reward, Weekday, TD_ALPHA, TD_GAMMA};
use super::precision::{observe_run, Hierarchy};
use crate::kernel::policy::detect_plateau;
use crate::kernel::verdict::Verdict;

/// Verdicts looked at for a plateau.
pub const PLATEAU_WINDOW: usize = 3;

/// Key of the counts over every run, for runs without a candidate.
pub const ALL_RUNS: &str = "*";

/// One journaled run, as the engines see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation<'a> {
    pub candidate: Option<Cow<'a, str>>,
    pub tags: Vec<Cow<'a, str>>,
    /// False for a crash, a timeout or a missing dependency.
    pub executed_cleanly: bool,
    pub verdict: Option<Verdict>,
    pub state_fingerprint: Option<Cow<'a, str>>,
    /// Start time, unix seconds (for the weekday test).
    pub started_unix: Option<i64>,
    /// Read from another loop's night (`arx journal import`): no run of
    /// this machine, so nothing is learned from it.
    pub imported: bool,
}

/// Outcomes counted for a candidate or step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub runs: u64,
    pub successes: u64,
    pub failures: u64,
    pub inconclusive: u64,
}

impl Counts {
    /// Beta posterior of the success rate (Beta(1,1) prior).
    pub fn posterior(&self) -> Posterior {
        Posterior::from_counts(self.successes, self.failures)
    }
}

/// Recent verdicts of a candidate, for plateau detection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Track {
    pub recent: Vec<Verdict>,
    pub plateau: bool,
}

/// The policy cache's value of one action in one state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QValue {
    pub q: f64,
    pub successes: u64,
    pub total: u64,
}

/// The Q-values of one state, with the best of them kept current.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StateQ {
    pub actions: Map<String, QValue>,
    /// The largest `q` among `actions` (0 when there are none).
    pub max_q: f64,
}

impl StateQ {
    /// Index of an action, inserted with q = 0 when missing.
    fn index(&mut self, action: &str) -> usize {
        match self.actions.get_index_of(action) {
            Some(i) => i,
            None => {
                self.actions
                    .insert_full(action.to_string(), QValue::default())
                    .0
            }
        }
    }

    /// Set the q of the action at `index` and keep `max_q` current.
    fn set_q(&mut self, index: usize, q: f64) {
        let old = std::mem::replace(&mut self.actions[index].q, q);
        if q >= self.max_q || self.actions.len() == 1 {
            self.max_q = q;
        } else if old == self.max_q {
            self.max_q = self
                .actions
                .values()
                .map(|v| v.q)
                .fold(f64::NEG_INFINITY, f64::max);
        }
    }
}

/// The value at `key`, inserted as the default when missing (one hash
/// lookup when present; no key allocation unless inserted).
fn slot<'m, V: Default>(map: &'m mut Map<String, V>, key: &str) -> &'m mut V {
    let index = match map.get_index_of(key) {
        Some(i) => i,
        None => map.insert_full(key.to_string(), V::default()).0,
    };
    &mut map[index]
}

/// A transition whose next state is not known yet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub fingerprint: String,
    pub action: String,
    pub reward: f64,
}

/// Everything learned from the journal so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// Runs observed.
    pub runs: u64,
    pub precision: Hierarchy,
    /// By candidate name and by tag (and [`ALL_RUNS`]).
    pub counts: Map<String, Counts>,
    /// By candidate name.
    pub tracks: Map<String, Track>,
    /// Q-values by state fingerprint, then action (candidate).
    pub policy: Map<String, StateQ>,
    /// The last transition, updated when the next state is seen.
    pub pending: Option<Pending>,
    /// Failing runs (refuted, or not executed cleanly) per weekday, Monday first.
    pub failure_weekdays: [u64; 7],
}

impl History {
    /// Could this history have been folded from a journal? A cache read
    /// from disk is used only when it is: Beta parameters positive and
    /// finite, counts that add up, Q-values within what rewards of at most 1
    /// can reach.
    pub fn is_sound(&self) -> bool {
        let beta_ok = |b: &super::precision::Beta| {
            b.alpha.is_finite() && b.beta.is_finite() && b.alpha > 0.0 && b.beta > 0.0
        };
        let q_bound = 1.0 / (1.0 - TD_GAMMA) + 1e-9;
        let q_ok = |q: f64| q.is_finite() && q.abs() <= q_bound;
        let p = &self.precision;
        beta_ok(&p.execution)
            && beta_ok(&p.planning)
            && beta_ok(&p.abstract_level)
            && self.counts.values().all(|c| {
                c.runs <= self.runs
                    && c.successes
                        .checked_add(c.failures)
                        .and_then(|n| n.checked_add(c.inconclusive))
                        .is_some_and(|n| n <= c.runs)
            })
            && self.policy.values().all(|s| {
                q_ok(s.max_q)
                    && s.actions
                        .values()
                        .all(|a| q_ok(a.q) && a.successes <= a.total && a.total <= self.runs)
            })
            && self
                .pending
                .as_ref()
                .is_none_or(|p| p.reward.is_finite() && p.reward.abs() <= 1.0)
            && self.failure_weekdays.iter().sum::<u64>() <= self.runs
    }

    /// The predicted success probability of a candidate (posterior mean).
    pub fn predicted(&self, candidate: Option<&str>) -> f64 {
        let key = candidate.unwrap_or(ALL_RUNS);
        self.counts.get(key).map_or(0.5, |c| c.posterior().mean())
    }

    /// Counts for a candidate or step (zero when never run).
    pub fn counts_for(&self, name: &str) -> Counts {
        self.counts.get(name).cloned().unwrap_or_default()
    }

    /// Best Q-value in a state (0 when nothing is known there).
    pub fn max_q(&self, fingerprint: &str) -> f64 {
        self.policy.get(fingerprint).map_or(0.0, |s| s.max_q)
    }

    fn state_q(&mut self, fingerprint: &str) -> &mut StateQ {
        slot(&mut self.policy, fingerprint)
    }

    /// Learn from one run (runs must come in journal order). An imported
    /// record is not a run: it changes nothing, not even the count.
    pub fn observe(&mut self, obs: &Observation<'_>) -> Result<(), String> {
        if obs.imported {
            return Ok(());
        }
        let candidate = obs.candidate.as_deref();
        // Precision: execution, planning against the prediction made before
        // this run, abstract when a plateau begins.
        let predicted = self.predicted(candidate);
        let plateau_began = match (candidate, obs.verdict) {
            (Some(name), Some(v)) => {
                let track = slot(&mut self.tracks, name);
                track.recent.push(v);
                if track.recent.len() > PLATEAU_WINDOW {
                    track.recent.remove(0);
                }
                let now = detect_plateau(&track.recent, PLATEAU_WINDOW);
                let began = now && !track.plateau;
                track.plateau = now;
                began
            }
            _ => false,
        };
        observe_run(
            &mut self.precision,
            obs.executed_cleanly,
            obs.verdict,
            predicted,
            plateau_began,
        )?;

        self.count(obs);
        self.learn_policy(obs);

        // When failures happen.
        let failed = !obs.executed_cleanly || obs.verdict == Some(Verdict::Refuted);
        if failed {
            if let Some(t) = obs.started_unix {
                self.failure_weekdays[Weekday::of_unix_seconds(t).index()] += 1;
            }
        }
        self.runs += 1;
        Ok(())
    }

    /// Counts by candidate, by tag, and over all runs.
    fn count(&mut self, obs: &Observation<'_>) {
        let candidate = obs.candidate.as_deref();
        // Each distinct key once: a tag that repeats the candidate's name,
        // an earlier tag or "*" is not counted again.
        let verdict = obs.verdict;
        let mut count = |key: &str| {
            let c = slot(&mut self.counts, key);
            c.runs += 1;
            match verdict {
                Some(Verdict::Supported) => c.successes += 1,
                Some(Verdict::Refuted) => c.failures += 1,
                _ => c.inconclusive += 1,
            }
        };
        count(ALL_RUNS);
        if let Some(c) = candidate.filter(|c| *c != ALL_RUNS) {
            count(c);
        }
        for (i, t) in obs.tags.iter().enumerate() {
            let t: &str = t;
            let seen = t == ALL_RUNS
                || Some(t) == candidate
                || obs.tags[..i].iter().any(|earlier| earlier.as_ref() == t);
            if !seen {
                count(t);
            }
        }
    }

    /// Policy cache: TD(0) once the next state is known.
    fn learn_policy(&mut self, obs: &Observation<'_>) {
        let candidate = obs.candidate.as_deref();
        if let Some(fp) = &obs.state_fingerprint {
            let mut spare = None;
            if let Some(p) = self.pending.take() {
                let max_next = self.max_q(fp);
                let state = self.state_q(&p.fingerprint);
                let i = state.index(&p.action);
                let q = state.actions[i].q;
                let q =
                    super::policy_cache::td0_update(q, p.reward, max_next, TD_ALPHA, TD_GAMMA).0;
                state.set_q(i, q);
                spare = Some(p);
            }
            if let Some(action) = candidate {
                let r = obs.verdict.map_or(0.0, reward);
                let state = self.state_q(fp);
                let known = state.actions.len();
                let i = state.index(action);
                if state.actions.len() > known {
                    // A new action starts at q = 0, which may be the best.
                    state.set_q(i, 0.0);
                }
                let entry = &mut state.actions[i];
                entry.total += 1;
                if obs.verdict == Some(Verdict::Supported) {
                    entry.successes += 1;
                }
                // The last transition's strings are reused (no allocation
                // per run once they are long enough).
                let mut p = spare.unwrap_or_default();
                p.fingerprint.clear();
                p.fingerprint.push_str(fp);
                p.action.clear();
                p.action.push_str(action);
                p.reward = r;
                self.pending = Some(p);
            }
        }
    }

    /// Q-values with the last transition settled as terminal (no next
    /// state), by state then action, in the order they were first seen.
    pub fn settled_policy(&self) -> IndexMap<String, Map<String, QValue>> {
        let mut policy: IndexMap<String, Map<String, QValue>> = self
            .policy
            .iter()
            .map(|(fp, s)| (fp.clone(), s.actions.clone()))
            .collect();
        if let Some(p) = &self.pending {
            if let Some(entry) = policy
                .get_mut(&p.fingerprint)
                .and_then(|a| a.get_mut(&p.action))
            {
                entry.q =
                    super::policy_cache::td0_update(entry.q, p.reward, 0.0, TD_ALPHA, TD_GAMMA).0;
            }
        }
        policy
    }
}

/// Replay observations into a fresh history.
pub fn replay<'a>(
    observations: impl IntoIterator<Item = &'a Observation<'a>>,
) -> Result<History, String> {
    let mut h = History::default();
    for o in observations {
        h.observe(o)?;
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::precision::Level;

    fn run(candidate: &str, verdict: Option<Verdict>, clean: bool) -> Observation<'static> {
        Observation {
            candidate: Some(Cow::Owned(candidate.to_string())),
            tags: vec![Cow::Borrowed("t")],
            executed_cleanly: clean,
            verdict,
            state_fingerprint: Some(Cow::Borrowed("fp")),
            started_unix: Some(0), // a Thursday
            imported: false,
        }
    }

    /// A record read from another loop's night is no run of this machine:
    /// the history is the same as without it.
    #[test]
    fn an_imported_record_teaches_nothing() {
        let imported = |clean| Observation {
            imported: true,
            ..run("a", None, clean)
        };
        let mut h = History::default();
        for clean in [true, false, true] {
            h.observe(&imported(clean)).unwrap();
        }
        assert_eq!(h, History::default());
        h.observe(&run("a", Some(Verdict::Supported), true))
            .unwrap();
        let mut once = History::default();
        once.observe(&run("a", Some(Verdict::Supported), true))
            .unwrap();
        assert_eq!((h.runs, &h), (1, &once));
    }

    #[test]
    fn counts_by_candidate_tag_and_all() {
        let obs = [
            run("a", Some(Verdict::Supported), true),
            run("a", Some(Verdict::Refuted), true),
            run("b", Some(Verdict::Inconclusive), false),
        ];
        let h = replay(&obs).unwrap();
        assert_eq!(h.runs, 3);
        assert_eq!(h.counts_for("a").successes, 1);
        assert_eq!(h.counts_for("a").failures, 1);
        assert_eq!(h.counts_for("b").inconclusive, 1);
        assert_eq!(h.counts_for("t").runs, 3);
        assert_eq!(h.counts_for(ALL_RUNS).runs, 3);
        assert_eq!(h.failure_weekdays[Weekday::Thursday.index()], 2);
    }

    #[test]
    fn precision_follows_the_runs() {
        // A crash lowers execution precision; a surprise lowers planning.
        let h = replay(&[run("a", Some(Verdict::Refuted), false)]).unwrap();
        assert!(h.precision.value(Level::Execution) < 0.5);
        // Expected 0.5, got refuted (0): planning error 0.5 (plus 0.5 from
        // the crash's propagation).
        assert!(h.precision.value(Level::Planning) < 0.5);
        // Inconclusive verdicts leave planning alone.
        let h = replay(&[run("a", Some(Verdict::Inconclusive), true)]).unwrap();
        assert_eq!(h.precision.value(Level::Planning), 0.5);
    }

    #[test]
    fn a_plateau_updates_the_abstract_level_once() {
        let obs: Vec<_> = (0..5)
            .map(|_| run("a", Some(Verdict::Refuted), true))
            .collect();
        let h = replay(&obs[..2]).unwrap();
        assert_eq!(h.precision.value(Level::Abstract), 0.5);
        let h3 = replay(&obs[..3]).unwrap();
        let h5 = replay(&obs).unwrap();
        assert!(h3.precision.value(Level::Abstract) < 0.5);
        // The plateau went on; it did not begin again.
        assert_eq!(h3.precision.abstract_level, h5.precision.abstract_level);
    }

    #[test]
    fn td_updates_wait_for_the_next_state() {
        let obs = [
            run("a", Some(Verdict::Supported), true),
            run("a", Some(Verdict::Supported), true),
        ];
        let h = replay(&obs).unwrap();
        let q = h.policy["fp"].actions["a"].q;
        // First update: 0 + 0.1 * (1 + 0.95 * 0 - 0) = 0.1.
        assert!((q - 0.1).abs() < 1e-12);
        let settled = h.settled_policy();
        // Second, terminal: 0.1 + 0.1 * (1 - 0.1) = 0.19.
        assert!((settled["fp"]["a"].q - 0.19).abs() < 1e-12);
        assert_eq!(h.policy["fp"].actions["a"].total, 2);
    }

    #[test]
    fn replay_is_deterministic_and_incremental() {
        let obs: Vec<_> = (0..20)
            .map(|i| {
                let v = if i % 3 == 0 {
                    Verdict::Supported
                } else {
                    Verdict::Refuted
                };
                run(if i % 2 == 0 { "a" } else { "b" }, Some(v), i % 5 != 0)
            })
            .collect();
        let whole = replay(&obs).unwrap();
        let mut part = replay(&obs[..7]).unwrap();
        for o in &obs[7..] {
            part.observe(o).unwrap();
        }
        assert_eq!(whole, part);
        let text = serde_json::to_string(&whole).unwrap();
        let back: History = serde_json::from_str(&text).unwrap();
        assert_eq!(back, whole);
    }
}
