//! Following an append-only file (the journal) as it grows: each call reads
//! the complete lines appended since the last, at most a chunk at a time,
//! so a reader that stays up all night holds no more than a chunk of it.
//! A file replaced or cut (a rewrite by `arx journal import --undo`, a
//! restore) is noticed and read again from its start.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The most bytes one call reads (a line longer than this is read whole).
pub const CHUNK: usize = 4 << 20;

/// How many bytes before the read position are remembered, to notice a
/// file rewritten in place to the same length or longer.
const GUARD: usize = 64;

/// What a call found.
#[derive(Debug, PartialEq)]
pub enum Appended {
    /// Complete lines appended since the last call (possibly none).
    Lines(Vec<u8>),
    /// The file is not the one read so far: these are its first complete
    /// lines; whatever was built from the old one is to be dropped.
    Restarted(Vec<u8>),
}

/// A reader of `path` that remembers where it is.
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    /// The file's identity (device, inode) when last read.
    identity: Option<(u64, u64)>,
    /// Bytes of complete lines consumed.
    offset: u64,
    /// The last [`GUARD`] bytes before `offset`.
    guard: Vec<u8>,
}

impl Follower {
    pub fn new(path: &Path) -> Follower {
        Follower {
            path: path.to_path_buf(),
            identity: None,
            offset: 0,
            guard: Vec::new(),
        }
    }

    /// Bytes of complete lines read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The complete lines appended since the last call, at most about
    /// [`CHUNK`] bytes of them (call again while it returns a full
    /// chunk). No file yet: no lines.
    pub fn read(&mut self) -> Result<Appended> {
        let mut file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let restarted = self.offset > 0;
                self.reset(None);
                return Ok(if restarted {
                    Appended::Restarted(Vec::new())
                } else {
                    Appended::Lines(Vec::new())
                });
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read {}", self.path.display()))
            }
        };
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        let identity = Some((meta.dev(), meta.ino()));
        let same = identity == self.identity
            && meta.len() >= self.offset
            && self.guard_holds(&mut file)?;
        let restarted = !same && self.offset > 0;
        if !same {
            self.reset(identity);
        }
        let lines = self.next_lines(&mut file, meta.len())?;
        Ok(if restarted {
            Appended::Restarted(lines)
        } else {
            Appended::Lines(lines)
        })
    }

    fn reset(&mut self, identity: Option<(u64, u64)>) {
        self.identity = identity;
        self.offset = 0;
        self.guard.clear();
    }

    /// Do the bytes before the read position still say what they said?
    fn guard_holds(&self, file: &mut File) -> Result<bool> {
        if self.guard.is_empty() {
            return Ok(true);
        }
        let at = self.offset - self.guard.len() as u64;
        file.seek(SeekFrom::Start(at))?;
        let mut now = vec![0; self.guard.len()];
        file.read_exact(&mut now)?;
        Ok(now == self.guard)
    }

    /// The complete lines from the read position, a chunk at most (more
    /// when one line is longer), and the position moved past them.
    fn next_lines(&mut self, file: &mut File, len: u64) -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        file.seek(SeekFrom::Start(self.offset))?;
        let want = (len - self.offset).min(CHUNK as u64);
        (&mut *file).take(want).read_to_end(&mut buf)?;
        let mut end = memchr::memrchr(b'\n', &buf).map_or(0, |i| i + 1);
        // One line longer than a chunk: read on to its end.
        while end == 0 && self.offset + (buf.len() as u64) < len {
            let at = buf.len();
            (&mut *file).take(CHUNK as u64).read_to_end(&mut buf)?;
            if buf.len() == at {
                break;
            }
            end = memchr::memrchr(b'\n', &buf[at..]).map_or(0, |i| at + i + 1);
        }
        buf.truncate(end);
        self.offset += end as u64;
        let keep = buf.len().min(GUARD);
        if keep > 0 {
            let start = buf.len() - keep;
            if keep < GUARD {
                let mut guard = std::mem::take(&mut self.guard);
                guard.extend_from_slice(&buf[start..]);
                let cut = guard.len().saturating_sub(GUARD);
                self.guard = guard.split_off(cut);
            } else {
                self.guard = buf[start..].to_vec();
            }
        }
        Ok(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    #[test]
    fn reads_complete_lines_as_they_are_appended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut f = Follower::new(&path);
        assert_eq!(f.read().unwrap(), Appended::Lines(vec![]));
        append(&path, "a\nb\nhalf");
        assert_eq!(f.read().unwrap(), Appended::Lines(b"a\nb\n".to_vec()));
        assert_eq!(f.read().unwrap(), Appended::Lines(vec![]));
        append(&path, " done\n");
        assert_eq!(f.read().unwrap(), Appended::Lines(b"half done\n".to_vec()));
        assert_eq!(f.offset(), 14);
    }

    #[test]
    fn a_file_replaced_or_rewritten_is_read_again_from_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut f = Follower::new(&path);
        append(&path, "first line\nsecond line\n");
        f.read().unwrap();
        // Replaced by a rename: another file.
        let other = dir.path().join("new");
        std::fs::write(&other, "only line\n").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert_eq!(
            f.read().unwrap(),
            Appended::Restarted(b"only line\n".to_vec())
        );
        // Rewritten in place, longer, with other text before the position.
        std::fs::write(&path, "ONLY LINE\nand more\n").unwrap();
        assert_eq!(
            f.read().unwrap(),
            Appended::Restarted(b"ONLY LINE\nand more\n".to_vec())
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(f.read().unwrap(), Appended::Restarted(vec![]));
    }

    #[test]
    fn a_long_journal_comes_a_chunk_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let line = format!("{}\n", "x".repeat(999));
        append(&path, &line.repeat(CHUNK / 1000 * 3));
        let mut f = Follower::new(&path);
        let mut total = 0;
        loop {
            let Appended::Lines(b) = f.read().unwrap() else {
                panic!("not restarted")
            };
            if b.is_empty() {
                break;
            }
            assert!(b.len() <= CHUNK && b.ends_with(b"\n"));
            total += b.len();
        }
        assert_eq!(total, line.len() * (CHUNK / 1000 * 3));
    }
}
