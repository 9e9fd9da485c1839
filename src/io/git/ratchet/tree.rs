//! Trees read and built path by path: the entry at a path, the paths two
//! trees differ at (identical subtrees are skipped without being read), and
//! a tree made from another by changing a few paths (only the directories
//! on those paths are rebuilt).

use std::collections::BTreeMap;

use git2::{Oid, Tree};

use super::{is_config, RatchetRepo};
use crate::io::git::git_err;

/// Mode of a directory in a tree.
const TREE_MODE: i32 = 0o040000;
/// Mode of a submodule (a commit recorded in the tree).
pub(crate) const GITLINK_MODE: i32 = 0o160000;
pub(crate) const LINK_MODE: i32 = 0o120000;
pub(crate) const EXEC_MODE: i32 = 0o100755;
pub(crate) const FILE_MODE: i32 = 0o100644;

/// A file-like entry of a tree or index: a blob (plain, executable or a
/// symlink) or a submodule commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub id: Oid,
    pub mode: i32,
}

impl RatchetRepo {
    /// The file-like entry at `path` in `tree` (`None` when absent or a
    /// directory).
    pub(crate) fn entry_at(&self, tree: &Tree<'_>, path: &str) -> anyhow::Result<Option<Entry>> {
        match tree.get_path(&super::fs_path(path)) {
            Ok(e) if e.filemode() == TREE_MODE => Ok(None),
            Ok(e) => Ok(Some(Entry {
                id: e.id(),
                mode: e.filemode(),
            })),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(git_err(e)),
        }
    }

    /// The file paths at which `a` and `b` differ (content or mode),
    /// outside the state directory, configuration files aside (see
    /// [`is_config`]), sorted.
    pub(crate) fn diff_trees(&self, a: &Tree<'_>, b: &Tree<'_>) -> anyhow::Result<Vec<String>> {
        let mut out = self.diff_with_config(a, b)?;
        out.retain(|p| !is_config(p));
        Ok(out)
    }

    /// [`RatchetRepo::diff_trees`] with the configuration files left in.
    pub(crate) fn diff_with_config(
        &self,
        a: &Tree<'_>,
        b: &Tree<'_>,
    ) -> anyhow::Result<Vec<String>> {
        let mut out = Vec::new();
        if a.id() != b.id() {
            self.diff_rec(Some(a), Some(b), "", &mut out)?;
        }
        out.sort();
        Ok(out)
    }

    /// Every file path of `tree` outside the state directory,
    /// configuration files aside.
    pub(crate) fn tree_paths(&self, tree: &Tree<'_>) -> anyhow::Result<Vec<String>> {
        let mut out = Vec::new();
        self.diff_rec(None, Some(tree), "", &mut out)?;
        out.retain(|p| !is_config(p));
        out.sort();
        Ok(out)
    }

    fn diff_rec(
        &self,
        a: Option<&Tree<'_>>,
        b: Option<&Tree<'_>>,
        prefix: &str,
        out: &mut Vec<String>,
    ) -> anyhow::Result<()> {
        let mut names: BTreeMap<Vec<u8>, (Option<Entry>, Option<Entry>)> = BTreeMap::new();
        for (side, tree) in [(0, a), (1, b)] {
            let Some(tree) = tree else { continue };
            for e in tree.iter() {
                let entry = Entry {
                    id: e.id(),
                    mode: e.filemode(),
                };
                let slot = names.entry(e.name_bytes().to_vec()).or_default();
                if side == 0 {
                    slot.0 = Some(entry);
                } else {
                    slot.1 = Some(entry);
                }
            }
        }
        for (name, (ea, eb)) in names {
            if ea == eb {
                continue;
            }
            let name = super::carry(&name);
            let path = format!("{prefix}{name}");
            if self.is_own(&path) {
                continue;
            }
            let is_tree = |e: &Option<Entry>| e.is_some_and(|e| e.mode == TREE_MODE);
            let file = |e: Option<Entry>| e.filter(|e| e.mode != TREE_MODE);
            if file(ea) != file(eb) {
                out.push(path.clone());
            }
            if is_tree(&ea) || is_tree(&eb) {
                let ta = match ea.filter(|e| e.mode == TREE_MODE) {
                    Some(e) => Some(self.repo.find_tree(e.id).map_err(git_err)?),
                    None => None,
                };
                let tb = match eb.filter(|e| e.mode == TREE_MODE) {
                    Some(e) => Some(self.repo.find_tree(e.id).map_err(git_err)?),
                    None => None,
                };
                self.diff_rec(ta.as_ref(), tb.as_ref(), &format!("{path}/"), out)?;
            }
        }
        Ok(())
    }

