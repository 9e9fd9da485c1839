//! What an agent should read before its next proposal: live findings ranked
//! by relevance to a context, confidence, recency and (against) tension.

use jiff::Timestamp;
use serde::Serialize;

use super::index::Index;
use super::{parse_time, Finding};

/// Weight of relevance (similarity to the context).
pub const W_RELEVANCE: f64 = 0.4;
/// Weight of confidence.
pub const W_CONFIDENCE: f64 = 0.3;
/// Weight of recency.
pub const W_RECENCY: f64 = 0.2;
/// Weight of tension (subtracted).
pub const W_TENSION: f64 = 0.1;
/// Findings less relevant than this are dropped.
pub const MIN_RELEVANCE: f64 = 0.3;
/// Recency falls to 0 this many hours after the last reinforcement.
pub const RECENCY_HOURS: f64 = 168.0;

/// One ranked finding, with the parts of its score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranked {
    /// Position in the store.
    #[serde(skip)]
    pub index: usize,
    pub score: f64,
    pub relevance: f64,
    pub confidence: f64,
    pub recency: f64,
    pub tension: f64,
}

/// Recency at `now`: `1 - hours since last reinforced / 168`, within [0, 1].
pub fn recency(f: &Finding, now: Timestamp) -> f64 {
    let hours = parse_time(&f.last_reinforced).map_or(RECENCY_HOURS, |t| {
        (now.as_second() - t.as_second()) as f64 / 3600.0
    });
    (1.0 - hours.max(0.0) / RECENCY_HOURS).clamp(0.0, 1.0)
}

/// The score of a finding of `relevance`.
pub fn score(f: &Finding, relevance: f64, now: Timestamp) -> Ranked {
    let r = recency(f, now);
    Ranked {
        index: 0,
        score: W_RELEVANCE * relevance + W_CONFIDENCE * f.confidence + W_RECENCY * r
            - W_TENSION * f.tension,
        relevance,
        confidence: f.confidence,
        recency: r,
        tension: f.tension,
    }
}

/// Live findings at least [`MIN_RELEVANCE`] relevant to `context`, best
/// first (ties: newer first, then store order), at most `limit`. Only the
/// findings sharing a term with the context are scored (the index's
/// postings).
pub fn rank(
    findings: &[Finding],
    ix: &Index,
    context: &str,
    now: Timestamp,
    limit: usize,
) -> Vec<Ranked> {
    let mut out: Vec<Ranked> = ix
        .query(context, MIN_RELEVANCE)
        .into_iter()
        .filter(|&(d, _)| findings[d].is_live())
        .map(|(d, rel)| Ranked {
            index: d,
            ..score(&findings[d], rel, now)
        })
        .collect();
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| {
                findings[b.index]
                    .created_at
                    .cmp(&findings[a.index].created_at)
            })
            .then(a.index.cmp(&b.index))
    });
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Finding, Kind, Status};
    use super::*;

    const T0: &str = "2026-01-01T00:00:00Z";

    #[test]
    fn weights_are_the_documented_ones() {
        let mut f = Finding::new(Kind::Insight, "x", None, 0.8, T0);
        f.tension = 0.5;
        let now: Timestamp = "2026-01-04T12:00:00Z".parse().unwrap(); // 84 h
        let r = score(&f, 0.6, now);
        assert!((r.recency - 0.5).abs() < 1e-12);
        let expect = 0.4 * 0.6 + 0.3 * 0.8 + 0.2 * 0.5 - 0.1 * 0.5;
        assert!((r.score - expect).abs() < 1e-12, "{}", r.score);
        assert_eq!(
            (W_RELEVANCE, W_CONFIDENCE, W_RECENCY, W_TENSION),
            (0.4, 0.3, 0.2, 0.1)
        );
        let later: Timestamp = "2026-01-08T00:00:00Z".parse().unwrap(); // 168 h
        assert_eq!(recency(&f, later), 0.0);
        assert_eq!(RECENCY_HOURS, 168.0);
    }

    #[test]
    fn irrelevant_and_deprecated_findings_are_dropped() {
        assert_eq!(MIN_RELEVANCE, 0.3);
        let mut fs = vec![
            Finding::new(
                Kind::Insight,
                "batch size 64 improves accuracy",
                None,
                0.8,
                T0,
            ),
            Finding::new(Kind::Insight, "the eval leaks labels", None, 0.8, T0),
            Finding::new(Kind::Insight, "batch size 64 helps accuracy", None, 0.8, T0),
        ];
        fs[2].status = Status::Deprecated;
        let ix = Index::build(fs.iter().map(|f| f.content.as_str()));
        let now: Timestamp = T0.parse().unwrap();
        let got = rank(&fs, &ix, "what batch size for accuracy", now, 10);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].index, 0);
        // Relevance just under the floor drops it.
        let weak = rank(
            &fs,
            &ix,
            "batch size tokenizer dropout warmup optimizer cache eval leaks",
            now,
            10,
        );
        assert!(weak.iter().all(|r| r.relevance >= 0.3));
    }
}
