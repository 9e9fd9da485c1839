//! The `results.tsv` of karpathy/autoresearch (`commit val_bpb memory_gb
//! status description`, often with more columns) and of codex-autoresearch
//! (`# metric_direction: lower` and other comment lines, then `iteration
//! commit metric delta [guard] status description`): a header line, then
//! one row a line, tab-separated.

use super::columns::{self, missing, ColumnStats};
use super::{
    commit_text, direction_of, name_of, number, segment_id, status_of, ImportError, NightPlan,
    Options, Quiet, Read, Row, Source,
};
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;

/// The loops' own columns: never the metric, never another measurement.
const OWN_COLUMNS: &[&str] = &[
    "commit",
    "status",
    "description",
    "iteration",
    "delta",
    "guard",
];

/// codex's rows that tested no change of their own.
const META: &[&str] = &["refine", "pivot", "search", "split", "drift", "blocked"];

/// The header's columns, checked against what the source writes.
#[derive(Debug, Clone)]
struct Header {
    /// The file's line it stands on.
    line: usize,
    /// As written (trimmed), and lowercased to find them.
    names: Vec<String>,
    lower: Vec<String>,
    commit: usize,
    status: usize,
    description: Option<usize>,
    /// codex's `iteration` column.
    iteration: Option<usize>,
    /// A column that says when the row ran.
    time: Option<usize>,
}

fn kind(message: String) -> ImportError {
    ImportError::Kind(message)
}

fn header(from: Source, n: usize, line: &str) -> Result<Header, ImportError> {
    if line.trim_start().starts_with('{') {
        return Err(kind(
            "the file holds JSON lines (as pi's autoresearch.jsonl), not a tab-separated results.tsv"
                .to_string(),
        ));
    }
    let names: Vec<String> = line.split('\t').map(|c| c.trim().to_string()).collect();
    let lower: Vec<String> = names.iter().map(|c| c.to_ascii_lowercase()).collect();
    let at = |name: &str| lower.iter().position(|c| c == name);
    let shape = |what: &str| {
        kind(format!(
            "the first line is not the header of {from}'s results.tsv ({what}); it reads {:?}",
            line.chars().take(80).collect::<String>()
        ))
    };
    if names.len() < 3 {
        return Err(shape("not tab-separated columns"));
    }
    let (Some(commit), Some(status)) = (at("commit"), at("status")) else {
        return Err(shape("no commit and status columns"));
    };
    let codex_like = at("iteration").is_some() && at("metric").is_some();
    match from {
        Source::Codex if !codex_like => {
            return Err(shape(
                "no iteration and metric columns; karpathy's file is read with --from karpathy",
            ))
        }
        Source::Karpathy if codex_like => {
            return Err(shape(
                "iteration and metric columns: codex's file is read with --from codex",
            ))
        }
        _ => {}
    }
    let time = ["timestamp", "time", "date", "datetime", "started_at"]
        .iter()
        .find_map(|t| at(t));
    Ok(Header {
        line: n,
        description: at("description"),
        iteration: at("iteration"),
        time,
        names,
        lower,
        commit,
        status,
    })
}

/// What a row is, before its values are read.
enum Kind {
    Try(TryStatus),
    Quiet(Quiet),
    Bad(String),
}

/// The row's cells: as many as the header's columns (a last description
/// column may hold tabs).
fn cells<'a>(h: &Header, line: &'a str) -> Result<Vec<&'a str>, String> {
    let mut cells: Vec<&str> = line.split('\t').collect();
    let n = h.names.len();
    if cells.len() > n && h.description == Some(n - 1) {
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
    Ok(cells)
}

fn classify(from: Source, h: &Header, cells: &[&str], metric: Option<usize>) -> Kind {
    if let Some(i) = h.iteration {
        let it = cells[i].trim();
        let digits = it.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && digits < it.len() && it[digits..].bytes().all(|b| b.is_ascii_alphabetic())
        {
            return Kind::Quiet(Quiet::Worker);
        }
    }
    let text = cells[h.status].trim();
    if let Some(s) = status_of(text) {
        return Kind::Try(s);
    }
    let lower = text.to_ascii_lowercase();
    if from == Source::Codex && META.contains(&lower.as_str()) {
        // A refine or pivot that measured a commit of its own is a try
        // that was not kept; the others changed no code.
        let measured = commit_text(cells[h.commit]).is_some()
            && metric.is_some_and(|m| number(cells[m]).is_some());
        return match measured && matches!(lower.as_str(), "refine" | "pivot") {
            true => Kind::Try(TryStatus::Discard),
            false => Kind::Quiet(Quiet::Meta),
        };
    }
    Kind::Bad(format!("status {text:?} is none of keep, discard, crash"))
}

