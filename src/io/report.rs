//! Reading the journal for `arx report`: the file is mapped (not copied),
//! its lines are parsed into report points on several threads, in journal
//! order (and into the engines' observations in the same pass when the
//! precision history is stale); and the report's files are written
//! atomically.

use std::convert::Infallible;
use std::path::Path;

use anyhow::{Context, Result};

use serde::{Deserialize, Serialize};

use super::history::{self, Replay};
use super::mapped::{parse_workers, JournalBytes};
use super::Warn;
use crate::engine::history::Observation;
use crate::engine::observe::{self, for_each_chunk, for_each_observation};
use crate::kernel::report::{parse_line, parse_line_with, Fold, Point};

/// The report's cache in the state directory: the fold of the journal's
/// complete lines, keyed by their length and a hash of their end. Derived:
/// rebuilt when missing or stale, never committed.
pub const CACHE_FILE: &str = "report.json";

/// The journal's bytes: mapped under a shared lock, or read (see
/// [`JournalBytes`]); empty when there is no journal.
pub struct JournalText {
    bytes: JournalBytes,
}

impl JournalText {
    /// Open `journal` (no file: an empty journal).
    pub fn open(journal: &Path) -> Result<JournalText> {
        Ok(JournalText {
            bytes: JournalBytes::open(journal)?,
        })
    }

    pub fn bytes(&self) -> &[u8] {
        self.bytes.bytes()
    }
}

/// A part's points, its count of unreadable lines and its observations.
type Observed<'a> = ((Vec<Point<'a>>, usize), Vec<Observation<'a>>);

/// The run records of `piece` (journal lines) as report points, in order,
/// not yet numbered; how many non-blank lines are not run records (torn or
/// foreign lines, skipped); and, when `observe` is set, the engines'
/// observations of the same lines (as `engine::observe` reads them), taking
/// the members the engines read from the report's walk over each line
/// instead of walking it again.
fn parse(piece: &[u8], observe: bool) -> Observed<'_> {
    let mut points = Vec::with_capacity(piece.len() / 512 + 1);
    let mut observed = Vec::new();
    let mut unreadable = 0;
    let mut members = Vec::new();
    for line in lines(piece) {
        members.clear();
        let (point, walked) = parse_line_with(line, |key, value| {
            if observe && observe::reads(key) {
                members.push((key, value));
            }
        });
        match point {
            Some(p) => points.push(p),
            None => unreadable += 1,
        }
        if observe {
            let seen = if walked {
                observe::observe_members(&members)
            } else {
                None
            };
            observed.extend(seen.or_else(|| observe::observe_line(line)));
        }
    }
    ((points, unreadable), observed)
}

/// The lines of `piece` that are not blank.
fn lines(piece: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', piece)
        .chain(std::iter::once(piece.len()))
        .filter_map(move |end| {
            let line = &piece[start..end];
            start = end + 1;
            (!line.iter().all(|b| b.is_ascii_whitespace())).then_some(line)
        })
}

/// Parse `bytes` (journal lines, the last one even without its line
/// break) part by part on several threads, handing each part's points,
/// count of unreadable lines and, when `observe` is set, the engines'
/// observations of its complete lines to `each`, in journal order.
fn each_part<'a>(
    bytes: &'a [u8],
    observe: bool,
    mut each: impl FnMut(Vec<Point<'a>>, usize, Vec<Observation<'a>>),
) {
    let end = complete(bytes);
    let read = |chunk: &'a [u8]| parse(chunk, observe);
    let whole = for_each_chunk(&bytes[..end], parse_workers(), read, |((p, bad), o)| {
        each(p, bad, o);
        Ok::<(), Infallible>(())
    });
    let Ok(()) = whole;
    if end < bytes.len() {
        let ((p, bad), _) = parse(&bytes[end..], false);
        each(p, bad, Vec::new());
    }
}

/// A rebuild of the precision history riding on a reading of the whole
/// journal: fed the observations of each part as it is read, so a stale
/// history costs no second reading.
struct Riding {
    replay: Replay,
    failed: Option<anyhow::Error>,
}

impl Riding {
    fn feed(&mut self, observed: Vec<Observation<'_>>) {
        for o in &observed {
            if self.failed.is_none() {
                self.failed = self.replay.observe(o).err();
            }
        }
    }

