//! A push parser for the JSON object of a result line, byte by byte.
//!
//! It accepts exactly what the reference's JSON reader accepts on the text
//! of a result line (strict RFC 8259 grammar, `NaN`/`Infinity` rejected,
//! integers of more than 4300 digits rejected, nesting limited) and keeps
//! only the top-level keys whose value is a finite number. Nested values
//! and strings are validated without being stored, so memory is bounded by
//! the top-level keys and a nesting stack of at most [`MAX_DEPTH`] bits.
//!
//! The top-level keys are capped too, so any input parses in a few MiB: the
//! first [`MAX_KEYS`] distinct keys that come with a number are kept (a later
//! value of one of them still replaces the earlier), later new ones are
//! dropped; keys that come with another value are remembered only for the
//! order of the metrics, up to [`MAX_KEYS`] of them; and a key longer than
//! [`MAX_KEY_BYTES`] is dropped with its value without being stored.

use std::collections::HashMap;

use super::Metrics;

/// Deepest nesting accepted (the top-level object counts as 1). The reference
/// fails with a recursion error a little below 1000 levels.
pub const MAX_DEPTH: usize = 1000;

/// Distinct top-level keys with a number kept; later new ones are dropped.
pub const MAX_KEYS: usize = 1024;

/// Longest top-level key kept (bytes of UTF-8, escapes decoded); a longer
/// key is dropped with its value.
pub const MAX_KEY_BYTES: usize = 512;

/// Longest integer literal (digits, sign excluded) the reference converts.
const MAX_INT_DIGITS: u64 = 4300;