/// The first pass.
pub(super) struct Survey {
    from: Source,
    lines: usize,
    header: Option<Header>,
    /// codex's `# metric_direction:` and `# metric:` lines.
    declared: Option<Direction>,
    named: Option<String>,
    stats: Vec<ColumnStats>,
    /// Data rows, and those of them with a status read as a try.
    data: usize,
    tries: usize,
}

/// A direction as a file words it.
fn direction_word(text: &str) -> Option<Direction> {
    let w = text.trim().to_ascii_lowercase();
    let w = w.split_whitespace().next().unwrap_or("");
    match w {
        "lower" | "min" | "minimize" | "minimise" | "decrease" | "down" | "lower_is_better" => {
            Some(Direction::Min)
        }
        "higher" | "max" | "maximize" | "maximise" | "increase" | "up" | "higher_is_better" => {
            Some(Direction::Max)
        }
        _ => None,
    }
}

impl Survey {
    pub(super) fn new(from: Source) -> Survey {
        Survey {
            from,
            lines: 0,
            header: None,
            declared: None,
            named: None,
            stats: Vec::new(),
            data: 0,
            tries: 0,
        }
    }

    fn comment(&mut self, text: &str) {
        let body = text.trim_start_matches('#').trim();
        let Some((key, value)) = body.split_once(':') else {
            return;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "metric_direction" | "direction" => self.declared = direction_word(value),
            "metric" | "metric_name" => {
                let name: String = value
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
                    .collect();
                self.named = Some(name).filter(|n| !n.is_empty());
            }
            _ => {}
        }
    }

    pub(super) fn line(&mut self, text: &str) -> Result<(), ImportError> {
        self.lines += 1;
        let t = text.trim();
        if t.is_empty() {
            return Ok(());
        }
        if t.starts_with('#') {
            if self.header.is_none() {
                self.comment(t);
            }
            return Ok(());
        }
        let Some(h) = &self.header else {
            let h = header(self.from, self.lines, text)?;
            self.stats = vec![ColumnStats::default(); h.names.len()];
            self.header = Some(h);
            return Ok(());
        };
        self.data += 1;
        let Ok(cells) = cells(h, text) else {
            return Ok(());
        };
        let Kind::Try(status) = classify(
            self.from,
            h,
            &cells,
            h.lower.iter().position(|c| c == "metric"),
        ) else {
            return Ok(());
        };
        self.tries += 1;
        let kept = matches!(status, TryStatus::Keep | TryStatus::Baseline);
        let crashed = status == TryStatus::Crash;
        for (stats, cell) in self.stats.iter_mut().zip(&cells) {
            stats.cell(cell, number(cell), kept, crashed);
        }
        Ok(())
    }

    pub(super) fn finish(self, options: &Options) -> Result<Plan, ImportError> {
        let from = self.from;
        let unread = self.unread();
        let Some(h) = self.header else {
            return Err(kind(format!(
                "the file is empty: {from}'s results.tsv starts with a header line"
            )));
        };
        let numeric = || columns::numeric_names(&h.names, &self.stats);
        let column = |name: &str| h.lower.iter().position(|c| *c == name.to_ascii_lowercase());
        let (metric, name) = match from {
            Source::Codex => {
                let m = column("metric").unwrap_or_default();
                let name = options
                    .metric
                    .clone()
                    .or(self.named.clone())
                    .unwrap_or_else(|| "metric".to_string());
                (m, name)
            }
            _ => {
                let configured = options
                    .configured
                    .as_ref()
                    .and_then(|(m, _)| column(m))
                    .filter(|&i| self.stats[i].numeric());
                let m = match &options.metric {
                    Some(asked) => column(asked).ok_or_else(|| ImportError::NoSuchMetric {
                        asked: asked.clone(),
                        numeric: numeric(),
                    })?,
                    None => configured
                        .or_else(|| columns::choose(&h.names, &self.stats))
                        .or_else(|| unread.then(|| own_column(&h)).flatten())
                        .ok_or_else(|| ImportError::NoMetric { numeric: numeric() })?,
                };
                (m, name_of(&h.names[m]))
            }
        };
        let (direction, direction_from) =
            match direction_of(options, &name, self.declared, &self.stats[metric].keeps) {
                // No row reads: the second pass says why, row by row.
                Err(_) if unread => (Direction::Min, "none"),
                d => d?,
            };
        let others = (0..h.names.len())
            .filter(|&i| i != metric && !OWN_COLUMNS.contains(&h.lower[i].as_str()))
            .filter(|&i| self.stats[i].numeric())
            .collect();
        Ok(Plan {
            from,
            night: NightPlan {
                segment: segment_id(from, &name, None),
                metric: name,
                direction,
                direction_from,
            },
            header: h,
            metric,
            others,
        })
    }
}

