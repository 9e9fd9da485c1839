//! The backlog of ideas as `arx idea`, `arx try` and the report use it:
//! the backlog folded with the journal's tries and the tries running now
//! ([`load`]), an idea found by its id with errors people can act on
//! ([`find`]), the checks of a statement and a family, and the family of a
//! text that names none: the family of the most similar idea by the
//! findings' text similarity ([`nearest_family`], [`Families`] for many
//! texts), else `unsorted`.

use std::path::Path;

use anyhow::Result;

use crate::engine::finding::index::Index;
use crate::error::Hinted;
use crate::io::Warn;
use crate::kernel::idea::{self, Backlog, FindError, Idea, IdeaTry, UNSORTED};

/// Least similarity between a text and an idea's statement for the text
/// to take the idea's family.
pub const FAMILY_SIMILARITY: f64 = 0.3;

/// The backlog of the state directory `state`: its lines folded with the
/// journal's tries and the tries running now. Lines the fold could not
/// apply are told to `warn`.
pub fn load(state: &Path, warn: Warn) -> Result<Backlog> {
    let lines = crate::io::ideas::read(state, warn)?;
    let records = crate::io::state::journal(state, warn).read()?;
    let flying = crate::io::ideas::in_flight(state);
    let backlog = idea::fold(lines, records.iter().filter_map(IdeaTry::of), &flying);
    for c in &backlog.conflicts {
        warn(&format!("{}: {c}", crate::io::ideas::IDEAS_FILE));
    }
    Ok(backlog)
}

/// The idea with this id (or a unique prefix of it), or an error that
/// says what to do.
pub fn find<'a>(backlog: &'a Backlog, id: &str) -> Result<&'a Idea> {
    match backlog.find(id) {
        Ok(i) => Ok(i),
        Err(FindError::Unknown) => Err(Hinted::error(
            format!("no idea has the id {id:?}"),
            if backlog.ideas.is_empty() {
                "the backlog is empty: add one with arx idea add \"STATEMENT\"".to_string()
            } else {
                "arx idea list shows the ideas and their ids".to_string()
            },
        )),
        Err(FindError::Ambiguous(ids)) => Err(Hinted::error(
            format!(
                "{id:?} is the start of several ideas' ids: {}",
                ids.join(", ")
            ),
            "give more of the id",
        )),
    }
}

/// A statement as given, or an error with a hint.
pub fn check_statement(statement: &str) -> Result<()> {
    idea::check_statement(statement).map_err(|e| {
        let hint = if statement.trim().is_empty() {
            "say what the change is, e.g. arx idea add \"halve the learning rate\""
        } else {
            "state the idea in a sentence or two; details belong in the code or a note"
        };
        Hinted::error(e, hint)
    })
}

/// A family as stored (lowercase), or an error with a hint.
pub fn check_family(family: &str) -> Result<String> {
    idea::check_family(family).map_err(|e| {
        let hint = match idea::family_suggestion(family) {
            Some(s) => format!("use one word, e.g. --family {s}"),
            None => "use one word of letters, digits, _ or -, e.g. --family lr".to_string(),
        };
        Hinted::error(e, hint)
    })
}

/// The family a text takes from the backlog.
#[derive(Debug, Clone, PartialEq)]
pub struct NearestFamily {
    pub family: String,
    /// The idea it came from, and how similar its statement is (`None`:
    /// no idea with a family is similar enough, the family is `unsorted`).
    pub from: Option<(String, f64)>,
}

impl NearestFamily {
    /// How it came about, for the person who ran the command.
    pub fn said(&self) -> String {
        match &self.from {
            Some((id, sim)) => format!(
                "family {} (of the most similar idea {id}, similarity {sim:.2})",
                self.family
            ),
            None => format!("family {UNSORTED} (no idea with a family resembles it)"),
        }
    }
}

/// The family of the idea whose statement is most similar to `text` (the
/// findings' similarity, at least [`FAMILY_SIMILARITY`]), among the ideas
/// that have one; else `unsorted`.
pub fn nearest_family(backlog: &Backlog, text: &str) -> NearestFamily {
    Families::of(backlog).nearest(text)
}

/// The backlog's ideas that have a family, indexed once for the family of
/// many texts ([`Families::nearest`], as [`nearest_family`]).
pub struct Families<'a> {
    sorted: Vec<&'a Idea>,
    ix: Index,
}

impl<'a> Families<'a> {
    pub fn of(backlog: &'a Backlog) -> Families<'a> {
        let sorted: Vec<&Idea> = backlog
            .ideas
            .iter()
            .filter(|i| i.family != UNSORTED && !i.family_guessed)
            .collect();
        let ix = Index::build(sorted.iter().map(|i| i.statement.as_str()));
        Families { sorted, ix }
    }

    /// The family `text` takes.
    pub fn nearest(&self, text: &str) -> NearestFamily {
        let unsorted = NearestFamily {
            family: UNSORTED.to_string(),
            from: None,
        };
        if self.sorted.is_empty() || text.trim().is_empty() {
            return unsorted;
        }
        let best = self
            .ix
            .query(text, FAMILY_SIMILARITY)
            .into_iter()
            // The most similar; the oldest idea on a tie.
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        match best {
            Some((d, sim)) => NearestFamily {
                family: self.sorted[d].family.clone(),
                from: Some((self.sorted[d].id.clone(), sim)),
            },
            None => unsorted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::idea::{IdeaAdded, IdeaLine};

    fn add(id: &str, statement: &str, family: &str) -> IdeaLine {
        IdeaLine::Add(IdeaAdded {
            id: id.into(),
            at: id.into(),
            statement: statement.into(),
            family: family.into(),
            family_guessed: false,
            retry_of: None,
            because: None,
            ad_hoc: false,
        })
    }

    #[test]
    fn a_text_takes_the_family_of_the_most_similar_idea_or_unsorted() {
        let backlog = idea::fold(
            vec![
                add("i-0000000001", "halve the learning rate", "lr"),
                add("i-0000000002", "double the batch size", "batch"),
                add("i-0000000003", "use xavier init for the embeddings", "init"),
            ],
            vec![],
            &[],
        );
        let n = nearest_family(&backlog, "a smaller learning rate with warmup");
        assert_eq!(n.family, "lr");
        assert_eq!(n.from.as_ref().unwrap().0, "i-0000000001");
        assert!(n.said().contains("i-0000000001"), "{}", n.said());
        assert_eq!(nearest_family(&backlog, "batch size 512").family, "batch");
        let none = nearest_family(&backlog, "rewrite the tokenizer in rust");
        assert_eq!((none.family.as_str(), none.from), (UNSORTED, None));
        assert_eq!(
            nearest_family(&Backlog::default(), "anything").family,
            UNSORTED
        );
    }
}
