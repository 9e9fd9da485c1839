//! The `.arx/` state directory and its append-only JSONL registries.
//!
//! Writers take an exclusive lock on the registry file, so concurrent
//! `arx` processes never lose or interleave records. A record is one line
//! written with one `write` call and synced; a crash can leave at most a
//! torn last line, which readers skip with a warning and the next writer
//! trims (restoring the file to its last complete version). Readers take a
//! shared lock and never fail on a bad line: they skip it and warn. A whole
//! registry is replaced only by [`Registry::rewrite`] (a journal merge):
//! under the same lock, through a synced temporary file renamed over it, so
//! a reader sees the old file or the new one. Writers check, once they hold
//! the lock, that it is still on the file the path names.
//!
//! No write follows a symbolic link: a cloned repository can bring a
//! `.arx/journal.jsonl` (or `.arx/` itself) that points anywhere. Every
//! directory from the state directory down to the file is checked with
//! `lstat`, files are opened with `O_NOFOLLOW`, and a link is refused with
//! its path ([`refuse_symlinks`]).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::Warn;
use crate::error::Hinted;

/// The state directory: `--state-dir` / `ARX_STATE_DIR`, else `.arx/` at
/// the repository root (or the working directory outside a repository).
/// Every working tree of a repository shares the main working tree's: a
/// lane (or any linked worktree) has no `.arx/` of its own.
pub fn state_dir(explicit: Option<&Path>, cwd: &Path) -> PathBuf {
    match explicit {
        Some(p) if p.is_absolute() => p.to_path_buf(),
        Some(p) => cwd.join(p),
        None => super::config::main_root(cwd)
            .or_else(|| super::config::repo_root(cwd))
            .unwrap_or_else(|| cwd.to_path_buf())
            .join(".arx"),
    }
}

/// Create the state directory if needed, with a clear error when a file
/// or a symbolic link stands in its way.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    ensure_dir_within(dir, dir)
}

/// Create `dir` and the directories between `root` and it, refusing a
/// symbolic link at `root` or anywhere below it (the directories above
/// `root` are the user's and may be links). No directory is created
/// through a link.
pub fn ensure_dir_within(root: &Path, dir: &Path) -> Result<()> {
    refuse_symlink_at(root, root)?;
    match std::fs::symlink_metadata(root) {
        Ok(m) if !m.is_dir() => {
            return Err(Hinted::error(
                format!("state directory {} is not a directory", root.display()),
                "move the file away or choose another place with --state-dir",
            ))
        }
        Ok(_) => {}
        Err(_) => {
            std::fs::create_dir_all(root)
                .with_context(|| format!("cannot create state directory {}", root.display()))?;
            refuse_symlink_at(root, root)?;
        }
    }
    let Ok(rel) = dir.strip_prefix(root) else {
        return ensure_dir_within(dir, dir);
    };
    let mut walked = root.to_path_buf();
    for part in rel.components() {
        walked.push(part);
        refuse_symlink_at(&walked, &walked)?;
        match std::fs::symlink_metadata(&walked) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => anyhow::bail!("{} is not a directory", walked.display()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match std::fs::create_dir(&walked) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        refuse_symlink_at(&walked, &walked)?
                    }
                    Err(e) => {
                        return Err(e)
                            .with_context(|| format!("cannot create {}", walked.display()))
                    }
                }
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", walked.display())),
        }
    }
    Ok(())
}

/// The refusal to write `path` because `link` is a symbolic link.
pub fn symlink_refusal(path: &Path, link: &Path) -> anyhow::Error {
    let what = if path == link {
        format!(
            "refusing to write {}: it is a symbolic link",
            path.display()
        )
    } else {
        format!(
            "refusing to write {}: {} is a symbolic link",
            path.display(),
            link.display()
        )
    };
    Hinted::error(
        what,
        "arx never writes its state through a symbolic link; replace the link with a real file or directory",
    )
}

