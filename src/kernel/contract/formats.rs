//! The shapes an experiment's numbers may come in, and the one streaming
//! extractor every reader of an experiment's output goes through.
//!
//! - `arx` (the default): the first `__RESULT__ {json}` line, the kernel's
//!   contract ([`ResultScanner`]), settled as soon as that line is.
//! - `pi`: `METRIC name=value` lines (one or more `name=value` after the
//!   word); the last value of a name wins.
//! - `summary`: the closing block of a training script, `name: value`
//!   lines after a line `---`. The block that counts is the last `---`
//!   followed by at least one such line (a later bare `---` does not
//!   erase it); lines of another shape inside the block are passed over.
//! - `pattern`: a regular expression with named groups, matched against
//!   every line; a group's name is a metric, the last match wins.
//!
//! Only finite numbers are metrics. A value that is not one (`device:
//! cuda`, `METRIC loss=nan`) is ignored and reported in [`Extracted`], so
//! the host can say so. Every line format is read while streaming: memory
//! holds one line (at most [`MAX_LINE`] bytes; a longer line is passed
//! over), the metrics (at most [`MAX_KEYS`]) and a few ignored values.

use std::fmt;

use memchr::{memchr, memmem, memrchr};
use regex::bytes::{Regex, RegexBuilder};
use serde::{Serialize, Serializer};

use super::{json::MAX_KEYS, Metrics, ResultScanner, MAX_KEY_BYTES};

/// Longest line a line format looks at; a longer one is passed over.
pub const MAX_LINE: usize = 64 * 1024;
/// Ignored values named in full; the rest are counted.
const SHOWN_IGNORED: usize = 8;
/// Longest ignored value shown.
const SHOWN_VALUE: usize = 40;

/// The format names, as `[objective] format` and `--result-format` take them.
pub const FORMAT_NAMES: [&str; 4] = ["arx", "pi", "summary", "pattern"];

/// How an experiment's output carries its numbers.
#[derive(Debug, Clone, Default)]
pub enum ResultFormat {
    #[default]
    Arx,
    Pi,
    Summary,
    Pattern(Pattern),
}

/// A compiled `pattern` and the names of its groups.
#[derive(Debug, Clone)]
pub struct Pattern {
    regex: Regex,
    /// The same pattern over many lines at once, to find the lines it may
    /// match (see [`scanner`]).
    scan: Option<Regex>,
    names: Vec<String>,
}

impl Pattern {
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }
    /// The named groups: the metrics the pattern can find.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// Why a format's settings are not usable; names the problem.
