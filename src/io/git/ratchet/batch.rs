//! The fleet's batch undone in a working tree: the other machines' keeps
//! a batch put under this machine's candidate taken off again, the
//! candidate left on the best as uncommitted changes.

use super::worktree::Steps;
use super::{short, RatchetRepo};
use crate::io::git::git_err;

impl RatchetRepo {
    /// The branch from the batch's tip back to `base`, and `paths` (the
    /// files the batch's other keeps changed, none of them the
    /// candidate's) as `base` has them in the working tree and the index:
    /// what is left is the candidate on `base`. Only from `tip`: `false`
    /// when the branch is elsewhere.
    pub fn unstack(&self, tip: &str, base: &str, paths: &[String]) -> anyhow::Result<bool> {
        let head = self.head_oid()?;
        let tip = self.commit_id(tip)?;
        if head != tip {
            return Ok(false);
        }
        let base = self.commit_id(base)?;
        let base_tree = self.tree_of(base)?;
        let plan: Vec<_> = paths
            .iter()
            .map(|p| Ok((p.clone(), self.entry_at(&base_tree, p)?)))
            .collect::<anyhow::Result<_>>()?;
        self.put_paths(&plan, &mut Steps::new(&mut |_| Ok(())))
            .map_err(|(e, _)| {
                e.context("cannot take the batch's other keeps off the working tree")
            })?;
        let mut index = self.repo.index().map_err(git_err)?;
        for (path, entry) in plan {
            self.set_index_entry(&mut index, &path, entry, true)?;
        }
        index
            .write()
            .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        self.repo
            .reference_matching(
                &self.branch_ref,
                base,
                true,
                tip,
                &format!("arx: a batch taken off, back to the best {}", short(base)),
            )
            .map_err(|e| anyhow::anyhow!("cannot move {}: {}", self.branch(), e.message()))?;
        Ok(true)
    }
}
