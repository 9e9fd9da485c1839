//! Finds the first `__RESULT__ {json}` line in a byte stream, incrementally.
//!
//! The contract (same outcome as the reference's `__RESULT__\s*(\{.*\})`,
//! first match): after a marker, any Unicode whitespace (newlines included)
//! may precede `{`; the object runs to the last `}` on the line where `{`
//! stands (only `\n` ends a line). A marker with no `{...}` after it is
//! skipped and the search goes on; once a marker matches, its JSON decides
//! and no later marker is looked at.
//!
//! The scanner is fed chunks of any size (a chunk may split a marker, a
//! UTF-8 sequence or the JSON anywhere) and keeps a few bytes of state plus
//! the parsed metrics, so a 4 GiB log needs no more memory than a 4 KiB one.
//! Invalid UTF-8 is treated as the reference treats replacement characters:
//! never whitespace, never part of a marker or of JSON syntax.

use memchr::memmem;

use super::json::{ObjectParser, Step};
use super::Metrics;

const MARKER: &[u8] = b"__RESULT__";
const M: usize = MARKER.len();

/// KMP automaton over the marker: `DELTA[state][byte]` is the next state,
/// where a state counts the marker bytes matched so far.
static DELTA: [[u8; 256]; M + 1] = build_delta();

/// State after a full match: the longest proper border of the marker (`__`).
const BORDER: u8 = 2;

const fn build_delta() -> [[u8; 256]; M + 1] {
    // Prefix function of the marker.
    let mut pi = [0usize; M];
    let mut i = 1;
    while i < M {
        let mut k = pi[i - 1];
        while k > 0 && MARKER[i] != MARKER[k] {
            k = pi[k - 1];
        }
        if MARKER[i] == MARKER[k] {
            k += 1;
        }
        pi[i] = k;
        i += 1;
    }
    let mut delta = [[0u8; 256]; M + 1];
    let mut s = 0;
    while s <= M {
        let mut c = 0;
        while c < 256 {
            let mut k = if s == M { pi[M - 1] } else { s };
            loop {
                if k < M && MARKER[k] as usize == c {
                    k += 1;
                    break;
                }
                if k == 0 {
                    break;
                }
                k = pi[k - 1];
            }
            delta[s][c] = k as u8;
            c += 1;
        }
        s += 1;
    }
    delta
}

/// Unicode whitespace as the reference's regular expressions and string
/// methods see it: Rust's `White_Space` plus the four information
/// separators U+001C..U+001F.
pub fn is_py_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Recognises whitespace characters byte by byte.
#[derive(Debug, Default, Clone, Copy)]
struct WsDecoder {
    acc: [u8; 3],
    len: u8,
}

#[derive(Debug, PartialEq, Eq)]
enum Ws {
    /// A whitespace character ended on this byte.
    Yes,
    /// Inside a multi-byte character that may still be whitespace.
    Pending,
    /// A non-whitespace character; this byte must be looked at again.
    No,
}

impl WsDecoder {
    fn is_idle(&self) -> bool {
        self.len == 0
    }