    fn finish(self, bytes: &[u8]) -> Result<history::Cache> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.replay.finish(bytes)),
        }
    }
}

/// Replay the whole journal `bytes` into `replay` on its own.
fn replay_alone(mut replay: Replay, bytes: &[u8]) -> Result<history::Cache> {
    for_each_observation(bytes, parse_workers(), |o| replay.observe(&o))?;
    Ok(replay.finish(bytes))
}

/// Every run record of `bytes` (journal lines) as a report point, in
/// journal order, not yet numbered; and how many non-blank lines are not
/// run records (torn or foreign lines, skipped).
pub fn points(bytes: &[u8]) -> (Vec<Point<'_>>, usize) {
    let (points, unreadable, _) = read_all(bytes, None);
    (points, unreadable)
}

/// [`points`], and the precision history rebuilt in the same reading when
/// a `replay` is given (see [`history::current`]).
pub fn points_replaying(
    bytes: &[u8],
    replay: Option<Replay>,
) -> Result<(Vec<Point<'_>>, usize, Option<history::Cache>)> {
    let riding = replay.map(|replay| Riding {
        replay,
        failed: None,
    });
    let (points, unreadable, riding) = read_all(bytes, riding);
    let history = riding.map(|r| r.finish(bytes)).transpose()?;
    Ok((points, unreadable, history))
}

fn read_all(bytes: &[u8], mut riding: Option<Riding>) -> (Vec<Point<'_>>, usize, Option<Riding>) {
    let mut points = Vec::with_capacity(bytes.len() / 1024);
    let mut unreadable = 0;
    each_part(bytes, riding.is_some(), |p, bad, observed| {
        points.extend(p);
        unreadable += bad;
        if let Some(r) = riding.as_mut() {
            r.feed(observed);
        }
    });
    (points, unreadable, riding)
}

/// The shape of the cached fold; a cache of another shape (an older arx's,
/// without lanes and slots, or one that started a segment again at a late
/// record of an earlier one, or whose slot effects were signed better-is-
/// positive, or that took a keep waiting for other classes for the best)
/// is rebuilt.
const CACHE_VERSION: u32 = 12;

#[derive(Serialize, Deserialize)]
struct Cache {
    #[serde(default)]
    version: u32,
    /// Bytes of the journal folded: complete lines only.
    journal_bytes: u64,
    /// [`history::tail_key`] of those bytes.
    journal_tail: String,
    unreadable: usize,
    fold: Fold,
}

/// The end of the journal's last complete line.
fn complete(bytes: &[u8]) -> usize {
    memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1)
}

