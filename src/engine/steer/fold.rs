//! The journal as steering reads it: each try record's few fields
//! ([`TryLine`], read from a journal line by [`try_line`]) folded into the
//! current segment's [`Record`], the kept commit the next try starts from,
//! and the discards measured against that commit (for the repeat guard).
//! The [`Fold`] is small whatever the journal's length (a record per
//! family, at most [`MAX_DISCARDS`] discards), so a host can cache it and
//! extend it with the lines appended since.
//!
//! Pure: journal lines in, the fold out.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::imported::ImportedTries;
use super::{Outcome, Record, Try, UNSORTED};
use crate::engine::history::Map;
use crate::kernel::idea::IdeaTry;
use crate::kernel::imported::Imported;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::skim::{plain_str, skip_value, walk_elements, walk_object};

/// The discards at the current parent the fold remembers (the latest).
pub const MAX_DISCARDS: usize = 4096;

/// The fields of a try record steering reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct TryLine {
    #[serde(skip)]
    pub run_id: String,
    #[serde(skip)]
    pub started_at: String,
    /// Experiment runs (the record's attempts; at least 1).
    #[serde(skip)]
    pub runs: u64,
    pub segment: String,
    #[serde(default)]
    pub new_segment: bool,
    pub status: TryStatus,
    #[serde(default)]
    pub description: Option<String>,
    /// The kept commit it was measured against.
    #[serde(default)]
    pub kept: String,
    /// The kept commit the candidate was measured against, when the
    /// record names it apart from `kept`.
    #[serde(default)]
    pub parent: Option<String>,
    /// For a keep: the new kept commit.
    #[serde(default)]
    pub commit: Option<String>,
    #[serde(default)]
    pub improvement: Option<f64>,
    #[serde(default)]
    pub idea: Option<String>,
    #[serde(default)]
    pub family: Option<String>,
    #[serde(default)]
    pub lane: Option<String>,
    /// Read from another loop's night (`arx journal import`).
    #[serde(default)]
    pub imported: Option<Imported>,
}

impl TryLine {
    /// The commit the candidate was measured against.
    pub fn parent(&self) -> &str {
        self.parent.as_deref().unwrap_or(&self.kept)
    }
}

/// The try record of a journal line: `None` for any other line (a run of
/// `arx run`, a torn or foreign line).
pub fn try_line(line: &[u8]) -> Option<TryLine> {
    let mut ratchet = None;
    let mut run_id = None;
    let mut started_at = None;
    let mut runs = 0u64;
    walk_object(line, |key, value| {
        match key {
            b"ratchet" => ratchet = Some(value),
            b"run_id" => run_id = plain_str(value).map(str::to_string),
            b"started_at" => started_at = plain_str(value).map(str::to_string),
            b"attempts" => {
                walk_elements(value, 0, |i| {
                    runs += 1;
                    skip_value(value, i)
                })?;
            }
            _ => {}
        }
        Some(())
    })?;
    let mut t: TryLine = serde_json::from_slice(ratchet?).ok()?;
    t.run_id = run_id.unwrap_or_default();
    t.started_at = started_at.unwrap_or_default();
    t.runs = runs.max(1);
    Some(t)
}

impl Fold {
    /// Remember `t` as its idea's last try (as
    /// [`IdeaTry::of`] reads a try of an idea).
    fn add_idea(&mut self, t: &TryLine) {
        let Some(idea) = &t.idea else { return };
        if matches!(t.status, TryStatus::Baseline | TryStatus::Remeasure) {
            return;
        }
        let last = IdeaTry {
            run_id: t.run_id.clone(),
            status: t.status,
            parent: t.parent().to_string(),
            improvement: t.improvement,
            lane: t.lane.clone(),
            started_at: t.started_at.clone(),
            segment: t.segment.clone(),
        };
        match self.ideas.get_mut(idea.as_str()) {
            Some(slot) => *slot = last,
            None => {
                self.ideas.insert(idea.clone(), last);
            }
        }
    }
}

/// A discard the repeat guard compares ideas with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Discard {
    pub run_id: String,
    pub statement: String,
    #[serde(default)]
    pub idea: Option<String>,
}

/// The fold of a journal's tries: the current segment's record, the kept
/// commit and the discards measured against it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fold {
    /// The current segment's id.
    pub segment: Option<String>,
    /// Every segment id seen (a late record of an earlier one is not the
    /// current segment's).
    pub segments: Vec<String>,
    pub record: Record,
    /// The kept commit: what the next try is measured against.
    pub parent: Option<String>,
    /// Discards measured against `parent`, oldest first.
    pub discards: VecDeque<Discard>,
    /// Try records read, in every segment.
    pub tries: u64,
    /// The last try of each idea the journal names, in every segment
    /// (what the backlog's fold needs to tell an open idea from a tried
    /// one; one entry per idea however often it was tried).
    pub ideas: Map<String, IdeaTry>,
    /// The tries of imported nights (never the current segment).
    #[serde(default)]
    pub imported: ImportedTries,
}

