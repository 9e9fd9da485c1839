//! The engines' view of the journal, and its cache `.arx/precision.json`.
//!
//! The cache holds the [`History`] folded from the journal and the journal's
//! size when it was folded. `arx run` extends it by one observation after
//! appending its record; anything else (a merge, a hand edit, a missing or
//! damaged cache) makes it stale, and it is rebuilt by replaying the
//! journal, so every machine with the same journal gets the same state.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::rounds::write_json_atomic;
use crate::engine::history::{History, Observation};
use crate::engine::precision::Hierarchy;
use crate::kernel::journal::RunRecord;
use crate::kernel::verdict::Verdict;

/// The cache file.
pub fn cache_path(state: &Path) -> PathBuf {
    state.join("precision.json")
}

/// `.arx/precision.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Cache {
    /// Size of the journal (bytes) the history was folded from.
    pub journal_bytes: u64,
    /// Precision was reset after this many runs (`arx precision reset`).
    #[serde(default)]
    pub reset_after: Option<u64>,
    pub history: History,
}

#[derive(Deserialize)]
struct VerdictView {
    verdict: Verdict,
}

/// The fields of a journal record the engines use (the rest is skipped).
#[derive(Deserialize, Default)]
struct View<'a> {
    #[serde(borrow, default)]
    candidate: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tags: Vec<Cow<'a, str>>,
    #[serde(default)]
    exit_code: i64,
    #[serde(default)]
    timed_out: bool,
    #[serde(default)]
    interrupted: bool,
    #[serde(default)]
    stopped_on_result: bool,
    #[serde(default)]
    verdict: Option<VerdictView>,
    #[serde(borrow, default)]
    state_fingerprint: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    started_at: Option<Cow<'a, str>>,
}

fn unix(text: Option<&str>) -> Option<i64> {
    text.and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .map(|t| t.as_second())
}

/// Did a run execute cleanly? Not after a crash, a timeout, a missing
/// dependency or an interruption; and an inconclusive verdict counts as a
/// failure of the execution level (it is not a success or failure of the
/// candidate).
fn executed_cleanly(
    exit_code: i64,
    stopped_on_result: bool,
    timed_out: bool,
    interrupted: bool,
    verdict: Option<Verdict>,
) -> bool {
    (exit_code == 0 || stopped_on_result)
        && !timed_out
        && !interrupted
        && verdict != Some(Verdict::Inconclusive)
}

/// Runs the weekday test looks at: refuted, or not executed cleanly.
fn failing(clean: bool, verdict: Option<Verdict>) -> bool {
    !clean || verdict == Some(Verdict::Refuted)
}

fn observe_view(v: View<'_>) -> Observation<'_> {
    let verdict = v.verdict.as_ref().map(|x| x.verdict);
    let clean = executed_cleanly(
        v.exit_code,
        v.stopped_on_result,
        v.timed_out,
        v.interrupted,
        verdict,
    );
    Observation {
        candidate: v.candidate,
        tags: v.tags,
        executed_cleanly: clean,
        verdict,
        state_fingerprint: v.state_fingerprint,
        // Only failing runs are placed in the week (parsing a time costs).
        started_unix: failing(clean, verdict)
            .then(|| unix(v.started_at.as_deref()))
            .flatten(),
    }
}

/// The observation of one journal record (the same rules as for a line).
pub fn observation(record: &RunRecord) -> Observation<'_> {
    observe_view(View {
        candidate: record.candidate.as_deref().map(Cow::Borrowed),
        tags: record
            .tags
            .iter()
            .map(|t| Cow::Borrowed(t.as_str()))
            .collect(),
        exit_code: record.exit_code,
        timed_out: record.timed_out,
        interrupted: record.interrupted,
        stopped_on_result: record.stopped_on_result,
        verdict: record
            .verdict
            .as_ref()
            .map(|v| VerdictView { verdict: v.verdict }),
        state_fingerprint: record.state_fingerprint.as_deref().map(Cow::Borrowed),
        started_at: Some(Cow::Borrowed(&record.started_at)),
    })
}

