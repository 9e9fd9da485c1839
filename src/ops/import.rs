//! The journal's side of `arx journal import`: the imported mark of a
//! journal line, where arx's own records start and which ids an import
//! added already, whole lines copied from the journal into its streamed
//! rewrite, the records an import added removed (`--undo`), and the
//! precision cache carried over a rewrite of imported records only (they
//! teach it nothing). The journal is read a line at a time: a journal of
//! any length in bounded memory.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::Result;
use serde::Deserialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::error::Hinted;
use crate::io::Warn;
use crate::kernel::import::{Imported, Source};

/// Of a journal line, what the import asks: its run id, and its imported
/// mark.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(default, borrow)]
    run_id: &'a str,
    #[serde(default, borrow)]
    ratchet: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct PeekRatchet {
    #[serde(default)]
    imported: Option<Imported>,
}

/// The imported mark of a journal line: `Some(None)` for a record of arx's
/// own, `None` for a line that is no record.
pub fn mark_of(line: &[u8]) -> Option<(String, Option<Imported>)> {
    let p: Peek<'_> = serde_json::from_slice(line).ok()?;
    let imported = p
        .ratchet
        .filter(|r| crate::engine::observe::imported_mark(r.get().as_bytes()));
    let mark = imported.and_then(|r| serde_json::from_str::<PeekRatchet>(r.get()).ok()?.imported);
    // Marked, but not readable as this version's mark: still imported.
    let mark = match (imported, mark) {
        (Some(_), None) => Some(Imported {
            from: Source::Karpathy,
            line: 0,
            import: None,
            file: None,
        }),
        (_, m) => m,
    };
    Some((p.run_id.to_string(), mark))
}

/// A run id as 128 bits (an import's ids are UUIDs), else its hash.
pub fn id_key(id: &str) -> u128 {
    uuid::Uuid::parse_str(id).map_or_else(
        |_| {
            u128::from_be_bytes(
                Sha256::digest(id.as_bytes())[..16]
                    .try_into()
                    .unwrap_or_default(),
            )
        },
        |u| u.as_u128(),
    )
}

/// Of the journal: where arx's own records start (after the imported
/// records it opens with), and the run ids of its imported records. A line
/// that is no record refuses the import.
pub fn scan_journal(journal: &mut File) -> Result<(u64, HashSet<u128>, bool)> {
    journal.seek(SeekFrom::Start(0))?;
    let mut reader = io::BufReader::with_capacity(1 << 16, &*journal);
    let (mut pos, mut at, mut own_seen) = (0u64, 0u64, false);
    let mut present = HashSet::new();
    let mut line = Vec::new();
    let mut unreadable = 0;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || !line.ends_with(b"\n") {
            // The end, or a torn last line (dropped, as every rewrite does).
            break;
        }
        pos += n as u64;
        match mark_of(&line) {
            None if line.iter().all(u8::is_ascii_whitespace) => {}
            None => unreadable += 1,
            Some((id, Some(_))) => {
                present.insert(id_key(&id));
            }
            Some((_, None)) => own_seen = true,
        }
        if !own_seen {
            at = pos;
        }
    }
    if unreadable > 0 {
        return Err(Hinted::error(
            format!("the journal has {unreadable} unreadable line(s); nothing imported"),
            "arx journal verify names them; arx journal merge rewrites the journal without them",
        ));
    }
    Ok((at, present, own_seen))
}

/// The precision cache when it covers the journal as it is.
pub fn history_before(state: &Path, journal: &Path) -> Option<crate::io::history::Cache> {
    crate::io::history::current(state, journal).ok()
}

/// After a rewrite that added or removed only imported records: the cache
/// carried over when it covered the journal before, or when the journal
/// holds no record of arx's own (an empty history); else rebuilt.
pub fn carry_history(
    state: &Path,
    journal: &Path,
    before: Option<crate::io::history::Cache>,
    own_records: bool,
    warn: Warn,
) {
    match before {
        Some(cache) => crate::io::history::carry(state, journal, cache, warn),
        None if !own_records => crate::io::history::carry(state, journal, Default::default(), warn),
        None => {
            if let Some(state) = journal.parent() {
                if let Err(e) = crate::io::history::load(state, journal, true, warn) {
                    warn(&format!("cannot refresh the precision state: {e:#}"));
                }
            }
        }
    }
}

/// Copy `journal`'s bytes `from..to` to `out`, only whole lines.
pub fn copy_range(journal: &mut File, from: u64, to: u64, out: &mut dyn Write) -> Result<()> {
    journal.seek(SeekFrom::Start(from))?;
    let mut reader = io::BufReader::with_capacity(1 << 16, (&*journal).take(to - from));
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 || !line.ends_with(b"\n") {
            return Ok(());
        }
        out.write_all(&line)?;
    }
}

/// What [`remove`] took out: the records, the imports they came from,
/// and the other imports the journal holds (id, file, records).
#[derive(Debug, Default)]
pub struct Removed {
    pub records: usize,
    pub imports: Vec<String>,
    pub others: std::collections::BTreeMap<String, (String, usize)>,
}

/// Copy the journal's lines to `out` but the records an import added:
/// the import `target` names by id, or every import of the file `file`.
pub fn remove(
    journal: &mut File,
    out: &mut dyn Write,
    target: &str,
    file: &str,
) -> Result<Removed> {
    journal.seek(SeekFrom::Start(0))?;
    let mut reader = io::BufReader::with_capacity(1 << 16, &*journal);
    let mut line = Vec::new();
    let mut removed = Removed::default();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 || !line.ends_with(b"\n") {
            return Ok(removed);
        }
        if let Some((_, Some(m))) = mark_of(&line) {
            let id = m.import.clone().unwrap_or_default();
            let named = m.file.clone().unwrap_or_default();
            if id == target || (!named.is_empty() && named == file) {
                removed.records += 1;
                if !removed.imports.contains(&id) {
                    removed.imports.push(id);
                }
                continue;
            }
            if !id.is_empty() {
                removed.others.entry(id).or_insert((named, 0)).1 += 1;
            }
        }
        out.write_all(&line)?;
    }
}
