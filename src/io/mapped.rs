//! A journal's bytes for a reader that scans all of it: mapped (not copied)
//! while a shared lock keeps writers from changing it, or read into memory
//! when that lock cannot be had.
//!
//! Writers change the journal only under its exclusive lock: they append,
//! and they cut a torn or failed last line (`set_len`). A mapping of a file
//! cut shorter would fault on its lost pages, so the mapping lives only
//! under the shared lock. When a writer holds the lock for long (or this
//! very process does, through another handle), the reader does not wait:
//! it reads the file instead.

use std::fs::{File, TryLockError};
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

/// How often, and how far apart, the shared lock is tried before reading.
const LOCK_TRIES: u32 = 50;
const LOCK_PAUSE: Duration = Duration::from_millis(10);

/// Threads that parse a journal: the available cores, at most 8.
pub fn parse_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
}

/// The bytes of a journal (empty when there is none).
pub struct JournalBytes {
    inner: Inner,
}

enum Inner {
    Empty,
    /// Declared before the file: the mapping is dropped before the lock.
    Mapped {
        map: memmap2::Mmap,
        _locked: File,
    },
    Read(Vec<u8>),
}

impl JournalBytes {
    /// The journal at `path`; a missing file is an empty journal.
    pub fn open(path: &Path) -> Result<JournalBytes> {
        let cannot = || format!("cannot read {}", path.display());
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(JournalBytes {
                    inner: Inner::Empty,
                })
            }
            Err(e) => return Err(e).with_context(cannot),
        };
        let mut locked = false;
        for _ in 0..LOCK_TRIES {
            match file.try_lock_shared() {
                Ok(()) => {
                    locked = true;
                    break;
                }
                Err(TryLockError::WouldBlock) => std::thread::sleep(LOCK_PAUSE),
                Err(TryLockError::Error(e)) => return Err(e).with_context(cannot),
            }
        }
        let len = file.metadata().with_context(cannot)?.len();
        let inner = if len == 0 {
            Inner::Empty
        } else if locked {
            // SAFETY: writers change the journal only under its exclusive
            // lock, which this shared lock keeps out until the mapping is
            // dropped; a merge renames a new file over the path, which
            // leaves this mapping and its file intact.
            let map = unsafe { memmap2::Mmap::map(&file) }.with_context(cannot)?;
            Inner::Mapped { map, _locked: file }
        } else {
            let mut bytes = Vec::with_capacity(len as usize);
            file.read_to_end(&mut bytes).with_context(cannot)?;
            Inner::Read(bytes)
        };
        Ok(JournalBytes { inner })
    }

    pub fn bytes(&self) -> &[u8] {
        match &self.inner {
            Inner::Empty => &[],
            Inner::Mapped { map, .. } => map,
            Inner::Read(bytes) => bytes,
        }
    }

    /// Whether the bytes are a mapping (false: read, or empty).
    pub fn is_mapped(&self) -> bool {
        matches!(self.inner, Inner::Mapped { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_journal_keeps_writers_out_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, b"{\"a\":1}\n{\"torn").unwrap();
        let bytes = JournalBytes::open(&path).unwrap();
        assert!(bytes.is_mapped());
        assert_eq!(bytes.bytes(), b"{\"a\":1}\n{\"torn");
        // A writer (its own open file) cannot take the exclusive lock to
        // cut the torn line while the mapping lives.
        let writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        assert!(matches!(writer.try_lock(), Err(TryLockError::WouldBlock)));
        drop(bytes);
        writer.try_lock().unwrap();
        writer.set_len(8).unwrap();
    }

    #[test]
    fn a_journal_a_writer_holds_is_read_not_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, b"{\"a\":1}\n").unwrap();
        let writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        writer.lock().unwrap();
        let bytes = JournalBytes::open(&path).unwrap();
        assert!(!bytes.is_mapped());
        assert_eq!(bytes.bytes(), b"{\"a\":1}\n");
        // The writer may cut it now: the reader has its own copy.
        writer.set_len(0).unwrap();
        assert_eq!(bytes.bytes(), b"{\"a\":1}\n");
    }

    #[test]
    fn no_journal_and_an_empty_one_are_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        assert!(JournalBytes::open(&path).unwrap().bytes().is_empty());
        std::fs::write(&path, b"").unwrap();
        assert!(JournalBytes::open(&path).unwrap().bytes().is_empty());
    }
}
