//! Undoing a lane's take-up of the best that a kill cut off part-way:
//! the working tree holds part of the merge and the index maybe the
//! best's entries, while the branch is still where it was. Put back as
//! the lane's work was (its snapshot), the next take-up starts clean.

use std::collections::BTreeSet;

use super::worktree::Steps;
use super::RatchetRepo;
use crate::io::git::git_err;

impl RatchetRepo {
    /// Undo a replay onto `onto` cut off before the branch moved, the
    /// lane's work stored as `snapshot` (whose parent is HEAD): where the
    /// working tree holds what the replay wrote, the snapshot's content
    /// goes back; where the index took `onto`'s entry, HEAD's goes back.
    /// A file that holds neither is new work, left as it is (returned,
    /// sorted).
    pub fn undo_replay(&self, onto: &str, snapshot: &str) -> anyhow::Result<Vec<String>> {
        let head = self.head_oid()?;
        let onto = self.commit_id(onto)?;
        let snap_tree = self.tree_of(self.commit_id(snapshot)?)?;
        let onto_tree = self.tree_of(onto)?;
        let head_tree = self.tree_of(head)?;
        let base = self.repo.merge_base(head, onto).map_err(git_err)?;
        let base_tree = self.tree_of(base)?;
        // The merge the replay wrote (the best winning or not).
        let mut merges = Vec::new();
        for best_wins in [false, true] {
            if let Ok((id, _)) = self.merge_work(&base_tree, &onto_tree, &snap_tree, best_wins)? {
                merges.push(self.repo.find_tree(id).map_err(git_err)?);
            }
        }
        let mut paths = BTreeSet::new();
        for merged in &merges {
            paths.extend(self.diff_trees(&snap_tree, merged)?);
        }
        let (mut plan, mut left) = (Vec::new(), Vec::new());
        for path in &paths {
            let was = self.entry_at(&snap_tree, path)?;
            if self.worktree_holds(path, was)? {
                continue;
            }
            let mut written = false;
            for merged in &merges {
                written = written || self.worktree_holds(path, self.entry_at(merged, path)?)?;
            }
            if written {
                plan.push((path.clone(), was));
            } else {
                left.push(path.clone());
            }
        }
        self.put_paths(&plan, &mut Steps::new(&mut |_| Ok(())))
            .map_err(|(e, _)| e)?;
        let mut index = self.repo.index().map_err(git_err)?;
        let mut index_paths: BTreeSet<String> = self
            .diff_trees(&head_tree, &onto_tree)?
            .into_iter()
            .collect();
        index_paths.extend(paths);
        let mut touched = false;
        for path in &index_paths {
            let now = index
                .get_path(&super::fs_path(path), 0)
                .map(|e| super::ops::entry_of(&e));
            let (best, ours) = (
                self.entry_at(&onto_tree, path)?,
                self.entry_at(&head_tree, path)?,
            );
            if now == best && best != ours {
                let same = self.worktree_holds(path, ours)?;
                self.set_index_entry(&mut index, path, ours, same)?;
                touched = true;
            }
        }
        if touched {
            index
                .write()
                .map_err(|e| anyhow::anyhow!("cannot write the index: {}", e.message()))?;
        }
        Ok(left)
    }
}
