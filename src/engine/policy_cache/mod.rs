//! The policy cache: state fingerprints, crystallization of repeated
//! (state, action) successes into standing policies with a Q value that
//! TD(0) keeps current, and the weekday test that tells whether events
//! (failures, say) cluster on particular days.
//!
//! Follows Popoto 1.10.1 `recipes/policy_cache`,
//! with the clock and the event stream lifted out: fingerprints hash a
//! canonical JSON text byte-identical to Python's
//! `json.dumps(obj, sort_keys=True)`, so they match fingerprints computed
//! by the reference.
//!
//! Pure: features, counts and event times in, fingerprints, entries and
//! statistics out. It must not read the journal, files, clocks or the
//! environment, or print; the host passes the hour bucket and event times
//! (unix seconds) in, and keeps the entries. Chi-squared quantiles come
//! from `statrs`.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::kernel::verdict::Verdict;

/// A (fingerprint, action) group needs at least this many events.
pub const MIN_EVENTS: u64 = 3;

/// The Wilson lower bound must be strictly above this to crystallize.
pub const WILSON_THRESHOLD: f64 = 0.6;

/// The z of the Wilson bound (95%).
pub const WILSON_Z: f64 = 1.96;

/// Default TD(0) learning rate.
pub const TD_ALPHA: f64 = 0.1;

/// Default TD(0) discount.
pub const TD_GAMMA: f64 = 0.95;

/// Significance level of the cycle test.
pub const CHI_SQUARED_P: f64 = 0.05;

/// Chi-squared critical values at p = 0.05, by degrees of freedom, as the
/// reference tabulates them (rounded to three decimals).
pub const CHI_SQUARED_CRITICAL_05: [(u32, f64); 5] = [
    (2, 5.991),
    (3, 7.815),
    (6, 12.592),
    (11, 19.675),
    (23, 35.172),
];

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

/// Python's `repr` of a float: the shortest digits that read back to the
/// same value, positional for decimal exponents -4 to 15 (with `.0` when
/// integral), otherwise `d.ddde±XX`.
fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, exp) = shortest_digits(x.abs());
    let body = if (-4..16).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                format!("{digits}{}.0", "0".repeat(int_len - digits.len()))
            } else {
                format!("{}.{}", &digits[..int_len], &digits[int_len..])
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let lead = if digits.len() == 1 {
            digits
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{lead}e{esign}{:02}", exp.abs())
    };
    format!("{sign}{body}")
}

/// Significant digits (no trailing zeros) and decimal exponent of a
/// scientific rendering `d.ddde±X`.
fn split_sci(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let trimmed = digits.trim_end_matches('0');
    (
        if trimmed.is_empty() { "0" } else { trimmed }.to_string(),
        exp,
    )
}

/// The shortest round-trip digits of a positive finite `x`, as Python's
/// `repr` chooses them: `d1 d2 … dk × 10^(exp − k + 1)`.
///
/// Rust's `{:e}` finds the same shortest length, but when `x` lies exactly
/// halfway between two shortest candidates it takes the upper one, while
/// Python (David Gay's dtoa) takes the one with an even last digit:
/// 808126711593748.25 is `…748.3` in Rust and `…748.2` in Python.
fn shortest_digits(x: f64) -> (String, i32) {
    let (digits, exp) = split_sci(&format!("{x:e}"));
    let last = digits.as_bytes()[digits.len() - 1] - b'0';
    if last.is_multiple_of(2) {
        return (digits, exp);
    }
    // A tie needs x to have exactly one more significant digit, a 5.
    let k = digits.len();
    let (near, near_exp) = split_sci(&format!("{x:.k$e}"));
    if near.len() != k + 1 || !near.ends_with('5') || !is_exact(x, &near, near_exp) {
        return (digits, exp);
    }
    let mut candidate: Vec<u8> = near.as_bytes()[..k].to_vec();
    let mut candidate_exp = near_exp;
    if near[..k] == digits[..] {
        // x = digits + half a unit: the even neighbour is one unit up.
        let mut i = k;
        loop {
            if i == 0 {
                candidate.insert(0, b'1');
                candidate_exp += 1;
                break;
            }
            i -= 1;
            if candidate[i] == b'9' {
                candidate[i] = b'0';
            } else {
                candidate[i] += 1;
                break;
            }
        }
    }
    // Otherwise `near[..k]` is already the lower, even neighbour.
    let candidate = String::from_utf8(candidate).expect("ASCII digits");
    let trimmed = candidate.trim_end_matches('0');
    // Just above a power of two the gap below is half the gap above, so
    // the lower neighbour may not read back to x (2^-24 is `…0625`, and
    // only `…063` round-trips).
    let reads_back = format!("0.{trimmed}e{}", candidate_exp + 1).parse::<f64>() == Ok(x);
    if trimmed.is_empty() || !reads_back {
        return (digits, exp);
    }
    (trimmed.to_string(), candidate_exp)
}

