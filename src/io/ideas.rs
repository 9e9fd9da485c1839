//! The backlog of ideas, `.arx/ideas.jsonl` beside the journal: one
//! [`IdeaLine`] per line, appended under the file's exclusive lock and
//! synced, never rewritten (a torn last line from an interrupted write is
//! trimmed before the next append, as the journal's is). `arx init` marks it
//! `merge=union` for git, so branches and lanes that add ideas at once merge
//! by union; [`crate::kernel::idea::fold`] reads the union.
//!
//! A line that is not a readable [`IdeaLine`] is skipped with a warning and
//! left in the file: nothing is lost, a later arx may read it.

use std::path::Path;

use anyhow::{Context, Result};

use super::state::{Appended, Registry};
use super::Warn;
use crate::kernel::idea::{id_from, IdeaAdded, IdeaLine, InFlight};

/// File name of the backlog inside the state directory.
pub const IDEAS_FILE: &str = "ideas.jsonl";

/// The backlog registry of a state directory.
pub fn registry(state: &Path, warn: Warn) -> Registry<IdeaLine> {
    Registry::new(state.join(IDEAS_FILE), warn).within(state)
}

/// Every readable line of the backlog, in the file's order (an absent file
/// is empty).
pub fn read(state: &Path, warn: Warn) -> Result<Vec<IdeaLine>> {
    registry(state, warn)
        .read()
        .context("cannot read the backlog of ideas")
}

/// Append `line` (synced).
pub fn append(state: &Path, line: &IdeaLine, warn: Warn) -> Result<()> {
    registry(state, warn)
        .append(line)
        .map(drop)
        .context("cannot write the backlog of ideas")
}

/// Append a new idea under a fresh id: `added.id` is replaced by one drawn
/// at random that no line of the file uses (checked under the lock the
/// append holds). Returns the idea as written.
pub fn add(state: &Path, mut added: IdeaAdded, warn: Warn) -> Result<IdeaAdded> {
    let registry = registry(state, warn);
    // A collision with the file's own ids is checked under the lock; one
    // with another branch's is for the fold to tell (2^40 ids).
    for _ in 0..8 {
        added.id = fresh_id();
        let id = added.id.clone();
        let appended = registry
            .append_unless(IdeaLine::Add(added.clone()), |lines| {
                lines.iter().find(|l| l.id() == id).cloned()
            })
            .context("cannot write the backlog of ideas")?;
        if let Appended::Added(_) = appended {
            return Ok(added);
        }
    }
    anyhow::bail!("cannot draw an unused idea id")
}

/// Five random bytes, as an idea id.
pub fn fresh_id() -> String {
    let bytes = *uuid::Uuid::new_v4().as_bytes();
    id_from([bytes[0], bytes[1], bytes[2], bytes[3], bytes[5]])
}

/// The ideas being tried now: the tries whose try lock is held by a live
/// process and names an idea.
pub fn in_flight(state: &Path) -> Vec<InFlight> {
    super::ratchet::running_tries(state)
        .into_iter()
        .filter_map(|h| {
            Some(InFlight {
                idea: h.idea?,
                lane: h.lane,
                since: h.started_at,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: &str) {}

    fn added(statement: &str) -> IdeaAdded {
        IdeaAdded {
            id: String::new(),
            at: "2026-01-01T00:00:00Z".into(),
            statement: statement.into(),
            family: "x".into(),
            family_guessed: false,
            retry_of: None,
            because: None,
            ad_hoc: false,
        }
    }

    #[test]
    fn ideas_are_appended_under_fresh_ids_and_bad_lines_are_skipped_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let a = add(dir.path(), added("a"), quiet).unwrap();
        let path = dir.path().join(IDEAS_FILE);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{not json\n");
        std::fs::write(&path, &text).unwrap();
        let b = add(dir.path(), added("b"), quiet).unwrap();
        assert_ne!(a.id, b.id);
        assert!(crate::kernel::idea::valid_id(&a.id));
        let lines = read(dir.path(), quiet).unwrap();
        assert_eq!(lines.len(), 2);
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .contains("{not json\n"));
    }
}
