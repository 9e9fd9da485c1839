//! The experiment-result contract: the `__RESULT__ {json}` line, the metric
//! spec a hypothesis carries, and the comparison that drives a verdict.
//!
//! Parsing is push-based ([`ResultScanner`]): the host feeds bytes as they
//! arrive and the scanner answers as soon as the first result line is
//! settled, with memory bounded by the metrics it keeps. It never reads or
//! prints anything itself.

mod diagnose;
mod encoding;
mod formats;
mod json;
mod scanner;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

pub use diagnose::{why_rejected, MarkerWatch};
pub use encoding::{decode_text, Encoding, TextDecoder};
pub use formats::{
    compile_pattern, extract, Extracted, Extractor, FormatError, Pattern, ResultFormat,
    FORMAT_NAMES, MAX_LINE,
};
pub use json::{MAX_DEPTH, MAX_KEYS, MAX_KEY_BYTES};
pub use scanner::{
    is_py_whitespace, parse_metrics, parse_object_line, parse_progress_line, Captured,
    ResultScanner,
};

/// The metrics of a result line: finite numbers by key, in first-seen order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics(Vec<(String, f64)>);

impl Metrics {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn from_pairs(pairs: Vec<(String, f64)>) -> Self {
        let mut m = Self::new();
        for (k, v) in pairs {
            m.insert(k, v);
        }
        m
    }
    /// Build from pairs whose keys are known to be distinct.
    pub(crate) fn from_unique(pairs: Vec<(String, f64)>) -> Self {
        Metrics(pairs)
    }
    /// Insert or replace (a replaced key keeps its position).
    pub fn insert(&mut self, key: String, value: f64) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }
    pub fn get(&self, key: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

impl Serialize for Metrics {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Metrics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let mut m = Metrics::new();
        for (k, v) in map {
            if let Some(x) = v.as_f64().filter(|x| x.is_finite()) {
                m.insert(k, x);
            }
        }
        Ok(m)
    }
}

/// A comparison operator of a metric spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Comparator {
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "==")]
    Eq,
}

impl Comparator {
    pub const ALL: [Comparator; 5] = [
        Comparator::Ge,
        Comparator::Le,
        Comparator::Gt,
        Comparator::Lt,
        Comparator::Eq,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Comparator::Ge => ">=",
            Comparator::Le => "<=",
            Comparator::Gt => ">",
            Comparator::Lt => "<",
            Comparator::Eq => "==",
        }
    }
}

impl fmt::Display for Comparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Comparator {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        Comparator::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| SpecError::Comparator(s.to_string()))
    }
}

/// `value <comparator> target`, IEEE semantics (`-0.0 == 0.0`).
pub fn compare(value: f64, comparator: Comparator, target: f64) -> bool {
    match comparator {
        Comparator::Ge => value >= target,
        Comparator::Le => value <= target,
        Comparator::Gt => value > target,
        Comparator::Lt => value < target,
        Comparator::Eq => value == target,
    }
}

/// The machine-readable verdict contract a hypothesis carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSpec {
    pub metric_key: String,
    pub comparator: Comparator,
    pub target: f64,
}

/// Why a metric spec cannot drive a deterministic verdict; names the field.
#[derive(Debug, Clone, PartialEq)]
pub enum SpecError {
    EmptyMetricKey,
    Comparator(String),
    TargetNotFinite(f64),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::EmptyMetricKey => write!(f, "metric_key must be a non-empty string"),
            SpecError::Comparator(c) => {
                write!(f, "comparator must be one of >=, <=, >, <, == (got {c:?})")
            }
            SpecError::TargetNotFinite(t) => write!(f, "target must be a finite number (got {t})"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Build a spec from its parts, checking each field in order.
pub fn validate_metric_spec(
    metric_key: &str,
    comparator: &str,
    target: f64,
) -> Result<MetricSpec, SpecError> {
    if metric_key.is_empty() {
        return Err(SpecError::EmptyMetricKey);
    }
    let comparator = comparator.parse()?;
    if !target.is_finite() {
        return Err(SpecError::TargetNotFinite(target));
    }
    Ok(MetricSpec {
        metric_key: metric_key.to_string(),
        comparator,
        target,
    })
}
