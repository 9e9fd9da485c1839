//! What a patch's base needs from the repository: the commit a revision
//! names, and the difference between two versions of a file as unified
//! diff text.

use super::{git_err, RoundRepo};

impl RoundRepo {
    /// The commit `rev` names (a full or short id, a branch, a tag), when
    /// the repository has it.
    pub fn resolve_commit(&self, rev: &str) -> Option<git2::Oid> {
        let object = self.repo.revparse_single(rev).ok()?;
        object.peel_to_commit().ok().map(|c| c.id())
    }
}

/// The unified difference from `old` to `new` (`None` for a file that is
/// not there), labelled as git labels them, with 3 lines of context.
pub fn diff_text(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
) -> anyhow::Result<String> {
    let mut opts = git2::DiffOptions::new();
    opts.context_lines(3);
    let mut patch = git2::Patch::from_buffers(
        old.unwrap_or_default(),
        old.map(|_| std::path::Path::new(old_label)),
        new.unwrap_or_default(),
        new.map(|_| std::path::Path::new(new_label)),
        Some(&mut opts),
    )
    .map_err(git_err)?;
    let mut text = Vec::new();
    patch
        .print(&mut |_delta, _hunk, line| {
            let origin = line.origin();
            if origin == 'F' {
                // Only the `---`/`+++` lines of the file header.
                for l in String::from_utf8_lossy(line.content()).split_inclusive('\n') {
                    if l.starts_with("--- ") || l.starts_with("+++ ") {
                        text.extend_from_slice(l.as_bytes());
                    }
                }
                return true;
            }
            if matches!(origin, '+' | '-' | ' ') {
                text.push(origin as u8);
            }
            text.extend_from_slice(line.content());
            true
        })
        .map_err(git_err)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}
