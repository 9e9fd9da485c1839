//! Why an output with a `__RESULT__` marker gave no metrics: the text
//! after the first markers is kept (a few lines, bounded), and when the
//! contract's scanner found nothing, [`MarkerWatch::reason`] says what is
//! wrong with it (a value JSON does not allow, colour codes, a JSON error
//! at a column, no object at all). The scanner itself, and so what counts
//! as a result, is not changed by this: it only explains a refusal.

use memchr::{memchr, memmem, memrchr};

use super::is_py_whitespace;

const MARKER: &[u8] = b"__RESULT__";
/// Marker lines kept.
const LINES: usize = 4;
/// Bytes kept of each, after its marker.
const KEEP: usize = 16 * 1024;

/// Watches a stream for the text after its first few markers.
#[derive(Debug, Default)]
pub struct MarkerWatch {
    /// The last bytes of the previous chunk (a marker may be split).
    carry: Vec<u8>,
    /// The text after a marker, to the end of its line, being read.
    current: Option<Vec<u8>>,
    /// The text after each marker, to the end of its line.
    lines: Vec<Vec<u8>>,
    /// Markers were seen (kept or not).
    seen: bool,
}

impl MarkerWatch {
    pub fn new() -> Self {
        Self::default()
    }

    fn full(&self) -> bool {
        self.lines.len() >= LINES
    }

    /// Feed the next chunk (cheap once enough is kept).
    pub fn feed(&mut self, chunk: &[u8]) {
        let mut i = 0;
        while i < chunk.len() && !self.full() {
            if let Some(cur) = &mut self.current {
                let end = memchr(b'\n', &chunk[i..]).map(|p| i + p);
                let part = &chunk[i..end.unwrap_or(chunk.len())];
                let room = KEEP.saturating_sub(cur.len());
                cur.extend_from_slice(&part[..part.len().min(room)]);
                match end {
                    Some(e) => {
                        i = e + 1;
                        self.end_line();
                    }
                    None => i = chunk.len(),
                }
                continue;
            }
            // A marker split across chunks: joined with the carry.
            let prev = if i == 0 {
                std::mem::take(&mut self.carry)
            } else {
                Vec::new()
            };
            let mut at = None;
            if !prev.is_empty() {
                let n = chunk.len().min(MARKER.len() - 1);
                let joined = [&prev[..], &chunk[..n]].concat();
                if let Some(p) = memmem::find(&joined, MARKER) {
                    at = Some(p + MARKER.len() - prev.len());
                }
            }
            let at = at.or_else(|| memmem::find(&chunk[i..], MARKER).map(|p| i + p + MARKER.len()));
            match at {
                Some(after) => {
                    self.seen = true;
                    self.current = Some(Vec::new());
                    i = after;
                }
                None => {
                    let rest = &chunk[i..];
                    let keep = MARKER.len() - 1;
                    self.carry = if rest.len() >= keep {
                        rest[rest.len() - keep..].to_vec()
                    } else {
                        let tail = [&prev[..], rest].concat();
                        tail[tail.len().saturating_sub(keep)..].to_vec()
                    };
                    i = chunk.len();
                }
            }
        }
    }

    fn end_line(&mut self) {
        if let Some(cur) = self.current.take() {
            // The object may stand on the next line: keep reading.
            let blank = String::from_utf8_lossy(&cur)
                .trim_matches(is_py_whitespace)
                .is_empty();
            if blank && self.lines.len() + 1 < LINES {
                let mut cur = cur;
                cur.push(b'\n');
                self.current = Some(cur);
                return;
            }
            self.lines.push(cur);
        }
    }

    /// Why the marked lines gave no metrics (call only when none were
    /// found); `None` when no marker was seen.
    pub fn reason(mut self) -> Option<String> {
        self.end_line();
        if !self.seen {
            return None;
        }
        let reasons: Vec<String> = self.lines.iter().map(|l| why_rejected(l)).collect();
        // The first line that had an object is the one the scanner read.
        let first = self.lines.iter().position(|l| has_object(l)).unwrap_or(0);
        reasons.into_iter().nth(first)
    }
}