    fn feed(&mut self, b: u8) -> Ws {
        if self.len == 0 && b < 0x80 {
            return if matches!(b, 0x09..=0x0d | 0x1c..=0x20) {
                Ws::Yes
            } else {
                Ws::No
            };
        }
        if self.len as usize == self.acc.len() {
            self.len = 0;
            return Ws::No;
        }
        self.acc[self.len as usize] = b;
        self.len += 1;
        let seq = &self.acc[..self.len as usize];
        let verdict = match seq {
            [0xc2]
            | [0xe1]
            | [0xe1, 0x9a]
            | [0xe2]
            | [0xe2, 0x80]
            | [0xe2, 0x81]
            | [0xe3]
            | [0xe3, 0x80] => Ws::Pending,
            [0xc2, 0x85 | 0xa0]
            | [0xe1, 0x9a, 0x80]
            | [0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf]
            | [0xe2, 0x81, 0x9f]
            | [0xe3, 0x80, 0x80] => Ws::Yes,
            _ => Ws::No,
        };
        if verdict != Ws::Pending {
            self.len = 0;
        }
        verdict
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The JSON object is still being read.
    Parsing,
    /// The object closed; a later `}` on the line would spoil the match.
    Complete,
    /// The JSON is bad; the match stands if the line has a `}` anywhere.
    Failed,
}

/// The line holding the `{` of a candidate result.
#[derive(Debug)]
struct ObjectLine {
    parser: ObjectParser,
    phase: Phase,
    /// Any `}` byte on the line since `{`: the reference's match exists.
    close_seen: bool,
    /// Marker tracking for when this line turns out not to match: a later
    /// marker on it followed only by whitespace may still match on a later line.
    kmp: u8,
    marker_then_ws: bool,
    ws: WsDecoder,
    /// The object's text from `{` on, while capturing (see
    /// [`ResultScanner::capturing`]).
    text: Option<Capture>,
}

/// The text of a result object, up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Captured {
    /// The object, from `{` to its closing `}`.
    Text(Vec<u8>),
    /// The object is longer than the limit.
    TooLong,
}

#[derive(Debug)]
struct Capture {
    bytes: Vec<u8>,
    limit: usize,
    over: bool,
}

impl Capture {
    fn new(limit: usize) -> Capture {
        Capture {
            bytes: b"{".to_vec(),
            limit,
            over: false,
        }
    }

    fn push(&mut self, b: u8) {
        if self.over {
            return;
        }
        if self.bytes.len() < self.limit {
            self.bytes.push(b);
        } else {
            self.over = true;
            self.bytes = Vec::new();
        }
    }

    fn done(self) -> Captured {
        if self.over {
            Captured::TooLong
        } else {
            Captured::Text(self.bytes)
        }
    }
}

enum LineEnd {
    /// The result is settled (with the object's text when captured).
    Settled(Metrics, Option<Captured>),
    /// No match at this marker; go on searching (after a marker when true).
    NoMatch { after_marker: bool },
}

impl ObjectLine {
    fn new(capture: Option<usize>) -> Self {
        ObjectLine {
            parser: ObjectParser::new(),
            phase: Phase::Parsing,
            close_seen: false,
            kmp: 0,
            marker_then_ws: false,
            ws: WsDecoder::default(),
            text: capture.map(Capture::new),
        }
    }

    /// The metrics of a matched object, and its text when captured.
    fn settle(&mut self) -> LineEnd {
        LineEnd::Settled(
            std::mem::take(&mut self.parser).into_metrics(),
            self.text.take().map(Capture::done),
        )
    }

    fn track(&mut self, b: u8) {
        if self.marker_then_ws {
            match self.ws.feed(b) {
                Ws::Yes | Ws::Pending => {
                    // Whitespace (or a multi-byte character) breaks any
                    // partial marker: `__RESULT__ RESULT__` is one marker.
                    self.kmp = 0;
                    return;
                }
                Ws::No => {
                    self.marker_then_ws = false;
                    self.ws = WsDecoder::default();
                }
            }
        }
        self.kmp = DELTA[self.kmp as usize][b as usize];
        if self.kmp as usize == M {
            self.kmp = BORDER;
            self.marker_then_ws = true;
        }
    }

