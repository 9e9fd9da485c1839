//! How the tries and runs of the journal are counted: what each status
//! counts as (kept, discarded, crashed, other), and the running counts of
//! a segment. The ratchet (`arx status`, `arx best`, `arx try`) and the
//! report fold their segments with this one [`Tally`], so they cannot
//! disagree.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a run came to, across the ratchet's statuses and plain runs'
/// verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Baseline,
    Keep,
    Discard,
    Crash,
    ChecksFailed,
    /// A guard metric vetoed the keep (counts like a discard).
    Guard,
    /// The held-out check vetoed the keep (counts like a discard).
    Holdout,
    Protected,
    Interrupted,
    /// Stopped early as hopeless (counts like a discard).
    Pruned,
    /// Another lane kept first and the candidate no longer applied (counts
    /// like a discard).
    Stale,
    /// The candidate was already in a best another lane kept (counts like
    /// a discard).
    AlreadyInBest,
    /// The best run again on another slot (not a try).
    Remeasure,
    /// Its process was lost (counts like a crash).
    Lost,
    Supported,
    Refuted,
    Inconclusive,
    /// A run without a metric spec that ran cleanly.
    Ok,
    /// A run without a metric spec that did not.
    Failed,
    /// A status this version does not know.
    Other,
}

/// How a status counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Kept, a baseline, supported, ran cleanly: a pass.
    Pass,
    /// Not kept, refuted: a failure with its reason.
    Fail,
    /// The experiment crashed: an error with its failure class.
    Crash,
    /// Neither way.
    Inconclusive,
    Other,
}

impl Status {
    /// The ratchet status of `text`, when known.
    pub fn from_try(text: &str) -> Option<Status> {
        Some(match text {
            "baseline" => Status::Baseline,
            "keep" => Status::Keep,
            "discard" => Status::Discard,
            "crash" => Status::Crash,
            "checks_failed" => Status::ChecksFailed,
            "guard" => Status::Guard,
            "holdout" => Status::Holdout,
            "protected" => Status::Protected,
            "interrupted" => Status::Interrupted,
            "pruned" => Status::Pruned,
            "stale" => Status::Stale,
            "already_in_best" => Status::AlreadyInBest,
            "remeasure" => Status::Remeasure,
            "lost" => Status::Lost,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Baseline => "baseline",
            Status::Keep => "keep",
            Status::Discard => "discard",
            Status::Crash => "crash",
            Status::ChecksFailed => "checks_failed",
            Status::Guard => "guard",
            Status::Holdout => "holdout",
            Status::Protected => "protected",
            Status::Interrupted => "interrupted",
            Status::Pruned => "pruned",
            Status::Stale => "stale",
            Status::AlreadyInBest => "already_in_best",
            Status::Remeasure => "remeasure",
            Status::Lost => "lost",
            Status::Supported => "supported",
            Status::Refuted => "refuted",
            Status::Inconclusive => "inconclusive",
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::Other => "other",
        }
    }

    pub fn class(self) -> Class {
        match self {
            Status::Baseline
            | Status::Keep
            | Status::Remeasure
            | Status::Supported
            | Status::Ok => Class::Pass,
            Status::Discard
            | Status::ChecksFailed
            | Status::Guard
            | Status::Holdout
            | Status::Protected
            | Status::Pruned
            | Status::Stale
            | Status::AlreadyInBest
            | Status::Refuted => Class::Fail,
            Status::Crash | Status::Interrupted | Status::Lost | Status::Failed => Class::Crash,
            Status::Inconclusive => Class::Inconclusive,
            Status::Other => Class::Other,
        }
    }
}

/// The counts of a segment's tries, by the rule of [`Status::class`]: a
/// discard, `checks_failed`, `guard`, `holdout`, `protected` or `pruned` try counts as
/// discarded (the candidate was not kept and was undone: `arx try` exits 1),
/// a crash, `interrupted` or `lost` one as crashed; `statuses` keeps the
/// count of each status as written, for the detail.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub keeps: usize,
    pub discards: usize,
    pub crashes: usize,
    /// Tries whose status this version does not know.
    pub other: usize,
    pub baselines: usize,
    /// Runs of the best on another slot (`remeasure`): not tries.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub remeasures: usize,
    /// Tries since the last keep or baseline (not kept in a row).
    pub since_keep: usize,
    pub statuses: BTreeMap<String, usize>,
}

impl Tally {
    /// Count one more try of `status`, written `text` in the journal (its
    /// text copied only the first time).
    pub fn add(&mut self, status: Status, text: &str) {
        match self.statuses.get_mut(text) {
            Some(n) => *n += 1,
            None => {
                self.statuses.insert(text.to_string(), 1);
            }
        }
        match status {
            Status::Remeasure => {
                self.remeasures += 1;
                return;
            }
            Status::Baseline => self.baselines += 1,
            Status::Keep => self.keeps += 1,
            s => match s.class() {
                Class::Fail => self.discards += 1,
                Class::Crash => self.crashes += 1,
                _ => self.other += 1,
            },
        }
        // An interrupted try was cut off before any verdict (a Ctrl-C, a
        // client that gave up): it says nothing of the change, and its
        // change is still in the working tree to be tried again.
        match status {
            Status::Baseline | Status::Keep => self.since_keep = 0,
            Status::Interrupted => {}
            _ => self.since_keep += 1,
        }
    }

    /// How many tries had status `text`.
    pub fn of(&self, text: &str) -> usize {
        self.statuses.get(text).copied().unwrap_or(0)
    }
}

/// The experiment runs a record stands for: its attempts (one at least);
/// none when it was refused without running (`protected`) or read from
/// another loop's night (imported: a try shown, no run of this machine).
/// The segment fold and the report's count runs with this one rule.
pub fn runs_of(attempts: usize, protected: bool, imported: bool) -> u64 {
    match protected || imported {
        true => 0,
        false => attempts.max(1) as u64,
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_try_status_counts_once_by_its_class() {
        let mut t = Tally::default();
        for s in [
            "baseline",
            "discard",
            "checks_failed",
            "guard",
            "holdout",
            "protected",
            "pruned",
            "stale",
            "already_in_best",
            "crash",
            "interrupted",
            "lost",
            "keep",
            "remeasure",
            "someday",
        ] {
            t.add(Status::from_try(s).unwrap_or(Status::Other), s);
        }
        assert_eq!(
            (t.baselines, t.keeps, t.discards, t.crashes, t.other),
            (1, 1, 8, 3, 1)
        );
        // A remeasure is no try: the one after the keep is still the first.
        assert_eq!(t.since_keep, 1);
        assert_eq!(t.remeasures, 1);
        assert_eq!((t.of("protected"), t.of("keep"), t.of("nope")), (1, 1, 0));
    }

    #[test]
    fn an_interrupted_try_is_not_counted_in_a_row() {
        let mut t = Tally::default();
        for s in [
            "baseline",
            "discard",
            "interrupted",
            "interrupted",
            "discard",
        ] {
            t.add(Status::from_try(s).unwrap_or(Status::Other), s);
        }
        assert_eq!(t.since_keep, 2);
    }
}