/// Significant digits kept of a long number: enough for correct rounding of
/// any `f64` (halfway points need at most 767), plus a sticky digit.
const KEEP_DIGITS: usize = 800;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Continue,
    /// The top-level object closed on this byte.
    Complete,
    /// The text cannot be the JSON object the contract wants.
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// After `{`: whitespace, a key or `}`.
    ObjFirst,
    /// After `,` in an object: whitespace or a key.
    ObjKey,
    /// After a key: whitespace or `:`.
    Colon,
    /// Whitespace or the start of a value.
    Value,
    /// After `[`: whitespace, a value or `]`.
    ArrFirst,
    /// After a value: whitespace, `,` or the closer of the container.
    AfterValue,
    /// Inside a string.
    Str {
        key: bool,
        esc: Esc,
    },
    /// Inside a number.
    Num(NumStage),
    /// Inside `true`, `false` or `null`.
    Lit {
        word: &'static [u8],
        pos: u8,
    },
    Done,
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    Backslash,
    /// Inside `\uXXXX`: how many hex digits read, and their value so far.
    Hex(u8, u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumStage {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

/// Accumulates a top-level number in bounded memory.
#[derive(Debug, Default)]
struct NumAcc {
    negative: bool,
    digits: Vec<u8>,
    sticky: bool,
    /// Decimal point position relative to the first significant digit.
    point: i64,
    exp_negative: bool,
    exp: i64,
}

impl NumAcc {
    fn push_int_digit(&mut self, d: u8) {
        if self.digits.is_empty() && d == b'0' {
            return; // the lone integer zero
        }
        self.push_sig(d);
        self.point = self.point.saturating_add(1);
    }

    fn push_frac_digit(&mut self, d: u8) {
        if self.digits.is_empty() && d == b'0' {
            self.point = self.point.saturating_sub(1);
            return;
        }
        self.push_sig(d);
    }

    fn push_sig(&mut self, d: u8) {
        if self.digits.len() < KEEP_DIGITS {
            self.digits.push(d);
        } else if d != b'0' {
            self.sticky = true;
        }
    }

    fn push_exp_digit(&mut self, d: u8) {
        const CAP: i64 = 1_000_000_000_000_000;
        self.exp = (self.exp * 10 + i64::from(d - b'0')).min(CAP);
    }

    /// The correctly rounded value; `integer` numbers have no negative zero.
    fn value(&self, integer: bool) -> f64 {
        if self.digits.is_empty() {
            return if self.negative && !integer { -0.0 } else { 0.0 };
        }
        let exp = if self.exp_negative {
            -self.exp
        } else {
            self.exp
        };
        let mut text = String::with_capacity(self.digits.len() + 32);
        if self.negative {
            text.push('-');
        }
        text.push_str("0.");
        text.push_str(std::str::from_utf8(&self.digits).unwrap_or("0"));
        if self.sticky {
            text.push('1');
        }
        text.push('e');
        text.push_str(&self.point.saturating_add(exp).to_string());
        text.parse().unwrap_or(f64::NAN)
    }
}

/// Parser state for one result object; starts just after its `{`.
#[derive(Debug)]
pub struct ObjectParser {
    state: State,
    /// Containers below the top-level object: `true` for an object.
    stack: Vec<bool>,
    /// Bytes of the current top-level key (escapes decoded).
    key: Vec<u8>,
    /// A high surrogate waiting for its low half, in the current key.
    high_surrogate: Option<u16>,
    /// The current top-level key grew past [`MAX_KEY_BYTES`]: it is dropped.
    key_overflow: bool,
    /// The key the next top-level value belongs to.
    pending_key: Option<String>,
    num: NumAcc,
    num_top: bool,
    int_digits: u64,
    has_frac_or_exp: bool,
    entries: Vec<(String, Option<f64>)>,
    index: HashMap<String, usize>,
    /// Entries that came with a number, and those that did not.
    numbers: usize,
    others: usize,
}

impl Default for ObjectParser {
    fn default() -> Self {
        Self::new()
    }
}

impl ObjectParser {
    pub fn new() -> Self {
        ObjectParser {
            state: State::ObjFirst,
            stack: Vec::new(),
            key: Vec::new(),
            high_surrogate: None,
            key_overflow: false,
            pending_key: None,
            num: NumAcc::default(),
            num_top: false,
            int_digits: 0,
            has_frac_or_exp: false,
            entries: Vec::new(),
            index: HashMap::new(),
            numbers: 0,
            others: 0,
        }
    }

    /// The metrics kept: top-level keys whose last value is a finite number.
    pub fn into_metrics(self) -> Metrics {
        Metrics::from_unique(
            self.entries
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| (k, v)))
                .collect(),
        )
    }

    /// Is the parser at the top level (directly inside the result object)?
    fn top(&self) -> bool {
        self.stack.is_empty()
    }

    fn record(&mut self, value: Option<f64>) {
        if let Some(key) = self.pending_key.take() {
            let value = value.filter(|v| v.is_finite());
            match self.index.get(&key) {
                Some(&i) => self.entries[i].1 = value,
                None => {
                    let count = if value.is_some() {
                        &mut self.numbers
                    } else {
                        &mut self.others
                    };
                    if *count >= MAX_KEYS {
                        return;
                    }
                    *count += 1;
                    self.index.insert(key.clone(), self.entries.len());
                    self.entries.push((key, value));
                }
            }
        }
    }

    fn fail(&mut self) -> Step {
        self.state = State::Failed;
        Step::Error
    }

    /// A value just ended; decide what follows.
    fn value_done(&mut self) -> Step {
        self.state = State::AfterValue;
        Step::Continue
    }

    fn start_value(&mut self, b: u8) -> Step {
        let top = self.top();
        match b {
            b'"' => {
                self.state = State::Str {
                    key: false,
                    esc: Esc::None,
                };
            }
            b'{' | b'[' => {
                if top {
                    self.record(None);
                }
                if self.stack.len() + 2 > MAX_DEPTH {
                    return self.fail();
                }
                self.stack.push(b == b'{');
                self.state = if b == b'{' {
                    State::ObjFirst
                } else {
                    State::ArrFirst
                };
            }
            b'-' | b'0'..=b'9' => {
                self.num_top = top;
                self.num = NumAcc::default();
                self.int_digits = 0;
                self.has_frac_or_exp = false;
                if b == b'-' {
                    self.num.negative = true;
                    self.state = State::Num(NumStage::Minus);
                } else {
                    self.int_digits = 1;
                    if top {
                        self.num.push_int_digit(b);
                    }
                    self.state = State::Num(if b == b'0' {
                        NumStage::Zero
                    } else {
                        NumStage::Int
                    });
                }
            }
            b't' => {
                self.state = State::Lit {
                    word: b"true",
                    pos: 1,
                }
            }
            b'f' => {
                self.state = State::Lit {
                    word: b"false",
                    pos: 1,
                }
            }
            b'n' => {
                self.state = State::Lit {
                    word: b"null",
                    pos: 1,
                }
            }
            // NaN, Infinity and anything else: the line is rejected.
            _ => return self.fail(),
        }
        Step::Continue
    }

    fn close(&mut self, b: u8) -> Step {
        match self.stack.last() {
            None if b == b'}' => {
                self.state = State::Done;
                Step::Complete
            }
            Some(&is_obj) if (b == b'}') == is_obj => {
                self.stack.pop();
                self.value_done()
            }
            _ => self.fail(),
        }
    }

    fn end_number(&mut self) -> Result<(), ()> {
        let integer = !self.has_frac_or_exp;
        if integer && self.int_digits > MAX_INT_DIGITS {
            return Err(());
        }
        if self.num_top {
            let v = self.num.value(integer);
            self.record(Some(v));
        }
        Ok(())
    }

    fn key_push_code_unit(&mut self, u: u16) {
        let push_char = |key: &mut Vec<u8>, c: char| {
            let mut buf = [0u8; 4];
            key.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        };
        if let Some(high) = self.high_surrogate.take() {
            if (0xDC00..0xE000).contains(&u) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                push_char(&mut self.key, char::from_u32(c).unwrap_or('\u{FFFD}'));
                return;
            }
            push_char(&mut self.key, '\u{FFFD}');
        }
        if (0xD800..0xDC00).contains(&u) {
            self.high_surrogate = Some(u);
        } else {
            push_char(
                &mut self.key,
                char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'),
            );
        }
    }

    /// Drop the current key once it is longer than [`MAX_KEY_BYTES`].
    fn key_check(&mut self) {
        if self.key.len() > MAX_KEY_BYTES {
            self.key_overflow = true;
            self.key = Vec::new();
            self.high_surrogate = None;
        }
    }

    fn key_flush_surrogate(&mut self) {
        if self.high_surrogate.take().is_some() {
            self.key.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }

    /// Feed one byte of the line (never `\n`: the host ends the line).
    pub fn feed(&mut self, b: u8) -> Step {
        loop {
            match self.state {
                State::Done | State::Failed => return Step::Error,
                State::Str { key, esc } => return self.feed_str(key, esc, b),
                State::Lit { word, pos } => {
                    if word[pos as usize] != b {
                        return self.fail();
                    }
                    if pos as usize + 1 == word.len() {
                        if self.top() {
                            self.record(None);
                        }
                        return self.value_done();
                    }
                    self.state = State::Lit { word, pos: pos + 1 };
                    return Step::Continue;
                }
                State::Num(stage) => {
                    if let Some(next) = self.feed_num(stage, b) {
                        self.state = State::Num(next);
                        return Step::Continue;
                    }
                    // The number ended before this byte.
                    if !matches!(
                        stage,
                        NumStage::Zero | NumStage::Int | NumStage::Frac | NumStage::Exp
                    ) || self.end_number().is_err()
                    {
                        return self.fail();
                    }
                    self.state = State::AfterValue;
                    continue;
                }
                _ => {}
            }
            if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
                return Step::Continue;
            }
            return match self.state {
                State::ObjFirst if b == b'}' => self.close(b),
                State::ObjFirst | State::ObjKey if b == b'"' => {
                    if self.top() {
                        self.key.clear();
                        self.high_surrogate = None;
                        self.key_overflow = false;
                    }
                    self.state = State::Str {
                        key: true,
                        esc: Esc::None,
                    };
                    Step::Continue
                }
                State::Colon if b == b':' => {
                    self.state = State::Value;
                    Step::Continue
                }
                State::ArrFirst if b == b']' => self.close(b),
                State::Value | State::ArrFirst => self.start_value(b),
                State::AfterValue => match b {
                    b',' => {
                        self.state = match self.stack.last() {
                            Some(false) => State::Value,
                            _ => State::ObjKey,
                        };
                        Step::Continue
                    }
                    b'}' | b']' => self.close(b),
                    _ => self.fail(),
                },
                _ => self.fail(),
            };
        }
    }

    fn feed_num(&mut self, stage: NumStage, b: u8) -> Option<NumStage> {
        let digit = b.is_ascii_digit();
        let next = match (stage, b) {
            (NumStage::Minus, b'0') => NumStage::Zero,
            (NumStage::Minus, _) if digit => NumStage::Int,
            (NumStage::Int, _) if digit => NumStage::Int,
            (NumStage::Zero | NumStage::Int, b'.') => NumStage::Dot,
            (NumStage::Zero | NumStage::Int | NumStage::Frac, b'e' | b'E') => NumStage::E,
            (NumStage::Dot | NumStage::Frac, _) if digit => NumStage::Frac,
            (NumStage::E, b'+' | b'-') => NumStage::ESign,
            (NumStage::E | NumStage::ESign | NumStage::Exp, _) if digit => NumStage::Exp,
            _ => return None,
        };
        match next {
            NumStage::Zero | NumStage::Int => {
                self.int_digits += 1;
                if self.num_top {
                    self.num.push_int_digit(b);
                }
            }
            NumStage::Frac => {
                self.has_frac_or_exp = true;
                if self.num_top {
                    self.num.push_frac_digit(b);
                }
            }
            NumStage::Dot | NumStage::E => self.has_frac_or_exp = true,
            NumStage::ESign => self.num.exp_negative = b == b'-',
            NumStage::Exp => {
                if self.num_top {
                    self.num.push_exp_digit(b);
                }
            }
            NumStage::Minus => {}
        }
        Some(next)
    }

    fn feed_str(&mut self, key: bool, esc: Esc, b: u8) -> Step {
        let store = key && self.top();
        match esc {
            Esc::None => match b {
                b'"' => {
                    if key {
                        if store {
                            self.key_flush_surrogate();
                            self.key_check();
                            self.pending_key = (!self.key_overflow)
                                .then(|| String::from_utf8_lossy(&self.key).into_owned());
                        }
                        self.state = State::Colon;
                        Step::Continue
                    } else {
                        if self.top() {
                            self.record(None);
                        }
                        self.value_done()
                    }
                }
                b'\\' => {
                    self.state = State::Str {
                        key,
                        esc: Esc::Backslash,
                    };
                    Step::Continue
                }
                0x00..=0x1f => self.fail(),
                _ => {
                    if store && !self.key_overflow {
                        self.key_flush_surrogate();
                        self.key.push(b);
                        self.key_check();
                    }
                    Step::Continue
                }
            },
            Esc::Backslash => {
                let decoded = match b {
                    b'"' => b'"',
                    b'\\' => b'\\',
                    b'/' => b'/',
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'u' => {
                        self.state = State::Str {
                            key,
                            esc: Esc::Hex(0, 0),
                        };
                        return Step::Continue;
                    }
                    _ => return self.fail(),
                };
                if store && !self.key_overflow {
                    self.key_flush_surrogate();
                    self.key.push(decoded);
                    self.key_check();
                }
                self.state = State::Str {
                    key,
                    esc: Esc::None,
                };
                Step::Continue
            }
            Esc::Hex(n, acc) => {
                let Some(d) = (b as char).to_digit(16) else {
                    return self.fail();
                };
                let acc = (acc << 4) | d as u16;
                if n == 3 {
                    if store && !self.key_overflow {
                        self.key_push_code_unit(acc);
                        self.key_check();
                    }
                    self.state = State::Str {
                        key,
                        esc: Esc::None,
                    };
                } else {
                    self.state = State::Str {
                        key,
                        esc: Esc::Hex(n + 1, acc),
                    };
                }
                Step::Continue
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (ObjectParser, Step) {
        let mut p = ObjectParser::new();
        let mut step = Step::Continue;
        for &b in &text.as_bytes()[1..] {
            step = p.feed(b);
        }
        (p, step)
    }

    #[test]
    fn string_valued_keys_are_not_stored() {
        let body: Vec<String> = (0..50_000).map(|i| format!("\"k{i}\": \"v\"")).collect();
        let (p, step) = parse(&format!("{{{}, \"acc\": 0.5}}", body.join(", ")));
        assert_eq!(step, Step::Complete);
        assert!(
            p.entries.len() <= 2 * MAX_KEYS,
            "{} entries",
            p.entries.len()
        );
        assert!(p.index.len() <= 2 * MAX_KEYS);
        assert_eq!(p.into_metrics().get("acc"), Some(0.5));
    }

    #[test]
    fn keys_past_the_cap_are_dropped() {
        let body: Vec<String> = (0..MAX_KEYS + 10)
            .map(|i| format!("\"k{i}\": {i}"))
            .collect();
        let (p, step) = parse(&format!("{{{}, \"k0\": 7}}", body.join(", ")));
        assert_eq!(step, Step::Complete);
        let m = p.into_metrics();
        assert_eq!(m.len(), MAX_KEYS);
        assert_eq!(m.get("k0"), Some(7.0), "a kept key is still updated");
        assert_eq!(
            m.get(&format!("k{}", MAX_KEYS - 1)),
            Some((MAX_KEYS - 1) as f64)
        );
        assert_eq!(m.get(&format!("k{MAX_KEYS}")), None);
    }

    #[test]
    fn a_key_longer_than_the_cap_is_dropped_without_being_stored() {
        let long = "x".repeat(MAX_KEY_BYTES + 1);
        let fits = "y".repeat(MAX_KEY_BYTES);
        let mut p = ObjectParser::new();
        let text = format!("{{\"{long}{long}{long}\": 1, \"{fits}\": 2, \"a\": 3}}");
        let mut peak = 0;
        for &b in &text.as_bytes()[1..] {
            p.feed(b);
            peak = peak.max(p.key.len());
        }
        assert!(peak <= MAX_KEY_BYTES + 4, "key buffer grew to {peak}");
        let m = p.into_metrics();
        assert_eq!(m.len(), 2);
        assert_eq!(m.get(&fits), Some(2.0));
        assert_eq!(m.get("a"), Some(3.0));
    }

    #[test]
    fn order_and_last_value_wins_hold_within_the_cap() {
        let (p, _) = parse(r#"{"a": "x", "b": 1, "a": 2, "c": 3, "c": null}"#);
        let m = p.into_metrics();
        let keys: Vec<&str> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["a", "b"]);
    }
}