    /// Consume bytes from `buf[*i..]` until the line settles or input ends.
    fn feed(&mut self, buf: &[u8], i: &mut usize) -> Option<LineEnd> {
        while *i < buf.len() {
            if self.phase == Phase::Complete {
                return match memchr::memchr2(b'}', b'\n', &buf[*i..]) {
                    Some(p) => {
                        let at = *i + p;
                        *i = at + 1;
                        Some(if buf[at] == b'}' {
                            LineEnd::Settled(Metrics::new(), None)
                        } else {
                            self.settle()
                        })
                    }
                    None => {
                        *i = buf.len();
                        None
                    }
                };
            }
            let b = buf[*i];
            *i += 1;
            if b == b'\n' {
                if self.close_seen {
                    return Some(LineEnd::Settled(Metrics::new(), None));
                }
                return Some(LineEnd::NoMatch {
                    after_marker: self.marker_then_ws && self.ws.is_idle(),
                });
            }
            if b == b'}' {
                self.close_seen = true;
            } else if !self.close_seen {
                self.track(b);
            }
            match self.phase {
                Phase::Parsing => {
                    if let Some(t) = &mut self.text {
                        t.push(b);
                    }
                    match self.parser.feed(b) {
                        Step::Continue => {}
                        Step::Complete => self.phase = Phase::Complete,
                        Step::Error => {
                            if self.close_seen {
                                return Some(LineEnd::Settled(Metrics::new(), None));
                            }
                            self.phase = Phase::Failed;
                        }
                    }
                }
                Phase::Failed if self.close_seen => {
                    return Some(LineEnd::Settled(Metrics::new(), None));
                }
                _ => {}
            }
        }
        None
    }
}

enum Mode {
    Search,
    AfterMarker(WsDecoder),
    Object(Box<ObjectLine>),
    Settled(Metrics, Option<Captured>),
}

/// Push-based finder of the first result line. Feed chunks with
/// [`ResultScanner::feed`]; call [`ResultScanner::finish`] at end of input.
pub struct ResultScanner {
    finder: memmem::Finder<'static>,
    kmp: u8,
    mode: Mode,
    /// Capture the result object's text, up to this many bytes.
    capture: Option<usize>,
}

impl Default for ResultScanner {
    fn default() -> Self {
        Self::new()
    }
}

impl ResultScanner {
    pub fn new() -> Self {
        ResultScanner {
            finder: memmem::Finder::new(MARKER),
            kmp: 0,
            mode: Mode::Search,
            capture: None,
        }
    }

    /// A scanner that also keeps the text of the result object, up to
    /// `limit` bytes, for the readers of what is not a metric (per-instance
    /// scores). The metrics are the same.
    pub fn capturing(limit: usize) -> Self {
        ResultScanner {
            capture: Some(limit),
            ..Self::new()
        }
    }

    /// The metrics, once the first result line is settled.
    pub fn settled(&self) -> Option<&Metrics> {
        match &self.mode {
            Mode::Settled(m, _) => Some(m),
            _ => None,
        }
    }

    /// The result object's text, once settled with metrics (capturing
    /// scanners only).
    pub fn captured(&self) -> Option<&Captured> {
        match &self.mode {
            Mode::Settled(m, c) if !m.is_empty() => c.as_ref(),
            _ => None,
        }
    }

    /// Search mode: returns the index just past the next marker, if any.
    fn search(&mut self, buf: &[u8], mut i: usize) -> Option<usize> {
        while self.kmp != 0 && i < buf.len() {
            self.kmp = DELTA[self.kmp as usize][buf[i] as usize];
            i += 1;
            if self.kmp as usize == M {
                self.kmp = BORDER;
                return Some(i);
            }
        }
        if i >= buf.len() {
            return None;
        }
        match self.finder.find(&buf[i..]) {
            Some(j) => {
                self.kmp = BORDER;
                Some(i + j + M)
            }
            None => {
                let start = buf.len().saturating_sub(M - 1).max(i);
                self.kmp = buf[start..]
                    .iter()
                    .fold(0u8, |s, &b| DELTA[s as usize][b as usize]);
                None
            }
        }
    }

