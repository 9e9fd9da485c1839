//! A patch's base: `"base"`, the commit the patch was written against
//! (`git rev-parse HEAD` when it was written). A file the patch changes
//! that is different at HEAD than at the base was changed since (a
//! person's fix, another round): the round is refused with the three-way
//! difference, so the change is not silently overwritten. A patch with no
//! base is applied over whatever HEAD holds, as before.

use anyhow::Result;
use serde_json::Value;

use crate::error::Hinted;
use crate::io::git::{diff_text, RoundRepo};
use crate::kernel::round::RoundPatch;

/// The problems of `patch` against its base (none without one).
pub fn problems(repo: &RoundRepo, value: &Value, patch: &RoundPatch) -> Result<Vec<String>> {
    let base = match value.get("base") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::String(s)) => s.trim(),
        Some(other) => {
            return Ok(vec![format!(
                "base must be a commit id (a string), not {other}"
            )])
        }
    };
    let commit = repo.resolve_commit(base).ok_or_else(|| {
        Hinted::error(
            format!("the patch's base {base:?} is not a commit of this repository"),
            "fetch the whole history (actions/checkout with fetch-depth: 0), or write the patch against a commit of this branch (\"base\": the output of git rev-parse HEAD)",
        )
    })?;
    if commit == repo.head {
        return Ok(Vec::new());
    }
    let short = &commit.to_string()[..12];
    let mut problems = Vec::new();
    for (i, entry) in patch.entries.iter().enumerate() {
        let then = repo.blob_at(commit, &entry.path)?;
        let now = repo.blob_at(repo.head, &entry.path)?;
        if then == now {
            continue;
        }
        let path = &entry.path;
        let since = diff_text(
            then.as_deref(),
            now.as_deref(),
            &format!("{path} (base {short})"),
            &format!("{path} (HEAD)"),
        )?;
        let proposed = diff_text(
            then.as_deref(),
            entry.content.as_deref().map(str::as_bytes),
            &format!("{path} (base {short})"),
            &format!("{path} (patch)"),
        )?;
        problems.push(format!(
            "entries[{i}] ({}): changed since the patch's base {short}; applying it would overwrite that change\nchanged since the base:\n{since}the patch's change:\n{proposed}",
            path.escape_debug()
        ));
    }
    Ok(problems)
}
