//! The rounds a repository itself tells of, so that a fresh clone (a CI
//! runner's checkout) knows every earlier round without the state
//! directory: round commits on the current branch (their `Round:` and
//! `Patch-Hash:` trailers), revert commits naming a round, and review
//! branches `harness/round-<id>`, local or fetched from a remote.

use super::{git_err, RoundRepo};

/// Commits looked at, newest first: enough for any project's round
/// history, bounded so a huge repository is not walked whole.
const MAX_COMMITS: usize = 200_000;

/// One round as the repository tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitRound {
    pub id: String,
    pub patch_hash: Option<String>,
    /// The round commit.
    pub commit: git2::Oid,
    /// The commit it was built on.
    pub parent: Option<git2::Oid>,
    /// The round commit's time (when the round was made), in seconds.
    pub time: i64,
    /// On the current branch (landed), else on a review branch.
    pub landed: bool,
    /// The revert commit on the current branch that undid it, if any.
    pub reverted_by: Option<git2::Oid>,
    /// The review branch (`harness/round-<id>`, or `origin/harness/...`).
    pub branch: Option<String>,
}

/// The value of trailer `key` in a commit message (the last one wins).
fn trailer<'m>(message: &'m str, key: &str) -> Option<&'m str> {
    message
        .lines()
        .filter_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
        .rfind(|v| !v.is_empty())
}

/// The round a revert commit undid (`[life-harness round <id> reverted]`).
fn reverted_round(message: &str) -> Option<&str> {
    message.lines().find_map(|l| {
        l.trim()
            .strip_prefix("[life-harness round ")?
            .strip_suffix(" reverted]")
    })
}

impl RoundRepo {
    /// Every round the repository tells of: those on the current branch,
    /// newest first, then those on review branches not on it.
    pub fn git_rounds(&self) -> anyhow::Result<Vec<GitRound>> {
        let mut rounds: Vec<GitRound> = Vec::new();
        let mut reverts: Vec<(String, git2::Oid)> = Vec::new();
        let mut walk = self.repo.revwalk().map_err(git_err)?;
        walk.push(self.head).map_err(git_err)?;
        for oid in walk.take(MAX_COMMITS) {
            // A shallow clone's history ends at its graft; a missing
            // object ends the walk, not the command.
            let Ok(oid) = oid else { break };
            let Ok(commit) = self.repo.find_commit(oid) else {
                break;
            };
            let Some(message) = commit.message() else {
                continue;
            };
            if let Some(id) = reverted_round(message) {
                reverts.push((id.to_string(), oid));
                continue;
            }
            if let Some(round) = self.round_of(&commit, true, None) {
                rounds.push(round);
            }
        }
        for round in &mut rounds {
            round.reverted_by = reverts
                .iter()
                .find(|(id, _)| *id == round.id)
                .map(|(_, oid)| *oid);
        }
        for (name, target) in self.review_refs() {
            if rounds.iter().any(|r| r.commit == target) || self.contains(target) {
                continue;
            }
            let Ok(commit) = self.repo.find_commit(target) else {
                continue;
            };
            if let Some(round) = self.round_of(&commit, false, Some(name)) {
                if !rounds.iter().any(|r| r.id == round.id) {
                    rounds.push(round);
                }
            }
        }
        Ok(rounds)
    }

    fn round_of(
        &self,
        commit: &git2::Commit<'_>,
        landed: bool,
        branch: Option<String>,
    ) -> Option<GitRound> {
        let message = commit.message()?;
        let id = trailer(message, "Round")?;
        Some(GitRound {
            id: id.to_string(),
            patch_hash: trailer(message, "Patch-Hash").map(str::to_string),
            commit: commit.id(),
            parent: commit.parent_id(0).ok(),
            time: commit.time().seconds(),
            landed,
            reverted_by: None,
            branch,
        })
    }

    /// Review branches: `refs/heads/harness/round-*` and the same under
    /// every remote, with the commit each points at.
    fn review_refs(&self) -> Vec<(String, git2::Oid)> {
        let mut out = Vec::new();
        for glob in [
            "refs/heads/harness/round-*",
            "refs/remotes/*/harness/round-*",
        ] {
            let Ok(refs) = self.repo.references_glob(glob) else {
                continue;
            };
            for r in refs.flatten() {
                let (Some(name), Some(target)) = (r.shorthand(), r.target()) else {
                    continue;
                };
                out.push((name.to_string(), target));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailers_and_revert_marks() {
        let m = "harness(round-7): x\n\n- modify a: b\n\n[life-harness round 7]\nRound: 7\nPatch-Hash: abc\n";
        assert_eq!(trailer(m, "Round"), Some("7"));
        assert_eq!(trailer(m, "Patch-Hash"), Some("abc"));
        assert_eq!(trailer("no trailers", "Round"), None);
        assert_eq!(
            reverted_round("Revert \"x\"\n\n[life-harness round 7 reverted]\n"),
            Some("7")
        );
    }
}
