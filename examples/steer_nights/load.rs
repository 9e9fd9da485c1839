//! A night read as `arx journal import --from karpathy` reads it
//! (`arx::kernel::import::parse`; a file with codex's header, `iteration`
//! and `metric` columns, as `--from codex`): one try per row, in order.
//! The import's rules hold: a header naming `commit` and `status` columns
//! and a metric; statuses `keep`, `discard`, `crash`, `checks_failed`,
//! `baseline` (any case); a description holding tabs is the rest of the
//! line; a row the import skips (another status word, a metric that is not
//! a number, a field missing) is skipped here too, and counted with the
//! import's reason. The import records a night's first keep as its
//! baseline: it moves the parent but tests no idea.
//!
//! The objective's column is the import's default (the first column that
//! is not commit, status, description…) unless it reads fewer than half
//! the rows another column does, named as `--metric COLUMN` names it: a
//! night whose first such column holds words (`cycle`: tick/tock, `kind`:
//! lr/router) is read by the column of numbers a person importing it
//! would name.

use arx::engine::steer::Outcome;
use arx::kernel::import::{parse as import, ImportError, Options, Source};
use arx::kernel::ratchet_record::TryStatus;

pub struct Row {
    /// How the try ended; `None` for a row that measures the starting
    /// point (a baseline) or tests no idea.
    pub outcome: Option<Outcome>,
    /// It moved the parent: a keep or a baseline.
    pub moved: bool,
    pub description: String,
}

pub struct Night {
    pub rows: Vec<Row>,
    /// Lines the import skipped, with its reasons.
    pub skipped: Vec<String>,
}

/// Read `bytes` as the import does; the import's refusal as the error.
pub fn parse(bytes: &[u8]) -> Result<Night, String> {
    let read = |options: &Options| match import(Source::Karpathy, bytes, options) {
        Ok(night) => Ok(night),
        // Codex's results.tsv is refused as karpathy's and read as its own.
        Err(ImportError::Kind(why)) => {
            import(Source::Codex, bytes, options).map_err(|_| why.to_string())
        }
        Err(e) => Err(e.to_string()),
    };
    // The direction does not change which rows read; min, as before.
    let min = Some(arx::kernel::stats::Direction::Min);
    let mut night = read(&Options {
        direction: min,
        ..Options::default()
    })?;
    let default_rows = night.rows.len();
    let header = String::from_utf8_lossy(bytes)
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string();
    for column in header.split('\t').map(str::trim) {
        let options = Options {
            metric: Some(column.to_string()),
            direction: min,
            configured: None,
        };
        if let Ok(other) = read(&options) {
            if other.rows.len() > night.rows.len() && other.rows.len() > 2 * default_rows {
                night = other;
            }
        }
    }
    let rows = night
        .rows
        .iter()
        .map(|r| Row {
            outcome: Outcome::from_status(r.status),
            moved: matches!(r.status, TryStatus::Keep | TryStatus::Baseline),
            description: r.description.clone().unwrap_or_default(),
        })
        .collect();
    let skipped = night
        .skipped
        .iter()
        .map(|s| format!("line {}: {}", s.line, s.reason))
        .collect();
    Ok(Night { rows, skipped })
}
