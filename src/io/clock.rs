//! The current time, or the one given with `--now` (RFC 3339), so that
//! records are reproducible in tests.

use anyhow::Result;

use crate::error::Hinted;

/// `--now` when given (validated), else the system clock, as RFC 3339 UTC.
pub fn now(given: Option<&str>) -> Result<String> {
    let ts = match given {
        Some(text) => text.parse::<jiff::Timestamp>().map_err(|e| {
            Hinted::error(
                format!("invalid --now {text:?}: {e}"),
                "use an RFC 3339 time such as 2026-01-31T12:00:00Z",
            )
        })?,
        None => jiff::Timestamp::now(),
    };
    // Whole seconds: records stay short and stable; --now is kept as given.
    let ts = if given.is_some() {
        ts
    } else {
        ts.round(jiff::Unit::Second)?
    };
    Ok(ts.to_string())
}
