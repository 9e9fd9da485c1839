//! The findings ecology: what a loop has learned, kept healthy by one
//! deterministic pass (reinforcement, decay, contradiction audit, mutation,
//! resolution, a safety check) and ranked for the next proposal.
//!
//! Adapted from the belief-ecology design (ABES): its constants are the
//! `pub const`s of this module and of [`maintain`] and [`rank`]. Everything
//! here is pure: the store comes in as values, the time as a timestamp, and
//! what changed comes back as values.
//!
//! Similarity is lexical ([`text`], [`index`]): TF-IDF cosine over the
//! store's own vocabulary, behind [`index::Index::similarity`], so a better
//! measure can replace it without touching the rules.

pub mod add;
pub mod index;
pub mod ingest;
pub mod maintain;
pub mod rank;
pub mod text;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Creation dedup: a new finding at least this similar to a stored one is
/// the same finding (the stored one is reinforced instead).
pub const DEDUP_SIMILARITY: f64 = 0.95;
/// Reinforcement: a finding more similar than this to new evidence gains
/// [`REINFORCE_STEP`] confidence.
pub const REINFORCE_SIMILARITY: f64 = 0.7;
/// Confidence gained by one reinforcement.
pub const REINFORCE_STEP: f64 = 0.1;
/// Reinforcement never lifts confidence above this.
pub const REINFORCE_CAP: f64 = 0.95;
/// A finding is reinforced at most once per this many seconds.
pub const REINFORCE_COOLDOWN_SECS: i64 = 60;
/// Longest content accepted, in characters.
pub const MAX_CONTENT_CHARS: usize = 2000;
/// Past this many active findings, adding one warns.
pub const MAX_ACTIVE: usize = 10_000;
/// Past this many findings in one cluster, a pass warns.
pub const MAX_CLUSTER: usize = 500;
/// Deepest mutation lineage: a finding this deep is never mutated again.
pub const MAX_DEPTH: u32 = 5;
/// Confidence of a finding added without `--confidence`.
pub const DEFAULT_CONFIDENCE: f64 = 0.7;
/// Most events kept in a finding's history (oldest dropped first).
pub const MAX_HISTORY: usize = 20;

/// What a finding is: the round evidence kinds, in their selection order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Takeaway,
    Decision,
    Insight,
    Hypothesis,
    Todo,
    Question,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Takeaway,
        Kind::Decision,
        Kind::Insight,
        Kind::Hypothesis,
        Kind::Todo,
        Kind::Question,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Takeaway => "takeaway",
            Kind::Decision => "decision",
            Kind::Insight => "insight",
            Kind::Hypothesis => "hypothesis",
            Kind::Todo => "todo",
            Kind::Question => "question",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a finding stands in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Decaying,
    Deprecated,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Decaying => "decaying",
            Status::Deprecated => "deprecated",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something that happened to a finding, for `arx finding explain`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub at: String,
    /// reinforced, decayed, contradicted, mutated, deprecated, revived, resolved.
    pub what: String,
    /// The other finding involved, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub detail: String,
}

/// One finding of the store (a line of `.arx/findings.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub id: String,
    pub kind: Kind,
    pub content: String,
    /// A run id (`run:<id>`), a round, a file, a person.
    #[serde(default)]
    pub source: Option<String>,
    pub created_at: String,
    pub confidence: f64,
    pub status: Status,
    /// How often it was reinforced by new evidence.
    #[serde(default)]
    pub use_count: u64,
    pub last_reinforced: String,
    /// The strongest contradiction score against another finding.
    #[serde(default)]
    pub tension: f64,
    /// The finding it was mutated from.
    #[serde(default)]
    pub parent_id: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Mutation depth (0 for a finding added directly).
    #[serde(default)]
    pub depth: u32,
    /// Last change of this record: the newer version wins a merge.
    pub updated_at: String,
    /// Decay is applied up to this time.
    #[serde(default)]
    pub decayed_at: Option<String>,
    /// Added since the last pass: its reinforcement of similar findings is
    /// still to be applied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Event>,
}

/// The id of a finding: `f` and the first 12 hex digits of the SHA-256 of
/// its kind and its content (whitespace collapsed, lowercased), so the same
/// finding added on two machines has one id.
pub fn finding_id(kind: Kind, content: &str) -> String {
    let norm = content
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let mut h = Sha256::new();
    h.update(kind.as_str().as_bytes());
    h.update([0u8]);
    h.update(norm.as_bytes());
    let hex: String = h.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("f{hex}")
}

