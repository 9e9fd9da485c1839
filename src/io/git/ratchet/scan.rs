//! What changed in the working tree and index, found the way `git status`
//! finds it, in two passes.
//!
//! The first pass names the suspects. Every tracked directory is read once
//! (on several threads): each tracked file in it is `stat`ed relative to
//! the directory and compared with the stat data the index holds for it;
//! a name the index does not know is an untracked file or directory (an
//! untracked directory git ignores is skipped whole); a tracked file that
//! is not there is a deletion. Entries whose stat data cannot be trusted
//! (written in the same second as the index, smudged, conflicted) are
//! suspects too, as is everything the index changes relative to HEAD.
//!
//! The second pass is libgit2's status limited to the suspects, which
//! settles each one exactly (hashing the content where the stat data
//! differs, applying the ignore rules to untracked files). Nothing is read
//! for a file whose stat data matches, as in git.

use std::collections::{HashMap, HashSet};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use git2::{IndexEntry, StatusOptions};

use super::tree::{EXEC_MODE, FILE_MODE, GITLINK_MODE, LINK_MODE};
use super::{is_config, Changed, RatchetRepo};
use crate::io::git::git_err;

/// Index entry flag: `git update-index --assume-unchanged`.
const ASSUME_VALID: u16 = 0x8000;
/// Extended flags: `git add --intent-to-add`, sparse checkout's skip.
const INTENT_TO_ADD: u16 = 0x2000;
const SKIP_WORKTREE: u16 = 0x4000;
/// Above this many suspects a plain full status is cheaper than a long
/// path list.
pub(crate) const MAX_SUSPECTS: usize = 5000;
/// Threads for the first pass, at most.
const MAX_THREADS: usize = 8;

/// What one directory's reading found.
#[derive(Default)]
struct Found {
    suspects: Vec<String>,
    untracked_dirs: Vec<String>,
}

/// The first pass's view of the index: entries and the directories that
/// hold them.
struct Tracked<'a> {
    entries: &'a [IndexEntry],
    /// Every directory holding a tracked path, at any depth (`""` is the top).
    dirs: HashSet<&'a [u8]>,
    /// Entries directly in each directory.
    children: HashMap<&'a [u8], Vec<usize>>,
    /// When the index was written (seconds, nanoseconds): files changed
    /// since then may have the same stat data as before.
    index_time: (i64, i64),
    filemode: bool,
    state: Option<&'a str>,
}

impl RatchetRepo {
    /// Staged, unstaged and untracked (not ignored) paths outside the state
    /// directory, configuration files aside (see [`is_config`]), sorted. Untracked directories are listed file by file;
    /// a nested repository (reported as `dir/`) is left out: it cannot be
    /// stored, so it is never touched either.
    pub(crate) fn scan(&self) -> anyhow::Result<Vec<Changed>> {
        let suspects = self.suspects()?;
        self.scan_among(suspects)
    }

    /// [`RatchetRepo::scan`] restricted to `paths` (all paths when `None`).
    pub(crate) fn scan_among(&self, suspects: Option<Vec<String>>) -> anyhow::Result<Vec<Changed>> {
        let mut changed = self.scan_with_config(suspects)?;
        changed.retain(|c| !is_config(&c.path));
        Ok(changed)
    }

    /// [`RatchetRepo::scan_among`] with the configuration files that
    /// changed (see [`is_config`]) left in.
    pub(crate) fn scan_with_config(
        &self,
        suspects: Option<Vec<String>>,
    ) -> anyhow::Result<Vec<Changed>> {
        self.statuses_of(suspects, true)
    }

    /// The working tree's changes outside the project's directory (see
    /// [`RatchetRepo::set_scope`]), configuration files among them,
    /// sorted: what a try leaves alone. Empty without a scope.
    pub fn outside_scope(&self) -> anyhow::Result<Vec<String>> {
        if self.scope().is_none() {
            return Ok(Vec::new());
        }
        let changed = self.statuses_of(self.suspects()?, false)?;
        Ok(changed
            .into_iter()
            .map(|c| c.path)
            .filter(|p| self.out_of_scope(p))
            .collect())
    }