/// Whether `x` is exactly `d1.d2d3… × 10^exp` (`digits` without trailing
/// zeros). A double has at most 767 significant decimal digits, so 800
/// digits of `{:e}` are its exact expansion.
fn is_exact(x: f64, digits: &str, exp: i32) -> bool {
    split_sci(&format!("{x:.800e}")) == (digits.to_string(), exp)
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

/// Lower bound of the Wilson score interval for `successes` out of
/// `total`: with `p = s/n`,
/// `(p + z²/2n − z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`; 0 when `total` is
/// 0. Successes beyond `total` count as `total`. The square root is
/// `f64::sqrt` (correctly rounded); the reference's `** 0.5` can differ
/// from it in the last bit for a few counts (5 of 17, say).
pub fn wilson_lower(successes: u64, total: u64, z: f64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    let n = total as f64;
    let p = successes.min(total) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (center - spread) / denominator
}

/// Pearson's chi-squared statistic against a uniform expectation of
/// `expected` per bucket: `Σ (o − e)² / e`; 0 when `expected <= 0`.
pub fn chi_squared_uniform(observed: &[u64], expected: f64) -> f64 {
    if expected.is_nan() || expected <= 0.0 {
        return 0.0;
    }
    observed
        .iter()
        .map(|o| {
            let d = *o as f64 - expected;
            d * d / expected
        })
        .sum()
}

/// The chi-squared critical value at p = 0.05 for `dof` degrees of
/// freedom: the reference's table ([`CHI_SQUARED_CRITICAL_05`]) where it
/// has the entry, so decisions agree with it, else the 0.95 quantile from
/// `statrs`. `None` for 0 degrees of freedom.
pub fn chi_squared_critical(dof: u32) -> Option<f64> {
    if let Some((_, v)) = CHI_SQUARED_CRITICAL_05.iter().find(|(d, _)| *d == dof) {
        return Some(*v);
    }
    ChiSquared::new(dof as f64)
        .ok()
        .map(|dist| dist.inverse_cdf(1.0 - CHI_SQUARED_P))
}

/// One TD(0) step: `delta = reward + gamma·max_next_q − q`, returns
/// `(q + alpha·delta, delta)`. A positive delta means better than
/// expected. Use `max_next_q = 0` for a terminal step.
pub fn td0_update(q: f64, reward: f64, max_next_q: f64, alpha: f64, gamma: f64) -> (f64, f64) {
    let delta = reward + gamma * max_next_q - q;
    (q + alpha * delta, delta)
}

/// The reward of a verdict: supported +1, refuted −1, inconclusive 0.
pub fn reward(verdict: Verdict) -> f64 {
    match verdict {
        Verdict::Supported => 1.0,
        Verdict::Refuted => -1.0,
        Verdict::Inconclusive => 0.0,
    }
}

/// One outcome of taking `action` in the state `fingerprint`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeEvent {
    pub fingerprint: String,
    pub action: String,
    pub success: bool,
}

