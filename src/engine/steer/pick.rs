//! Choosing the next idea: the open ideas scored by their families
//! ([`super::rank`]), those that repeat a discard at the current parent or
//! are in flight elsewhere left out with the reason, and one picked by a
//! seeded draw from `P ∝ exp(−β·G)` (`β = precision / temperature`, as
//! `arx next --candidates` draws) or greedily.
//!
//! Pure: ideas and the fold in, the table out; the host draws the uniform
//! number.

use serde::{Deserialize, Serialize};

use super::fold::{Discard, Fold};
use super::imported::merged;
use super::repeat::{repeats, Candidate, Discarded, Same};
use super::{rank, Score, Tally};
use crate::engine::efe::{sample_index, selection_probabilities, Preferences};
use crate::engine::history::Map;

/// An idea that may be offered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offer<'a> {
    pub id: &'a str,
    pub statement: &'a str,
    pub family: &'a str,
    /// Re-added with a reason (`--retry ID --because TEXT`).
    pub retry: bool,
}

/// Why an idea is not offered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum LeftOut {
    /// Its change was already discarded at the current parent.
    Repeat {
        /// The discarded try.
        run_id: String,
        statement: String,
        #[serde(flatten)]
        same: Same,
        parent: String,
        /// The discard is a try of an imported night.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        imported: bool,
    },
    /// Being tried now, or given to another lane (`None`: the main
    /// working tree) and not tried yet.
    InFlight { lane: Option<String> },
    /// Claimed by another machine of the fleet, its lease live until
    /// `until`.
    Claimed { machine: String, until: String },
    /// Tried by another machine of the fleet between the take-in the
    /// ranking is from and this machine's claim on it.
    Tried,
}

/// One idea's row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub idea: String,
    pub statement: String,
    pub family: String,
    /// Tries of imported nights among its family's (in `scores`).
    #[serde(default)]
    pub imported: u64,
    pub scores: Score,
    /// Its chance of being picked (0 when left out, or not drawn from).
    pub probability: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_out: Option<LeftOut>,
}