    /// Feed the next chunk. Returns true once the result is settled (the
    /// rest of the input cannot change it).
    pub fn feed(&mut self, buf: &[u8]) -> bool {
        let mut i = 0;
        while i < buf.len() {
            match &mut self.mode {
                Mode::Settled(..) => return true,
                Mode::Search => match self.search(buf, i) {
                    Some(j) => {
                        i = j;
                        self.mode = Mode::AfterMarker(WsDecoder::default());
                    }
                    None => return false,
                },
                Mode::AfterMarker(ws) => {
                    let b = buf[i];
                    if ws.is_idle() && b == b'{' {
                        i += 1;
                        self.kmp = 0;
                        self.mode = Mode::Object(Box::new(ObjectLine::new(self.capture)));
                        continue;
                    }
                    let was_idle = ws.is_idle();
                    match ws.feed(b) {
                        Ws::Yes => {
                            self.kmp = 0;
                            i += 1;
                        }
                        Ws::Pending => i += 1,
                        Ws::No => {
                            if !was_idle {
                                self.kmp = 0;
                            }
                            self.mode = Mode::Search;
                        }
                    }
                }
                Mode::Object(line) => match line.feed(buf, &mut i) {
                    None => return false,
                    Some(LineEnd::Settled(m, c)) => self.mode = Mode::Settled(m, c),
                    Some(LineEnd::NoMatch { after_marker }) => {
                        self.kmp = 0;
                        self.mode = if after_marker {
                            Mode::AfterMarker(WsDecoder::default())
                        } else {
                            Mode::Search
                        };
                    }
                },
            }
        }
        matches!(self.mode, Mode::Settled(..))
    }

    /// [`ResultScanner::feed`] for a chunk the caller knows holds no
    /// complete marker: while searching, only the chunk's last bytes (a
    /// marker's possible beginning) are looked at. Same outcome as `feed`.
    pub fn feed_unmarked(&mut self, buf: &[u8]) -> bool {
        if matches!(self.mode, Mode::Search) && self.kmp == 0 {
            let start = buf.len().saturating_sub(M - 1);
            self.kmp = buf[start..]
                .iter()
                .fold(0u8, |s, &b| DELTA[s as usize][b as usize]);
            return false;
        }
        self.feed(buf)
    }

    /// End of input: the metrics of the first result line (empty when none).
    pub fn finish(self) -> Metrics {
        self.finish_captured().0
    }

    /// [`ResultScanner::finish`], with the result object's text when
    /// capturing and the line has metrics.
    pub fn finish_captured(self) -> (Metrics, Option<Captured>) {
        let (m, c) = match self.mode {
            Mode::Settled(m, c) => (m, c),
            Mode::Object(mut line) if line.phase == Phase::Complete => match line.settle() {
                LineEnd::Settled(m, c) => (m, c),
                LineEnd::NoMatch { .. } => (Metrics::new(), None),
            },
            _ => (Metrics::new(), None),
        };
        let c = c.filter(|_| !m.is_empty());
        (m, c)
    }
}

/// The metrics of a `{json}` object making up the rest of one line, with
/// the result line's rules (leading whitespace, object to the last `}`).
/// `None` when there is no valid object or it holds no metric.
pub fn parse_object_line(rest: &[u8]) -> Option<Metrics> {
    let text = String::from_utf8_lossy(rest);
    let body = text.trim_start_matches(is_py_whitespace);
    let body = body.as_bytes();
    if body.first() != Some(&b'{') {
        return None;
    }
    let last = memchr::memrchr(b'}', body)?;
    let mut parser = ObjectParser::new();
    for (i, &b) in body[1..=last].iter().enumerate() {
        match parser.feed(b) {
            Step::Continue => {}
            Step::Complete if i + 1 == last => {
                let m = parser.into_metrics();
                return (!m.is_empty()).then_some(m);
            }
            _ => return None,
        }
    }
    None
}

