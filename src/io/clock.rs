//! The current time, or the one given with `--now` (RFC 3339), so that
//! records are reproducible in tests.

use anyhow::Result;
use jiff::Timestamp;

use crate::error::Hinted;

/// `--now` when given (validated), else the system clock.
pub fn timestamp(given: Option<&str>) -> Result<Timestamp> {
    match given {
        Some(text) => text.parse::<Timestamp>().map_err(|e| {
            Hinted::error(
                format!("invalid --now {text:?}: {e}"),
                "use an RFC 3339 time such as 2026-01-31T12:00:00Z",
            )
        }),
        None => Ok(Timestamp::now()),
    }
}

/// `--now` when given, else the system clock rounded to whole seconds, as
/// RFC 3339 UTC (for registry records).
pub fn now(given: Option<&str>) -> Result<String> {
    let ts = timestamp(given)?;
    let ts = if given.is_some() {
        ts
    } else {
        ts.round(jiff::Unit::Second)?
    };
    Ok(ts.to_string())
}

/// A clock that goes on from `--now`: the given time plus the time
/// elapsed since (a monotonic clock), or the system clock without one. For
/// what repeats while a command runs (a lease renewed), so that `--now`
/// sets every time it tells, not only the first.
#[derive(Debug, Clone, Copy)]
pub struct Ticking {
    given: Option<Timestamp>,
    since: std::time::Instant,
}

impl Ticking {
    /// Started now, from `--now` when given (validated).
    pub fn start(given: Option<&str>) -> Result<Ticking> {
        Ok(Ticking {
            given: given.map(|g| timestamp(Some(g))).transpose()?,
            since: std::time::Instant::now(),
        })
    }

    /// The time now, as RFC 3339 UTC rounded to whole seconds.
    pub fn now(&self) -> Result<String> {
        let Some(given) = self.given else {
            return now(None);
        };
        let elapsed = jiff::SignedDuration::try_from(self.since.elapsed())?;
        Ok(given
            .checked_add(elapsed)?
            .round(jiff::Unit::Second)?
            .to_string())
    }
}

/// RFC 3339 UTC with exactly three fractional digits, so that journal
/// times sort correctly as text.
pub fn millis(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Parse a duration flag: `90s`, `15m`, `2h`, `1h30m`, `500ms`, ISO 8601
/// (`PT1M`), or a bare number of seconds (`30`, `1.5`). Negative values are
/// refused; zero is allowed here and judged by the caller.
pub fn parse_duration(text: &str, flag: &str) -> Result<std::time::Duration> {
    let bad = |why: String| {
        Hinted::error(
            format!("invalid {flag} {text:?}: {why}"),
            "use a duration such as 30s, 15m, 2h or 1h30m",
        )
    };
    let trimmed = text.trim();
    if let Ok(secs) = trimmed.parse::<f64>() {
        if !secs.is_finite() || secs < 0.0 {
            return Err(bad(
                "must be a finite, non-negative number of seconds".into()
            ));
        }
        return std::time::Duration::try_from_secs_f64(secs).map_err(|e| bad(e.to_string()));
    }
    let d: jiff::SignedDuration = trimmed
        .parse()
        .map_err(|e: jiff::Error| bad(e.to_string()))?;
    if d.is_negative() {
        return Err(bad("must not be negative".into()));
    }
    Ok(d.unsigned_abs())
}

/// A `--timeout` flag: absent means no limit; zero is refused.
pub fn parse_timeout(text: Option<&str>) -> Result<Option<std::time::Duration>> {
    let Some(text) = text else {
        return Ok(None);
    };
    let d = parse_duration(text, "--timeout")?;
    if d.is_zero() {
        return Err(Hinted::error(
            "--timeout must be greater than zero",
            "omit --timeout to run without a time limit",
        ));
    }
    Ok(Some(d))
}