/// The top-level keys the engines read, each with its bit in a set of
/// seen keys; `None` for any other key.
fn wanted_bit(key: &[u8]) -> Option<u32> {
    Some(match key {
        b"candidate" => 0,
        b"tags" => 1,
        b"exit_code" => 2,
        b"timed_out" => 3,
        b"interrupted" => 4,
        b"stopped_on_result" => 5,
        b"verdict" => 6,
        b"state_fingerprint" => 7,
        b"started_at" => 8,
        _ => return None,
    })
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// End of the JSON string starting at `b[i] == '"'`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        let at = j + memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[at] == b'\\' {
            j = at + 2;
        } else {
            return Some(at + 1);
        }
    }
}

/// End of the JSON value starting at `b[i]` (strings are jumped over with
/// a SIMD search; containers are matched by depth).
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The record with only the keys the engines read, as a small JSON object,
/// found by walking the top level; `None` when the line is not an object.
/// Escaped keys are passed on for serde to decode and judge.
fn wanted_fields(line: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(256);
    out.push(b'{');
    walk_object(line, |key, value| {
        if wanted_bit(key).is_some() || key.contains(&b'\\') {
            if out.len() > 1 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(key);
            out.extend_from_slice(b"\":");
            out.extend_from_slice(value);
        }
        Some(())
    })?;
    out.push(b'}');
    Some(out)
}

/// An observation that owns its strings.
fn owned(o: Observation<'_>) -> Observation<'static> {
    Observation {
        candidate: o.candidate.map(|c| Cow::Owned(c.into_owned())),
        tags: o
            .tags
            .into_iter()
            .map(|t| Cow::Owned(t.into_owned()))
            .collect(),
        executed_cleanly: o.executed_cleanly,
        verdict: o.verdict,
        state_fingerprint: o.state_fingerprint.map(|f| Cow::Owned(f.into_owned())),
        started_unix: o.started_unix,
    }
}

/// The text of a JSON string token `b[i..end]` (quotes included) when it
/// needs no decoding: no escape, no control character, valid UTF-8.
/// `None` sends the line to the general path, which decodes (or rejects)
/// it exactly as serde does.
fn plain_str(token: &[u8]) -> Option<&str> {
    let inner = token.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if inner.iter().any(|&c| c == b'\\' || c < 0x20) {
        return None;
    }
    std::str::from_utf8(inner).ok()
}

/// A string, or `null` for `None`, in the plain form of [`plain_str`].
fn plain_opt_str(token: &[u8]) -> Option<Option<Cow<'_, str>>> {
    if token == b"null" {
        Some(None)
    } else {
        plain_str(token).map(|t| Some(Cow::Borrowed(t)))
    }
}

fn plain_bool(token: &[u8]) -> Option<bool> {
    match token {
        b"true" => Some(true),
        b"false" => Some(false),
        _ => None,
    }
}

