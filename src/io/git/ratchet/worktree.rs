//! Files of the working tree and entries of the index, path by path.
//!
//! A file is written whole to a temporary file beside it and renamed into
//! place, so no file is ever seen half-written; a file removed takes the
//! directories it leaves empty with it. Directories that still hold
//! anything (ignored files, the state directory) are never removed, and
//! nothing is written through a symlinked directory.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use anyhow::Context;
use git2::{Index, IndexEntry, IndexTime};

use super::tree::{Entry, EXEC_MODE, FILE_MODE, GITLINK_MODE, LINK_MODE};
use super::{fs_path, RatchetRepo};
use crate::io::atomic::Durability;
use crate::io::git::git_err;

/// Numbered steps of an operation, each announced to a fault hook before it
/// changes anything, so tests can stop an operation part-way.
pub(crate) struct Steps<'a> {
    next: usize,
    fault: &'a mut dyn FnMut(usize) -> std::io::Result<()>,
    /// The entries written are a snapshot's working-tree bytes, written
    /// as they are; otherwise they are commits' blobs, written as `git
    /// checkout` writes them (through filters and attributes).
    pub raw: bool,
}

impl<'a> Steps<'a> {
    pub(crate) fn new(fault: &'a mut dyn FnMut(usize) -> std::io::Result<()>) -> Steps<'a> {
        Steps {
            next: 0,
            fault,
            raw: false,
        }
    }

    /// Announce the next step; its error stops the operation.
    pub(crate) fn step(&mut self, what: &str) -> anyhow::Result<()> {
        let n = self.next;
        self.next += 1;
        (self.fault)(n).with_context(|| format!("cannot {what}"))
    }
}

/// The paths a batch of writes changed so far.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    pub written: Vec<String>,
    pub removed: Vec<String>,
}

impl Progress {
    pub(crate) fn touched(&self) -> impl Iterator<Item = &String> {
        self.written.iter().chain(self.removed.iter())
    }
}