/// The metrics of a `__PROGRESS__` line's object: as [`parse_object_line`],
/// and also when the object holds the non-JSON words `NaN`, `Infinity` or
/// `-Infinity` (what Python's `json.dumps` prints for a diverged loss): a
/// progress value may be NaN or infinite, so that a rule can see it. `None`
/// when there is no valid object or it holds no number.
pub fn parse_progress_line(rest: &[u8]) -> Option<Metrics> {
    if let Some(m) = parse_object_line(rest) {
        return Some(m);
    }
    if memchr::memmem::find(rest, b"NaN").is_none()
        && memchr::memmem::find(rest, b"Infinity").is_none()
    {
        return None;
    }
    const NAN: &str = "\\u0000nan";
    const INF: &str = "\\u0000inf";
    const NEG_INF: &str = "\\u0000-inf";
    let text = String::from_utf8_lossy(rest);
    let body = text.trim_matches(is_py_whitespace);
    // Outside strings, the three words become marked strings.
    let mut out = String::with_capacity(body.len() + 16);
    let mut in_str = false;
    let mut escaped = false;
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let word = [("-Infinity", NEG_INF), ("Infinity", INF), ("NaN", NAN)]
            .into_iter()
            .find(|(w, _)| rest.starts_with(w));
        if let Some((w, marked)) = word {
            out.push('"');
            out.push_str(marked);
            out.push('"');
            rest = &rest[w.len()..];
            continue;
        }
        if c == '"' {
            in_str = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&out).ok()?;
    let mut m = Metrics::new();
    for (k, v) in map {
        let x = match &v {
            serde_json::Value::Number(n) => n.as_f64(),
            serde_json::Value::String(s) => match s.as_str() {
                "\0nan" => Some(f64::NAN),
                "\0inf" => Some(f64::INFINITY),
                "\0-inf" => Some(f64::NEG_INFINITY),
                _ => None,
            },
            _ => None,
        };
        if let Some(x) = x {
            m.insert(k, x);
        }
    }
    (!m.is_empty()).then_some(m)
}