/// A JSON integer that fits an `i64` (a number without fraction or
/// exponent). `-0` is left to serde, which reads it as a float and so
/// rejects it.
fn plain_int(token: &[u8]) -> Option<i64> {
    if !json_number(token)
        || token.iter().any(|c| matches!(c, b'.' | b'e' | b'E'))
        || token == b"-0"
    {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn json_number(token: &[u8]) -> bool {
    let digits = |t: &[u8]| t.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut t = token.strip_prefix(b"-").unwrap_or(token);
    match t.first() {
        Some(b'0') => t = &t[1..],
        Some(b'1'..=b'9') => t = &t[digits(t)..],
        _ => return false,
    }
    if let Some(rest) = t.strip_prefix(b".") {
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    if let Some(rest) = t.strip_prefix(b"e").or_else(|| t.strip_prefix(b"E")) {
        let rest = rest
            .strip_prefix(b"+")
            .or_else(|| rest.strip_prefix(b"-"))
            .unwrap_or(rest);
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    t.is_empty()
}

/// A scalar serde accepts as it is: `null`, `true`, `false`, a number or
/// a plain string.
fn plain_scalar(token: &[u8]) -> bool {
    matches!(token, b"null" | b"true" | b"false")
        || json_number(token)
        || plain_str(token).is_some()
}

/// `["a", "b"]`: an array of plain strings.
fn plain_str_array(token: &[u8]) -> Option<Vec<Cow<'_, str>>> {
    let mut out = Vec::new();
    let mut i = skip_ws(token, 0);
    if *token.get(i)? != b'[' {
        return None;
    }
    i = skip_ws(token, i + 1);
    if token.get(i) == Some(&b']') {
        return (i + 1 == token.len()).then_some(out);
    }
    loop {
        if *token.get(i)? != b'"' {
            return None;
        }
        let end = skip_string(token, i)?;
        out.push(Cow::Borrowed(plain_str(&token[i..end])?));
        i = skip_ws(token, end);
        match *token.get(i)? {
            b',' => i = skip_ws(token, i + 1),
            b']' => return (i + 1 == token.len()).then_some(out),
            _ => return None,
        }
    }
}

/// Walk the members of the JSON object `b` (the whole slice) at its top
/// level, calling `each(key, value)` with the raw key (quotes stripped,
/// escapes left as written) and the raw value token. `None` when the walk
/// cannot follow the text or `each` gives up.
fn walk_object<'a>(
    b: &'a [u8],
    mut each: impl FnMut(&'a [u8], &'a [u8]) -> Option<()>,
) -> Option<()> {
    let mut i = skip_ws(b, 0);
    if *b.get(i)? != b'{' {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return (skip_ws(b, i + 1) == b.len()).then_some(());
    }
    loop {
        if *b.get(i)? != b'"' {
            return None;
        }
        let key_end = skip_string(b, i)?;
        let key = &b[i + 1..key_end - 1];
        i = skip_ws(b, key_end);
        if *b.get(i)? != b':' {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let end = skip_value(b, start)?;
        each(key, &b[start..end])?;
        i = skip_ws(b, end);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return (skip_ws(b, i + 1) == b.len()).then_some(()),
            _ => return None,
        }
    }
}

/// `{"verdict": "supported", ...}` or `null`.
fn plain_verdict(token: &[u8]) -> Option<Option<VerdictView>> {
    if token == b"null" {
        return Some(None);
    }
    let mut verdict = None;
    walk_object(token, |key, value| {
        if key.contains(&b'\\') {
            return None; // serde decodes it: the general path
        }
        if key == b"verdict" {
            if verdict.is_some() {
                return None; // a duplicate: serde rejects it
            }
            verdict = Some(match plain_str(value)? {
                "supported" => Verdict::Supported,
                "refuted" => Verdict::Refuted,
                "inconclusive" => Verdict::Inconclusive,
                _ => return None,
            });
        } else if !plain_scalar(value) {
            // The rest of the verdict is checked as serde would check it;
            // anything but a plain scalar goes to the general path.
            return None;
        }
        Some(())
    })?;
    verdict.map(|verdict| Some(VerdictView { verdict }))
}

/// The fast path: the fields the engines read, when every one of them is
/// in the plain form arx writes (see [`plain_str`]). `None` sends the line
/// to the general path, so the two agree on every line they both accept.
fn plain_view(line: &[u8]) -> Option<View<'_>> {
    let mut v = View::default();
    let mut seen = 0u16;
    walk_object(line, |key, value| {
        if key.contains(&b'\\') {
            return None; // serde decodes it: the general path
        }
        let Some(bit) = wanted_bit(key) else {
            return Some(());
        };
        if seen & (1 << bit) != 0 {
            return None; // a duplicate: serde rejects it
        }
        seen |= 1 << bit;
        match bit {
            0 => v.candidate = plain_opt_str(value)?,
            1 => v.tags = plain_str_array(value)?,
            2 => v.exit_code = plain_int(value)?,
            3 => v.timed_out = plain_bool(value)?,
            4 => v.interrupted = plain_bool(value)?,
            5 => v.stopped_on_result = plain_bool(value)?,
            6 => v.verdict = plain_verdict(value)?,
            7 => v.state_fingerprint = plain_opt_str(value)?,
            _ => v.started_at = plain_opt_str(value)?,
        }
        Some(())
    })?;
    Some(v)
}

/// The observation of one journal line. Lines in the plain form arx
/// writes are read in one walk with no copying; otherwise the keys the
/// engines read are cut out by a top-level walk and parsed with serde, and
/// a line the walk cannot follow goes to the full parser. Unreadable lines
/// give `None`.
///
/// The values the engines read are checked exactly as serde checks them;
/// the other top-level values (tails, metrics, the command) are only
/// followed, not validated, so a run whose `stdout_tail` was damaged by
/// hand still counts.
fn observe_line(line: &[u8]) -> Option<Observation<'_>> {
    if let Some(v) = plain_view(line) {
        return Some(observe_view(v));
    }
    match wanted_fields(line) {
        Some(small) => serde_json::from_slice::<View<'_>>(&small)
            .ok()
            .map(|v| owned(observe_view(v))),
        None => serde_json::from_slice::<View<'_>>(line)
            .ok()
            .map(observe_view),
    }
}