/// Why new content is refused.
pub fn check_content(content: &str) -> Result<(), String> {
    if content.trim().is_empty() {
        return Err("the finding is blank".into());
    }
    let n = content.chars().count();
    if n > MAX_CONTENT_CHARS {
        return Err(format!(
            "the finding is {n} characters long; at most {MAX_CONTENT_CHARS} are kept"
        ));
    }
    Ok(())
}

impl Finding {
    /// A new active finding at `now`.
    pub fn new(
        kind: Kind,
        content: &str,
        source: Option<String>,
        confidence: f64,
        now: &str,
    ) -> Self {
        let content = content.trim().to_string();
        Finding {
            id: finding_id(kind, &content),
            kind,
            content,
            source,
            created_at: now.to_string(),
            confidence: confidence.clamp(0.0, 1.0),
            status: Status::Active,
            use_count: 0,
            last_reinforced: now.to_string(),
            tension: 0.0,
            parent_id: None,
            tags: Vec::new(),
            depth: 0,
            updated_at: now.to_string(),
            decayed_at: Some(now.to_string()),
            pending: true,
            history: Vec::new(),
        }
    }

    /// Not deprecated.
    pub fn is_live(&self) -> bool {
        self.status != Status::Deprecated
    }

    pub fn note(&mut self, at: &str, what: &str, by: Option<&str>, detail: String) {
        self.history.push(Event {
            at: at.to_string(),
            what: what.to_string(),
            by: by.map(str::to_string),
            detail,
        });
        if self.history.len() > MAX_HISTORY {
            let extra = self.history.len() - MAX_HISTORY;
            self.history.drain(..extra);
        }
    }

    /// Reinforce by new evidence at `now`: the decay owed since the last
    /// pass applied, then + [`REINFORCE_STEP`] capped at
    /// [`REINFORCE_CAP`], unless reinforced less than
    /// [`REINFORCE_COOLDOWN_SECS`] ago. A decaying or deprecated finding
    /// lifted back to [`maintain::DECAYING_BELOW`] or above is active again.
    /// Returns whether it was reinforced.
    pub fn reinforce(&mut self, now: Timestamp, by: Option<&str>, why: &str) -> bool {
        let last = parse_time(&self.last_reinforced);
        if let Some(last) = last {
            let since = now.as_second() - last.as_second();
            if (0..REINFORCE_COOLDOWN_SECS).contains(&since) && self.use_count > 0 {
                return false;
            }
        }
        let at = now.to_string();
        // The decay owed since the last pass comes first.
        let since = self
            .decayed_at
            .as_deref()
            .and_then(parse_time)
            .map_or(0, |t| now.as_second() - t.as_second());
        if since > 0 {
            self.confidence *= maintain::DECAY_RATE.powf(since as f64 / 3600.0);
        }
        let before = self.confidence;
        self.confidence = (self.confidence + REINFORCE_STEP)
            .min(REINFORCE_CAP)
            .max(before);
        self.use_count += 1;
        self.last_reinforced = at.clone();
        self.decayed_at = Some(at.clone());
        self.updated_at = at.clone();
        let mut detail = format!("confidence {before:.3} -> {:.3} ({why})", self.confidence);
        if self.status != Status::Active && self.confidence >= maintain::DECAYING_BELOW {
            detail.push_str(&format!("; {} -> active", self.status));
            self.status = Status::Active;
        }
        self.note(&at, "reinforced", by, detail);
        true
    }
}

/// An RFC 3339 time, `None` when unreadable.
pub fn parse_time(text: &str) -> Option<Timestamp> {
    text.parse::<Timestamp>().ok()
}

/// Fold records into one finding per id (the union of several stores, or
/// a file a line-union git merge joined): the version with the later
/// `updated_at` wins (on a tie, the later line). First-seen order is kept.
pub fn fold(records: impl IntoIterator<Item = Finding>) -> Vec<Finding> {
    let mut order: Vec<Finding> = Vec::new();
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for r in records {
        match at.get(&r.id) {
            Some(&i) => {
                if newer(&r, &order[i]) {
                    order[i] = r;
                }
            }
            None => {
                at.insert(r.id.clone(), order.len());
                order.push(r);
            }
        }
    }
    order
}

fn newer(a: &Finding, b: &Finding) -> bool {
    match (parse_time(&a.updated_at), parse_time(&b.updated_at)) {
        (Some(x), Some(y)) => x >= y,
        _ => a.updated_at >= b.updated_at,
    }
}

