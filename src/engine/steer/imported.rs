//! Tries imported from another loop's night (`arx journal import`) as
//! steering reads them: evidence about families, and discards the repeat
//! guard compares ideas with.
//!
//! An imported try names no family. Which family it is evidence about
//! depends on the backlog, which grows after the import (the person
//! imports last night, then writes ideas down), so the fold keeps the
//! imported tries by their description ([`ImportedTries::by_text`], one
//! tally per distinct text, at most [`MAX_TEXTS`]) and the host assigns
//! each text a family when it ranks ([`ImportedTries::by_family`]): the
//! family of the most similar idea, as a try without `--family` takes
//! one, else `unsorted`. The record the ideas are ranked from is the
//! segment's with these tallies added ([`merged`]); the loop's precision
//! stays the one its own tries taught.
//!
//! Pure: imported try lines in, tallies and discards out.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::fold::{Discard, TryLine, MAX_DISCARDS};
use super::{Outcome, Record, Tally, Try, UNSORTED};
use crate::engine::history::Map;
use crate::kernel::ratchet_record::TryStatus;

/// Distinct descriptions the fold keeps a tally of; the tries of any
/// further text are counted as `unsorted`.
pub const MAX_TEXTS: usize = 4096;

/// A description is compared by its first this many bytes.
pub const MAX_TEXT_BYTES: usize = 1024;

/// A discard of an imported night, with the kept commit it was measured
/// against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedDiscard {
    #[serde(flatten)]
    pub discard: Discard,
    pub parent: String,
}

/// The imported tries of a journal, in every imported night.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportedTries {
    /// Tries counted (kept, discarded or crashed).
    pub tries: u64,
    /// By description, in the order first seen.
    pub by_text: Map<String, Tally>,
    /// Tries with no description, or beyond [`MAX_TEXTS`] texts.
    pub rest: Tally,
    /// Discards with their parent, oldest first (the latest
    /// [`MAX_DISCARDS`]).
    pub discards: VecDeque<ImportedDiscard>,
    /// The kept commit after the latest imported try, when known: what a
    /// try would be measured against had the night gone on.
    pub parent: Option<String>,
}

/// The first [`MAX_TEXT_BYTES`] of a text, trimmed, cut at a character.
fn clip(text: &str) -> &str {
    let t = text.trim();
    let mut end = t.len().min(MAX_TEXT_BYTES);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &t[..end]
}

impl ImportedTries {
    /// Add an imported try record.
    pub fn add(&mut self, t: &TryLine) {
        let moved = match t.status {
            TryStatus::Keep | TryStatus::Baseline => t.commit.clone().or(Some(t.kept.clone())),
            _ => Some(t.parent().to_string()),
        };
        self.parent = moved.filter(|c| !c.is_empty());
        let Some(outcome) = Outcome::from_status(t.status) else {
            return;
        };
        self.tries += 1;
        let text = clip(t.description.as_deref().unwrap_or(""));
        let one = Try {
            family: UNSORTED,
            outcome,
            gain: t.improvement,
            runs: t.runs,
        };
        let room = self.by_text.len() < MAX_TEXTS;
        match self.by_text.get_mut(text) {
            Some(tally) => tally.add(&one),
            None if !text.is_empty() && room => {
                let mut tally = Tally::default();
                tally.add(&one);
                self.by_text.insert(text.to_string(), tally);
            }
            None => self.rest.add(&one),
        }
        if outcome == Outcome::Discarded && !text.is_empty() && !t.parent().is_empty() {
            if self.discards.len() == MAX_DISCARDS {
                self.discards.pop_front();
            }
            self.discards.push_back(ImportedDiscard {
                discard: Discard {
                    run_id: t.run_id.clone(),
                    statement: text.to_string(),
                    idea: None,
                },
                parent: t.parent().to_string(),
            });
        }
    }