fn parse_lines(range: &[u8]) -> Vec<Observation<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', range).chain(std::iter::once(range.len())) {
        let line = &range[start..end];
        start = end + 1;
        if !line.is_empty() {
            out.extend(observe_line(line));
        }
        if start > range.len() {
            break;
        }
    }
    out
}

/// Line-aligned chunks of the complete lines of `bytes`.
fn chunks(bytes: &[u8], target: usize) -> Vec<&[u8]> {
    let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < end {
        let guess = (start + target).min(end);
        let stop = if guess >= end {
            end
        } else {
            memchr::memchr(b'\n', &bytes[guess..end]).map_or(end, |i| guess + i + 1)
        };
        out.push(&bytes[start..stop]);
        start = stop;
    }
    out
}

/// Feed the observations of a journal's complete lines to `each`, in
/// journal order, while other cores parse the lines ahead. Unreadable
/// lines are skipped.
pub fn for_each_observation<'a>(
    bytes: &'a [u8],
    mut each: impl FnMut(Observation<'a>) -> Result<()>,
) -> Result<()> {
    const CHUNK: usize = 4 << 20;
    let parts = chunks(bytes, CHUNK);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    if parts.len() <= 1 || workers == 1 {
        for part in parts {
            for o in parse_lines(part) {
                each(o)?;
            }
        }
        return Ok(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Vec<Observation<'a>>)>(workers * 2);
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, parts) = (&next, &parts);
            s.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(part) = parts.get(k) else { break };
                if tx.send((k, parse_lines(part))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut want = 0;
        for (k, obs) in rx {
            waiting.insert(k, obs);
            while let Some(obs) = waiting.remove(&want) {
                for o in obs {
                    each(o)?;
                }
                want += 1;
            }
        }
        Ok(())
    })
}

/// Parse the complete lines of a journal into observations, in order.
pub fn observations(bytes: &[u8]) -> Vec<Observation<'_>> {
    let mut all = Vec::new();
    let _ = for_each_observation(bytes, |o| {
        all.push(o);
        Ok(())
    });
    all
}

fn journal_bytes(journal: &Path) -> u64 {
    std::fs::metadata(journal).map_or(0, |m| m.len())
}

