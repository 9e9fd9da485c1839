//! Patches for the unit tests of the round module.

use super::{PatchEntry, PatchKind, PatchOp, RoundPatch};

pub fn entry(path: &str, kind: PatchKind, op: PatchOp, content: Option<&str>) -> PatchEntry {
    PatchEntry {
        path: path.to_string(),
        kind,
        op,
        content: content.map(str::to_string),
        rationale: "r".to_string(),
        evidence_refs: Vec::new(),
    }
}

pub fn patch(entries: Vec<PatchEntry>) -> RoundPatch {
    RoundPatch {
        summary: "s".to_string(),
        confidence: 0.9,
        entries,
        round_id: None,
    }
}

pub fn md(path: &str) -> PatchEntry {
    entry(path, PatchKind::Markdown, PatchOp::Modify, Some("x"))
}
