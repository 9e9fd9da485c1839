//! State fingerprints: SHA-256 of a canonical JSON text byte-identical to
//! Python's `json.dumps(obj, sort_keys=True)`, with an optional hour bucket.

use std::fmt::Write as _;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::kernel::number::{shortest_round_trip, Tie};

/// The key [`fingerprint`] adds for the hour bucket.
pub const HOUR_BUCKET_KEY: &str = "__hour_bucket__";

/// Seconds in an hour bucket.
pub const SECONDS_PER_HOUR: i64 = 3600;

/// Features serialized exactly as Python's `json.dumps(obj,
/// sort_keys=True)` with its defaults: `", "` between items and `": "`
/// after keys, keys sorted by code point at every depth, every character
/// outside printable ASCII escaped as `\uXXXX` (lower-case hex, surrogate
/// pairs above U+FFFF; `\n`, `\r`, `\t`, `\b`, `\f` in short form),
/// integers as integers and floats in Python's `repr` (`1.0`, `1e+16`,
/// `0.001`, `1e-05`).
///
/// serde_json keeps `1.0` (a float) apart from `1` (an integer), as Python
/// does. Parity also needs the `Value` to hold the same floats as Python
/// would: serde_json parses floats correctly rounded only with its
/// `float_roundtrip` feature; without it a float with many digits (say
/// `9.044924567151611e-08`) can land one bit off and print differently.
/// One difference remains, outside ordinary features: an integer beyond
/// 64 bits is already a float once serde_json has parsed it. A non-finite
/// float (which a `Value` cannot normally hold) prints as Python's `NaN` /
/// `Infinity`.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                write!(out, "{u}").expect("writing to a String");
            } else if let Some(i) = n.as_i64() {
                write!(out, "{i}").expect("writing to a String");
            } else {
                out.push_str(&py_float_repr(n.as_f64().unwrap_or(f64::NAN)));
            }
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // `str` order is byte order of UTF-8, which is code point order:
            // the order Python sorts `str` keys in.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(out, key);
                out.push_str(": ");
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// A JSON string with Python's `ensure_ascii` escaping.
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(out, "\\u{unit:04x}").expect("writing to a String");
                }
            }
        }
    }
    out.push('"');
}

/// A float as Python's `json.dumps` writes it: `repr` (the shortest digits
/// that read back to the same value, ties to even, positional for decimal
/// exponents -4 to 15 with `.0` when integral, otherwise `d.ddde±XX`), and
/// `NaN` / `Infinity` for the non-finite values.
fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    shortest_round_trip(x, Tie::Even)
}

/// The hour bucket of a time: `unix_seconds // 3600` (floor division, as
/// Python's `//`).
pub fn hour_bucket(unix_seconds: i64) -> i64 {
    unix_seconds.div_euclid(SECONDS_PER_HOUR)
}