    /// The tallies by family, each text given its family by `family_of`
    /// (the texts without one counted as `unsorted`).
    pub fn by_family(&self, mut family_of: impl FnMut(&str) -> String) -> Map<String, Tally> {
        let mut out: Map<String, Tally> = Map::default();
        for (text, tally) in &self.by_text {
            sum(out.entry(family_of(text)).or_default(), tally);
        }
        if self.rest.tries > 0 {
            sum(out.entry(UNSORTED.to_string()).or_default(), &self.rest);
        }
        out
    }
}

fn sum(into: &mut Tally, t: &Tally) {
    into.tries += t.tries;
    into.keeps += t.keeps;
    into.crashes += t.crashes;
    into.gain += t.gain;
    into.gains += t.gains;
    into.runs += t.runs;
}

/// `record` with the imported tallies by family added to its families and
/// its total: the evidence the ideas are ranked from (the prior is weighed
/// from the families when scored). The precision is the record's own.
pub fn merged(record: &Record, imported: &Map<String, Tally>) -> Record {
    if imported.is_empty() {
        return record.clone();
    }
    let mut out = record.clone();
    for (family, t) in imported {
        sum(out.families.entry(family.clone()).or_default(), t);
        sum(&mut out.total, t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(status: TryStatus, text: &str, kept: &str, commit: Option<&str>) -> TryLine {
        TryLine {
            run_id: format!("r-{text}"),
            runs: 1,
            segment: "import:karpathy:val_bpb".into(),
            status,
            description: Some(text.into()),
            kept: kept.into(),
            commit: commit.map(str::to_string),
            ..TryLine::default()
        }
    }

    #[test]
    fn tallies_by_text_and_remembers_discards_with_their_parent() {
        let mut m = ImportedTries::default();
        m.add(&line(TryStatus::Baseline, "baseline", "", Some("c0")));
        m.add(&line(TryStatus::Discard, "batch 64", "c0", None));
        m.add(&line(TryStatus::Keep, "batch 128", "c0", Some("c1")));
        m.add(&line(TryStatus::Discard, "batch 64", "c1", None));
        m.add(&line(TryStatus::Crash, "", "c1", None));
        assert_eq!(m.tries, 4);
        assert_eq!(m.by_text["batch 64"].tries, 2);
        assert_eq!(m.by_text["batch 128"].keeps, 1);
        assert_eq!(m.rest.crashes, 1);
        let parents: Vec<&str> = m.discards.iter().map(|d| d.parent.as_str()).collect();
        assert_eq!(parents, ["c0", "c1"]);
        assert_eq!(m.parent.as_deref(), Some("c1"));

        let fams = m.by_family(|t| if t.contains("batch") { "batch" } else { "x" }.into());
        assert_eq!((fams["batch"].tries, fams["batch"].keeps), (3, 1));
        assert_eq!(fams[UNSORTED].tries, 1);
    }

    #[test]
    fn texts_are_bounded() {
        let mut m = ImportedTries::default();
        for i in 0..MAX_TEXTS + 10 {
            m.add(&line(TryStatus::Crash, &format!("idea {i}"), "c0", None));
        }
        m.add(&line(TryStatus::Crash, &"x".repeat(5000), "c0", None));
        assert_eq!(m.by_text.len(), MAX_TEXTS);
        assert_eq!(m.rest.tries, 11);
        assert!(m.discards.is_empty());
        assert_eq!(clip(&"é".repeat(1000)).len(), MAX_TEXT_BYTES);
    }

    #[test]
    fn merged_adds_the_tallies_to_the_record() {
        let own = Record::of([Try {
            family: "lr",
            outcome: Outcome::Kept,
            gain: None,
            runs: 1,
        }]);
        let mut imported: Map<String, Tally> = Map::default();
        let keep = Tally {
            tries: 4,
            keeps: 2,
            runs: 4,
            ..Tally::default()
        };
        imported.insert("lr".into(), keep.clone());
        imported.insert("init".into(), keep);
        let r = merged(&own, &imported);
        assert_eq!((r.total.tries, r.total.keeps), (9, 5));
        assert_eq!(r.families["lr"].tries, 5);
        assert_eq!(r.families["init"].keeps, 2);
        assert_eq!(r.precision, own.precision);
        assert_eq!(merged(&own, &Map::default()), own);
    }
}