impl RatchetRepo {
    /// The working tree's file at `path` stored as a blob, byte for byte (no
    /// content filter), with its mode; `None` when there is no file.
    /// `known_mode` is the mode git knew for the path, used for the
    /// executable bit when `core.fileMode` is off.
    pub(crate) fn store_worktree_file(
        &self,
        path: &str,
        known_mode: Option<i32>,
    ) -> anyhow::Result<Option<Entry>> {
        let full = self.workdir.join(fs_path(path));
        let meta = match std::fs::symlink_metadata(&full) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", full.display())),
        };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&full)
                .with_context(|| format!("cannot read the symlink {}", full.display()))?;
            let id = self
                .repo
                .blob(target.as_os_str().as_encoded_bytes())
                .map_err(git_err)?;
            return Ok(Some(Entry {
                id,
                mode: LINK_MODE,
            }));
        }
        if meta.is_dir() {
            // A submodule: the commit it has checked out, as `git add` records it.
            return Ok(self.submodule_head(path).map(|id| Entry {
                id,
                mode: GITLINK_MODE,
            }));
        }
        if !meta.is_file() {
            return Ok(None);
        }
        let mut file = std::fs::File::open(&full)
            .with_context(|| format!("cannot read {}", full.display()))?;
        let mut writer = self.repo.blob_writer(None).map_err(git_err)?;
        std::io::copy(&mut file, &mut writer)
            .with_context(|| format!("cannot store {}", full.display()))?;
        let id = writer.commit().map_err(git_err)?;
        let exec = if self.filemode {
            meta.mode() & 0o111 != 0
        } else {
            known_mode == Some(EXEC_MODE)
        };
        Ok(Some(Entry {
            id,
            mode: if exec { EXEC_MODE } else { FILE_MODE },
        }))
    }

    /// Does the working tree hold exactly `entry` at `path` (`None`: no
    /// file there)? A submodule matches when it is checked out at the
    /// entry's commit (or is not checked out at all).
    pub(crate) fn worktree_holds(&self, path: &str, entry: Option<Entry>) -> anyhow::Result<bool> {
        let full = self.workdir.join(fs_path(path));
        let meta = match std::fs::symlink_metadata(&full) {
            Ok(m) => m,
            // Absent, or under what is now a file (a directory that became
            // one).
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(entry.is_none_or(|e| e.mode == GITLINK_MODE))
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", full.display())),
        };
        let Some(entry) = entry else {
            return Ok(meta.is_dir());
        };
        match entry.mode {
            GITLINK_MODE => Ok(self
                .submodule_head(path)
                .is_none_or(|head| head == entry.id)),
            LINK_MODE => {
                if !meta.file_type().is_symlink() {
                    return Ok(false);
                }
                let target = std::fs::read_link(&full)
                    .with_context(|| format!("cannot read the symlink {}", full.display()))?;
                let blob = self.repo.find_blob(entry.id).map_err(git_err)?;
                Ok(blob.content() == target.as_os_str().as_encoded_bytes())
            }
            mode => {
                if !meta.is_file() {
                    return Ok(false);
                }
                if self.filemode && (meta.mode() & 0o111 != 0) != (mode == EXEC_MODE) {
                    return Ok(false);
                }
                // A file a filter driver converts (Git LFS) holds a
                // committed entry when `git add` would store its blob for
                // it (a snapshot's entry holds the bytes as they are).
                if self.has_filter_driver(path)
                    && self.clean_blob(path).is_ok_and(|b| b == entry.id)
                {
                    return Ok(true);
                }
                let blob = self.repo.find_blob(entry.id).map_err(git_err)?;
                if meta.len() != blob.size() as u64 {
                    return Ok(false);
                }
                let bytes = std::fs::read(&full)
                    .with_context(|| format!("cannot read {}", full.display()))?;
                Ok(bytes == blob.content())
            }
        }
    }

    /// Make the working tree hold, at each path, its entry (`None`: no
    /// file). Removals go first, deepest first, so a file can take the
    /// place of a directory the batch empties and the other way round;
    /// paths already right are left alone. Each write or removal is a
    /// step. On error, the paths changed so far come back with it.
    pub(crate) fn put_paths(
        &self,
        plan: &[(String, Option<Entry>)],
        steps: &mut Steps<'_>,
    ) -> Result<Progress, (anyhow::Error, Progress)> {
        let mut progress = Progress::default();
        let mut removals: Vec<&String> = plan
            .iter()
            .filter(|(_, e)| e.is_none())
            .map(|(p, _)| p)
            .collect();
        removals.sort_by(|a, b| b.cmp(a));
        for path in removals {
            let result = steps
                .step(&format!("remove {path}"))
                .and_then(|()| self.remove_file(path));
            match result {
                Ok(true) => progress.removed.push(path.clone()),
                Ok(false) => {}
                Err(e) => return Err((e, progress)),
            }
        }
        for (path, entry) in plan {
            let Some(entry) = entry else { continue };
            let result = steps
                .step(&format!("write {path}"))
                .and_then(|()| self.write_file(path, *entry, steps.raw));
            match result {
                Ok(true) => progress.written.push(path.clone()),
                Ok(false) => {}
                Err(e) => return Err((e, progress)),
            }
        }
        progress.written.sort();
        progress.removed.sort();
        Ok(progress)
    }

    /// Remove the file (or symlink) at `path` and the directories it leaves
    /// empty. `false` when there was none.
    fn remove_file(&self, path: &str) -> anyhow::Result<bool> {
        let full = self.workdir.join(fs_path(path));
        match std::fs::symlink_metadata(&full) {
            Ok(m) if m.is_dir() => return Ok(false),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", full.display())),
        }
        std::fs::remove_file(&full).with_context(|| format!("cannot remove {}", full.display()))?;
        let mut dir = full.parent();
        while let Some(d) = dir {
            if d == self.workdir || !d.starts_with(&self.workdir) {
                break;
            }
            // Only an empty directory goes; anything else in it is not ours.
            if std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
        Ok(true)
    }

    /// Write `entry` at `path` (a temporary file beside it, renamed into
    /// place): as it is when `raw`, else as `git checkout` writes it.
    /// `false` when the file was already right.
    fn write_file(&self, path: &str, entry: Entry, raw: bool) -> anyhow::Result<bool> {
        if self.worktree_holds(path, Some(entry))? {
            return Ok(false);
        }
        if entry.mode == GITLINK_MODE {
            self.checkout_submodule(path, entry.id)?;
            return Ok(true);
        }
        let full = self.workdir.join(fs_path(path));
        self.make_parents(path)?;
        if let Ok(meta) = std::fs::symlink_metadata(&full) {
            if meta.is_dir() {
                std::fs::remove_dir(&full).map_err(|_| {
                    anyhow::anyhow!(
                        "cannot write {}: a directory with other files in it is in the way",
                        full.display()
                    )
                })?;
            }
        }
        let blob = self.repo.find_blob(entry.id).map_err(git_err)?;
        let smudged = match entry.mode != LINK_MODE && !raw && self.converted(path) {
            true => Some(self.smudged(path, entry.id)?),
            false => None,
        };
        let content = smudged.as_deref().unwrap_or(blob.content());
        let written = if entry.mode == LINK_MODE {
            crate::io::atomic::replace_with_link(
                &full,
                std::ffi::OsStr::from_bytes(blob.content()),
                Durability::Unsynced,
            )
        } else {
            let mode = if entry.mode == EXEC_MODE {
                0o777
            } else {
                0o666
            };
            crate::io::atomic::replace_with(&full, Some(mode), Durability::Unsynced, |f| {
                f.write_all(content)?;
                if entry.mode == EXEC_MODE {
                    // The umask may have taken execute bits away from all.
                    let mut perms = f.metadata()?.permissions();
                    perms.set_mode(perms.mode() | 0o100);
                    f.set_permissions(perms)?;
                }
                Ok(())
            })
        };
        written.with_context(|| format!("cannot write {}", full.display()))?;
        Ok(true)
    }

    /// Create the missing directories above `path`, refusing a symlink or
    /// a file on the way.
    fn make_parents(&self, path: &str) -> anyhow::Result<()> {
        let mut dir = self.workdir.clone();
        let parts: Vec<&str> = path.split('/').collect();
        for part in &parts[..parts.len() - 1] {
            dir.push(part);
            match std::fs::symlink_metadata(&dir) {
                Ok(m) if m.file_type().is_symlink() => anyhow::bail!(
                    "refusing to write {path}: {} is a symlink (a write could leave the repository)",
                    dir.display()
                ),
                Ok(m) if m.is_dir() => {}
                Ok(_) => anyhow::bail!(
                    "cannot write {path}: {} is a file, not a directory",
                    dir.display()
                ),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    std::fs::create_dir(&dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot read {}", dir.display()))
                }
            }
        }
        Ok(())
    }

    /// Set the index entry at `path` (`None` removes it). When the working
    /// tree holds the same content, the entry gets the file's stat data (so
    /// the file reads as unchanged without being hashed); otherwise it gets
    /// none, and git compares the content.
    pub(crate) fn set_index_entry(
        &self,
        index: &mut Index,
        path: &str,
        entry: Option<Entry>,
        worktree_same: bool,
    ) -> anyhow::Result<()> {
        let Some(entry) = entry else {
            if index.get_path(&fs_path(path), 0).is_some() {
                index.remove_path(&fs_path(path)).map_err(git_err)?;
            }
            return Ok(());
        };
        let zero = IndexTime::new(0, 0);
        let mut new = IndexEntry {
            ctime: zero,
            mtime: zero,
            dev: 0,
            ino: 0,
            mode: entry.mode as u32,
            uid: 0,
            gid: 0,
            file_size: 0,
            id: entry.id,
            flags: 0,
            flags_extended: 0,
            path: super::git_bytes(path),
        };
        if worktree_same && entry.mode != GITLINK_MODE {
            if let Ok(meta) = std::fs::symlink_metadata(self.workdir.join(fs_path(path))) {
                new.ctime = IndexTime::new(meta.ctime() as i32, meta.ctime_nsec() as u32);
                new.mtime = IndexTime::new(meta.mtime() as i32, meta.mtime_nsec() as u32);
                new.dev = meta.dev() as u32;
                new.ino = meta.ino() as u32;
                new.uid = meta.uid();
                new.gid = meta.gid();
                new.file_size = meta.size() as u32;
            }
        }
        index.add(&new).map_err(git_err)
    }
}
