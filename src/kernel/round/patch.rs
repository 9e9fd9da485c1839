//! The patch an agent proposes (`patch.json`) and its dedupe hash.

use serde::{Deserialize, Serialize};

use crate::kernel::contract::is_py_whitespace;
use crate::kernel::names::str_enum;
use crate::kernel::promote::{collapse_whitespace, short_sha256};

str_enum! {
    /// What kind of file a patch entry changes.
    PatchKind, "kind" {
        /// Prose: prompts, instructions, notes.
        Markdown => "markdown",
        /// A JSON configuration file (its content must parse as JSON).
        Config => "config",
        /// Source code.
        Code => "code",
    }
}

str_enum! {
    /// What a patch entry does to its file.
    PatchOp, "op" {
        /// Replace an existing file's content.
        Modify => "modify",
        /// Write a new file.
        Create => "create",
        /// Remove a file (the entry carries no content).
        Delete => "delete",
    }
}

/// One file change in a round patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatchEntry {
    /// Repository-relative POSIX path.
    pub path: String,
    /// What kind of file this is.
    pub kind: PatchKind,
    /// What to do to it.
    pub op: PatchOp,
    /// The full post-image text; `None` for a delete.
    pub content: Option<String>,
    /// Why the change is made.
    pub rationale: String,
    /// The findings this change rests on.
    #[serde(default)]
    pub evidence_refs: Vec<String>,
}

/// A proposed round: the agent's `patch.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundPatch {
    /// One line saying what the round changes.
    pub summary: String,
    /// The agent's confidence, in [0, 1].
    pub confidence: f64,
    /// The file changes.
    pub entries: Vec<PatchEntry>,
    /// The round this patch belongs to (added by the host to its saved copy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_id: Option<String>,
}

/// The dedupe hash of a patch: first 16 hex digits of SHA-256 over the
/// entries rendered `"op kind path"` and lower-cased, sorted, followed by the
/// stripped, lower-cased summary, joined with NUL, with every whitespace run
/// collapsed to one space. Content, rationale, round id and confidence do not
/// count, so a re-proposal of the same change in other words is caught.
pub fn patch_hash(patch: &RoundPatch) -> String {
    let mut parts: Vec<String> = patch
        .entries
        .iter()
        .map(|e| format!("{} {} {}", e.op, e.kind, e.path).to_lowercase())
        .collect();
    parts.sort();
    parts.push(patch.summary.trim_matches(is_py_whitespace).to_lowercase());
    let joined = parts.join("\0");
    short_sha256(&collapse_whitespace(&joined))
}