#[derive(Debug, Clone, PartialEq)]
pub enum FormatError {
    Unknown(String),
    /// `format = "pattern"` with no pattern.
    NoPattern,
    /// A pattern with another format.
    PatternWithFormat(String),
    BadPattern(String),
    NoNamedGroup(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Unknown(name) => write!(
                f,
                "unknown result format {name:?} (the formats are {})",
                FORMAT_NAMES.join(", ")
            ),
            FormatError::NoPattern => write!(f, "the format \"pattern\" needs a pattern"),
            FormatError::PatternWithFormat(name) => write!(
                f,
                "a pattern is read only by the format \"pattern\", not {name:?}"
            ),
            FormatError::BadPattern(e) => write!(f, "the pattern does not compile: {e}"),
            FormatError::NoNamedGroup(p) => write!(
                f,
                "the pattern {p:?} has no named group (a group's name is the metric it finds)"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// Compile `text` as a pattern: it must compile and name a group.
pub fn compile_pattern(text: &str) -> Result<Pattern, FormatError> {
    let regex = RegexBuilder::new(text)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| FormatError::BadPattern(one_line(&e.to_string())))?;
    let names: Vec<String> = regex.capture_names().flatten().map(String::from).collect();
    if names.is_empty() {
        return Err(FormatError::NoNamedGroup(text.to_string()));
    }
    let scan = scanner(text);
    Ok(Pattern { regex, scan, names })
}

/// The pattern in multi-line mode, run over a chunk's complete lines at
/// once: a line the pattern matches on its own is a match of this one at
/// the same place, so the leftmost match of this one starts at or before
/// the first line that can match, and the lines before it are passed over
/// at the regex engine's speed instead of one call each. The line it
/// lands in is then read on its own, as every line would be. `None` where
/// a line and many lines differ for the pattern: it anchors to the text's
/// ends (`\A`, `\z`) or turns the multi-line mode off (a flag group with
/// `-`). (A chunk holding `\r` is read line by line: a line is read
/// without its closing `\r`.)
fn scanner(text: &str) -> Option<Regex> {
    // A flag group, `(?flags)` or `(?flags:…)`, that clears a flag.
    let unflagged = text.match_indices("(?").all(|(at, _)| {
        let rest = &text[at + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphabetic() || c == '-'))
            .unwrap_or(rest.len());
        let group = rest[end..].starts_with([':', ')']);
        !(group && rest[..end].contains('-'))
    });
    if text.contains("\\A") || text.contains("\\z") || !unflagged {
        return None;
    }
    RegexBuilder::new(text)
        .multi_line(true)
        .size_limit(1 << 22)
        .build()
        .ok()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl ResultFormat {
    /// The format a configuration names: `format` (default `arx`) and
    /// `pattern` (which alone means the format `pattern`).
    pub fn from_settings(format: Option<&str>, pattern: Option<&str>) -> Result<Self, FormatError> {
        match (format, pattern) {
            (None | Some("pattern"), Some(p)) => compile_pattern(p).map(ResultFormat::Pattern),
            (Some("pattern"), None) => Err(FormatError::NoPattern),
            (Some(name), Some(_)) if FORMAT_NAMES.contains(&name) => {
                Err(FormatError::PatternWithFormat(name.to_string()))
            }
            (None | Some("arx"), None) => Ok(ResultFormat::Arx),
            (Some("pi"), None) => Ok(ResultFormat::Pi),
            (Some("summary"), None) => Ok(ResultFormat::Summary),
            (Some(name), _) => Err(FormatError::Unknown(name.to_string())),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            ResultFormat::Arx => "arx",
            ResultFormat::Pi => "pi",
            ResultFormat::Summary => "summary",
            ResultFormat::Pattern(_) => "pattern",
        }
    }

    pub fn is_arx(&self) -> bool {
        matches!(self, ResultFormat::Arx)
    }

    /// The name a run's record keeps: none for the default.
    pub fn record_name(&self) -> Option<&'static str> {
        (!self.is_arx()).then(|| self.name())
    }

    /// What the format looks for, as a message tells it.
    pub fn looks_for(&self) -> String {
        match self {
            ResultFormat::Arx => "a __RESULT__ {json} line".to_string(),
            ResultFormat::Pi => "METRIC name=value lines".to_string(),
            ResultFormat::Summary => "name: value lines after a line ---".to_string(),
            ResultFormat::Pattern(p) => format!("lines matching {:?}", p.as_str()),
        }
    }

    /// The warning for the values it ignored ([`Extracted::ignored_note`]).
    pub fn ignored_warning(&self, note: &str) -> String {
        format!(
            "the {} format ignored values that are not numbers: {note}",
            self.name()
        )
    }

    /// A new extractor of this format.
    pub fn extractor(&self) -> Extractor {
        let kind = match self {
            ResultFormat::Arx => Kind::Arx(ResultScanner::new()),
            ResultFormat::Pi => Kind::Lines(Lines::new(Rule::Pi)),
            ResultFormat::Summary => {
                Kind::Lines(Lines::new(Rule::Summary(SummaryBlock::default())))
            }
            ResultFormat::Pattern(p) => {
                Kind::Lines(Lines::new(Rule::Pattern(p.regex.clone(), p.scan.clone())))
            }
        };
        Extractor { kind }
    }

    /// [`Self::extractor`] that also keeps the result object's text (up
    /// to `limit` bytes) for per-instance scores; only the `arx` format
    /// has a result object, the others extract as usual.
    pub fn capturing_extractor(&self, limit: usize) -> Extractor {
        match self {
            ResultFormat::Arx => Extractor {
                kind: Kind::Arx(ResultScanner::capturing(limit)),
            },
            _ => self.extractor(),
        }
    }
}

impl PartialEq for ResultFormat {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ResultFormat::Pattern(a), ResultFormat::Pattern(b)) => a.as_str() == b.as_str(),
            _ => self.name() == other.name(),
        }
    }
}