/// The finding `id` names: the exact id, or a unique prefix.
pub fn lookup<'a>(findings: &'a [Finding], id: &str) -> Result<&'a Finding, String> {
    if let Some(f) = findings.iter().find(|f| f.id == id) {
        return Ok(f);
    }
    let matches: Vec<&Finding> = findings.iter().filter(|f| f.id.starts_with(id)).collect();
    match matches.as_slice() {
        [] => Err(format!("no finding {id:?}")),
        [one] if id.len() >= 3 => Ok(one),
        [_] => Err(format!(
            "finding id {id:?} is too short: give at least 3 characters"
        )),
        many => Err(format!(
            "finding id prefix {id:?} matches {} findings",
            many.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: &str = "2026-01-01T00:00:00Z";

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn constants_are_the_documented_ones() {
        assert_eq!(DEDUP_SIMILARITY, 0.95);
        assert_eq!(REINFORCE_SIMILARITY, 0.7);
        assert_eq!(MAX_CONTENT_CHARS, 2000);
        assert_eq!(MAX_ACTIVE, 10_000);
        assert_eq!(MAX_CLUSTER, 500);
        assert_eq!(MAX_DEPTH, 5);
    }

    #[test]
    fn reinforcement_adds_a_tenth_and_caps_at_095() {
        let mut f = Finding::new(Kind::Takeaway, "x helps", None, 0.5, T0);
        assert!(f.reinforce(ts(T0), None, "t"));
        assert!((f.confidence - 0.6).abs() < 1e-12);
        f.confidence = 0.9;
        f.last_reinforced = "2025-12-31T00:00:00Z".into();
        assert!(f.reinforce(ts(T0), None, "t"));
        assert!((f.confidence - 0.95).abs() < 1e-12, "{}", f.confidence);
        f.last_reinforced = "2025-12-31T00:00:00Z".into();
        assert!(f.reinforce(ts(T0), None, "t"));
        assert!((f.confidence - 0.95).abs() < 1e-12);
        assert_eq!(f.use_count, 3);
    }

    #[test]
    fn reinforcement_applies_the_decay_owed_first() {
        let mut f = Finding::new(Kind::Takeaway, "x helps", None, 0.5, T0);
        assert!(f.reinforce(ts("2026-01-01T10:00:00Z"), None, "t"));
        let expect = 0.5 * 0.995f64.powi(10) + 0.1;
        assert!((f.confidence - expect).abs() < 1e-12, "{}", f.confidence);
        assert_eq!(f.decayed_at.as_deref(), Some("2026-01-01T10:00:00Z"));
    }

    #[test]
    fn reinforcement_cooldown_is_60_seconds() {
        let mut f = Finding::new(Kind::Takeaway, "x helps", None, 0.5, T0);
        assert!(f.reinforce(ts(T0), None, "t"));
        assert!(!f.reinforce(ts("2026-01-01T00:00:59Z"), None, "t"));
        assert!((f.confidence - 0.6).abs() < 1e-12);
        assert!(f.reinforce(ts("2026-01-01T00:01:00Z"), None, "t"));
        let expect = 0.6 * 0.995f64.powf(1.0 / 60.0) + 0.1;
        assert!((f.confidence - expect).abs() < 1e-12);
    }

    #[test]
    fn content_over_2000_characters_is_refused() {
        assert!(check_content(&"é".repeat(2000)).is_ok());
        assert!(check_content(&"é".repeat(2001)).is_err());
        assert!(check_content("  ").is_err());
    }

    #[test]
    fn fold_keeps_the_newer_version() {
        let a = Finding::new(Kind::Insight, "a", None, 0.5, T0);
        let mut b = a.clone();
        b.confidence = 0.9;
        b.updated_at = "2026-01-02T00:00:00Z".into();
        let out = fold(vec![b.clone(), a.clone()]);
        assert_eq!(out, vec![b.clone()]);
        let out = fold(vec![a, b.clone()]);
        assert_eq!(out, vec![b]);
    }

    #[test]
    fn ids_ignore_case_and_spacing() {
        assert_eq!(
            finding_id(Kind::Insight, "Batch  64 helps"),
            finding_id(Kind::Insight, "batch 64 helps")
        );
        assert_ne!(
            finding_id(Kind::Insight, "batch 64 helps"),
            finding_id(Kind::Todo, "batch 64 helps")
        );
    }
}