fn has_object(after: &[u8]) -> bool {
    let text = String::from_utf8_lossy(after);
    text.trim_start_matches(is_py_whitespace).starts_with('{')
}

/// Why the text after a `__RESULT__` marker (to the end of the line that
/// holds its `{`) is no result.
pub fn why_rejected(after: &[u8]) -> String {
    let text = String::from_utf8_lossy(after);
    let body = text.trim_start_matches(is_py_whitespace);
    let line = body.split('\n').next().unwrap_or("");
    if !line.starts_with('{') {
        if line.contains('\x1b') {
            return "ANSI escape codes (colour) stand between the __RESULT__ marker and its {json}; print the result line without them".into();
        }
        return "the __RESULT__ marker is not followed by a {json} object".into();
    }
    if line.contains('\x1b') {
        return "the __RESULT__ line holds ANSI escape codes (colour); print it without them"
            .into();
    }
    let Some(last) = memrchr(b'}', line.as_bytes()) else {
        return "the {json} after __RESULT__ does not close on its line (no })".into();
    };
    let object = &line[..=last];
    match serde_json::from_str::<serde_json::Value>(object) {
        Err(e) => {
            let column = e.column();
            if let Some(word) = non_json_number(object) {
                return format!(
                    "the __RESULT__ JSON holds {word}, which JSON does not allow (column {column} of the object); report only finite numbers"
                );
            }
            let message = e.to_string();
            if message.starts_with("trailing characters") {
                return format!(
                    "a }} after the __RESULT__ object on the same line spoils it (column {column} of the object)"
                );
            }
            let message = message
                .rsplit_once(" at line ")
                .map_or(message.as_str(), |(m, _)| m);
            format!("the __RESULT__ JSON is invalid at column {column} of the object: {message}")
        }
        Ok(serde_json::Value::Object(map)) if map.values().any(|v| v.is_number()) => {
            "the __RESULT__ object's numbers are out of range or nested too deep".into()
        }
        Ok(serde_json::Value::Object(_)) => {
            "the __RESULT__ object holds no number (metrics are numbers, not strings or booleans)"
                .into()
        }
        Ok(_) => "the __RESULT__ JSON is not an object".into(),
    }
}

/// `NaN`, `Infinity` or `-Infinity` outside a string, if any.
fn non_json_number(object: &str) -> Option<&'static str> {
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in object.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_str = true;
            continue;
        }
        let rest = &object[i..];
        for word in ["NaN", "-Infinity", "Infinity"] {
            if rest.starts_with(word) {
                return Some(word);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str, chunk: usize) -> Option<String> {
        let mut w = MarkerWatch::new();
        for c in text.as_bytes().chunks(chunk) {
            w.feed(c);
        }
        w.reason()
    }

    #[test]
    fn each_refusal_is_named_at_every_chunk_size() {
        let cases = [
            ("__RESULT__ {\"acc\": NaN}\n", "NaN"),
            ("x __RESULT__ {\"acc\": -Infinity}", "-Infinity"),
            ("__RESULT__ \x1b[32m{\"acc\": 1}\x1b[0m\n", "ANSI"),
            (
                "\x1b[1m__RESULT__ {\"acc\": 1, \"c\": \"\x1b[0m\"}\n",
                "ANSI",
            ),
            ("__RESULT__ {\"acc\": 1,}\n", "column 11"),
            ("__RESULT__ {\"acc\": 1\n", "does not close"),
            ("__RESULT__ nothing\n", "not followed"),
            ("__RESULT__\n  {\"ok\": true}\n", "no number"),
            ("__RESULT__ {\"acc\": 1} }\n", "spoils"),
        ];
        for (text, word) in cases {
            for chunk in [1, 2, 3, 7, 64] {
                let got = reason(text, chunk).unwrap_or_default();
                assert!(got.contains(word), "{text:?} in {chunk}: {got}");
            }
        }
        assert_eq!(reason("no marker here\n", 3), None);
        assert_eq!(reason("__RESULT_", 3), None);
    }

    #[test]
    fn the_line_with_an_object_is_the_one_explained() {
        let got = reason("__RESULT__ soon\n__RESULT__ {\"a\": NaN}\n", 5).unwrap();
        assert!(got.contains("NaN"), "{got}");
    }
}