impl Serialize for ResultFormat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What an extractor found in a whole output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extracted {
    pub metrics: Metrics,
    /// Values of the format's shape that are not finite numbers, as
    /// `name (value)`, the first few of them.
    pub ignored: Vec<String>,
    /// How many were ignored in all.
    pub ignored_count: usize,
}

impl Extracted {
    /// The ignored values as one line (`device ("cuda"), …and 3 more`);
    /// `None` when none was.
    pub fn ignored_note(&self) -> Option<String> {
        if self.ignored_count == 0 {
            return None;
        }
        let mut note = self.ignored.join(", ");
        let more = self.ignored_count - self.ignored.len();
        if more > 0 {
            note.push_str(&format!(" and {more} more"));
        }
        Some(note)
    }
}

/// Reads one output in one format, chunk by chunk.
pub struct Extractor {
    kind: Kind,
}

// One per run's output: its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Kind {
    Arx(ResultScanner),
    Lines(Lines),
}

impl Extractor {
    /// Feed the next chunk; `marked`: the chunk holds a complete
    /// `__RESULT__` marker (only the `arx` format looks; when the caller
    /// does not know, pass true). Returns true once the result is settled
    /// (only the `arx` format settles before the end: the others' last
    /// value wins).
    pub fn feed(&mut self, chunk: &[u8], marked: bool) -> bool {
        match &mut self.kind {
            Kind::Arx(s) if marked => s.feed(chunk),
            Kind::Arx(s) => s.feed_unmarked(chunk),
            Kind::Lines(l) => {
                l.feed(chunk);
                false
            }
        }
    }

    /// The metrics, once settled.
    pub fn settled(&self) -> Option<&Metrics> {
        match &self.kind {
            Kind::Arx(s) => s.settled(),
            Kind::Lines(_) => None,
        }
    }

    /// [`Self::finish`] with the result object's text, when the extractor
    /// was made capturing and the format has one.
    pub fn finish_captured(self) -> (Extracted, Option<super::Captured>) {
        match self.kind {
            Kind::Arx(s) => {
                let (metrics, captured) = s.finish_captured();
                let found = Extracted {
                    metrics,
                    ..Extracted::default()
                };
                (found, captured)
            }
            Kind::Lines(_) => (self.finish(), None),
        }
    }

    /// End of output: what was found (a last line without a newline counts).
    pub fn finish(self) -> Extracted {
        match self.kind {
            Kind::Arx(s) => Extracted {
                metrics: s.finish(),
                ..Extracted::default()
            },
            Kind::Lines(mut l) => {
                l.end_line();
                l.found
            }
        }
    }
}

/// Extract from a whole output at once.
pub fn extract(format: &ResultFormat, output: &[u8]) -> Extracted {
    let mut x = format.extractor();
    x.feed(output, true);
    x.finish()
}

/// A line format: the line being read and what was found.
struct Lines {
    rule: Rule,
    line: Vec<u8>,
    /// The current line grew past [`MAX_LINE`]: skip to its end.
    overflow: bool,
    found: Extracted,
}

enum Rule {
    Pi,
    Summary(SummaryBlock),
    /// The pattern, and its multi-line scanner when it has one.
    Pattern(Regex, Option<Regex>),
}

/// The summary block being read.
#[derive(Default)]
struct SummaryBlock {
    /// A line `---` was seen.
    open: bool,
    /// A `---` came after the last `name: value` line: the next one
    /// starts a new block.
    fresh: bool,
}