/// Fold the whole journal (honouring a precision reset).
pub fn rebuild(journal: &Path, reset_after: Option<u64>) -> Result<Cache> {
    let file = match std::fs::File::open(journal) {
        Ok(f) => Some(f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", journal.display())),
    };
    // SAFETY: the journal is only read while mapped; writers append under a
    // lock and never truncate (a merge replaces the file by renaming a new
    // one over it, which leaves this mapping intact).
    let map = match &file {
        Some(f) if f.metadata().map_or(0, |m| m.len()) > 0 => Some(unsafe {
            memmap2::Mmap::map(f).with_context(|| format!("cannot read {}", journal.display()))?
        }),
        _ => None,
    };
    let bytes: &[u8] = map.as_deref().unwrap_or(&[]);
    let mut history = History::default();
    for_each_observation(bytes, |obs| {
        if reset_after == Some(history.runs) {
            history.precision = Hierarchy::default();
        }
        history.observe(&obs).map_err(anyhow::Error::msg)
    })?;
    if reset_after == Some(history.runs) {
        history.precision = Hierarchy::default();
    }
    Ok(Cache {
        journal_bytes: bytes.len() as u64,
        reset_after,
        history,
    })
}

fn read_cache(state: &Path) -> Option<Cache> {
    let text = std::fs::read(cache_path(state)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// The current history: the cache when it matches the journal, else a
/// rebuild (saved for next time when `save` is true).
pub fn load(state: &Path, journal: &Path, save: bool) -> Result<Cache> {
    let size = journal_bytes(journal);
    let cached = read_cache(state);
    if let Some(c) = &cached {
        if c.journal_bytes == size {
            return Ok(c.clone());
        }
    }
    let cache = rebuild(journal, cached.and_then(|c| c.reset_after))?;
    if save && state.is_dir() {
        write_json_atomic(&cache_path(state), &cache)?;
    }
    Ok(cache)
}

/// After `arx run` appended `record` to the journal, taking it from
/// `before` to `after` bytes: extend the cache by one run when it covered
/// exactly the first `before` bytes, else rebuild it.
pub fn record_run(
    state: &Path,
    journal: &Path,
    (before, after): (u64, u64),
    record: &RunRecord,
) -> Result<()> {
    let cache = match read_cache(state) {
        Some(mut c) if c.journal_bytes == before => {
            c.history
                .observe(&observation(record))
                .map_err(anyhow::Error::msg)?;
            c.journal_bytes = after;
            c
        }
        other => rebuild(journal, other.and_then(|c| c.reset_after))?,
    };
    write_json_atomic(&cache_path(state), &cache)
}

/// Forget learned precision from now on (kept across rebuilds).
pub fn reset(state: &Path, journal: &Path) -> Result<Cache> {
    let mut cache = load(state, journal, false)?;
    cache.reset_after = Some(cache.history.runs);
    cache.history.precision = Hierarchy::default();
    write_json_atomic(&cache_path(state), &cache)?;
    Ok(cache)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(line: &str) -> Option<Observation<'_>> {
        serde_json::from_slice::<View<'_>>(line.as_bytes())
            .ok()
            .map(observe_view)
    }

    #[test]
    fn the_fast_walk_reads_what_the_full_parser_reads() {
        let lines = [
            r#"{"run_id":"1","candidate":"a","tags":["t","u"],"exit_code":0,"timed_out":false,"verdict":{"verdict":"refuted","detail":"x}{\"]"},"started_at":"2026-11-02T10:00:00.000Z","stdout_tail":"__RESULT__ {\"acc\": 0.5}\n","metrics":{"candidate":1}}"#,
            r#"{"candidate":null,"tags":[],"exit_code":124,"timed_out":true,"verdict":null}"#,
            r#" { "candidate" : "b" , "exit_code" : -9 , "interrupted" : true , "attempts" : [ {"metrics":{}} ] } "#,
            r#"{"state_fingerprint":"fp","stopped_on_result":true,"exit_code":-15,"verdict":{"verdict":"supported"}}"#,
            r#"{"\u0063andidate":"escaped","exit_code":0}"#,
            r#"{}"#,
            r#"{"candidate":"a","candidate":"b"}"#,
            r#"{"candidate":"a""#,
            r#"<<<<<<< HEAD"#,
            r#"{"candidate":"a"} trailing"#,
            r#"{"exit_code":1e400}"#,
        ];
        for line in lines {
            assert_eq!(observe_line(line.as_bytes()), full(line), "{line}");
        }
        assert_eq!(
            observe_line(lines[4].as_bytes())
                .unwrap()
                .candidate
                .as_deref(),
            Some("escaped")
        );
    }

    /// A record as arx writes it is read by the fast path.
    const WRITTEN: &str = r#"{"run_id":"r1","started_at":"2026-11-02T10:00:00.000Z","ended_at":"2026-11-02T10:00:01.000Z","duration_ms":1000,"command":["python","train.py"],"shell":false,"cwd":"/w","host":"h","git":null,"hypothesis":null,"approach_hash":null,"candidate":"c1","tags":["bench","x"],"state_fingerprint":"a1d75dee9156b341","spec":{"metric_key":"acc","comparator":">=","target":0.8},"metrics":{"acc":0.5},"exit_code":0,"timed_out":false,"interrupted":false,"stopped_on_result":true,"failure_class":"none","verdict":{"verdict":"refuted","strategy":"deterministic","detail":"acc=0.5 >= 0.8"},"stdout_tail":"__RESULT__ {\"acc\": 0.5}\n","stderr_tail":""}"#;

    #[test]
    fn written_records_take_the_fast_path() {
        let v = plain_view(WRITTEN.as_bytes()).expect("plain");
        assert_eq!(v.candidate.as_deref(), Some("c1"));
        assert_eq!(v.tags, vec!["bench", "x"]);
        assert!(v.stopped_on_result);
        let o = observe_line(WRITTEN.as_bytes()).unwrap();
        assert!(matches!(o.candidate, Some(Cow::Borrowed("c1"))));
        assert_eq!(o, full(WRITTEN).unwrap());
        assert_eq!(o.verdict, Some(Verdict::Refuted));
    }

    /// Every wanted field, given values of every shape (plain, escaped,
    /// null, wrong type, malformed, duplicated): the fast path either
    /// defers or reads exactly what serde reads, and `observe_line` agrees
    /// with the full parser.
    #[test]
    fn the_fast_path_agrees_with_serde_on_odd_values() {
        let strings = [
            r#""c2""#,
            r#""caf\u00e9""#,
            r#""tab\there""#,
            "\"raw\ttab\"",
            r#""é ü""#,
            "null",
            "1",
            "true",
            "[]",
            "{}",
            r#""""#,
        ];
        let ints = [
            "0",
            "-0",
            "7",
            "-15",
            "01",
            "1.0",
            "1e3",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "null",
            "\"0\"",
            "true",
        ];
        let bools = ["true", "false", "null", "0", "\"true\"", "tru"];
        let tags = [
            "[]",
            "[ ]",
            r#"["a"]"#,
            r#"[ "a" , "b" ]"#,
            r#"["a","a"]"#,
            r#"["\u0061"]"#,
            r#"["a",null]"#,
            r#"["a",]"#,
            "null",
            r#""a""#,
            "[1]",
            r#"[["a"]]"#,
        ];
        let verdicts = [
            "null",
            r#"{"verdict":"supported"}"#,
            r#"{ "verdict" : "inconclusive" , "x" : [1,{"y":"}"}] }"#,
            r#"{"verdict":"Supported"}"#,
            r#"{"verdict":"supported","verdict":"refuted"}"#,
            r#"{"detail":"no verdict"}"#,
            r#"{"\u0076erdict":"refuted"}"#,
            r#"{"verdict":null}"#,
            r#"{}"#,
            r#""refuted""#,
            "[]",
        ];
        let fields: [(&str, &[&str]); 9] = [
            ("candidate", &strings),
            ("state_fingerprint", &strings),
            (
                "started_at",
                &[r#""2026-11-02T10:00:00Z""#, r#""not a time""#, "null", "5"],
            ),
            ("tags", &tags),
            ("exit_code", &ints),
            ("timed_out", &bools),
            ("interrupted", &bools),
            ("stopped_on_result", &bools),
            ("verdict", &verdicts),
        ];
        let mut checked = 0;
        for (key, values) in fields {
            for value in values {
                let base = format!(
                    r#"{{"run_id":"r","candidate":"c1","exit_code":1,"verdict":{{"verdict":"refuted"}},"{key}":{value},"tail":"x"}}"#
                );
                let variants = [
                    format!(
                        r#"{{"{key}":{value},"exit_code":3,"tags":["t"],"verdict":{{"verdict":"refuted"}}}}"#
                    ),
                    format!(r#"{{"tail":[1,2],"{key}" : {value} }}"#),
                    base.clone(),
                ];
                for line in variants {
                    let fast = plain_view(line.as_bytes()).map(observe_view);
                    let serde = full(&line);
                    if let Some(f) = &fast {
                        assert_eq!(Some(f), serde.as_ref(), "fast path differs on {line}");
                    }
                    assert_eq!(observe_line(line.as_bytes()), serde, "{line}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 200);
    }

    /// A JSON value of one of the shapes the fields can take, plain or not.
    fn value() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let scalar = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            "-?(0|[1-9][0-9]{0,20})(\\.[0-9])?(e[0-9])?",
            "[a-zé\\\\\"\t ]{0,6}".prop_map(|t| format!("\"{t}\"")),
            proptest::sample::select(vec!["supported", "refuted", "inconclusive", "x"])
                .prop_map(|v| format!("\"{v}\"")),
        ];
        scalar.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                proptest::collection::vec(
                    (
                        proptest::sample::select(vec!["verdict", "detail", "\\u0076erdict"]),
                        inner
                    ),
                    0..3
                )
                .prop_map(|kv| {
                    let members: Vec<String> =
                        kv.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Objects made of wanted and other keys with values of any shape:
        /// whenever the fast path reads a line, it reads what serde reads,
        /// and `observe_line` always agrees with the full parser.
        #[test]
        fn fast_path_matches_serde(
            members in proptest::collection::vec(
                (
                    proptest::sample::select(vec![
                        "candidate", "tags", "exit_code", "timed_out", "interrupted",
                        "stopped_on_result", "verdict", "state_fingerprint",
                        "started_at", "metrics", "stdout_tail",
                    ]),
                    value(),
                ),
                0..6,
            ),
            spaced in proptest::prelude::any::<bool>(),
        ) {
            let sep = if spaced { " , " } else { "," };
            let body: Vec<String> =
                members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            let line = format!("{{{}}}", body.join(sep));
            // The values of keys the engines do not read are not validated
            // (see `observe_line`): compare with serde when they are valid.
            let others_valid = members
                .iter()
                .filter(|(k, _)| wanted_bit(k.as_bytes()).is_none())
                .all(|(_, v)| serde_json::from_str::<serde_json::Value>(v).is_ok());
            let read = observe_line(line.as_bytes());
            if others_valid {
                let serde = full(&line);
                if let Some(v) = plain_view(line.as_bytes()) {
                    proptest::prop_assert_eq!(Some(observe_view(v)), serde.clone(), "{}", line);
                }
                proptest::prop_assert_eq!(read, serde, "{}", line);
            }
        }

        /// Verdict objects with a valid verdict and other members of any
        /// shape: read as serde reads them.
        #[test]
        fn verdict_objects_match_serde(
            name in proptest::sample::select(vec!["supported", "refuted", "inconclusive"]),
            others in proptest::collection::vec(
                (proptest::sample::select(vec!["detail", "strategy", "raw_evidence_ref"]), value()),
                0..3,
            ),
            at in 0usize..3,
        ) {
            let mut members: Vec<String> =
                others.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            members.insert(at.min(members.len()), format!("\"verdict\":\"{name}\""));
            let line = format!(r#"{{"candidate":"c","verdict":{{{}}}}}"#, members.join(","));
            proptest::prop_assert_eq!(observe_line(line.as_bytes()), full(&line), "{}", line);
        }

        /// Arbitrary bytes never panic.
        #[test]
        fn any_bytes_are_safe(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = observe_line(&bytes);
        }
    }
}
