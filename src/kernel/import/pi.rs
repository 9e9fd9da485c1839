//! pi-autoresearch's `autoresearch.jsonl`: one JSON object a line, a run
//! (`commit`, `metric`, `metrics`, `status`, `description`, `timestamp`,
//! `segment`) or the loop's configuration (`"type": "config"`, with the
//! metric's name and direction).

use serde_json::{Map, Value};

use super::{
    commit_text, segment_id, status_of, Identities, ImportError, Night, Options, Row, Skipped,
    Source,
};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;

/// A line read as a JSON object, or why it is none.
type Read = Result<Map<String, Value>, String>;

pub(super) fn parse(text: &str, options: &Options) -> Result<Night, ImportError> {
    let lines: Vec<(usize, &str)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if let Some((_, first)) = lines.first() {
        if !first.starts_with('{') {
            let what = if first.contains('\t') {
                "tab-separated columns (a results.tsv: --from karpathy or --from codex)"
            } else {
                "no JSON object"
            };
            return Err(ImportError::Kind(format!(
                "the first line is not one of pi's autoresearch.jsonl: {what}"
            )));
        }
    }
    let objects: Vec<(usize, &str, Read)> = lines.iter().map(|&(n, l)| (n, l, object(l))).collect();
    let config = objects.iter().find_map(|(_, _, o)| {
        o.as_ref()
            .ok()
            .filter(|o| o.get("type").and_then(Value::as_str) == Some("config"))
    });
    let metric = options
        .metric
        .clone()
        .or_else(|| config.and_then(|c| c.get("metricName")?.as_str().map(str::to_string)))
        .unwrap_or_else(|| "metric".to_string());
    let direction = options.direction.unwrap_or_else(|| {
        match config.and_then(|c| c.get("bestDirection")?.as_str()) {
            Some("higher") => Direction::Max,
            _ => Direction::Min,
        }
    });
    let mut night = Night {
        from: Source::Pi,
        metric,
        direction,
        rows: Vec::new(),
        skipped: Vec::new(),
    };
    let mut ids = Identities::default();
    for (n, line, o) in objects {
        let read = o.and_then(|o| {
            if o.get("type").and_then(Value::as_str) == Some("config") {
                return Ok(None);
            }
            row(&o, &night.metric).map(Some)
        });
        match read {
            Ok(None) => {}
            Ok(Some(mut r)) => {
                r.line = n;
                r.id = ids.next(Source::Pi, line);
                night.rows.push(r);
            }
            Err(reason) => night.skipped.push(Skipped { line: n, reason }),
        }
    }
    Ok(night)
}

fn object(line: &str) -> Read {
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
    let value = match o
        .get("metric")
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
    {
        Some(v) if !crashed => Some(v),
        None if !crashed => return Err(format!("no number as its metric ({metric})")),
        _ => None,
    };
    let metrics = o
        .get("metrics")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| k.as_str() != metric)
                .filter_map(|(k, v)| Some((k.clone(), v.as_f64().filter(|v| v.is_finite())?)))
                .filter(|(_, v)| !(crashed && *v == 0.0))
                .collect()
        })
        .unwrap_or_default();
    let part = match o.get("segment") {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
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
        segment: segment_id(Source::Pi, metric, part.as_deref()),
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
