//! The repeat guard: an idea whose change was already discarded at the
//! same parent is not offered again.
//!
//! Two changes are the same when they were tried at the same parent (the
//! kept commit they were measured against) and either their diffs are the
//! same or their statements are: by the findings' text similarity
//! (at least [`REPEAT_SIMILARITY`], with no negation between them, the
//! findings' own test of one finding stated twice) *and* the same
//! numbers. A parameter tried again with another value is a new idea:
//! "learning rate 0.02" is never a repeat of "learning rate 0.04". A retry
//! (`arx idea add --retry ID --because TEXT`) states what changed and is
//! never left out. Only discards count: a crash says nothing about the
//! idea, a keep moved the parent.
//!
//! Pure: statements, parents and diff ids in, the repeats out.

use serde::{Deserialize, Serialize};

use crate::engine::finding::index::Index;
use crate::engine::finding::text::words;
use crate::engine::finding::DEDUP_SIMILARITY;

/// Statements at least this similar (and agreeing in their numbers) state
/// the same change: the threshold at which two findings are one.
pub const REPEAT_SIMILARITY: f64 = DEDUP_SIMILARITY;

/// A discarded try, as the guard compares with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Discarded<'a> {
    /// Its description (the idea's statement, or `-m`).
    pub statement: &'a str,
    /// The kept commit it was measured against.
    pub parent: &'a str,
    /// An id of its diff (e.g. the hash of the patch or of the tree it
    /// made), when known.
    pub diff: Option<&'a str>,
}

/// A candidate idea.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate<'a> {
    pub statement: &'a str,
    /// The kept commit it would be measured against.
    pub parent: &'a str,
    /// An id of its diff, when it has one already.
    pub diff: Option<&'a str>,
    /// Re-added on purpose with a reason (`--retry ID --because TEXT`).
    pub retry: bool,
}

/// How a candidate repeats a discard.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Same {
    /// The same diff.
    Diff,
    /// The same statement, this similar.
    Statement { similarity: f64 },
}

/// A candidate left out: the discard it repeats (its index) and how.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Repeat {
    pub discard: usize,
    #[serde(flatten)]
    pub same: Same,
}

/// The numbers a statement names (its words holding a digit), sorted.
pub fn numbers(text: &str) -> Vec<String> {
    let mut out: Vec<String> = words(text)
        .into_iter()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .collect();
    out.sort_unstable();
    out
}

/// For each candidate, the discard it repeats, if any (the first, in the
/// discards' order, by diff before statement).
pub fn repeats(candidates: &[Candidate<'_>], discarded: &[Discarded<'_>]) -> Vec<Option<Repeat>> {
    if discarded.is_empty() {
        return vec![None; candidates.len()];
    }
    let ix = Index::build(
        discarded
            .iter()
            .map(|d| d.statement)
            .chain(candidates.iter().map(|c| c.statement)),
    );
    let discard_numbers: Vec<Vec<String>> =
        discarded.iter().map(|d| numbers(d.statement)).collect();
    let base = discarded.len();
    candidates
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            if c.retry {
                return None;
            }
            let at_parent = || {
                discarded
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.parent == c.parent)
            };
            if let Some(diff) = c.diff {
                if let Some((i, _)) = at_parent().find(|(_, d)| d.diff == Some(diff)) {
                    return Some(Repeat {
                        discard: i,
                        same: Same::Diff,
                    });
                }
            }
            let mine = numbers(c.statement);
            at_parent().find_map(|(i, _)| {
                let similarity = ix.similarity(base + ci, i);
                (similarity >= REPEAT_SIMILARITY
                    && ix.negation(base + ci, i) == 0.0
                    && discard_numbers[i] == mine)
                    .then_some(Repeat {
                        discard: i,
                        same: Same::Statement { similarity },
                    })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand<'a>(statement: &'a str, parent: &'a str) -> Candidate<'a> {
        Candidate {
            statement,
            parent,
            diff: None,
            retry: false,
        }
    }

    fn disc<'a>(statement: &'a str, parent: &'a str) -> Discarded<'a> {
        Discarded {
            statement,
            parent,
            diff: None,
        }
    }

    #[test]
    fn same_statement_at_same_parent_is_a_repeat() {
        let d = [disc("Raise the learning rate to 0.04", "abc")];
        let r = repeats(&[cand("raise learning rate to 0.04", "abc")], &d);
        let rep = r[0].expect("a repeat");
        assert_eq!(rep.discard, 0);
        assert!(matches!(rep.same, Same::Statement { similarity } if similarity >= 0.95));
    }

    #[test]
    fn new_parent_new_value_retry_or_negation_are_not() {
        let d = [disc("raise the learning rate to 0.04", "abc")];
        let cands = [
            cand("raise the learning rate to 0.04", "def"),
            cand("raise the learning rate to 0.02", "abc"),
            Candidate {
                retry: true,
                ..cand("raise the learning rate to 0.04", "abc")
            },
            cand("do not raise the learning rate to 0.04", "abc"),
            cand("use a cosine schedule", "abc"),
        ];
        assert_eq!(repeats(&cands, &d), vec![None; 5]);
    }

    #[test]
    fn a_long_statement_with_another_value_is_a_new_idea() {
        // So many words alike that the texts alone would be one statement.
        let long = |v: &str| {
            format!(
                "raise the peak learning rate of the adamw optimizer after the linear \
                 warmup over the first two thousand steps with cosine decay to zero at \
                 the end of training and gradient clipping at norm one, keeping batch \
                 size and weight decay unchanged, tokenizer vocabulary sequence \
                 length dropout embeddings attention heads layers residual scaling \
                 initialization seed evaluation cadence checkpoint logging identical, \
                 to {v}"
            )
        };
        let (a, b) = (long("0.04"), long("0.02"));
        let ix = Index::build([a.as_str(), b.as_str()]);
        assert!(
            ix.similarity(0, 1) >= REPEAT_SIMILARITY,
            "{}",
            ix.similarity(0, 1)
        );
        let d = [disc(&a, "abc")];
        assert_eq!(repeats(&[cand(&b, "abc")], &d), vec![None]);
        assert!(repeats(&[cand(&a, "abc")], &d)[0].is_some());
    }

    #[test]
    fn same_diff_is_a_repeat_whatever_the_words() {
        let d = [
            disc("something else", "abc"),
            Discarded {
                diff: Some("d1"),
                ..disc("tweak", "abc")
            },
        ];
        let c = Candidate {
            diff: Some("d1"),
            ..cand("a different wording entirely", "abc")
        };
        assert_eq!(
            repeats(&[c], &d),
            vec![Some(Repeat {
                discard: 1,
                same: Same::Diff
            })]
        );
        // The same diff at another parent is a new change.
        let c = Candidate { parent: "def", ..c };
        assert_eq!(repeats(&[c], &d), vec![None]);
    }

    #[test]
    fn numbers_are_the_words_with_digits() {
        assert_eq!(
            numbers("lr 0.04, depth 12 and gpt2"),
            ["0.04", "12", "gpt2"]
        );
        assert!(numbers("no numbers here").is_empty());
    }

    #[test]
    fn nothing_discarded_nothing_left_out() {
        assert_eq!(repeats(&[cand("x", "a")], &[]), vec![None]);
    }
}