impl Lines {
    fn new(rule: Rule) -> Self {
        Lines {
            rule,
            line: Vec::new(),
            overflow: false,
            found: Extracted::default(),
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        // The line the previous chunk ended in.
        if !self.line.is_empty() || self.overflow {
            let Some(i) = memchr(b'\n', rest) else {
                self.push(rest);
                return;
            };
            self.push(&rest[..i]);
            self.end_line();
            rest = &rest[i + 1..];
        }
        if let Some(end) = memrchr(b'\n', rest) {
            self.complete_lines(&rest[..end]);
            rest = &rest[end + 1..];
        }
        self.push(rest);
    }

    /// Complete lines (`body` without its last `\n`), read where the rule
    /// may find something: pi only on the lines holding `METRIC`, summary
    /// only once a `---` may be among them, a pattern on every line.
    fn complete_lines(&mut self, body: &[u8]) {
        let (rule, found) = (&mut self.rule, &mut self.found);
        match rule {
            Rule::Pi => {
                let mut from = 0;
                while let Some(at) = memmem::find(&body[from..], b"METRIC") {
                    let at = from + at;
                    let start = memrchr(b'\n', &body[..at]).map_or(0, |i| i + 1);
                    let end = memchr(b'\n', &body[at..]).map_or(body.len(), |i| at + i);
                    if end - start <= MAX_LINE {
                        read_line(rule, found, &body[start..end]);
                    }
                    from = end;
                }
            }
            Rule::Summary(block) if !block.open && memmem::find(body, b"---").is_none() => {}
            Rule::Pattern(regex, Some(scan)) if memchr(b'\r', body).is_none() => {
                let mut from = 0;
                while let Some(m) = scan.find_at(body, from) {
                    let at = m.start();
                    let start = memrchr(b'\n', &body[..at]).map_or(0, |i| i + 1);
                    let end = memchr(b'\n', &body[at..]).map_or(body.len(), |i| at + i);
                    if end - start <= MAX_LINE {
                        pattern_line(regex, found, &body[start..end]);
                    }
                    if end >= body.len() {
                        break;
                    }
                    from = end + 1;
                }
            }
            _ => {
                let mut start = 0;
                let ends = memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len()));
                for end in ends {
                    if end - start <= MAX_LINE {
                        read_line(rule, found, &body[start..end]);
                    }
                    start = end + 1;
                }
            }
        }
    }

    fn push(&mut self, part: &[u8]) {
        if self.overflow {
            return;
        }
        if self.line.len() + part.len() > MAX_LINE {
            self.overflow = true;
            self.line = Vec::new();
        } else {
            self.line.extend_from_slice(part);
        }
    }

    fn end_line(&mut self) {
        if !self.overflow && !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            read_line(&mut self.rule, &mut self.found, &line);
            self.line = line;
            self.line.clear();
        }
        self.overflow = false;
    }
}

/// One line (without its `\n`) through the rule.
fn read_line(rule: &mut Rule, found: &mut Extracted, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let shown;
    let line = if memchr(b'\r', line).is_some() {
        shown = as_shown(line);
        &shown[..]
    } else {
        line
    };
    match rule {
        Rule::Pi => {
            let text = trim_ascii_start(line);
            if let Some(rest) = text.strip_prefix(b"METRIC") {
                if rest.first().is_some_and(u8::is_ascii_whitespace) {
                    metric_line(found, &String::from_utf8_lossy(rest));
                }
            }
        }
        Rule::Summary(block) => summary_line(block, found, line),
        Rule::Pattern(regex, _) => pattern_line(regex, found, line),
    }
}

