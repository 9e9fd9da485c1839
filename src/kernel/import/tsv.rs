//! The `results.tsv` of karpathy/autoresearch (`commit val_bpb memory_gb
//! status description`) and of codex-autoresearch (`iteration commit
//! metric delta status description`): a header line, then one row a line,
//! tab-separated.

use super::{
    commit_text, number, segment_id, status_of, Identities, ImportError, Night, Options, Row,
    Skipped, Source,
};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;

/// Columns that are neither the metric nor another measurement.
const TEXT_COLUMNS: &[&str] = &["commit", "status", "description", "iteration", "delta"];

/// The header's columns, checked against what `from` writes.
struct Header {
    columns: Vec<String>,
    commit: usize,
    status: usize,
    description: Option<usize>,
    /// The objective's column.
    metric: usize,
}

fn kind(message: String) -> ImportError {
    ImportError::Kind(message)
}

fn header(from: Source, line: &str, options: &Options) -> Result<Header, ImportError> {
    if line.trim_start().starts_with('{') {
        return Err(kind(
            "the file holds JSON lines (as pi's autoresearch.jsonl), not a tab-separated results.tsv"
                .to_string(),
        ));
    }
    let columns: Vec<String> = line
        .split('\t')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let at = |name: &str| columns.iter().position(|c| c == name);
    let shape = |what: &str| {
        kind(format!(
            "the first line is not the header of {from}'s results.tsv ({what}); it reads {:?}",
            line.chars().take(80).collect::<String>()
        ))
    };
    if columns.len() < 3 {
        return Err(shape("not tab-separated columns"));
    }
    let (Some(commit), Some(status)) = (at("commit"), at("status")) else {
        return Err(shape("no commit and status columns"));
    };
    let codex_like = at("iteration").is_some() && at("metric").is_some();
    let metric = match from {
        Source::Codex if !codex_like => {
            return Err(shape(
                "no iteration and metric columns; karpathy's file is read with --from karpathy",
            ))
        }
        Source::Codex => at("metric"),
        _ if codex_like => {
            return Err(shape(
                "iteration and metric columns: codex's file is read with --from codex",
            ))
        }
        _ => match options.metric.as_deref() {
            Some(m) if at(&m.to_ascii_lowercase()).is_some() => at(&m.to_ascii_lowercase()),
            _ => (0..columns.len()).find(|&i| !TEXT_COLUMNS.contains(&columns[i].as_str())),
        },
    };
    let Some(metric) = metric else {
        return Err(shape("no metric column"));
    };
    Ok(Header {
        description: at("description"),
        columns,
        commit,
        status,
        metric,
    })
}

pub(super) fn parse(from: Source, text: &str, options: &Options) -> Result<Night, ImportError> {
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
    let Some((_, first)) = lines.find(|(_, l)| !l.trim().is_empty()) else {
        return Err(kind(format!(
            "the file is empty: {from}'s results.tsv starts with a header line"
        )));
    };
    let h = header(from, first, options)?;
    let metric = match (&options.metric, from) {
        (Some(m), _) => m.clone(),
        (None, Source::Codex) => "metric".to_string(),
        (None, _) => h.columns[h.metric].clone(),
    };
    let segment = segment_id(from, &metric, None);
    let mut night = Night {
        from,
        metric,
        direction: options.direction.unwrap_or(Direction::Min),
        rows: Vec::new(),
        skipped: Vec::new(),
    };
    let mut ids = Identities::default();
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        match row(&h, line, &night.metric) {
            Ok(mut r) => {
                r.line = n;
                r.id = ids.next(from, line.trim_end());
                r.segment = segment.clone();
                night.rows.push(r);
            }
            Err(reason) => night.skipped.push(Skipped { line: n, reason }),
        }
    }
    Ok(night)
}

fn row(h: &Header, line: &str, metric: &str) -> Result<Row, String> {
    let mut cells: Vec<&str> = line.split('\t').collect();
    let n = h.columns.len();
    if cells.len() > n && h.description == Some(n - 1) {
        // A description holding tabs: the rest of the line.
        let at = line
            .match_indices('\t')
            .nth(n - 2)
            .map_or(0, |(i, _)| i + 1);
        cells.truncate(n - 1);
        cells.push(&line[at..]);
    }
    if cells.len() != n {
        return Err(format!("{} fields, the header has {n}", cells.len()));
    }
    let status_text = cells[h.status].trim();
    let status = status_of(status_text)
        .ok_or_else(|| format!("status {status_text:?} is none of keep, discard, crash"))?;
    let crashed = status == TryStatus::Crash;
    let value = match number(cells[h.metric]) {
        Some(v) if !crashed => Some(v),
        None if !crashed => {
            return Err(format!(
                "{metric} {:?} is not a number",
                cells[h.metric].trim()
            ))
        }
        _ => None,
    };
    let metrics = h
        .columns
        .iter()
        .enumerate()
        .filter(|(i, c)| *i != h.metric && !TEXT_COLUMNS.contains(&c.as_str()))
        .filter_map(|(i, c)| Some((c.clone(), number(cells[i])?)))
        // A crash logs zeros, not measurements.
        .filter(|(_, v)| !(crashed && *v == 0.0))
        .collect();
    let description = h
        .description
        .map(|i| cells[i].trim().to_string())
        .filter(|d| !d.is_empty());
    Ok(Row {
        line: 0,
        id: String::new(),
        status,
        value,
        metrics,
        commit: commit_text(cells[h.commit]),
        description,
        at: None,
        segment: String::new(),
    })
}