    /// Changed paths, the state directory, the notes and the outputs
    /// aside, and what lies outside the scope when `scoped`.
    fn statuses_of(
        &self,
        suspects: Option<Vec<String>>,
        scoped: bool,
    ) -> anyhow::Result<Vec<Changed>> {
        if suspects.as_ref().is_some_and(Vec::is_empty) {
            return Ok(Vec::new());
        }
        let mut opts = StatusOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_ignored(false)
            .include_unmodified(false)
            .exclude_submodules(true)
            .renames_head_to_index(false)
            .renames_index_to_workdir(false);
        if let Some(paths) = &suspects {
            opts.disable_pathspec_match(true);
            for path in paths {
                opts.pathspec(super::git_bytes(path));
            }
        }
        let statuses = self.repo.statuses(Some(&mut opts)).map_err(git_err)?;
        let mut changed = Vec::with_capacity(statuses.len());
        for entry in statuses.iter() {
            let path = super::carry(entry.path_bytes());
            let path = path.as_str();
            let own = self.in_state(path) || self.notes.is_match(path);
            let outside = scoped && self.out_of_scope(path);
            if path.ends_with('/') || own || outside || self.is_output(path) {
                continue;
            }
            if entry.status() == git2::Status::WT_MODIFIED && self.filtered_same(path) {
                continue;
            }
            changed.push(Changed {
                path: path.to_string(),
                status: entry.status(),
            });
        }
        self.add_moved_gitlinks(suspects.as_deref(), scoped, &mut changed)?;
        changed.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(changed)
    }

    /// The submodules checked out at another commit than the index
    /// records (among `suspects` when given), which git's status leaves
    /// out here: each a changed path, its new gitlink the candidate's.
    fn add_moved_gitlinks(
        &self,
        suspects: Option<&[String]>,
        scoped: bool,
        changed: &mut Vec<Changed>,
    ) -> anyhow::Result<()> {
        let index = self.repo.index().map_err(git_err)?;
        for path in self.moved_gitlinks(&index) {
            let listed = suspects.is_none_or(|s| s.contains(&path));
            let own = self.in_state(&path) || self.notes.is_match(&path);
            let outside = scoped && self.out_of_scope(&path);
            if listed && !own && !outside && !changed.iter().any(|c| c.path == path) {
                changed.push(Changed {
                    path,
                    status: git2::Status::WT_MODIFIED,
                });
            }
        }
        Ok(())
    }

    /// The paths of the submodules whose checked-out commit is not the
    /// one `index` records.
    pub(crate) fn moved_gitlinks(&self, index: &git2::Index) -> Vec<String> {
        let mut out = Vec::new();
        for entry in index.iter() {
            if entry.mode as i32 != GITLINK_MODE || (entry.flags >> 12) & 0x3 != 0 {
                continue;
            }
            let path = super::carry(&entry.path);
            if self
                .submodule_head(&path)
                .is_some_and(|head| head != entry.id)
            {
                out.push(path);
            }
        }
        out
    }

    /// The commit the submodule at `path` has checked out, when the index
    /// records another one there.
    pub(crate) fn moved_gitlink(&self, index: &git2::Index, path: &str) -> Option<git2::Oid> {
        let entry = index.get_path(&super::fs_path(path), 0)?;
        if entry.mode as i32 != GITLINK_MODE {
            return None;
        }
        self.submodule_head(path).filter(|head| *head != entry.id)
    }

    /// Is `path`, a file a filter driver converts (Git LFS), what the index
    /// holds once cleaned as `git add` cleans it? libgit2, which runs no
    /// filter driver, takes such a file for modified whenever it hashes
    /// it (a file written in the same second as the index).
    fn filtered_same(&self, path: &str) -> bool {
        if !self.has_filter_driver(path) {
            return false;
        }
        let Ok(index) = self.repo.index() else {
            return false;
        };
        let Some(staged) = index.get_path(&super::fs_path(path), 0) else {
            return false;
        };
        self.clean_blob(path).is_ok_and(|blob| blob == staged.id)
    }

