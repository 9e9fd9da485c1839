//! pi-autoresearch's `autoresearch.jsonl` (current pi writes the same
//! lines to `.auto/log.jsonl`): one JSON object a line, a run (`commit`,
//! `metric`, `metrics`, `status`, `description`, `timestamp`, `segment`),
//! the loop's configuration (`"type": "config"`, with the metric's name
//! and direction; a second one when the loop is initialised anew), or a
//! hook's line (`"type": "hook"`).

use serde_json::{Map, Value};

use super::columns::Moves;
use super::{
    commit_text, direction_of, name_of, segment_id, status_of, ImportError, NightPlan, Options,
    Quiet, Read, Row, Source,
};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;

/// The lines under one configuration line (the first: those before any).
#[derive(Default)]
struct Section {
    metric: Option<String>,
    declared: Option<Direction>,
    /// pi's own segment number, from the section's first run.
    part: Option<String>,
    runs: usize,
    keeps: Moves,
}

/// The first pass: each configuration line (pi writes one when the loop
/// starts, and again when it is initialised anew) opens a night of its
/// own, with its own metric and direction.
pub(super) struct Survey {
    seen: bool,
    sections: Vec<Section>,
}

impl Default for Survey {
    fn default() -> Survey {
        Survey {
            seen: false,
            sections: vec![Section::default()],
        }
    }
}

fn kind_of(o: &Map<String, Value>) -> Option<&str> {
    o.get("type").and_then(Value::as_str)
}

impl Survey {
    pub(super) fn line(&mut self, text: &str) -> Result<(), ImportError> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(());
        }
        if !self.seen {
            self.seen = true;
            if !t.starts_with('{') {
                let what = if t.contains('\t') {
                    "tab-separated columns (a results.tsv: --from karpathy or --from codex)"
                } else {
                    "no JSON object"
                };
                return Err(ImportError::Kind(format!(
                    "the first line is not one of pi's autoresearch.jsonl: {what}"
                )));
            }
        }
        let Ok(o) = object(t) else { return Ok(()) };
        match kind_of(&o) {
            Some("config") => self.sections.push(Section {
                metric: o.get("metricName").and_then(Value::as_str).map(name_of),
                declared: match o.get("bestDirection").and_then(Value::as_str) {
                    Some("higher") => Some(Direction::Max),
                    Some("lower") => Some(Direction::Min),
                    _ => None,
                },
                ..Section::default()
            }),
            Some(_) => {}
            None => {
                let Some(section) = self.sections.last_mut() else {
                    return Ok(());
                };
                section.runs += 1;
                if section.part.is_none() {
                    section.part = part(&o);
                }
                let status = o.get("status").and_then(Value::as_str).and_then(status_of);
                if let (Some(TryStatus::Keep | TryStatus::Baseline), Some(v)) = (status, value(&o))
                {
                    section.keeps.keep(v);
                }
            }
        }
        Ok(())
    }

    pub(super) fn finish(self, options: &Options) -> Result<Plan, ImportError> {
        let mut nights = Vec::new();
        let mut night_of = Vec::new();
        for (i, s) in self.sections.iter().enumerate() {
            if s.runs == 0 {
                night_of.push(None);
                continue;
            }
            let metric = options
                .metric
                .clone()
                .or(s.metric.clone())
                .unwrap_or_else(|| "metric".to_string());
            let (direction, direction_from) = direction_of(options, &metric, s.declared, &s.keeps)?;
            // pi's own segment number; else which configuration line.
            let part = s
                .part
                .clone()
                .unwrap_or_else(|| i.saturating_sub(1).to_string());
            night_of.push(Some(nights.len()));
            nights.push(NightPlan {
                segment: segment_id(Source::Pi, &metric, Some(&part)),
                metric,
                direction,
                direction_from,
            });
        }
        if nights.is_empty() {
            // A file of no run: one night to name, nothing to read into it.
            let metric = options
                .metric
                .clone()
                .unwrap_or_else(|| "metric".to_string());
            nights.push(NightPlan {
                segment: segment_id(Source::Pi, &metric, None),
                metric,
                direction: options.direction.unwrap_or(Direction::Min),
                direction_from: if options.direction.is_some() {
                    "flag"
                } else {
                    "none"
                },
            });
        }
        Ok(Plan { nights, night_of })
    }
}