/// Parse a whole buffer (convenience over [`ResultScanner`]).
pub fn parse_metrics(stdout: &[u8]) -> Metrics {
    let mut scanner = ResultScanner::new();
    scanner.feed(stdout);
    scanner.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::MAX_DEPTH;

    fn parse(s: &str) -> Vec<(String, f64)> {
        parse_metrics(s.as_bytes())
            .iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    fn kv(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn marker_automaton_borders() {
        assert_eq!(DELTA[0][b'_' as usize], 1);
        assert_eq!(DELTA[1][b'_' as usize], 2);
        assert_eq!(DELTA[2][b'_' as usize], 2);
        assert_eq!(DELTA[2][b'R' as usize], 3);
        assert_eq!(DELTA[9][b'_' as usize], 10);
        assert_eq!(DELTA[9][b'x' as usize], 0);
    }

    #[test]
    fn overlapping_markers() {
        assert_eq!(parse("__RESULT__RESULT__ {\"a\":1}"), kv(&[("a", 1.0)]));
        assert_eq!(parse("__RESULT____RESULT__ {\"a\":1}"), kv(&[("a", 1.0)]));
    }

    #[test]
    fn failed_line_falls_back_to_a_trailing_marker() {
        assert_eq!(
            parse("__RESULT__ {\"a\": __RESULT__\n{\"b\":1}"),
            kv(&[("b", 1.0)])
        );
        assert_eq!(
            parse("__RESULT__ {\"a\": 1 __RESULT__ \u{a0} \n {\"b\":2}"),
            kv(&[("b", 2.0)])
        );
        assert_eq!(
            parse("__RESULT__ {\"a\": 1 __RESULT__ x\n{\"b\":2}"),
            kv(&[])
        );
    }

    #[test]
    fn a_failed_line_does_not_join_marker_halves_across_whitespace() {
        assert_eq!(parse("__RESULT__{__RESULT__ RESULT__\n{\"a\":1}"), kv(&[]));
        assert_eq!(parse("__RESULT__{__RESULT__ _RESULT__\n{\"a\":1}"), kv(&[]));
        assert_eq!(
            parse("__RESULT__{__RESULT__\u{a0}RESULT__\n{\"a\":1}"),
            kv(&[])
        );
        assert_eq!(
            parse_metrics(b"__RESULT__{__RESULT__\xc2RESULT__\n{\"a\":1}").len(),
            0
        );
        assert_eq!(
            parse("__RESULT__{__RESULT__ RESULT__\n{__RESULT__{\"a\":1}"),
            kv(&[("a", 1.0)])
        );
    }

    #[test]
    fn whitespace_is_unicode_aware() {
        assert_eq!(parse("__RESULT__\u{1c}{\"a\": 1}"), kv(&[("a", 1.0)]));
        assert_eq!(parse("__RESULT__\u{85}{\"a\": 1}"), kv(&[("a", 1.0)]));
        assert_eq!(parse("__RESULT__\u{3000}{\"a\": 1}"), kv(&[("a", 1.0)]));
        assert_eq!(parse("__RESULT__\u{200b}{\"a\": 1}"), kv(&[]));
        assert_eq!(parse("__RESULT__\u{180e}{\"a\": 1}"), kv(&[]));
    }

    #[test]
    fn numbers_follow_the_reference() {
        assert_eq!(
            parse("__RESULT__ {\"a\": -0}")[0].1.to_bits(),
            0f64.to_bits()
        );
        assert_eq!(
            parse("__RESULT__ {\"a\": -0.0}")[0].1.to_bits(),
            (-0f64).to_bits()
        );
        assert_eq!(parse("__RESULT__ {\"a\": 1e-999}"), kv(&[("a", 0.0)]));
        let long = format!("__RESULT__ {{\"a\": 1e{}1}}", "0".repeat(1000));
        assert_eq!(parse(&long), kv(&[("a", 10.0)]));
        let int_ok = format!("__RESULT__ {{\"a\": {}, \"b\": 1}}", "1".repeat(4300));
        assert_eq!(parse(&int_ok), kv(&[("b", 1.0)]));
        let int_bad = format!("__RESULT__ {{\"a\": {}, \"b\": 1}}", "1".repeat(4301));
        assert_eq!(parse(&int_bad), kv(&[]));
        let frac = format!("__RESULT__ {{\"a\": 0.{}}}", "1".repeat(5000));
        assert_eq!(parse(&frac), kv(&[("a", 0.1111111111111111)]));
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        assert_eq!(
            parse("__RESULT__ {\"a\": 1, \"b\": 2, \"a\": 3}"),
            kv(&[("a", 3.0), ("b", 2.0)])
        );
        assert_eq!(
            parse("__RESULT__ {\"a\": 1, \"b\": 2, \"a\": \"x\"}"),
            kv(&[("b", 2.0)])
        );
    }

    #[test]
    fn nesting_is_limited() {
        let ok = format!(
            "__RESULT__ {{\"a\": 1, \"b\": {}{}}}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert_eq!(parse(&ok), kv(&[("a", 1.0)]));
        let deep = format!(
            "__RESULT__ {{\"a\": 1, \"b\": {}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert_eq!(parse(&deep), kv(&[]));
    }

    #[test]
    fn surrogates_in_keys() {
        assert_eq!(
            parse("__RESULT__ {\"\\ud83d\\ude00\": 1}"),
            kv(&[("😀", 1.0)])
        );
        assert_eq!(
            parse("__RESULT__ {\"\\ud800\": 1}"),
            kv(&[("\u{fffd}", 1.0)])
        );
    }

    #[test]
    fn every_split_point_gives_the_same_answer() {
        let text = "log __RESULT_ x\n__RESULT__ \u{a0}\n {\"acc\": 0.83, \"s\": \"}\\\"\", \"n\": [1, {\"x\": 2}]}\r\nmore __RESULT__ {\"b\": 1}\n";
        let whole = parse(text);
        assert_eq!(whole, kv(&[("acc", 0.83)]));
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            for cut2 in cut..=bytes.len() {
                let mut sc = ResultScanner::new();
                sc.feed(&bytes[..cut]);
                sc.feed(&bytes[cut..cut2]);
                sc.feed(&bytes[cut2..]);
                let got: Vec<(String, f64)> = sc
                    .finish()
                    .iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect();
                assert_eq!(got, whole, "cuts at {cut}, {cut2}");
            }
        }
    }

    #[test]
    fn settles_at_the_end_of_the_result_line() {
        let mut sc = ResultScanner::new();
        assert!(!sc.feed(b"__RESULT__ {\"a\": 1}"));
        assert!(sc.feed(b"\nmore"));
        assert_eq!(sc.settled().map(|m| m.get("a")), Some(Some(1.0)));
    }
}

#[cfg(test)]
mod progress_tests {
    use super::parse_progress_line;

    #[test]
    fn progress_lines_may_hold_nan_and_infinity() {
        let m = parse_progress_line(
            br#" {"step": 3, "loss": NaN, "gn": Infinity, "x": -Infinity, "s": "NaN"}"#,
        )
        .unwrap();
        assert_eq!(m.get("step"), Some(3.0));
        assert!(m.get("loss").unwrap().is_nan());
        assert_eq!(m.get("gn"), Some(f64::INFINITY));
        assert_eq!(m.get("x"), Some(f64::NEG_INFINITY));
        assert_eq!(m.get("s"), None);
        let m = parse_progress_line(br#"{"step": 1, "loss": 0.5}"#).unwrap();
        assert_eq!(m.get("loss"), Some(0.5));
        assert!(parse_progress_line(br#"{"step": NaNa}"#).is_none());
        assert!(parse_progress_line(b"{bad}").is_none());
        assert!(parse_progress_line(br#"{"a": "x"}"#).is_none());
    }
}

#[cfg(test)]
mod capture_tests {
    use super::{Captured, ResultScanner};

    fn scan(scanner: &mut ResultScanner, text: &[u8], chunk: usize) {
        for c in text.chunks(chunk) {
            scanner.feed(c);
        }
    }

    #[test]
    fn a_capturing_scanner_keeps_the_object_and_the_same_metrics() {
        let text =
            b"log\n__RESULT__  {\"acc\": 0.5, \"per\": {\"a\": 1, \"b\": [0]}} tail\nmore }\n";
        for chunk in [1, 3, 7, text.len()] {
            let mut plain = ResultScanner::new();
            let mut capturing = ResultScanner::capturing(1 << 10);
            scan(&mut plain, text, chunk);
            scan(&mut capturing, text, chunk);
            assert_eq!(plain.settled(), capturing.settled());
            assert_eq!(
                capturing.captured(),
                Some(&Captured::Text(
                    b"{\"acc\": 0.5, \"per\": {\"a\": 1, \"b\": [0]}}".to_vec()
                )),
                "chunks of {chunk}"
            );
            let (m, c) = capturing.finish_captured();
            assert_eq!(Some(&m), plain.settled());
            assert!(c.is_some());
        }
        // Past the limit: no text, the same metrics.
        let mut small = ResultScanner::capturing(8);
        scan(&mut small, text, 4);
        assert_eq!(small.captured(), Some(&Captured::TooLong));
        assert_eq!(small.settled().unwrap().get("acc"), Some(0.5));
        // A line the contract rejects (a later `}` on it) has no metrics
        // and no text; nor does a plain scanner capture.
        let mut spoiled = ResultScanner::capturing(1 << 10);
        scan(&mut spoiled, b"__RESULT__ {\"acc\": 1} }\n", 2);
        assert_eq!(spoiled.captured(), None);
        let mut plain = ResultScanner::new();
        scan(&mut plain, text, 5);
        assert_eq!(plain.captured(), None);
        // Input that ends inside the line: the object as far as it closed.
        let mut open = ResultScanner::capturing(1 << 10);
        open.feed(b"__RESULT__ {\"acc\": 2, \"per\": [1]}");
        assert_eq!(
            open.finish_captured().1,
            Some(Captured::Text(b"{\"acc\": 2, \"per\": [1]}".to_vec()))
        );
    }
}