    /// The paths that may have changed (sorted), or `None` when there are
    /// so many that a full status is the better second pass.
    pub(crate) fn suspects(&self) -> anyhow::Result<Option<Vec<String>>> {
        let mut index = self.repo.index().map_err(git_err)?;
        index.read(false).map_err(git_err)?;
        let index_time = std::fs::metadata(self.repo.path().join("index"))
            .map(|m| (m.mtime(), m.mtime_nsec()))
            .unwrap_or((0, 0));
        let entries: Vec<IndexEntry> = index.iter().collect();
        let tracked = Tracked::new(&entries, index_time, self.filemode, self.state.as_deref());
        let head_tree = self.tree_of(self.head_oid()?)?;
        // While other threads read the directories, this one finds what
        // the index changes relative to HEAD.
        let (found, staged) = tracked.read_dirs(&self.workdir, || {
            let diff = self
                .repo
                .diff_tree_to_index(Some(&head_tree), Some(&index), None)
                .map_err(git_err)?;
            let mut paths = Vec::new();
            for delta in diff.deltas() {
                for file in [delta.old_file(), delta.new_file()] {
                    if let Some(p) = file.path_bytes() {
                        paths.push(super::carry(p));
                    }
                }
            }
            anyhow::Ok(paths)
        });
        let mut suspects: HashSet<String> = staged?.into_iter().collect();
        suspects.extend(self.moved_gitlinks(&index));
        suspects.extend(found.suspects);
        for dir in found.untracked_dirs {
            if !self
                .repo
                .is_path_ignored(super::fs_path(&dir))
                .unwrap_or(false)
            {
                suspects.insert(dir);
            }
        }
        if suspects.len() > MAX_SUSPECTS {
            return Ok(None);
        }
        let mut suspects: Vec<String> = suspects.into_iter().collect();
        suspects.sort();
        Ok(Some(suspects))
    }
}

fn parent_of(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => &path[..i],
        None => &path[..0],
    }
}

fn name_of(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir.is_empty() {
        return name.to_vec();
    }
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    path.push(b'/');
    path.extend_from_slice(name);
    path
}

fn lossy(path: &[u8]) -> String {
    super::carry(path)
}