/// A state fingerprint: the first 16 lower-case hex digits of SHA-256 of
/// [`canonical_json`] of the features.
///
/// With `include_fields`, only those keys are kept (a missing key is an
/// error). With `hour_bucket` (see [`hour_bucket`]; the host supplies the
/// time), `"__hour_bucket__": bucket` is added, replacing any such key, so
/// the fingerprint changes every hour. Both need `features` to be an
/// object; without them any JSON value can be fingerprinted.
pub fn fingerprint(
    features: &Value,
    include_fields: Option<&[String]>,
    hour_bucket: Option<i64>,
) -> Result<String, String> {
    let mut selected = features.clone();
    if include_fields.is_some() || hour_bucket.is_some() {
        let Value::Object(map) = features else {
            return Err(
                "features must be a JSON object to select fields or add an hour bucket".to_string(),
            );
        };
        let mut kept = match include_fields {
            Some(fields) => {
                let mut kept = serde_json::Map::new();
                for field in fields {
                    let value = map
                        .get(field)
                        .ok_or_else(|| format!("feature {field:?} is not among the features"))?;
                    kept.insert(field.clone(), value.clone());
                }
                kept
            }
            None => map.clone(),
        };
        if let Some(bucket) = hour_bucket {
            kept.insert(HOUR_BUCKET_KEY.to_string(), Value::from(bucket));
        }
        selected = Value::Object(kept);
    }
    let digest = Sha256::digest(canonical_json(&selected).as_bytes());
    Ok(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn fingerprint_checks() {
        let f = parse(r#"{"task":"deploy","env":"staging"}"#);
        assert_eq!(fingerprint(&f, None, None).unwrap(), "86e6b7501eb99c29");
        let f = parse(r#"{"task":"deploy"}"#);
        assert_eq!(fingerprint(&f, None, None).unwrap(), "c0ec4f6d2679a33d");
        let f = parse(
            r#"{"lr":0.001,"layers":12,"opt":"adam","tags":["a","ü"],"nested":{"b":1.0,"a":1e16}}"#,
        );
        assert_eq!(
            canonical_json(&f),
            r#"{"layers": 12, "lr": 0.001, "nested": {"a": 1e+16, "b": 1.0}, "opt": "adam", "tags": ["a", "\u00fc"]}"#
        );
        assert_eq!(fingerprint(&f, None, None).unwrap(), "82660d6b54f135c1");
    }

    #[test]
    fn include_fields_selects_and_requires_keys() {
        let f = parse(r#"{"task":"deploy","env":"staging"}"#);
        let only_task = ["task".to_string()];
        // Keeping only `task` is the same state as `{"task": "deploy"}`.
        assert_eq!(
            fingerprint(&f, Some(&only_task), None).unwrap(),
            "c0ec4f6d2679a33d"
        );
        let missing = ["task".to_string(), "region".to_string()];
        let err = fingerprint(&f, Some(&missing), None).unwrap_err();
        assert!(err.contains("\"region\""), "{err}");
        assert!(fingerprint(&json!([1, 2]), Some(&only_task), None).is_err());
        assert!(fingerprint(&json!("x"), None, Some(1)).is_err());
        // Any value can be fingerprinted as it is.
        assert_eq!(fingerprint(&json!([1, 2]), None, None).unwrap().len(), 16);
    }

    #[test]
    fn hour_bucket_is_added_as_an_integer_key() {
        let f = parse(r#"{"task":"deploy"}"#);
        let bucket = hour_bucket(1_700_000_000);
        assert_eq!(bucket, 472_222);
        let mut with_bucket = f.clone();
        with_bucket[HOUR_BUCKET_KEY] = json!(472_222);
        assert_eq!(
            canonical_json(&with_bucket),
            r#"{"__hour_bucket__": 472222, "task": "deploy"}"#
        );
        let expected = fingerprint(&with_bucket, None, None).unwrap();
        assert_eq!(fingerprint(&f, None, Some(bucket)).unwrap(), expected);
        assert_ne!(expected, "c0ec4f6d2679a33d");
        assert_ne!(fingerprint(&f, None, Some(bucket + 1)).unwrap(), expected);
        // Floor division, like Python's `//`.
        assert_eq!(hour_bucket(3599), 0);
        assert_eq!(hour_bucket(-1), -1);
    }

    #[test]
    fn canonical_json_matches_python_dumps() {
        // json.dumps(..., sort_keys=True) of the same object, from CPython.
        let f = parse(
            r#"{"b":[1.0,1e16,0.001,1e-05,-0.0,123456789012345678.0,1e15,0.1,2.5e-7,
                1.7976931348623157e308,5e-324,12,-3],
               "a":"\u0000\u001f\u007f\"\\/\n\t\r\b\f é\u2028😀",
               "é":null,"Z":true,"z":false,"":{},"l":[]}"#,
        );
        assert_eq!(
            canonical_json(&f),
            r#"{"": {}, "Z": true, "a": "\u0000\u001f\u007f\"\\/\n\t\r\b\f \u00e9\u2028\ud83d\ude00", "b": [1.0, 1e+16, 0.001, 1e-05, -0.0, 1.2345678901234568e+17, 1000000000000000.0, 0.1, 2.5e-07, 1.7976931348623157e+308, 5e-324, 12, -3], "l": [], "z": false, "\u00e9": null}"#
        );
    }

    #[test]
    fn canonical_json_sorts_every_depth_by_code_point() {
        let f = parse(r#"{"b":{"y":1,"x":[{"d":1,"c":2}]},"a":0,"B":0,"ä":0,"😀":0,"\uffff":0}"#);
        assert_eq!(
            canonical_json(&f),
            r#"{"B": 0, "a": 0, "b": {"x": [{"c": 2, "d": 1}], "y": 1}, "\u00e4": 0, "\uffff": 0, "\ud83d\ude00": 0}"#
        );
    }

    #[test]
    fn python_float_repr() {
        for (x, text) in [
            (1.0, "1.0"),
            (-2.5, "-2.5"),
            (0.0, "0.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1e-5, "1e-05"),
            (-1.25e-100, "-1.25e-100"),
            (1e100, "1e+100"),
            (123.456, "123.456"),
            (0.30000000000000004, "0.30000000000000004"),
            // Exact halfway cases go to the even last digit, as in Python.
            (808_126_711_593_748.0 + 0.25, "808126711593748.2"),
            (808_126_711_593_748.0 + 0.75, "808126711593748.8"),
            (0.5, "0.5"),
            // A tie whose even neighbour does not read back.
            (2f64.powi(-24), "5.960464477539063e-08"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(py_float_repr(x), text);
        }
        // 64-bit integers print exactly at both ends; beyond them
        // serde_json has already made a float (Python would keep the int).
        assert_eq!(
            canonical_json(&parse(
                "[18446744073709551615, -9223372036854775808, 18446744073709551616]"
            )),
            "[18446744073709551615, -9223372036854775808, 1.8446744073709552e+19]"
        );
    }
}