/// Refuse when `link` exists and is a symbolic link (writing `path`).
fn refuse_symlink_at(path: &Path, link: &Path) -> Result<()> {
    match std::fs::symlink_metadata(link) {
        Ok(m) if m.file_type().is_symlink() => Err(symlink_refusal(path, link)),
        _ => Ok(()),
    }
}

/// Refuse to write `path` when it, `root` or any directory between them is
/// a symbolic link. A `path` outside `root` is checked with its own
/// directory as the root.
pub fn refuse_symlinks(root: &Path, path: &Path) -> Result<()> {
    let root = match path.strip_prefix(root) {
        Ok(_) => root,
        Err(_) => path.parent().unwrap_or(Path::new(".")),
    };
    refuse_symlink_at(path, root)?;
    let rel = path.strip_prefix(root).unwrap_or(path);
    let mut walked = root.to_path_buf();
    for part in rel.components() {
        walked.push(part);
        refuse_symlink_at(path, &walked)?;
    }
    Ok(())
}

/// `options` set not to follow a symbolic link at the last component.
pub fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    options.custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
}

/// Open `path` with `options`, never through a symbolic link: a link
/// there (`ELOOP`) is refused with its path.
pub fn open_no_follow(options: &mut OpenOptions, path: &Path) -> Result<File> {
    match no_follow(options).open(path) {
        Ok(f) => Ok(f),
        Err(e) if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) => {
            Err(symlink_refusal(path, path))
        }
        Err(e) => Err(e).with_context(|| format!("cannot open {} for writing", path.display())),
    }
}