/// Fold `points` after `fold` (numbering them).
fn extend(fold: &mut Fold, points: &mut [Point<'_>]) {
    for p in points.iter_mut() {
        fold.number(p);
        fold.add(p);
    }
}

/// The fold of the whole journal `bytes` and its count of unreadable
/// lines: the cache in `state` extended by the lines appended since it was
/// saved, or a fold of every line when it does not describe the start of
/// this journal. The cache is brought up to date when the state directory
/// exists (a cache that cannot be saved is reported to `warn`). Given a
/// `replay` (a stale precision history), the history is rebuilt too: in
/// the same reading when every line is folded.
pub fn fold(
    state: &Path,
    bytes: &[u8],
    warn: Warn,
    replay: Option<Replay>,
) -> Result<(Fold, usize, Option<history::Cache>)> {
    let path = state.join(CACHE_FILE);
    let end = complete(bytes);
    let cached: Option<Cache> = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .filter(|c: &Cache| {
            let n = c.journal_bytes as usize;
            c.version == CACHE_VERSION
                && n <= end
                && (n == 0 || bytes[n - 1] == b'\n')
                && history::tail_key(&bytes[..n]) == c.journal_tail
        });
    let (mut fold, mut unreadable, from) = match cached {
        Some(c) => (c.fold, c.unreadable, c.journal_bytes as usize),
        None => (Fold::default(), 0, 0),
    };
    let (mut riding, alone) = match replay {
        Some(replay) if from == 0 => (
            Some(Riding {
                replay,
                failed: None,
            }),
            None,
        ),
        other => (None, other),
    };
    let fresh = from < end;
    if fresh {
        // Part by part, so memory stays bounded by a few parts' points
        // whatever the journal's size.
        each_part(
            &bytes[from..end],
            riding.is_some(),
            |mut new, bad, observed| {
                extend(&mut fold, &mut new);
                unreadable += bad;
                if let Some(r) = riding.as_mut() {
                    r.feed(observed);
                }
            },
        );
    }
    let history = match (riding, alone) {
        (Some(r), _) => Some(r.finish(bytes)?),
        (None, Some(replay)) => Some(replay_alone(replay, bytes)?),
        (None, None) => None,
    };
    if fresh && state.is_dir() {
        let cache = Cache {
            version: CACHE_VERSION,
            journal_bytes: end as u64,
            journal_tail: history::tail_key(&bytes[..end]),
            unreadable,
            fold: fold.clone(),
        };
        save_cache(&path, &cache, warn);
    }
    // A last line without its line break (being written, or torn) counts
    // for this report only.
    if end < bytes.len() {
        let ((mut last, bad), _) = parse(&bytes[end..], false);
        extend(&mut fold, &mut last);
        unreadable += bad;
    }
    Ok((fold, unreadable, history))
}

fn save_cache(path: &Path, cache: &Cache, warn: Warn) {
    let saved = serde_json::to_vec(cache)
        .map_err(anyhow::Error::from)
        .and_then(|b| write_file(path, &b));
    if let Err(e) = saved {
        warn(&format!("cannot save the report cache: {e:#}"));
    }
}

/// How much written journal [`Refold`] holds before folding it.
const REFOLD_PART: usize = 8 << 20;

/// The report's cached fold of a journal being rewritten as a stream (an
/// import, or its undo): fed every byte written, in order (through
/// [`Refold::tee`]), it folds them a few MiB at a time, so that
/// [`Refold::save`] leaves the cache current for the new journal and the
/// next command does not fold it all again. Memory stays bounded by one
/// part whatever the journal's size.
#[derive(Default)]
pub struct Refold {
    fold: Fold,
    unreadable: usize,
    /// Written, not yet folded (the last line may be partial).
    pending: Vec<u8>,
    /// Bytes folded so far.
    folded: u64,
    /// The last [`history::TAIL_BYTES`] folded, for the cache's key.
    tail: Vec<u8>,
}

impl Refold {
    /// A writer that writes to `out` and feeds what it wrote to `self`.
    pub fn tee<'a>(&'a mut self, out: &'a mut dyn std::io::Write) -> impl std::io::Write + 'a {
        Tee { out, refold: self }
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= REFOLD_PART {
            self.fold_pending();
        }
    }

    /// Fold the complete lines pending.
    fn fold_pending(&mut self) {
        let end = complete(&self.pending);
        let (fold, unreadable) = (&mut self.fold, &mut self.unreadable);
        each_part(&self.pending[..end], false, |mut new, bad, _| {
            extend(fold, &mut new);
            *unreadable += bad;
        });
        let keep = history::TAIL_BYTES as usize;
        self.tail
            .extend_from_slice(&self.pending[end.saturating_sub(keep)..end]);
        let over = self.tail.len().saturating_sub(keep);
        self.tail.drain(..over);
        self.folded += end as u64;
        self.pending.drain(..end);
    }

    /// Save the fold of everything written as the cache in `state` (a
    /// cache that cannot be saved is reported to `warn`). Call it once the
    /// rewrite is in place.
    pub fn save(mut self, state: &Path, warn: Warn) {
        self.fold_pending();
        let cache = Cache {
            version: CACHE_VERSION,
            journal_bytes: self.folded,
            journal_tail: history::tail_key(&self.tail),
            unreadable: self.unreadable,
            fold: self.fold,
        };
        save_cache(&state.join(CACHE_FILE), &cache, warn);
    }
}

struct Tee<'a> {
    out: &'a mut dyn std::io::Write,
    refold: &'a mut Refold,
}