impl Fold {
    /// The kept commit the next try is measured against: the current
    /// segment's, else (nothing run by arx yet) the latest imported
    /// night's.
    pub fn next_parent(&self) -> Option<&str> {
        match &self.segment {
            Some(_) => self.parent.as_deref(),
            None => self.imported.parent.as_deref(),
        }
    }

    /// Add the next try record.
    pub fn add(&mut self, t: &TryLine) {
        self.tries += 1;
        if t.imported.is_some() {
            self.imported.add(t);
            return;
        }
        self.add_idea(t);
        let seen = self.segments.contains(&t.segment);
        let current = self.segment.as_deref() == Some(t.segment.as_str());
        if t.status == TryStatus::Baseline || t.new_segment || !seen {
            if !seen {
                self.segments.push(t.segment.clone());
            }
            self.segment = Some(t.segment.clone());
            self.record = Record::default();
            self.parent = Some(t.kept.clone());
            self.discards.clear();
        } else if !current {
            return; // a late record of an earlier segment
        }
        let Some(outcome) = Outcome::from_status(t.status) else {
            return;
        };
        self.record.observe(&Try {
            family: t.family.as_deref().unwrap_or(UNSORTED),
            outcome,
            gain: t.improvement,
            runs: t.runs,
        });
        match outcome {
            Outcome::Kept => {
                self.parent = Some(t.commit.clone().unwrap_or_else(|| t.kept.clone()));
                self.discards.clear();
            }
            Outcome::Discarded if self.parent.as_deref() == Some(t.parent()) => {
                if let Some(statement) = t.description.clone().filter(|s| !s.trim().is_empty()) {
                    if self.discards.len() == MAX_DISCARDS {
                        self.discards.pop_front();
                    }
                    self.discards.push_back(Discard {
                        run_id: t.run_id.clone(),
                        statement,
                        idea: t.idea.clone(),
                    });
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(status: &str, extra: &str) -> Vec<u8> {
        format!(
            r#"{{"run_id":"r1","attempts":[{{}},{{}}],"ratchet":{{"segment":"s","status":"{status}","metric":"m","direction":"minimize","kept":"k0"{extra}}}}}"#
        )
        .into_bytes()
    }

    #[test]
    fn reads_a_try_record_and_skips_other_lines() {
        let t = try_line(&line("discard", r#","description":"x","family":"opt""#)).unwrap();
        assert_eq!(t.status, TryStatus::Discard);
        assert_eq!((t.runs, t.run_id.as_str()), (2, "r1"));
        assert_eq!(t.family.as_deref(), Some("opt"));
        assert!(try_line(br#"{"run_id":"r2","exit_code":0}"#).is_none());
        assert!(try_line(b"{torn").is_none());
    }

    #[test]
    fn folds_the_current_segment_and_its_parent() {
        let mut f = Fold::default();
        for l in [
            line("baseline", ""),
            line("discard", r#","description":"lr 0.1","family":"opt""#),
            line("crash", r#","description":"bad","family":"opt""#),
        ] {
            f.add(&try_line(&l).unwrap());
        }
        assert_eq!(f.parent.as_deref(), Some("k0"));
        assert_eq!(f.discards.len(), 1);
        assert_eq!(f.record.families["opt"].tries, 2);
        // A keep moves the parent and forgets the discards.
        f.add(&try_line(&line("keep", r#","commit":"k1","family":"opt""#)).unwrap());
        assert_eq!(f.parent.as_deref(), Some("k1"));
        assert!(f.discards.is_empty());
        // A late discard at the old parent is counted, not remembered.
        f.add(&try_line(&line("discard", r#","description":"late""#)).unwrap());
        assert!(f.discards.is_empty());
        assert_eq!(f.record.total.tries, 4);
        // A new segment starts over.
        let mut l = line("discard", r#","description":"y""#);
        l = String::from_utf8(l)
            .unwrap()
            .replace("\"s\"", "\"s2\"")
            .into_bytes();
        f.add(&try_line(&l).unwrap());
        assert_eq!(f.segment.as_deref(), Some("s2"));
        assert_eq!(f.record.total.tries, 1);
        // A late record of the first segment leaves the second alone.
        f.add(&try_line(&line("discard", "")).unwrap());
        assert_eq!(f.record.total.tries, 1);
    }

    #[test]
    fn remembers_at_most_the_latest_discards() {
        let mut f = Fold::default();
        f.add(&try_line(&line("baseline", "")).unwrap());
        let t = try_line(&line("discard", r#","description":"same""#)).unwrap();
        for _ in 0..MAX_DISCARDS + 5 {
            f.add(&t);
        }
        assert_eq!(f.discards.len(), MAX_DISCARDS);
    }
}