/// A line holding carriage returns as a terminal shows it: each `\r`
/// sends the cursor back to the start, and what follows overwrites the
/// line character by character (a progress bar cleared with spaces and
/// `\r` leaves only what was printed after it). A character is a UTF-8
/// sequence, or one byte that is not part of one. Blanks left over past
/// the last part's end (a bar cleared with spaces) show as nothing and are
/// dropped.
pub fn as_shown(line: &[u8]) -> Vec<u8> {
    let mut cells: Vec<&[u8]> = Vec::new();
    let mut at = 0;
    for segment in line.split(|&b| b == b'\r') {
        at = 0;
        for chunk in segment.utf8_chunks() {
            let valid = chunk.valid();
            let chars = valid
                .char_indices()
                .map(|(i, c)| &valid.as_bytes()[i..i + c.len_utf8()]);
            let invalid = chunk.invalid().chunks(1);
            for cell in chars.chain(invalid) {
                match cells.get_mut(at) {
                    Some(slot) => *slot = cell,
                    None => cells.push(cell),
                }
                at += 1;
            }
        }
    }
    while cells.len() > at && cells.last() == Some(&&b" "[..]) {
        cells.pop();
    }
    cells.concat()
}

/// One line through a pattern: every match's named groups, in order.
fn pattern_line(regex: &Regex, found: &mut Extracted, line: &[u8]) {
    if !regex.is_match(line) {
        return;
    }
    for caps in regex.captures_iter(line) {
        for name in regex.capture_names().flatten() {
            if let Some(m) = caps.name(name) {
                take(found, name, &String::from_utf8_lossy(m.as_bytes()));
            }
        }
    }
}

fn trim_ascii_start(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[start..]
}

/// The `name=value` words after `METRIC`.
fn metric_line(found: &mut Extracted, rest: &str) {
    for word in rest.split_whitespace() {
        if let Some((name, value)) = word.split_once('=') {
            if !name.is_empty() {
                take(found, name, value);
            }
        }
    }
}

fn summary_line(block: &mut SummaryBlock, found: &mut Extracted, line: &[u8]) {
    let line = line.trim_ascii();
    if line == b"---" {
        block.open = true;
        block.fresh = true;
        return;
    }
    if !block.open || memchr(b':', line).is_none() {
        return;
    }
    let text = String::from_utf8_lossy(line);
    let Some((name, value)) = text.split_once(':') else {
        return;
    };
    let name = name.trim();
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return;
    }
    if block.fresh {
        // The first line of a new block: an earlier block no longer counts.
        block.fresh = false;
        *found = Extracted::default();
    }
    take(found, name, value);
}

