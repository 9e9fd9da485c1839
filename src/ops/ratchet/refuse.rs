//! What is refused before anything runs: a candidate file too large to
//! keep, and work inside a submodule or a nested repository that no keep
//! commits and no discard undoes.

use anyhow::Result;

use crate::error::Hinted;
use crate::io::git::ratchet::{Candidate, RatchetRepo};

/// Size: a candidate file over `[objective] max_file_mb` (0: no limit) is
/// refused before anything runs, nothing changed: a mistaken checkpoint
/// would be stored by a discard and committed by a keep.
pub fn large(repo: &RatchetRepo, candidate: &Candidate, max_mb: f64) -> Result<()> {
    if max_mb <= 0.0 {
        return Ok(());
    }
    let limit = (max_mb * 1024.0 * 1024.0) as u64;
    let large = repo.large_files(candidate, limit)?;
    if large.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = large
        .iter()
        .map(|(p, size)| format!("{p} ({:.1} MB)", *size as f64 / (1024.0 * 1024.0)))
        .collect();
    Err(Hinted::error(
        format!(
            "the candidate holds files over {max_mb} MB: {}; nothing was run or changed",
            shown.join(", ")
        ),
        "git-ignore them (an output or a checkpoint is not a change to try), remove them, \
         or raise [objective] max_file_mb in arx.toml (0: no limit)",
    ))
}

/// Submodules: a submodule with changes inside, or checked out at another
/// commit than the one recorded, and a nested repository that is not a
/// submodule are refused before anything runs: the experiment would run on
/// work no keep commits and no discard undoes.
pub fn nested(repo: &RatchetRepo) -> Result<()> {
    let problems = repo.nested_problems()?;
    if problems.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = problems
        .iter()
        .map(|(p, why)| format!("{p} ({why})"))
        .collect();
    Err(Hinted::error(
        format!(
            "the working tree holds work no candidate can hold: {}; nothing was run or changed",
            shown.join(", ")
        ),
        "commit inside the submodule, then record its commit in this repository (git add PATH && git commit): \
         a moved submodule is a candidate like any commit; or put it back (git submodule update PATH); \
         a nested repository: make it a submodule or git-ignore it",
    ))
}