/// A crystallized policy: `action` has earned its place in state
/// `fingerprint`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyEntry {
    pub fingerprint: String,
    pub action: String,
    /// The Q value: the Wilson bound at crystallization, then TD(0).
    pub q: f64,
    /// The evidence it crystallized from.
    pub successes: u64,
    pub total: u64,
}

impl PolicyEntry {
    /// Apply [`td0_update`] to the entry's Q value; returns the TD error.
    pub fn td_update(&mut self, reward: f64, max_next_q: f64, alpha: f64, gamma: f64) -> f64 {
        let (q, delta) = td0_update(self.q, reward, max_next_q, alpha, gamma);
        self.q = q;
        delta
    }
}

/// Whether `successes` out of `total` crystallize: `total >= 3` and the
/// Wilson lower bound (z = 1.96) strictly above 0.6. With every outcome a
/// success the first such total is 6.
pub fn crystallizes(successes: u64, total: u64) -> bool {
    total >= MIN_EVENTS && wilson_lower(successes, total, WILSON_Z) > WILSON_THRESHOLD
}

/// New policy entries from outcome events grouped by (fingerprint,
/// action): every group that [`crystallizes`] and is not already among
/// `known`, with `q` the Wilson bound. Each group is returned once, in the
/// order of its first event; events with an empty fingerprint or action
/// are skipped. Counts cover only the events given, so pass the whole
/// history to count cumulatively.
pub fn crystallize(events: &[OutcomeEvent], known: &[PolicyEntry]) -> Vec<PolicyEntry> {
    let mut order: Vec<(&str, &str)> = Vec::new();
    let mut counts: HashMap<(&str, &str), (u64, u64)> = HashMap::new();
    for e in events {
        if e.fingerprint.is_empty() || e.action.is_empty() {
            continue;
        }
        let key = (e.fingerprint.as_str(), e.action.as_str());
        let entry = counts.entry(key).or_insert_with(|| {
            order.push(key);
            (0, 0)
        });
        entry.0 += u64::from(e.success);
        entry.1 += 1;
    }
    order
        .into_iter()
        .filter(|(fp, action)| {
            !known
                .iter()
                .any(|k| k.fingerprint == *fp && k.action == *action)
        })
        .filter_map(|key| {
            let (successes, total) = counts[&key];
            crystallizes(successes, total).then(|| PolicyEntry {
                fingerprint: key.0.to_string(),
                action: key.1.to_string(),
                q: wilson_lower(successes, total, WILSON_Z),
                successes,
                total,
            })
        })
        .collect()
}

/// A day of the week, Monday first (Monday = 0, as Python's `tm_wday`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    /// Every weekday, Monday first.
    pub const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];

    /// The name, capitalized.
    pub fn as_str(self) -> &'static str {
        match self {
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
            Weekday::Sunday => "Sunday",
        }
    }

    /// Monday = 0 … Sunday = 6.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The UTC weekday of a time in unix seconds (1970-01-01 was a
    /// Thursday).
    pub fn of_unix_seconds(unix_seconds: i64) -> Weekday {
        let days = unix_seconds.div_euclid(86_400);
        Weekday::ALL[(days + 3).rem_euclid(7) as usize]
    }
}

impl fmt::Display for Weekday {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Residual `(o − e)/√e` above which a weekday counts as over-represented
/// (besides the peak), about the 97.5% normal quantile.
pub const OVER_REPRESENTED_RESIDUAL: f64 = 1.96;

/// The weekday test of a set of event times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeekdayCycle {
    /// Events per weekday, Monday first.
    pub counts: [u64; 7],
    pub n: u64,
    /// `n / 7`.
    pub expected: f64,
    /// Pearson's chi-squared against uniform, 6 degrees of freedom.
    pub statistic: f64,
    /// The critical value at p = 0.05 (12.592).
    pub critical: f64,
    /// `statistic > critical`.
    pub significant: bool,
    /// The first weekday with the most events.
    pub peak: Weekday,
    /// When significant: the weekday(s) with the most events, plus any
    /// other weekday whose residual exceeds [`OVER_REPRESENTED_RESIDUAL`];
    /// Monday first. Empty when not significant.
    pub over_represented: Vec<Weekday>,
}