/// The rows of `offers` (open ideas, oldest first) in the order to try
/// them: lowest G first (the older on ties), the left-out ones last.
/// `flying` are ideas in flight elsewhere, with their lane, also listed
/// (left out). `imported` are the imported nights' tries by the family
/// the host gave them ([`super::imported::ImportedTries::by_family`]):
/// counted with the segment's, and their discards at the same parent
/// guarded against as its own.
pub fn rows(
    fold: &Fold,
    offers: &[Offer<'_>],
    flying: &[(Offer<'_>, Option<String>)],
    imported: &Map<String, Tally>,
    prefs: &Preferences,
) -> Vec<Row> {
    let parent = fold.next_parent().unwrap_or("");
    let candidates: Vec<Candidate<'_>> = offers
        .iter()
        .map(|o| Candidate {
            statement: o.statement,
            parent,
            diff: None,
            retry: o.retry,
        })
        .collect();
    let known = discards_at(fold, parent);
    let discarded: Vec<Discarded<'_>> = known
        .iter()
        .map(|(d, _)| Discarded {
            statement: &d.statement,
            parent,
            diff: None,
        })
        .collect();
    let same = if parent.is_empty() {
        vec![None; offers.len()]
    } else {
        repeats(&candidates, &discarded)
    };
    let all: Vec<&Offer<'_>> = offers.iter().chain(flying.iter().map(|(o, _)| o)).collect();
    let families: Vec<&str> = all.iter().map(|o| o.family).collect();
    let record = merged(&fold.record, imported);
    let (scores, order) = rank(&record, &families, prefs);
    let mut out: Vec<Row> = order
        .into_iter()
        .map(|i| {
            let o = all[i];
            let left_out = if i < offers.len() {
                same[i].map(|r| {
                    let (d, imported) = known[r.discard];
                    LeftOut::Repeat {
                        run_id: d.run_id.clone(),
                        statement: d.statement.clone(),
                        same: r.same,
                        parent: parent.to_string(),
                        imported,
                    }
                })
            } else {
                Some(LeftOut::InFlight {
                    lane: flying[i - offers.len()].1.clone(),
                })
            };
            Row {
                idea: o.id.to_string(),
                statement: o.statement.to_string(),
                family: o.family.to_string(),
                imported: imported
                    .get(scores[i].family.as_str())
                    .map_or(0, |t| t.tries),
                scores: scores[i].clone(),
                probability: 0.0,
                left_out,
            }
        })
        .collect();
    out.sort_by_key(|r| r.left_out.is_some()); // stable: the order holds
    out
}

/// The discards known at `parent`: the current segment's (all measured
/// against it), then the imported nights' measured against the same
/// commit; each marked whether imported.
fn discards_at<'f>(fold: &'f Fold, parent: &str) -> Vec<(&'f Discard, bool)> {
    if parent.is_empty() {
        return Vec::new();
    }
    let own = fold
        .segment
        .is_some()
        .then_some(&fold.discards)
        .into_iter()
        .flatten()
        .map(|d| (d, false));
    let night = fold
        .imported
        .discards
        .iter()
        .filter(|d| d.parent == parent)
        .map(|d| (&d.discard, true));
    own.chain(night).collect()
}

/// Pick one of the rows not left out and set their probabilities: the
/// first when `greedy`, else a draw at `u` (in [0, 1)) from
/// `P ∝ exp(−β·G)`. `None` when every row is left out.
pub fn choose(
    rows: &mut [Row],
    precision: f64,
    temperature: f64,
    greedy: bool,
    u: f64,
) -> Result<Option<usize>, String> {
    let open: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].left_out.is_none())
        .collect();
    if open.is_empty() {
        return Ok(None);
    }
    let gs: Vec<f64> = open.iter().map(|&i| rows[i].scores.g).collect();
    let probs = selection_probabilities(&gs, precision.clamp(0.0, 1.0), temperature)?;
    for (k, &i) in open.iter().enumerate() {
        rows[i].probability = probs[k];
    }
    let k = if greedy { 0 } else { sample_index(&probs, u)? };
    Ok(Some(open[k]))
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Record, Try};
    use super::*;

    fn offer<'a>(id: &'a str, statement: &'a str, family: &'a str) -> Offer<'a> {
        Offer {
            id,
            statement,
            family,
            retry: false,
        }
    }

    fn fold() -> Fold {
        let t = |family, outcome| Try {
            family,
            outcome,
            gain: Some(1.0),
            runs: 1,
        };
        let mut tries = vec![t("batch", Outcome::Kept), t("batch", Outcome::Kept)];
        tries.extend((0..2).map(|_| t("batch", Outcome::Discarded)));
        tries.extend((0..4).map(|_| t("init", Outcome::Discarded)));
        Fold {
            record: Record::of(tries),
            segment: Some("s".into()),
            parent: Some("k1".into()),
            discards: [Discard {
                run_id: "r9".into(),
                statement: "zero-init the output layer".into(),
                idea: None,
            }]
            .into(),
            ..Fold::default()
        }
    }

    #[test]
    fn ranks_by_family_and_leaves_out_repeats_and_flying() {
        let offers = [
            offer("i-1", "orthogonal init", "init"),
            offer("i-2", "batch 64", "batch"),
            offer("i-3", "zero-init the output layer", "init"),
        ];
        let flying = [(offer("i-4", "batch 128", "batch"), Some("gpu1".into()))];
        let mut rows = rows(
            &fold(),
            &offers,
            &flying,
            &Map::default(),
            &Preferences::default(),
        );
        let ids: Vec<&str> = rows.iter().map(|r| r.idea.as_str()).collect();
        assert_eq!(ids, ["i-2", "i-1", "i-4", "i-3"]);
        assert!(matches!(
            &rows[3].left_out,
            Some(LeftOut::Repeat { run_id, .. }) if run_id == "r9"
        ));
        assert_eq!(
            rows[2].left_out,
            Some(LeftOut::InFlight {
                lane: Some("gpu1".into())
            })
        );
        let pick = choose(&mut rows, 0.5, 0.02, true, 0.5).unwrap();
        assert_eq!(pick, Some(0));
        assert!(rows[0].probability > rows[1].probability);
        assert_eq!(rows[2].probability, 0.0);
    }

    #[test]
    fn nothing_left_is_none() {
        let offers = [offer("i-3", "zero-init the output layer", "init")];
        let mut rows = rows(
            &fold(),
            &offers,
            &[],
            &Map::default(),
            &Preferences::default(),
        );
        assert_eq!(choose(&mut rows, 0.5, 0.02, false, 0.1), Ok(None));
        let retry = Offer {
            retry: true,
            ..offers[0]
        };
        let mut rows = super::rows(
            &fold(),
            &[retry],
            &[],
            &Map::default(),
            &Preferences::default(),
        );
        assert_eq!(choose(&mut rows, 0.5, 0.02, false, 0.1), Ok(Some(0)));
    }
}
