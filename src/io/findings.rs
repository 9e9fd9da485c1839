//! The findings store, `.arx/findings.jsonl`: one finding per line, read
//! and written through [`Registry`] (locked, no symbolic link followed,
//! torn last line tolerated, whole-file replacement atomic).
//!
//! A finding changes over its life (reinforcement, decay, tension), so the
//! file is rewritten, not appended to. Several versions of one finding may
//! still meet in one file (a `merge=union` git merge, `arx finding merge`):
//! readers fold them by id, the latest `updated_at` winning
//! ([`crate::engine::finding::fold`]), and the next write compacts them.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::state::{Loaded, Registry};
use super::Warn;
use crate::engine::finding::{fold, Finding, Kind, Status};

/// File name of the findings store inside the state directory.
pub const FINDINGS_FILE: &str = "findings.jsonl";

/// The findings registry of a state directory.
pub fn registry(dir: &Path, warn: Warn) -> Registry<Finding> {
    Registry::new(dir.join(FINDINGS_FILE), warn)
}

/// The findings of a state directory, one per id (an absent store is empty).
pub fn load(dir: &Path, warn: Warn) -> Result<Vec<Finding>> {
    Ok(fold(registry(dir, warn).read()?))
}

/// A finding as read for ranking: everything but its history, which is
/// skipped unparsed (a store that went through many passes is mostly
/// history).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Light {
    id: String,
    kind: Kind,
    content: String,
    #[serde(default)]
    source: Option<String>,
    created_at: String,
    confidence: f64,
    status: Status,
    #[serde(default)]
    use_count: u64,
    last_reinforced: String,
    #[serde(default)]
    tension: f64,
    #[serde(default)]
    parent_id: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    depth: u32,
    updated_at: String,
    #[serde(default)]
    decayed_at: Option<String>,
    #[serde(default)]
    pending: bool,
}

/// The findings of a state directory without their histories (for `rank`
/// and round evidence: faster to read).
pub fn load_light(dir: &Path, warn: Warn) -> Result<Vec<Finding>> {
    let records = Registry::<Light>::new(dir.join(FINDINGS_FILE), warn).read()?;
    Ok(fold(records.into_iter().map(|l| Finding {
        id: l.id,
        kind: l.kind,
        content: l.content,
        source: l.source,
        created_at: l.created_at,
        confidence: l.confidence,
        status: l.status,
        use_count: l.use_count,
        last_reinforced: l.last_reinforced,
        tension: l.tension,
        parent_id: l.parent_id,
        tags: l.tags,
        depth: l.depth,
        updated_at: l.updated_at,
        decayed_at: l.decayed_at,
        pending: l.pending,
        history: Vec::new(),
    })))
}

/// Read, change and write the store under one exclusive lock: `update`
/// gets the folded findings and returns the new store (or `None` to leave
/// the file as it is) and a value passed back.
pub fn update<R>(
    dir: &Path,
    warn: Warn,
    update: impl FnOnce(Vec<Finding>) -> Result<(Option<Vec<Finding>>, R)>,
) -> Result<R> {
    let mut result: Option<Result<R>> = None;
    registry(dir, warn)
        .within(dir)
        .rewrite(
            |loaded: &Loaded<Finding>| match update(fold(loaded.records.iter().cloned())) {
                Ok((store, r)) => {
                    result = Some(Ok(r));
                    store
                }
                Err(e) => {
                    result = Some(Err(e));
                    None
                }
            },
        )?;
    result.expect("the update ran")
}
