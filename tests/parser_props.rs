//! Property tests for the result-line scanner.
//!
//! 1. It never panics and does not depend on how input is chunked.
//! 2. A result line the reference accepts round-trips exactly.
//! 3. On inputs built from the contract's tricky tokens it agrees with a
//!    direct model of the rule: the reference's regular expression
//!    `__RESULT__\s*(\{.*\})` (first match) followed by a JSON parse.

use arx::kernel::contract::{parse_metrics, Metrics, ResultScanner};
use proptest::prelude::*;
use serde_json::Value;

fn pairs(m: &Metrics) -> Vec<(String, u64)> {
    m.iter()
        .map(|(k, v)| (k.to_string(), v.to_bits()))
        .collect()
}

fn scan_in_chunks(bytes: &[u8], cuts: &[usize]) -> Metrics {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    let mut scanner = ResultScanner::new();
    let mut start = 0;
    for p in points {
        scanner.feed(&bytes[start..p]);
        start = p;
    }
    scanner.feed(&bytes[start..]);
    scanner.finish()
}

/// Python's `\s`: Unicode White_Space plus U+001C..U+001F.
const WS: &str = r"[\s\x1c-\x1f]";

fn model(input: &[u8]) -> Vec<(String, u64)> {
    let text = String::from_utf8_lossy(input);
    let re = regex::Regex::new(&format!(r"__RESULT__{WS}*(\{{.*\}})")).unwrap();
    let Some(c) = re.captures(&text) else {
        return Vec::new();
    };
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(&c[1]) else {
        return Vec::new();
    };
    obj.into_iter()
        .filter_map(|(k, v)| match v {
            Value::Number(n) => n.as_f64().filter(|x| x.is_finite()).map(|x| {
                // Integers have no negative zero.
                let x = if x == 0.0 && !n.is_f64() { 0.0 } else { x };
                (k, x.to_bits())
            }),
            _ => None,
        })
        .collect()
}

const TOKENS: &[&str] = &[
    "__RESULT__",
    "__RESULT__",
    "__RESULT_",
    "_",
    "RESULT__",
    " ",
    " ",
    "\n",
    "\n",
    "\r",
    "\t",
    "\u{a0}",
    "\u{1c}",
    "\u{2028}",
    "\u{3000}",
    "\u{200b}",
    "{",
    "{",
    "}",
    "}",
    "\"",
    ":",
    ",",
    "1",
    "-0.5",
    "2e3",
    "-0",
    "01",
    "\"a\"",
    "\"b\"",
    "\"a\": 1",
    "\"b\": 2.5",
    "[",
    "]",
    "x",
    "é",
    "null",
    "true",
    "NaN",
    "\\",
    "\\\"",
    "{\"a\": 1}",
    "{\"b\": [1, {\"c\": 2}]}",
];

fn tricky_input() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.concat())
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_][a-z0-9_@.]{0,12}",
        any::<String>().prop_filter("no lone surrogates possible in String", |_| true),
    ]
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        (-1000i64..1000).prop_map(|i| i as f64),
        Just(0.0),
        Just(1e-300),
        Just(f64::MAX),
    ]
}

fn noise_line() -> impl Strategy<Value = String> {
    any::<String>().prop_map(|s| s.replace("__RESULT__", "__result__").replace('\n', " "))
}

/// Encode a key with every non-ASCII character as \uXXXX escapes (as
/// Python's json.dumps does by default).
fn ascii_escaped(key: &str) -> String {
    let mut out = String::from("\"");
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || !c.is_ascii() => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics_and_chunking_does_not_matter(
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
    ) {
        let whole = parse_metrics(&bytes);
        prop_assert_eq!(pairs(&scan_in_chunks(&bytes, &cuts)), pairs(&whole));
    }

    #[test]
    fn tricky_inputs_agree_with_the_model(
        input in tricky_input(),
        cuts in prop::collection::vec(any::<usize>(), 0..4),
    ) {
        let bytes = input.as_bytes();
        prop_assert_eq!(pairs(&parse_metrics(bytes)), model(bytes), "input {:?}", input);
        prop_assert_eq!(pairs(&scan_in_chunks(bytes, &cuts)), model(bytes), "chunked {:?}", input);
    }

    #[test]
    fn accepted_result_lines_round_trip(
        entries in prop::collection::vec((key(), finite()), 1..8),
        before in prop::collection::vec(noise_line(), 0..4),
        after in prop::collection::vec(noise_line(), 0..4),
        gap in prop::sample::select(vec!["", " ", "\t", "\n", " \r\n ", "\u{a0}", "\u{1f}", "\u{3000}\n"]),
        escape in any::<bool>(),
        cuts in prop::collection::vec(any::<usize>(), 0..4),
    ) {
        let body: Vec<String> = entries
            .iter()
            .map(|(k, v)| {
                let key = if escape { ascii_escaped(k) } else { serde_json::to_string(k).unwrap() };
                format!("{key}: {}", serde_json::to_string(v).unwrap())
            })
            .collect();
        let mut text = before.join("\n");
        text.push_str(&format!("\nstep 9 __RESULT__{gap}{{{}}}\n", body.join(", ")));
        text.push_str(&after.join("\n"));
        let mut want = Metrics::new();
        for (k, v) in &entries {
            want.insert(k.clone(), *v);
        }
        prop_assert_eq!(pairs(&parse_metrics(text.as_bytes())), pairs(&want));
        prop_assert_eq!(pairs(&scan_in_chunks(text.as_bytes(), &cuts)), pairs(&want));
    }
}
