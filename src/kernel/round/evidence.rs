//! The evidence for a round: findings ranked by kind and age.

use serde::{Deserialize, Serialize};

/// One finding offered as evidence for a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// takeaway, decision, insight, hypothesis, todo or question; any other
    /// kind is accepted and ranks last.
    pub kind: String,
    /// The finding's text.
    pub content: String,
    /// Where it came from.
    pub source: String,
    /// When it was recorded. Compared as text, so hosts should write one
    /// format (RFC 3339 UTC) for the order to be chronological.
    #[serde(default)]
    pub created_at: String,
}

/// Rank of a finding kind: takeaway, decision, insight, hypothesis, todo,
/// question; any other kind after all of them.
pub fn finding_priority(kind: &str) -> u8 {
    match kind {
        "takeaway" => 0,
        "decision" => 1,
        "insight" => 2,
        "hypothesis" => 3,
        "todo" => 4,
        "question" => 5,
        _ => u8::MAX,
    }
}

/// The evidence for a round: findings by kind priority, newest first within
/// a kind (`created_at` compared as text; ties keep their input order),
/// capped at `max_items`. Fewer than `min_items` findings give nothing: too
/// little evidence to justify a round.
pub fn select_evidence(findings: &[Finding], min_items: usize, max_items: usize) -> Vec<Finding> {
    if findings.len() < min_items {
        return Vec::new();
    }
    let mut pool: Vec<&Finding> = findings.iter().collect();
    // Stable sorts: newest first, then by priority keeping that order.
    pool.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    pool.sort_by_key(|f| finding_priority(&f.kind));
    pool.into_iter().take(max_items).cloned().collect()
}