/// A value found under `name`: a metric when it is a finite number, else
/// ignored (and said).
fn take(found: &mut Extracted, name: &str, value: &str) {
    if name.len() > MAX_KEY_BYTES {
        return;
    }
    let value = value.trim();
    match value.parse::<f64>().ok().filter(|x| x.is_finite()) {
        Some(x) => {
            if found.metrics.get(name).is_some() || found.metrics.len() < MAX_KEYS {
                found.metrics.insert(name.to_string(), x);
            }
        }
        None => {
            found.ignored_count += 1;
            if found.ignored.len() < SHOWN_IGNORED {
                let shown: String = value.chars().take(SHOWN_VALUE).collect();
                let cut = if shown.len() < value.len() { "…" } else { "" };
                found.ignored.push(format!("{name} ({shown:?}{cut})"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(format: &ResultFormat, text: &str) -> Extracted {
        extract(format, text.as_bytes())
    }

    fn pairs(e: &Extracted) -> Vec<(String, f64)> {
        e.metrics.iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    const TRAIN: &str = "step 00100 | loss: 3.2100 | lr 0.0004\nstep 00200 | loss: 3.0100\n\
        ---\nval_bpb:          0.997900\ntraining_seconds: 300.1\npeak_vram_mb:     45060.2\n\
        device:           cuda\nnum_steps:        953\n";

    #[test]
    fn the_summary_block_is_read_and_a_word_is_ignored_and_said() {
        let e = read(&ResultFormat::Summary, TRAIN);
        assert_eq!(
            pairs(&e),
            vec![
                ("val_bpb".into(), 0.9979),
                ("training_seconds".into(), 300.1),
                ("peak_vram_mb".into(), 45060.2),
                ("num_steps".into(), 953.0)
            ]
        );
        assert_eq!(e.ignored_note().as_deref(), Some("device (\"cuda\")"));
    }

    #[test]
    fn the_last_summary_block_counts_and_a_bare_rule_after_it_does_not_erase_it() {
        let text = "---\nloss: 9\n---\nval_bpb: 1.5\nnote here: 3\n---\n\nbye\n";
        let e = read(&ResultFormat::Summary, text);
        assert_eq!(pairs(&e), vec![("val_bpb".into(), 1.5)]);
        // Before any `---`, `name: value` lines are log lines.
        assert!(read(&ResultFormat::Summary, "loss: 3\n").metrics.is_empty());
        // The last line needs no newline; `\r\n` endings are read alike.
        let e = read(&ResultFormat::Summary, "---\r\na: 1\r\nb: 2");
        assert_eq!(pairs(&e), vec![("a".into(), 1.0), ("b".into(), 2.0)]);
    }

    #[test]
    fn pi_lines_keep_the_last_value_of_a_name() {
        let text = "METRIC loss=3.5\nwarming up\n  METRIC loss=2.5 acc=0.7\nMETRICS x=1\n\
            note: METRIC y=2\nMETRIC speed=fast\nMETRIC loss=nan\n";
        let e = read(&ResultFormat::Pi, text);
        assert_eq!(pairs(&e), vec![("loss".into(), 2.5), ("acc".into(), 0.7)]);
        assert_eq!(e.ignored_count, 2);
        assert_eq!(
            e.ignored_note().as_deref(),
            Some("speed (\"fast\"), loss (\"nan\")")
        );
    }

    #[test]
    fn a_pattern_names_its_metrics_by_its_groups() {
        let p = compile_pattern(r"^eval (?P<acc>[0-9.]+) in (?P<secs>\S+)s$").unwrap();
        assert_eq!(p.names(), ["acc", "secs"]);
        let f = ResultFormat::Pattern(p);
        let e = read(&f, "eval 0.5 in 3s\neval 0.75 in 2.5s\neval 0.9 in NaNs\n");
        assert_eq!(pairs(&e), vec![("acc".into(), 0.9), ("secs".into(), 2.5)]);
        assert_eq!(e.ignored_note().as_deref(), Some("secs (\"NaN\")"));
    }

    #[test]
    fn settings_name_their_problem() {
        let f = |a: Option<&str>, b: Option<&str>| ResultFormat::from_settings(a, b);
        assert_eq!(f(None, None).unwrap(), ResultFormat::Arx);
        assert_eq!(f(Some("summary"), None).unwrap(), ResultFormat::Summary);
        assert_eq!(f(None, Some("(?P<a>x)")).unwrap().name(), "pattern");
        assert_eq!(
            f(Some("pattern"), Some("(?P<a>x)")).unwrap().name(),
            "pattern"
        );
        let err = |a, b| f(a, b).unwrap_err().to_string();
        assert!(err(Some("tsv"), None).contains("unknown result format \"tsv\""));
        assert!(err(Some("tsv"), None).contains("arx, pi, summary, pattern"));
        assert!(err(Some("pattern"), None).contains("needs a pattern"));
        assert!(err(Some("pi"), Some("(?P<a>x)")).contains("not \"pi\""));
        assert!(err(None, Some("(?P<a>x")).contains("does not compile"));
        assert!(err(None, Some("loss=(\\d+)")).contains("no named group"));
    }

    #[test]
    fn any_chunking_finds_the_same_and_a_long_line_is_passed_over() {
        let mut text = String::from(TRAIN);
        text.insert_str(0, &format!("METRIC big={}\n", "1".repeat(MAX_LINE + 10)));
        text.push_str("METRIC loss=2.25\n");
        let pattern = compile_pattern(r"(?P<loss>[0-9.]+)$").unwrap();
        for format in [
            ResultFormat::Summary,
            ResultFormat::Pi,
            ResultFormat::Pattern(pattern),
        ] {
            let whole = read(&format, &text);
            for size in [1, 2, 7, 4096] {
                let mut x = format.extractor();
                for chunk in text.as_bytes().chunks(size) {
                    x.feed(chunk, false);
                }
                assert_eq!(x.finish(), whole, "{} in chunks of {size}", format.name());
            }
        }
        assert_eq!(
            pairs(&read(&ResultFormat::Pi, &text)),
            vec![("loss".into(), 2.25)]
        );
    }

    /// Every line read on its own: the pattern without its scanner.
    fn line_by_line(pattern: &Pattern, text: &str) -> Extracted {
        let mut lines = Lines::new(Rule::Pattern(pattern.regex.clone(), None));
        lines.feed(text.as_bytes());
        lines.end_line();
        lines.found
    }

    #[test]
    fn the_scanner_finds_what_reading_each_line_finds() {
        let text = "epoch 1 loss: 2.5\n\nval loss: 2.25 acc 0.5\n  loss: -1e-3 \nloss:\n7\n\
            epoch 2 go\nnote: no numbers\nloss: 3.0 loss: 4.0\nx=1 y=2\n";
        let patterns = [
            r"loss: (?P<loss>\S+)",
            r"^val loss: (?P<val>[0-9.]+)",
            r"(?P<acc>[0-9.]+)$",
            r"loss:\s*(?P<spanning>\S+)",
            r"(?P<word>\w*)",
            r"\Aepoch (?P<epoch>\d+)",
            r"(?-m:^x=(?P<x>\d))",
            r"(?i)X=(?P<xi>\d) (?:y)=(?P<y>\d)",
        ];
        for p in patterns {
            let pattern = compile_pattern(p).unwrap();
            let format = ResultFormat::Pattern(pattern.clone());
            let expected = line_by_line(&pattern, text);
            assert_eq!(read(&format, text), expected, "{p}");
            for size in [1, 5, 64] {
                let mut x = format.extractor();
                for chunk in text.as_bytes().chunks(size) {
                    x.feed(chunk, false);
                }
                assert_eq!(x.finish(), expected, "{p} in chunks of {size}");
            }
        }
        let scanned = |p: &str| compile_pattern(p).unwrap().scan.is_some();
        assert!(scanned(r"loss: (?P<l>[-+]?\d+)") && scanned(r"(?i:a)(?P<l>x)"));
        assert!(!scanned(r"\A(?P<l>x)") && !scanned(r"(?-m)^(?P<l>x)"));
        // Across lines the scanner's match (`loss:\n7`) is not a line's:
        // the line it lands in is read on its own and finds nothing there.
        let spanning = compile_pattern(r"loss:\s*(?P<l>\S+)").unwrap();
        let found = read(&ResultFormat::Pattern(spanning), "loss:\n7\n");
        assert!(found.metrics.is_empty(), "{found:?}");
    }

    #[test]
    fn the_arx_format_is_the_result_line() {
        let e = read(
            &ResultFormat::Arx,
            "x\n__RESULT__ {\"a\": 1}\n__RESULT__ {\"a\": 2}\n",
        );
        assert_eq!(pairs(&e), vec![("a".into(), 1.0)]);
        let mut x = ResultFormat::Arx.extractor();
        assert!(x.feed(b"__RESULT__ {\"a\": 1}\n", true));
        assert!(x.settled().is_some());
        let mut x = ResultFormat::Pi.extractor();
        assert!(!x.feed(b"METRIC a=1\n", true));
        assert!(x.settled().is_none());
    }
}

#[cfg(test)]
mod shown_tests {
    use super::as_shown;

    #[test]
    fn carriage_returns_overwrite_as_on_a_terminal() {
        let shown = |s: &str| String::from_utf8(as_shown(s.as_bytes())).unwrap();
        assert_eq!(shown("x\r      \rMETRIC a=1"), "METRIC a=1");
        assert_eq!(shown("progress 50%\rMETRIC a=1"), "METRIC a=10%");
        assert_eq!(shown("éé\rx"), "xé");
        assert_eq!(shown("abc\r"), "abc");
        assert_eq!(as_shown(b"\xff\xfe\rx"), b"x\xfe");
    }
}
