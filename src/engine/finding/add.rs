//! Adding findings to the store: creation dedup (a finding at least
//! [`DEDUP_SIMILARITY`] similar to a stored one, and agreeing with it, is
//! that finding, reinforced), and the first contradiction check (a new
//! finding that contradicts a stored one raises the tension of both).

use jiff::Timestamp;
use serde::Serialize;

use super::index::{similarity_to, Index};
use super::maintain::AUDIT_MIN_SIMILARITY;
use super::text::{negation_signal, polarity};
use super::{Finding, DEDUP_SIMILARITY};

/// What adding one finding did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Added {
    /// Stored as a new finding at this position.
    New { index: usize },
    /// The same finding as the one at `index` (similarity `similarity`):
    /// reinforced (or not, within its cooldown).
    Same {
        index: usize,
        similarity: f64,
        reinforced: bool,
    },
}

impl Added {
    pub fn index(&self) -> usize {
        match self {
            Added::New { index } | Added::Same { index, .. } => *index,
        }
    }
}

/// A contradiction found when adding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contradiction {
    pub new: usize,
    pub old: usize,
    pub score: f64,
}

/// Add `news` to `store` in order at `now`. Each is compared with the
/// store and with the ones added before it.
pub fn add_all(
    store: &mut Vec<Finding>,
    news: Vec<Finding>,
    now: Timestamp,
) -> (Vec<Added>, Vec<Contradiction>) {
    let at = now.to_string();
    let base = store.len();
    let ix = Index::build(
        store
            .iter()
            .map(|f| f.content.as_str())
            .chain(news.iter().map(|f| f.content.as_str())),
    );
    let mut scratch = vec![0.0f32; ix.len()];
    let mut hits = Vec::new();
    // Where each candidate document ended up in the store (None: not yet).
    let mut placed: Vec<Option<usize>> = (0..base).map(Some).collect();
    placed.resize(ix.len(), None);
    let mut outcomes = Vec::new();
    let mut contradictions = Vec::new();
    for (k, new) in news.into_iter().enumerate() {
        let d = base + k;
        hits.clear();
        let v = ix.doc_vector(d).clone();
        ix.query_into(&v, AUDIT_MIN_SIMILARITY, &mut scratch, &mut hits);
        let (mut same, against) = same_and_against(store, &ix, &placed, d, &hits, &new.content);
        if same.is_none() {
            if let Some(pos) = store.iter().position(|f| f.id == new.id) {
                same = Some((pos, similarity_to(&ix, &v, d)));
            }
        }
        if let Some((pos, sim)) = same {
            let reinforced =
                store[pos].reinforce(now, None, &format!("added again (similarity {sim:.2})"));
            placed[d] = Some(pos);
            outcomes.push(Added::Same {
                index: pos,
                similarity: sim,
                reinforced,
            });
            continue;
        }
        let pos = store.len();
        let mut new = new;
        for &(old, score) in &against {
            if score > store[old].tension {
                let before = store[old].tension;
                store[old].tension = score;
                store[old].updated_at = at.clone();
                let id = new.id.clone();
                store[old].note(
                    &at,
                    "contradicted",
                    Some(&id),
                    format!("tension {before:.2} -> {score:.2}"),
                );
            }
            if score > new.tension {
                new.tension = score;
            }
            contradictions.push(Contradiction {
                new: pos,
                old,
                score,
            });
        }
        store.push(new);
        placed[d] = Some(pos);
        outcomes.push(Added::New { index: pos });
    }
    (outcomes, contradictions)
}

/// A finding near another: its store position and similarity (or
/// contradiction score).
type Near = (usize, f64);

/// Among the placed documents near document `d` (`hits`), the nearest
/// that says the same (its store position and similarity), and the live
/// ones it contradicts with their scores.
fn same_and_against(
    store: &[Finding],
    ix: &Index,
    placed: &[Option<usize>],
    d: usize,
    hits: &[(usize, f64)],
    content: &str,
) -> (Option<Near>, Vec<Near>) {
    let pol = polarity(content);
    let mut same: Option<Near> = None;
    let mut against = Vec::new();
    for &(e, sim) in hits {
        let Some(pos) = placed[e] else { continue };
        if e == d {
            continue;
        }
        let signal = negation_signal(&pol, ix.polarity(e));
        if signal == 0.0 && sim >= DEDUP_SIMILARITY {
            if same.is_none_or(|(_, s)| sim > s) {
                same = Some((pos, sim));
            }
        } else if signal > 0.0 && store[pos].is_live() && same_change(content, &store[pos].content)
        {
            against.push((pos, sim * signal));
        }
    }
    (same, against)
}