/// How the second pass reads a line.
pub(super) struct Plan {
    pub(super) nights: Vec<NightPlan>,
    /// Per section (configuration lines read before a line), its night.
    night_of: Vec<Option<usize>>,
}

impl Plan {
    /// Line `text`; `section` counts the configuration lines read so far.
    pub(super) fn line(&self, text: &str, section: &mut usize) -> Result<Option<Row>, Read> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let o = object(t)?;
        match kind_of(&o) {
            Some("config") => {
                *section += 1;
                return Err(Read::Quiet(Quiet::Config));
            }
            Some("hook") => return Err(Read::Quiet(Quiet::Hook)),
            Some(other) => return Err(Read::Bad(format!("a {other:?} line, not a run"))),
            None => {}
        }
        let night = self
            .night_of
            .get(*section)
            .copied()
            .flatten()
            .ok_or_else(|| "a run outside every night".to_string())?;
        let mut r = row(&o, &self.nights[night].metric)?;
        r.night = night;
        Ok(Some(r))
    }
}

/// The run's metric value: a finite number.
fn value(o: &Map<String, Value>) -> Option<f64> {
    o.get("metric")
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
}

/// pi's segment number of a run.
fn part(o: &Map<String, Value>) -> Option<String> {
    match o.get("segment") {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

fn object(line: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err("not a JSON object".to_string()),
        Err(e) => Err(format!("not JSON ({e})")),
    }
}

fn row(o: &Map<String, Value>, metric: &str) -> Result<Row, String> {
    let status_text = o.get("status").and_then(Value::as_str).ok_or("no status")?;
    let status = status_of(status_text).ok_or_else(|| {
        format!("status {status_text:?} is none of keep, discard, crash, checks_failed")
    })?;
    let crashed = status == TryStatus::Crash;
    let value = match value(o) {
        _ if crashed => None,
        Some(v) => Some(v),
        None if matches!(status, TryStatus::Keep | TryStatus::Baseline) => {
            return Err(format!("no number as its metric ({metric})"))
        }
        None if o.get("metric").is_some_and(|v| !v.is_null()) => {
            return Err(format!("no number as its metric ({metric})"))
        }
        None => None,
    };
    let metrics = o
        .get("metrics")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| k.as_str() != metric)
                .filter_map(|(k, v)| Some((name_of(k), v.as_f64().filter(|v| v.is_finite())?)))
                .filter(|(_, v)| !(crashed && *v == 0.0))
                .collect()
        })
        .unwrap_or_default();
    Ok(Row {
        line: 0,
        id: String::new(),
        status,
        value,
        metrics,
        commit: o
            .get("commit")
            .and_then(Value::as_str)
            .and_then(commit_text),
        description: o
            .get("description")
            .and_then(Value::as_str)
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty()),
        at: o.get("timestamp").and_then(timestamp),
        night: 0,
    })
}

/// A timestamp as pi writes it: milliseconds (or seconds) since the epoch,
/// or RFC 3339 text; RFC 3339 in UTC out.
fn timestamp(v: &Value) -> Option<String> {
    let ts = match v {
        Value::Number(n) => {
            let x = n.as_f64()?;
            let ms = if x.abs() >= 1e11 { x } else { x * 1000.0 };
            jiff::Timestamp::from_millisecond(ms as i64).ok()?
        }
        Value::String(s) => s.trim().parse::<jiff::Timestamp>().ok()?,
        _ => return None,
    };
    // As the journal writes times: three fractional digits, so they sort as text.
    Some(ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}