impl std::io::Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.refold.feed(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The last `n` run records of the journal `bytes`, read from its end, in
/// journal order, numbered to match `fold` (the fold of the same bytes),
/// each with its journal position.
pub fn tail<'a>(bytes: &'a [u8], fold: &Fold, n: usize) -> Vec<(usize, Point<'a>)> {
    let mut out: Vec<Point<'a>> = Vec::with_capacity(n);
    let mut end = bytes.len();
    while out.len() < n && end > 0 {
        let start = memchr::memrchr(b'\n', &bytes[..end.saturating_sub(1)]).map_or(0, |i| i + 1);
        let line = &bytes[start..end];
        if !line.iter().all(|b| b.is_ascii_whitespace()) {
            if let Some(p) = parse_line(line) {
                out.push(p);
            }
        }
        end = start;
    }
    // Newest first: number segments backwards from the fold's last one.
    let mut number = fold.segments.len();
    let mut id = fold.last_segment_id.clone();
    let mut later_started = false;
    for p in out.iter_mut() {
        let Some(pid) = &p.segment else { continue };
        if later_started || id.as_deref() != Some(pid.as_ref()) {
            number = number.saturating_sub(1);
            id = Some(pid.to_string());
        }
        p.segment_number = number;
        later_started = p.new_segment;
    }
    out.reverse();
    let first = fold.runs + 1 - out.len();
    out.into_iter()
        .enumerate()
        .map(|(i, p)| (first + i, p))
        .collect()
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
    use crate::engine::observe::line_windows;

    fn line(id: &str, segment: &str, status: &str, new_segment: bool) -> String {
        format!(
            "{{\"run_id\":\"{id}\",\"started_at\":\"2026-01-01T00:00:00Z\",\"metrics\":{{\"m\":1}},\
             \"exit_code\":0,\"timed_out\":false,\"failure_class\":\"none\",\"ratchet\":{{\"segment\":\"{segment}\",\
             \"new_segment\":{new_segment},\"status\":\"{status}\",\"metric\":\"m\",\"direction\":\"min\",\"kept\":\"k\"}}}}\n"
        )
    }

    fn journal() -> String {
        [
            line("a", "s1", "baseline", false),
            line("b", "s1", "keep", false),
            line("c", "s2", "baseline", false),
            "{\"torn\n".to_string(),
            line("d", "s2", "discard", false),
            line("e", "s2", "baseline", true),
            line("f", "s2", "keep", false),
        ]
        .concat()
    }

    #[test]
    fn windows_cut_at_line_ends_and_cover_everything() {
        let text = journal();
        for size in [1, 7, 64, 200, text.len(), text.len() + 10] {
            let w = line_windows(text.as_bytes(), size);
            assert_eq!(w.concat(), text.as_bytes(), "size {size}");
            for piece in &w[..w.len() - 1] {
                assert_eq!(piece.last(), Some(&b'\n'), "size {size}");
            }
        }
        assert!(line_windows(b"", 8).is_empty());
    }

    #[test]
    fn folding_window_by_window_is_folding_at_once() {
        let text = journal().repeat(50);
        let (mut all, bad_all) = points(text.as_bytes());
        let mut whole = Fold::default();
        extend(&mut whole, &mut all);
        let mut windowed = Fold::default();
        let mut bad = 0;
        for w in line_windows(text.as_bytes(), 300) {
            let (mut p, b) = points(w);
            extend(&mut windowed, &mut p);
            bad += b;
        }
        assert_eq!(bad, bad_all);
        assert_eq!(
            serde_json::to_value(&windowed).unwrap(),
            serde_json::to_value(&whole).unwrap()
        );
    }

    #[test]
    fn the_cached_fold_extended_by_new_lines_is_the_fold_of_everything() {
        let dir = tempfile::tempdir().unwrap();
        let text = journal();
        let cut = text.find("{\"run_id\":\"e\"").unwrap();
        let (first, _, _) = fold(dir.path(), &text.as_bytes()[..cut], |_| {}, None).unwrap();
        assert_eq!(first.runs, 4);
        assert!(dir.path().join(CACHE_FILE).exists());
        let (extended, bad, _) = fold(dir.path(), text.as_bytes(), |_| {}, None).unwrap();
        let mut all = points(text.as_bytes()).0;
        let whole = crate::kernel::report::fold_all(&mut all);
        assert_eq!(extended, whole);
        assert_eq!((whole.runs, whole.segments.len(), bad), (6, 3, 1));
        // A journal that is not the cached one's continuation is folded anew.
        let other = journal().replace("\"b\"", "\"x\"");
        let (again, _, _) = fold(dir.path(), other.as_bytes(), |_| {}, None).unwrap();
        assert_eq!(again.segments[0].kept.as_ref().unwrap().run_id, "x");
    }

    #[test]
    fn the_tail_is_numbered_as_the_whole_journal_is() {
        let text = journal();
        let mut all = points(text.as_bytes()).0;
        let whole = crate::kernel::report::fold_all(&mut all);
        for n in 0..=7 {
            let t = tail(text.as_bytes(), &whole, n);
            assert_eq!(t.len(), n.min(6));
            for (pos, p) in &t {
                assert_eq!(p.run_id, all[pos - 1].run_id);
                assert_eq!(
                    p.segment_number,
                    all[pos - 1].segment_number,
                    "{}",
                    p.run_id
                );
            }
        }
    }

    #[test]
    fn the_precision_history_rebuilt_in_the_reading_is_the_engines_own() {
        let dir = tempfile::tempdir().unwrap();
        // Runs the engines count: candidates, verdicts, failures, tags; and
        // lines they skip. Many of them, so the reading goes in parts.
        let mut text = String::new();
        for i in 0..40_000 {
            let verdict = ["supported", "refuted", "inconclusive"][i % 3];
            text.push_str(&format!(
                "{{\"run_id\":\"r{i}\",\"started_at\":\"2026-11-0{}T10:00:00Z\",\"candidate\":\"c{}\",\"tags\":[\"t{}\"],\"exit_code\":{},\"verdict\":{{\"verdict\":\"{verdict}\"}},\"stdout_tail\":\"{}\"}}\n",
                1 + i % 7,
                i % 5,
                i % 2,
                i % 4,
                "x".repeat(200)
            ));
            if i % 1000 == 0 {
                text.push_str("{\"torn\n");
            }
            // Lines the two readers read differently, each left to its own
            // rules: an escaped tag, an unknown verdict, a repeated member
            // only the engines read, an escaped value the report reads, a
            // verdict with a member that is not a scalar, no run id.
            if i % 997 == 0 {
                let odd = [
                    r#"{"run_id":"o1","candidate":"c1","tags":["a\"b"],"verdict":{"verdict":"supported"}}"#,
                    r#"{"run_id":"o2","candidate":"c2","verdict":{"verdict":"weird"}}"#,
                    r#"{"run_id":"o3","candidate":"c3","tags":["x"],"tags":["y"]}"#,
                    r#"{"run_id":"o4","candidate":"c\u00e9","exit_code":3}"#,
                    r#"{"run_id":"o5","candidate":"c1","verdict":{"verdict":"refuted","x":[1,2]}}"#,
                    r#"{"candidate":"c4","exit_code":1}"#,
                ];
                text.push_str(odd[(i / 997) % odd.len()]);
                text.push('\n');
            }
        }
        // A last line without its line break: the report counts it, the
        // engines (complete lines only) do not.
        text.push_str("{\"run_id\":\"last\"}");
        let journal = dir.path().join("journal.jsonl");
        std::fs::write(&journal, &text).unwrap();
        let own = history::rebuild(&journal, Some(20_000)).unwrap();
        let own = serde_json::to_value(&own).unwrap();
        let bytes = JournalText::open(&journal).unwrap();
        let bytes = bytes.bytes();
        assert!(bytes.len() > 8 << 20, "more than one part");
        // Folding every line: in the same reading.
        let state = dir.path().join("state");
        std::fs::create_dir(&state).unwrap();
        let replay = Some(Replay::new(Some(20_000)));
        let (_, _, rebuilt) = fold(&state, bytes, |_| {}, replay).unwrap();
        assert_eq!(serde_json::to_value(rebuilt.unwrap()).unwrap(), own);
        // The report's cache is fresh, so only the history is read.
        let replay = Some(Replay::new(Some(20_000)));
        let (_, _, rebuilt) = fold(&state, bytes, |_| {}, replay).unwrap();
        assert_eq!(serde_json::to_value(rebuilt.unwrap()).unwrap(), own);
        // Reading every record for the page.
        let replay = Some(Replay::new(Some(20_000)));
        let (points, _, rebuilt) = points_replaying(bytes, replay).unwrap();
        assert_eq!(points.len(), 40_001 + 41 - 6);
        assert_eq!(serde_json::to_value(rebuilt.unwrap()).unwrap(), own);
    }
}