impl Survey {
    /// No data row reads as a try (or there is none): nothing to decide
    /// the metric or its direction by, and nothing will be imported.
    fn unread(&self) -> bool {
        self.tries == 0
    }
}

/// The first column that is not the loop's own.
fn own_column(h: &Header) -> Option<usize> {
    (0..h.names.len()).find(|&i| !OWN_COLUMNS.contains(&h.lower[i].as_str()))
}

/// How the second pass reads a row.
pub(super) struct Plan {
    from: Source,
    pub(super) night: NightPlan,
    header: Header,
    /// The metric's column, and the other numeric columns.
    metric: usize,
    others: Vec<usize>,
}

impl Plan {
    pub(super) fn line(&self, n: usize, text: &str) -> Result<Option<Row>, Read> {
        let h = &self.header;
        let t = text.trim();
        if n <= h.line || t.is_empty() || t.starts_with('#') {
            return Ok(None);
        }
        let cells = cells(h, text)?;
        let status = match classify(self.from, h, &cells, Some(self.metric)) {
            Kind::Try(s) => s,
            Kind::Quiet(q) => return Err(Read::Quiet(q)),
            Kind::Bad(reason) => return Err(Read::Bad(reason)),
        };
        let crashed = status == TryStatus::Crash;
        let cell = cells[self.metric];
        let value = match number(cell) {
            _ if crashed => None,
            Some(v) => Some(v),
            None if !missing(cell) => {
                return Err(Read::Bad(format!(
                    "{} {:?} is not a number",
                    self.night.metric,
                    cell.trim()
                )))
            }
            None if matches!(status, TryStatus::Keep | TryStatus::Baseline) => {
                return Err(Read::Bad(format!(
                    "a {status} with no value of {}",
                    self.night.metric
                )))
            }
            None => None,
        };
        let metrics = self
            .others
            .iter()
            .filter_map(|&i| Some((name_of(&h.names[i]), number(cells[i])?)))
            // A crash logs zeros, not measurements.
            .filter(|(_, v)| !(crashed && *v == 0.0))
            .collect();
        Ok(Some(Row {
            line: 0,
            id: String::new(),
            status,
            value,
            metrics,
            commit: commit_text(cells[h.commit]),
            description: h
                .description
                .map(|i| cells[i].trim().to_string())
                .filter(|d| !d.is_empty()),
            at: h.time.and_then(|i| when(cells[i])),
            night: 0,
        }))
    }
}

/// A time cell as RFC 3339 in UTC: RFC 3339 text, or seconds (or
/// milliseconds) since the epoch.
pub(super) fn when(cell: &str) -> Option<String> {
    let t = cell.trim();
    let ts = match number(t) {
        Some(x) if x >= 1e8 => {
            let ms = if x >= 1e11 { x } else { x * 1000.0 };
            jiff::Timestamp::from_millisecond(ms as i64).ok()?
        }
        Some(_) => return None,
        None => t.parse::<jiff::Timestamp>().ok().or_else(|| {
            // A civil time with no offset (`2026-03-08 14:02:11`): read as UTC.
            let civil = t
                .replacen(' ', "T", 1)
                .parse::<jiff::civil::DateTime>()
                .ok()?;
            civil
                .to_zoned(jiff::tz::TimeZone::UTC)
                .ok()
                .map(|z| z.timestamp())
        })?,
    };
    // As the journal writes times: three fractional digits, so they sort as text.
    Some(ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}