    /// `base` with each path set to its entry (`None` removes it). Only the
    /// directories on the changed paths are rebuilt; a directory left empty
    /// disappears. A file may replace a directory whose files are all
    /// removed, and the other way round.
    pub(crate) fn update_tree(
        &self,
        base: &Tree<'_>,
        updates: &[(String, Option<Entry>)],
    ) -> anyhow::Result<Oid> {
        if updates.is_empty() {
            return Ok(base.id());
        }
        let refs: Vec<(&str, Option<Entry>)> =
            updates.iter().map(|(p, e)| (p.as_str(), *e)).collect();
        match self.update_rec(Some(base), &refs, "")? {
            Some(id) => Ok(id),
            None => self
                .repo
                .treebuilder(None)
                .and_then(|b| b.write())
                .map_err(git_err),
        }
    }

    fn update_rec(
        &self,
        base: Option<&Tree<'_>>,
        updates: &[(&str, Option<Entry>)],
        prefix: &str,
    ) -> anyhow::Result<Option<Oid>> {
        let mut direct: Vec<(&str, Option<Entry>)> = Vec::new();
        let mut nested: BTreeMap<&str, Vec<(&str, Option<Entry>)>> = BTreeMap::new();
        for (path, entry) in updates {
            match path.split_once('/') {
                Some((dir, rest)) => nested.entry(dir).or_default().push((rest, *entry)),
                None => direct.push((path, *entry)),
            }
        }
        let mut builder = self.repo.treebuilder(base).map_err(git_err)?;
        let mut made_dirs = Vec::new();
        for (name, group) in &nested {
            let existing = builder
                .get(super::git_bytes(name))
                .map_err(git_err)?
                .filter(|e| e.filemode() == TREE_MODE)
                .map(|e| e.id());
            let sub = match existing {
                Some(id) => Some(self.repo.find_tree(id).map_err(git_err)?),
                None => None,
            };
            match self.update_rec(sub.as_ref(), group, &format!("{prefix}{name}/"))? {
                Some(id) => {
                    builder
                        .insert(super::git_bytes(name), id, TREE_MODE)
                        .map_err(git_err)?;
                    made_dirs.push(*name);
                }
                None => {
                    if existing.is_some() {
                        builder.remove(super::git_bytes(name)).map_err(git_err)?;
                    }
                }
            }
        }
        for (name, entry) in direct {
            let current = builder
                .get(super::git_bytes(name))
                .map_err(git_err)?
                .map(|e| e.filemode());
            match entry {
                Some(e) => {
                    if made_dirs.contains(&name) || current == Some(TREE_MODE) {
                        anyhow::bail!(
                            "{prefix}{name} is both a file and a directory with files in it"
                        );
                    }
                    builder
                        .insert(super::git_bytes(name), e.id, e.mode)
                        .map_err(git_err)?;
                }
                None => {
                    if current.is_some_and(|m| m != TREE_MODE) {
                        builder.remove(super::git_bytes(name)).map_err(git_err)?;
                    }
                }
            }
        }
        if builder.is_empty() {
            return Ok(None);
        }
        builder.write().map(Some).map_err(git_err)
    }
}