impl<'a> Tracked<'a> {
    fn new(
        entries: &'a [IndexEntry],
        index_time: (i64, i64),
        filemode: bool,
        state: Option<&'a str>,
    ) -> Tracked<'a> {
        let mut dirs: HashSet<&[u8]> = HashSet::new();
        let mut children: HashMap<&[u8], Vec<usize>> = HashMap::new();
        dirs.insert(&[]);
        for (i, entry) in entries.iter().enumerate() {
            let mut dir = parent_of(&entry.path);
            children.entry(dir).or_default().push(i);
            while !dir.is_empty() && dirs.insert(dir) {
                dir = parent_of(dir);
            }
        }
        Tracked {
            entries,
            dirs,
            children,
            index_time,
            filemode,
            state,
        }
    }

    fn in_state(&self, path: &[u8]) -> bool {
        match self.state {
            Some(state) => {
                let state = state.as_bytes();
                path.starts_with(state) && (path.len() == state.len() || path[state.len()] == b'/')
            }
            None => false,
        }
    }

    /// Read every tracked directory, on up to [`MAX_THREADS`] threads,
    /// while this thread runs `meanwhile`.
    fn read_dirs<R>(&self, workdir: &Path, meanwhile: impl FnOnce() -> R) -> (Found, R) {
        let mut jobs: Vec<&[u8]> = self
            .dirs
            .iter()
            .copied()
            .filter(|d| !self.in_state(d))
            .collect();
        // The big directories first, for an even spread over the threads.
        jobs.sort_by_key(|d| std::cmp::Reverse(self.children.get(d).map_or(0, Vec::len)));
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, MAX_THREADS)
            .min(jobs.len().div_ceil(64).max(1));
        let next = AtomicUsize::new(0);
        let all = Mutex::new(Found::default());
        let result = std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut found = Found::default();
                    loop {
                        let job = next.fetch_add(1, Ordering::Relaxed);
                        let Some(dir) = jobs.get(job) else { break };
                        self.read_dir(workdir, dir, &mut found);
                    }
                    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
                    all.suspects.extend(found.suspects);
                    all.untracked_dirs.extend(found.untracked_dirs);
                });
            }
            meanwhile()
        });
        (all.into_inner().unwrap_or_else(|e| e.into_inner()), result)
    }

    /// One tracked directory: its tracked files compared, its untracked
    /// names collected, its missing files noted.
    fn read_dir(&self, workdir: &Path, dir: &[u8], found: &mut Found) {
        let full = workdir.join(std::ffi::OsStr::from_bytes(dir));
        // The state directory's name, when it is in this directory.
        let state_here = self
            .state
            .map(str::as_bytes)
            .filter(|s| parent_of(s) == dir)
            .map(name_of);
        let children: &[usize] = self.children.get(dir).map_or(&[], Vec::as_slice);
        let mut by_name: HashMap<&[u8], usize> = children
            .iter()
            .map(|&i| (name_of(&self.entries[i].path), i))
            .collect();
        let listing = std::fs::read_dir(&full).and_then(|l| Ok((l, std::fs::File::open(&full)?)));
        let Ok((listing, handle)) = listing else {
            // Gone (or not a directory any more): every file in it is a
            // suspect; git reports what became of them.
            for &i in children {
                if self.may_have_changed(&self.entries[i]) {
                    found.suspects.push(lossy(&self.entries[i].path));
                }
            }
            return;
        };
        for item in listing {
            let Ok(item) = item else {
                // An entry that cannot be read: let git look at the directory.
                found.suspects.push(lossy(dir));
                continue;
            };
            let name = item.file_name();
            let name = name.as_bytes();
            if name == b".git" || Some(name) == state_here {
                continue;
            }
            if let Some(i) = by_name.remove(name) {
                let entry = &self.entries[i];
                if !self.may_have_changed(entry) {
                    continue;
                }
                let stat = nix::sys::stat::fstatat(
                    Some(handle.as_raw_fd()),
                    name,
                    nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
                );
                if !stat.is_ok_and(|st| self.unchanged(entry, &st)) {
                    found.suspects.push(lossy(&entry.path));
                }
                continue;
            }
            let path = join(dir, name);
            let is_dir = item.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                if !self.dirs.contains(path.as_slice()) {
                    found.untracked_dirs.push(lossy(&path));
                }
            } else {
                found.suspects.push(lossy(&path));
            }
        }
        // Tracked files the directory no longer has.
        for (_, i) in by_name {
            if self.may_have_changed(&self.entries[i]) {
                found.suspects.push(lossy(&self.entries[i].path));
            }
        }
    }

    /// False for entries git does not compare with the working tree:
    /// submodules (left out of the scan), entries marked assume-unchanged
    /// or skip-worktree, and the state directory.
    fn may_have_changed(&self, entry: &IndexEntry) -> bool {
        entry.mode as i32 != GITLINK_MODE
            && entry.flags & ASSUME_VALID == 0
            && entry.flags_extended & SKIP_WORKTREE == 0
            && !self.in_state(&entry.path)
    }

    /// Does the stat data of the file match the index entry, so that git
    /// would take the file as unchanged without reading it?
    fn unchanged(&self, entry: &IndexEntry, st: &nix::sys::stat::FileStat) -> bool {
        let stage = (entry.flags >> 12) & 0x3;
        if stage != 0 || entry.flags_extended & INTENT_TO_ADD != 0 {
            return false;
        }
        // `mode_t` is 32 bits on Linux and 16 on macOS.
        #[allow(clippy::useless_conversion)]
        let st_mode = u32::from(st.st_mode);
        let kind = st_mode & libc_mode::S_IFMT;
        let mode = entry.mode as i32;
        let kind_ok = match mode {
            LINK_MODE => kind == libc_mode::S_IFLNK,
            FILE_MODE | EXEC_MODE => {
                kind == libc_mode::S_IFREG
                    && (!self.filemode || ((st_mode & 0o100 != 0) == (mode == EXEC_MODE)))
            }
            _ => false,
        };
        if !kind_ok {
            return false;
        }
        let nsec_ok = |recorded: u32, actual: i64| recorded == 0 || recorded as i64 == actual;
        let same = st.st_size as u32 == entry.file_size
            && st.st_mtime as u32 == entry.mtime.seconds() as u32
            && nsec_ok(entry.mtime.nanoseconds(), st.st_mtime_nsec)
            && st.st_ctime as u32 == entry.ctime.seconds() as u32
            && nsec_ok(entry.ctime.nanoseconds(), st.st_ctime_nsec)
            && st.st_ino as u32 == entry.ino;
        // Racily clean: changed in the same instant the index was written,
        // the stat data may not show the change.
        let racy = if entry.mtime.nanoseconds() == 0 {
            st.st_mtime >= self.index_time.0
        } else {
            (st.st_mtime, st.st_mtime_nsec) >= self.index_time
        };
        same && !racy
    }
}

/// File type bits of `st_mode`.
mod libc_mode {
    pub const S_IFMT: u32 = 0o170000;
    pub const S_IFREG: u32 = 0o100000;
    pub const S_IFLNK: u32 = 0o120000;
}