/// The change a try's finding is about: its leading `quoted` subject
/// (`` `widen the layer` improved loss by 0.1 ``).
fn change_of(content: &str) -> Option<&str> {
    let rest = content.trim_start().strip_prefix('`')?;
    rest.split_once('`').map(|(subject, _)| subject.trim())
}

/// Two findings may contradict each other only about the same change: a
/// try's finding (its quoted subject) never contradicts another try's of
/// a different change, however alike their words.
fn same_change(a: &str, b: &str) -> bool {
    match (change_of(a), change_of(b)) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, DEDUP_SIMILARITY};
    use super::*;

    const T0: &str = "2026-01-01T00:00:00Z";

    fn f(c: &str) -> Finding {
        Finding::new(Kind::Takeaway, c, None, 0.5, T0)
    }

    #[test]
    fn tries_of_different_changes_never_contradict() {
        let now: Timestamp = T0.parse().unwrap();
        let kept = "`widen hidden layer 64->128` improved val_loss by 0.05";
        let against = |other: &str| {
            let mut store = Vec::new();
            add_all(&mut store, vec![f(kept)], now);
            add_all(&mut store, vec![f(other)], now).1.len()
        };
        assert_eq!(
            against("`widen hidden layer 64->256` did not improve val_loss (+0.01, within noise)"),
            0,
            "another change: no contradiction"
        );
        assert_eq!(
            against("`widen hidden layer 64->128` did not improve val_loss (+0.01, within noise)"),
            1,
            "the same change, the other way: a contradiction"
        );
        assert_eq!(
            change_of("`a b` improved x"),
            Some("a b"),
            "the quoted subject"
        );
        assert!(same_change("`x` improved", "`X` did not improve"));
        assert!(!same_change("`x` improved", "`y` did not improve"));
        assert!(same_change("free text", "`y` did not improve"));
    }

    #[test]
    fn near_duplicates_are_one_finding_reinforced() {
        assert_eq!(DEDUP_SIMILARITY, 0.95);
        let now: Timestamp = "2026-01-01T01:00:00Z".parse().unwrap();
        let mut store = vec![
            f("Batch size 64 improves accuracy."),
            f("the eval leaks labels"),
        ];
        let (out, _) = add_all(
            &mut store,
            vec![f("batch size 64 improves the accuracy")],
            now,
        );
        assert!(
            matches!(
                out[0],
                Added::Same {
                    index: 0,
                    reinforced: true,
                    ..
                }
            ),
            "{out:?}"
        );
        assert_eq!(store.len(), 2);
        assert!((store[0].confidence - (0.5 * 0.995 + 0.1)).abs() < 1e-9);
    }

    #[test]
    fn below_095_is_a_new_finding() {
        let now: Timestamp = T0.parse().unwrap();
        let mut store = vec![
            f("batch size 64 improves accuracy"),
            f("batch size 32 is slow"),
            f("accuracy of the eval set"),
        ];
        let (out, _) = add_all(
            &mut store,
            vec![f("batch size 64 improves accuracy on cifar")],
            now,
        );
        assert!(matches!(out[0], Added::New { index: 3 }), "{out:?}");
    }

    #[test]
    fn a_contradiction_is_not_a_duplicate_and_raises_tension() {
        let now: Timestamp = T0.parse().unwrap();
        let mut store = vec![
            f("doubling the LR helps val_bpb"),
            f("the eval leaks labels"),
        ];
        let (out, c) = add_all(
            &mut store,
            vec![f("doubling the LR does not help val_bpb")],
            now,
        );
        assert!(matches!(out[0], Added::New { index: 2 }));
        assert_eq!(c.len(), 1);
        assert!(store[0].tension > 0.9);
        assert!(store[2].tension > 0.9);
    }
}
