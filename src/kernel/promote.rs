//! Promotion records: dead ends and knowhow, and the approach hash that
//! identifies an approach whatever its case or spacing.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::contract::is_py_whitespace;
use super::verdict::{should_promote_dead_end, EvidenceLevel, VerdictRecord};

/// First 16 hex digits of SHA-256 of the normalized statement: stripped,
/// lower-cased (full Unicode mapping), whitespace runs collapsed to a space.
pub fn approach_hash(statement: &str) -> String {
    let lowered = statement.trim_matches(is_py_whitespace).to_lowercase();
    short_sha256(&collapse_whitespace(&lowered))
}

/// Every run of (Unicode) whitespace replaced by one space.
pub fn collapse_whitespace(text: &str) -> String {
    let mut normalized = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars() {
        if is_py_whitespace(c) {
            if !in_space {
                normalized.push(' ');
            }
            in_space = true;
        } else {
            normalized.push(c);
            in_space = false;
        }
    }
    normalized
}

/// The first 16 hex digits of the SHA-256 of `text`'s UTF-8 bytes, the
/// short identity the reference gives approaches and patches.
pub fn short_sha256(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// An approach ruled out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeadEndRecord {
    pub approach_hash: String,
    pub statement: String,
    pub reason: String,
    pub iteration: i64,
    pub evidence_level: EvidenceLevel,
    /// When it was recorded (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

/// A positive learning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnowhowRecord {
    pub statement: String,
    pub content: String,
    pub iteration: i64,
    /// When it was recorded (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

/// A dead-end record for a verdict, or `None` when the verdict is not a
/// deterministic refutation (only those may promote).
pub fn build_dead_end_record(
    statement: &str,
    iteration: i64,
    verdict: &VerdictRecord,
    created_at: Option<String>,
) -> Option<DeadEndRecord> {
    should_promote_dead_end(verdict).then(|| DeadEndRecord {
        approach_hash: approach_hash(statement),
        statement: statement.to_string(),
        reason: verdict.detail.clone(),
        iteration,
        evidence_level: verdict.evidence_level,
        created_at,
    })
}

/// Is the statement's approach among the known hashes?
pub fn is_known_dead_end<'a>(statement: &str, mut known: impl Iterator<Item = &'a str>) -> bool {
    let h = approach_hash(statement);
    known.any(|k| k == h)
}
