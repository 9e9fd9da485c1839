//! Reading the journal for `arx report`: the file is mapped (not copied),
//! its lines are parsed into report points on several threads, in journal
//! order; and the report's files are written atomically.

use std::path::Path;

use anyhow::{Context, Result};

use crate::kernel::report::{number_segments, parse_line, Point};

/// The journal's bytes, mapped; empty when there is no journal.
pub struct JournalText {
    map: Option<memmap2::Mmap>,
}

impl JournalText {
    /// Map `journal` (no file: an empty journal).
    pub fn open(journal: &Path) -> Result<JournalText> {
        let file = match std::fs::File::open(journal) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(JournalText { map: None })
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", journal.display())),
        };
        let len = file
            .metadata()
            .with_context(|| format!("cannot read {}", journal.display()))?
            .len();
        if len == 0 {
            return Ok(JournalText { map: None });
        }
        // SAFETY: the journal is only read while mapped; writers append
        // under a lock and never truncate (a merge renames a new file over
        // it, which leaves this mapping intact).
        let map = unsafe { memmap2::Mmap::map(&file) }
            .with_context(|| format!("cannot read {}", journal.display()))?;
        Ok(JournalText { map: Some(map) })
    }

    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

/// Threads that parse the journal: the available cores, at most 8.
fn workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
}

/// `bytes` cut into about `n` pieces at line ends.
fn pieces(bytes: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for i in 1..=n {
        if start >= bytes.len() {
            break;
        }
        let mut end = (bytes.len() * i / n).max(start);
        if i == n {
            end = bytes.len();
        } else {
            end = match memchr::memchr(b'\n', &bytes[end..]) {
                Some(at) => end + at + 1,
                None => bytes.len(),
            };
        }
        out.push(&bytes[start..end]);
        start = end;
    }
    out
}

/// Every run record of the journal as a report point, in journal order,
/// with its segment numbered; and how many non-blank lines are not run
/// records (torn or foreign lines, skipped).
pub fn points(bytes: &[u8]) -> (Vec<Point<'_>>, usize) {
    fn parse(piece: &[u8]) -> (Vec<Point<'_>>, usize) {
        let mut points = Vec::with_capacity(piece.len() / 512 + 1);
        let mut unreadable = 0;
        for line in piece.split(|&b| b == b'\n') {
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            match parse_line(line) {
                Some(p) => points.push(p),
                None => unreadable += 1,
            }
        }
        (points, unreadable)
    }
    let pieces = pieces(bytes, workers());
    let parts: Vec<(Vec<Point<'_>>, usize)> = if pieces.len() <= 1 {
        pieces.into_iter().map(parse).collect()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = pieces
                .into_iter()
                .map(|piece| s.spawn(move || parse(piece)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a journal parser panicked"))
                .collect()
        })
    };
    let mut points = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut unreadable = 0;
    for (p, u) in parts {
        points.extend(p);
        unreadable += u;
    }
    number_segments(&mut points);
    (points, unreadable)
}

/// Write a report file: the whole new file or the old one, never through
/// a symbolic link.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    super::rounds::write_bytes_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_at_line_ends_and_cover_everything() {
        let text = b"aaa\nbb\nc\n\ndddd\ne";
        for n in 1..8 {
            let p = pieces(text, n);
            assert_eq!(p.concat(), text.to_vec());
            for piece in &p[..p.len() - 1] {
                assert!(piece.ends_with(b"\n"));
            }
        }
        assert!(pieces(b"", 4).is_empty());
    }
}