impl WeekdayCycle {
    /// The over-represented weekdays for a sentence such as "failures
    /// cluster on Mondays": `Mondays`, `Mondays and Fridays`,
    /// `Mondays, Tuesdays and Fridays`; `None` when there are none.
    pub fn phrase(&self) -> Option<String> {
        let names: Vec<String> = self
            .over_represented
            .iter()
            .map(|d| format!("{d}s"))
            .collect();
        match names.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            [init @ .., last] => Some(format!("{} and {last}", init.join(", "))),
        }
    }
}

/// Test whether event times (unix seconds, UTC) cluster by weekday:
/// bucket them Monday..Sunday and compare with uniform by chi-squared
/// (significant above 12.592, p = 0.05 at 6 degrees of freedom). `None`
/// when there are too few events: fewer than 3, or fewer than 7 (an
/// expected count below 1 per day).
pub fn weekday_cycle(times: &[i64]) -> Option<WeekdayCycle> {
    let mut counts = [0u64; 7];
    for t in times {
        counts[Weekday::of_unix_seconds(*t).index()] += 1;
    }
    weekday_cycle_of_counts(counts)
}

/// [`weekday_cycle`] from events already counted per weekday (Monday first).
pub fn weekday_cycle_of_counts(counts: [u64; 7]) -> Option<WeekdayCycle> {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / 7.0;
    if n < MIN_EVENTS || expected < 1.0 {
        return None;
    }
    let statistic = chi_squared_uniform(&counts, expected);
    let critical = chi_squared_critical(6).expect("6 degrees of freedom are tabulated");
    let significant = statistic > critical;
    let most = *counts.iter().max().expect("seven buckets");
    let peak = Weekday::ALL[counts
        .iter()
        .position(|c| *c == most)
        .expect("the maximum is among the counts")];
    let over_represented = if significant {
        Weekday::ALL
            .into_iter()
            .filter(|d| {
                let c = counts[d.index()];
                c == most || (c as f64 - expected) / expected.sqrt() > OVER_REPRESENTED_RESIDUAL
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(WeekdayCycle {
        counts,
        n,
        expected,
        statistic,
        critical,
        significant,
        peak,
        over_represented,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOL: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= TOL
    }

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

    #[test]
    fn wilson_checks() {
        for (s, n, expected) in [
            (3, 3, 0.4384939195509822),
            (5, 5, 0.565508505247919),
            (6, 6, 0.6096569663469354),
            (8, 8, 0.6755843804891231),
            (8, 10, 0.49015684672072346),
            (10, 10, 0.7224598312333834),
            (0, 4, 0.0),
        ] {
            let w = wilson_lower(s, n, WILSON_Z);
            assert!(close(w, expected), "({s}, {n}): {w} vs {expected}");
        }
        assert_eq!(wilson_lower(0, 0, WILSON_Z), 0.0);
        assert_eq!(wilson_lower(7, 5, WILSON_Z), wilson_lower(5, 5, WILSON_Z));
    }

    #[test]
    fn chi_squared_statistic() {
        assert_eq!(chi_squared_uniform(&[1, 2, 3], 0.0), 0.0);
        assert_eq!(chi_squared_uniform(&[1, 2, 3], -1.0), 0.0);
        assert_eq!(chi_squared_uniform(&[2, 2, 2], 2.0), 0.0);
        // (4-2)²/2 + (0-2)²/2 + 0 = 4.
        assert!(close(chi_squared_uniform(&[4, 0, 2], 2.0), 4.0));
    }

    #[test]
    fn chi_squared_critical_values() {
        for (dof, v) in [
            (2, 5.991),
            (3, 7.815),
            (6, 12.592),
            (11, 19.675),
            (23, 35.172),
        ] {
            assert_eq!(chi_squared_critical(dof), Some(v));
            // The table is statrs' quantile rounded to three decimals.
            let exact = ChiSquared::new(dof as f64).unwrap().inverse_cdf(0.95);
            assert!((exact - v).abs() < 5e-4, "dof {dof}: {exact}");
        }
        assert!((chi_squared_critical(1).unwrap() - 3.841458820694124).abs() < 1e-9);
        assert!((chi_squared_critical(4).unwrap() - 9.487729036781154).abs() < 1e-9);
        assert_eq!(chi_squared_critical(0), None);
    }

    #[test]
    fn td0() {
        let (q, delta) = td0_update(0.5, 1.0, 0.0, TD_ALPHA, TD_GAMMA);
        assert!(close(delta, 0.5));
        assert!(close(q, 0.55));
        let (q, delta) = td0_update(0.2, -1.0, 0.8, 0.5, 0.9);
        assert!(close(delta, -1.0 + 0.72 - 0.2));
        assert!(close(q, 0.2 + 0.5 * delta));
        let mut e = PolicyEntry {
            fingerprint: "f".into(),
            action: "a".into(),
            q: 0.5,
            successes: 6,
            total: 6,
        };
        let d = e.td_update(reward(Verdict::Refuted), 0.0, TD_ALPHA, TD_GAMMA);
        assert!(close(d, -1.5));
        assert!(close(e.q, 0.35));
    }

    #[test]
    fn rewards() {
        assert_eq!(reward(Verdict::Supported), 1.0);
        assert_eq!(reward(Verdict::Refuted), -1.0);
        assert_eq!(reward(Verdict::Inconclusive), 0.0);
    }

    fn events(fp: &str, action: &str, outcomes: &[bool]) -> Vec<OutcomeEvent> {
        outcomes
            .iter()
            .map(|s| OutcomeEvent {
                fingerprint: fp.into(),
                action: action.into(),
                success: *s,
            })
            .collect()
    }

    #[test]
    fn smallest_crystallizing_count_is_six() {
        let first = (1..=20).find(|n| crystallizes(*n, *n));
        assert_eq!(first, Some(6));
        assert!(crystallize(&events("f", "a", &[true; 5]), &[]).is_empty());
        let entries = crystallize(&events("f", "a", &[true; 6]), &[]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].q, wilson_lower(6, 6, WILSON_Z));
        assert!(close(entries[0].q, 0.6096569663469354));
        assert_eq!((entries[0].successes, entries[0].total), (6, 6));
    }

    #[test]
    fn crystallization_groups_and_never_duplicates() {
        let mut all = events("f1", "retry", &[true, true, true]);
        all.extend(events("f2", "retry", &[true; 10]));
        all.extend(events("f1", "retry", &[true; 7]));
        all.extend(events("f1", "skip", &[true, false, true, true]));
        all.extend(events("", "retry", &[true; 10]));
        all.extend(events("f3", "", &[true; 10]));
        let entries = crystallize(&all, &[]);
        let keys: Vec<_> = entries
            .iter()
            .map(|e| (e.fingerprint.as_str(), e.action.as_str(), e.total))
            .collect();
        // First-appearance order; 8 of 10 does not pass (0.49), 10 of 10 does.
        assert_eq!(keys, vec![("f1", "retry", 10), ("f2", "retry", 10)]);
        assert!(close(entries[0].q, 0.7224598312333834));
        // A later batch does not crystallize the same pairs again.
        assert!(crystallize(&all, &entries).is_empty());
        let mut more = all.clone();
        more.extend(events("f4", "retry", &[true; 8]));
        let new = crystallize(&more, &entries);
        assert_eq!(new.len(), 1);
        assert_eq!(new[0].fingerprint, "f4");
        assert!(close(new[0].q, 0.6755843804891231));
        // 8 successes out of 10: below the threshold.
        let mixed = events(
            "f5",
            "a",
            &[true, true, true, true, false, true, true, true, false, true],
        );
        assert!(crystallize(&mixed, &[]).is_empty());
    }

    #[test]
    fn weekdays_from_unix_seconds() {
        assert_eq!(Weekday::of_unix_seconds(0), Weekday::Thursday);
        // 2024-01-01T00:00:00Z was a Monday.
        assert_eq!(Weekday::of_unix_seconds(1_704_067_200), Weekday::Monday);
        assert_eq!(Weekday::of_unix_seconds(1_704_067_200 - 1), Weekday::Sunday);
        assert_eq!(Weekday::of_unix_seconds(-1), Weekday::Wednesday);
        assert_eq!(Weekday::Sunday.index(), 6);
        assert_eq!(
            serde_json::to_string(&Weekday::Monday).unwrap(),
            "\"monday\""
        );
    }

    const MONDAY: i64 = 1_704_067_200;
    const DAY: i64 = 86_400;
    const WEEK: i64 = 7 * DAY;

    #[test]
    fn weekday_cycle_needs_enough_events() {
        assert_eq!(weekday_cycle(&[]), None);
        assert_eq!(weekday_cycle(&[MONDAY; 6]), None);
        let c = weekday_cycle(&[MONDAY; 7]).unwrap();
        assert_eq!(c.counts, [7, 0, 0, 0, 0, 0, 0]);
        // 6·1 + 36 = 42 > 12.592.
        assert!(close(c.statistic, 42.0));
        assert!(c.significant);
        assert_eq!(c.over_represented, vec![Weekday::Monday]);
        assert_eq!(c.phrase().as_deref(), Some("Mondays"));
    }

    #[test]
    fn weekday_cycle_uniform_is_not_significant() {
        let times: Vec<i64> = (0..28).map(|i| MONDAY + i * DAY + 3600).collect();
        let c = weekday_cycle(&times).unwrap();
        assert_eq!(c.counts, [4; 7]);
        assert_eq!(c.statistic, 0.0);
        assert!(!c.significant);
        assert_eq!(c.critical, 12.592);
        assert!(c.over_represented.is_empty());
        assert_eq!(c.phrase(), None);
        assert_eq!(c.peak, Weekday::Monday);
    }

    #[test]
    fn weekday_cycle_failures_cluster_on_mondays_and_fridays() {
        let mut times: Vec<i64> = (0..7).map(|i| MONDAY + i * DAY).collect();
        for w in 0..6 {
            times.push(MONDAY + w * WEEK + 10 * 3600);
            times.push(MONDAY + w * WEEK + 4 * DAY + 3600);
        }
        times.push(MONDAY + 9 * WEEK + 4 * DAY);
        let c = weekday_cycle(&times).unwrap();
        assert_eq!(c.counts, [7, 1, 1, 1, 8, 1, 1]);
        assert!(c.significant, "{}", c.statistic);
        assert_eq!(c.peak, Weekday::Friday);
        assert_eq!(c.over_represented, vec![Weekday::Monday, Weekday::Friday]);
        assert_eq!(c.phrase().as_deref(), Some("Mondays and Fridays"));
        let j = serde_json::to_value(&c).unwrap();
        assert_eq!(j["over_represented"], json!(["monday", "friday"]));
        assert_eq!(j["counts"].as_array().unwrap().len(), 7);
    }

    #[test]
    fn weekday_phrase_lists() {
        let c = WeekdayCycle {
            counts: [0; 7],
            n: 0,
            expected: 0.0,
            statistic: 0.0,
            critical: 12.592,
            significant: true,
            peak: Weekday::Monday,
            over_represented: vec![Weekday::Monday, Weekday::Tuesday, Weekday::Friday],
        };
        assert_eq!(c.phrase().as_deref(), Some("Mondays, Tuesdays and Fridays"));
    }
}