/// A text file's content, `None` when there is no such file; a directory
/// there is an error.
pub fn read_text_if_any(path: &Path) -> Result<Option<String>> {
    if path.is_dir() {
        anyhow::bail!("{} is a directory, not a file", path.display());
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Append `lines` to the text file `path` (after `existing`, its current
/// content, which gets a final newline first if it lacks one), never
/// through a symbolic link from `root` down; synced.
pub fn append_lines(root: &Path, path: &Path, existing: &str, lines: &[String]) -> Result<()> {
    let mut text = String::new();
    if !existing.is_empty() && !existing.ends_with('\n') {
        text.push('\n');
    }
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    refuse_symlinks(root, path)?;
    let mut f = open_no_follow(OpenOptions::new().append(true).create(true), path)?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The records of a registry file, and what was wrong with it.
#[derive(Debug)]
pub struct Loaded<T> {
    pub records: Vec<T>,
    /// Length of the file up to the end of its last complete line.
    pub complete_len: u64,
    /// The file ends in a partial line.
    pub torn_tail: bool,
    /// Line numbers (1-based) of lines that were not readable records.
    pub skipped: Vec<usize>,
}

/// An append-only JSONL file of `T` records.
#[derive(Debug, Clone)]
pub struct Registry<T> {
    pub path: PathBuf,
    /// The directory below which no symbolic link is followed on writes
    /// (the state directory).
    root: PathBuf,
    warn: Warn,
    _record: PhantomData<fn() -> T>,
}

/// What an append did.
#[derive(Debug)]
pub enum Appended<T> {
    /// The record was written.
    Added(T),
    /// An equal record was already there; nothing was written.
    Existing(T),
}

impl<T: Serialize + DeserializeOwned + Clone> Registry<T> {
    /// A registry at `path`; what it recovers from goes to `warn`.
    pub fn new(path: PathBuf, warn: Warn) -> Self {
        let root = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Registry {
            path,
            root,
            warn,
            _record: PhantomData,
        }
    }

    /// The same registry, with no symbolic link followed from `root` down.
    pub fn within(mut self, root: &Path) -> Self {
        self.root = root.to_path_buf();
        self
    }

    /// Create the registry's directory (from its root, no link followed)
    /// and refuse a link at the file.
    fn prepare_write(&self) -> Result<()> {
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            ensure_dir_within(&self.root, dir)?;
        }
        refuse_symlinks(&self.root, &self.path)
    }

    /// All readable records (an absent file is empty).
    pub fn read(&self) -> Result<Vec<T>> {
        Ok(self.read_loaded()?.records)
    }

    /// All readable records with what was wrong with the file (an absent
    /// file is empty); bad lines and a torn last line are skipped with a
    /// warning.
    pub fn read_loaded(&self) -> Result<Loaded<T>> {
        let Some(mut file) = self.open_shared()? else {
            return Ok(Loaded {
                records: Vec::new(),
                complete_len: 0,
                torn_tail: false,
                skipped: Vec::new(),
            });
        };
        let loaded = self.load(&mut file)?;
        if loaded.torn_tail {
            (self.warn)(&format!(
                "{}: skipped a torn last line (an interrupted write)",
                self.path.display()
            ));
        }
        Ok(loaded)
    }

    /// The file's bytes, read under a shared lock (`None`: no such file).
    pub fn read_bytes(&self) -> Result<Option<Vec<u8>>> {
        let Some(mut file) = self.open_shared()? else {
            return Ok(None);
        };
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            anyhow::bail!("{} is not a regular file", self.path.display());
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        Ok(Some(bytes))
    }

    /// The last `n` readable records, read backwards from the end in
    /// growing blocks (a torn last line skipped, an unreadable line
    /// skipped with a warning): a large file's tail without reading it.
    pub fn read_last(&self, n: usize) -> Result<Vec<T>> {
        let Some(mut file) = self.open_shared()? else {
            return Ok(Vec::new());
        };
        let len = file.metadata()?.len();
        let end = complete_len(&mut file, len)?;
        let mut block = 64 * 1024u64;
        loop {
            let start = end.saturating_sub(block);
            let mut buf = vec![0u8; (end - start) as usize];
            file.seek(SeekFrom::Start(start))?;
            file.read_exact(&mut buf)?;
            // The first line of a block that starts mid-file may be partial.
            let whole = match start {
                0 => &buf[..],
                _ => memchr::memchr(b'\n', &buf).map_or(&buf[..0], |i| &buf[i + 1..]),
            };
            let mut records = Vec::new();
            let mut unreadable = 0;
            for line in whole.split(|&b| b == b'\n').rev().filter(|l| !l.is_empty()) {
                if records.len() == n {
                    break;
                }
                match serde_json::from_slice::<T>(line) {
                    Ok(r) => records.push(r),
                    Err(_) => unreadable += 1,
                }
            }
            if records.len() == n || start == 0 {
                if unreadable > 0 {
                    (self.warn)(&format!(
                        "{}: skipped {unreadable} unreadable line(s)",
                        self.path.display()
                    ));
                }
                records.reverse();
                return Ok(records);
            }
            block *= 4;
        }
    }

    /// Open for reading under a shared lock (`None`: no such file).
    fn open_shared(&self) -> Result<Option<File>> {
        if self.path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a registry file",
                self.path.display()
            );
        }
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot open {}", self.path.display()))
            }
        };
        file.lock_shared()
            .with_context(|| format!("cannot lock {}", self.path.display()))?;
        Ok(Some(file))
    }

    fn load(&self, file: &mut File) -> Result<Loaded<T>> {
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            anyhow::bail!("{} is not a regular file", self.path.display());
        }
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let torn_tail = complete_len < bytes.len();
        let mut records = Vec::new();
        let mut skipped = Vec::new();
        for (n, line) in bytes[..complete_len].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<T>(line) {
                Ok(r) => records.push(r),
                Err(e) => {
                    skipped.push(n + 1);
                    (self.warn)(&format!(
                        "{}:{}: skipped an unreadable record ({e})",
                        self.path.display(),
                        n + 1
                    ))
                }
            }
        }
        Ok(Loaded {
            records,
            complete_len: complete_len as u64,
            torn_tail,
            skipped,
        })
    }

    /// Open for appending under an exclusive lock, with a torn last line
    /// (an interrupted write) trimmed away. Returns the file and its length.
    fn open_for_append(&self) -> Result<(File, u64)> {
        self.prepare_write()?;
        if self.path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a registry file",
                self.path.display()
            );
        }
        let mut file =
            self.lock_current(OpenOptions::new().read(true).append(true).create(true))?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            anyhow::bail!("{} is not a regular file", self.path.display());
        }
        let len = file.metadata()?.len();
        let complete = complete_len(&mut file, len)
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        if complete < len {
            file.set_len(complete)
                .with_context(|| format!("cannot repair {}", self.path.display()))?;
            (self.warn)(&format!(
                "{}: removed a torn last line left by an interrupted write",
                self.path.display()
            ));
        }
        Ok((file, complete))
    }

    /// Open the file with `options` and take its exclusive lock, making sure
    /// the lock is on the file the path names once it is held: a
    /// [`Registry::rewrite`] may have renamed a new file over it meanwhile.
    fn lock_current(&self, options: &OpenOptions) -> Result<File> {
        const TRIES: usize = 100;
        for _ in 0..TRIES {
            let file = open_no_follow(&mut options.clone(), &self.path)?;
            file.lock()
                .with_context(|| format!("cannot lock {}", self.path.display()))?;
            if same_file(&file, &self.path) {
                return Ok(file);
            }
        }
        anyhow::bail!(
            "cannot lock {}: it keeps being replaced",
            self.path.display()
        )
    }

    /// Replace the records atomically, under the exclusive lock: `update`
    /// gets the current records (bad lines and a torn last line skipped,
    /// with warnings) and returns the new ones, or `None` to leave the file
    /// as it is. The new content replaces the file whole
    /// ([`super::atomic`]), so readers see the old file or the new one,
    /// never a mix. Returns whether the file was rewritten.
    pub fn rewrite(&self, update: impl FnOnce(&Loaded<T>) -> Option<Vec<T>>) -> Result<bool> {
        self.prepare_write()?;
        if self.path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a registry file",
                self.path.display()
            );
        }
        let mut file = self.lock_current(OpenOptions::new().read(true).write(true).create(true))?;
        let loaded = self.load(&mut file)?;
        if loaded.torn_tail {
            (self.warn)(&format!(
                "{}: dropped a torn last line left by an interrupted write",
                self.path.display()
            ));
        }
        let Some(records) = update(&loaded) else {
            return Ok(false);
        };
        // The path was opened without following a link, and no directory
        // on the way is one: the rename replaces the file itself.
        let target = self.path.clone();
        let permissions = file.metadata().ok().map(|m| m.permissions());
        super::atomic::replace_with(&target, None, super::atomic::Durability::Synced, |out| {
            if let Some(p) = permissions {
                let _ = out.set_permissions(p);
            }
            let mut buf = std::io::BufWriter::new(out);
            for record in &records {
                serde_json::to_writer(&mut buf, record)?;
                buf.write_all(b"\n")?;
            }
            buf.flush()
        })
        .with_context(|| format!("cannot replace {}", self.path.display()))?;
        drop(file);
        Ok(true)
    }

    /// Replace the file atomically, under the exclusive lock, by what
    /// `fill` writes, streamed: `fill` reads the current file (its lines
    /// through `read`) and writes the new content to `out`, and returns
    /// whether anything changed (false: the file is left as it was). For
    /// files too large to hold as records.
    pub fn rewrite_streamed(
        &self,
        fill: impl FnOnce(&mut File, &mut dyn Write) -> Result<bool>,
    ) -> Result<bool> {
        self.prepare_write()?;
        let existed = self.path.exists();
        let mut file = self.lock_current(OpenOptions::new().read(true).write(true).create(true))?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            anyhow::bail!("{} is not a regular file", self.path.display());
        }
        let permissions = file.metadata().ok().map(|m| m.permissions());
        let (mut outcome, mut failed) = (None, None);
        let replaced = super::atomic::replace_with(
            &self.path,
            None,
            super::atomic::Durability::Synced,
            |out| {
                if let Some(p) = permissions {
                    let _ = out.set_permissions(p);
                }
                let mut buf = std::io::BufWriter::with_capacity(1 << 16, out);
                let done = fill(&mut file, &mut buf);
                let flushed = buf.flush();
                match (done, flushed) {
                    (Ok(true), Ok(())) => {
                        outcome = Some(true);
                        Ok(())
                    }
                    (Ok(true), Err(e)) => Err(e),
                    (Ok(false), _) => {
                        outcome = Some(false);
                        Err(std::io::Error::other("unchanged"))
                    }
                    (Err(e), _) => {
                        failed = Some(e);
                        Err(std::io::Error::other("failed"))
                    }
                }
            },
        );
        if !existed && outcome != Some(true) && file.metadata().is_ok_and(|m| m.len() == 0) {
            // Left as it was: no file where there was none.
            let _ = std::fs::remove_file(&self.path);
        }
        if let Some(e) = failed {
            return Err(e);
        }
        match (outcome, replaced) {
            (Some(false), _) => Ok(false),
            (_, Ok(())) => Ok(true),
            (_, Err(e)) => {
                Err(e).with_context(|| format!("cannot replace {}", self.path.display()))
            }
        }
    }

    /// Write one record line to a locked file; on failure, restore `len`.
    fn write_line(&self, file: &mut File, len: u64, record: &T) -> Result<u64> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        let written = file.write_all(&line).and_then(|()| file.sync_data());
        if let Err(e) = written {
            // Leave the file as it was: drop whatever part of the line got in.
            let _ = file.set_len(len);
            return Err(e).with_context(|| format!("cannot write {}", self.path.display()));
        }
        Ok(len + line.len() as u64)
    }

    /// Can records be appended? (Creates the directory and file if needed.)
    pub fn check_writable(&self) -> Result<()> {
        self.open_for_append().map(drop)
    }

    /// Append `record` without reading the registry (for large journals).
    /// Returns the file's length before and after the record, as seen under
    /// the lock (so a cache of the file's prefix can be extended exactly).
    pub fn append(&self, record: &T) -> Result<(u64, u64)> {
        let (mut file, len) = self.open_for_append()?;
        let after = self.write_line(&mut file, len, record)?;
        Ok((len, after))
    }

    /// Append `record` unless `existing` finds its equal among the current
    /// records; both happen under one exclusive lock.
    pub fn append_unless(
        &self,
        record: T,
        existing: impl Fn(&[T]) -> Option<T>,
    ) -> Result<Appended<T>> {
        let (mut file, len) = self.open_for_append()?;
        let loaded = self.load(&mut file)?;
        if let Some(found) = existing(&loaded.records) {
            return Ok(Appended::Existing(found));
        }
        self.write_line(&mut file, len, &record)?;
        Ok(Appended::Added(record))
    }
}

/// Does `path` still name the open `file` (same device and inode)?
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Length of `file` up to the end of its last complete line, reading
/// backwards from the end in blocks (a registry may be large).
fn complete_len(file: &mut File, len: u64) -> std::io::Result<u64> {
    const BLOCK: u64 = 64 * 1024;
    let mut end = len;
    let mut buf = vec![0u8; BLOCK as usize];
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        let n = (end - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// The run journal of a state directory.
pub fn journal(dir: &Path, warn: Warn) -> Registry<crate::kernel::journal::RunRecord> {
    Registry::new(dir.join(JOURNAL_FILE), warn)
}

/// File name of the run journal inside the state directory.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The dead-end registry of a state directory.
pub fn dead_ends(dir: &Path, warn: Warn) -> Registry<crate::kernel::promote::DeadEndRecord> {
    Registry::new(dir.join("dead-ends.jsonl"), warn)
}

/// The knowhow registry of a state directory.
pub fn knowhow(dir: &Path, warn: Warn) -> Registry<crate::kernel::promote::KnowhowRecord> {
    Registry::new(dir.join("knowhow.jsonl"), warn)
}
