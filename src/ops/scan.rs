//! Reading a whole stream through the kernel's scanners: the metrics of
//! its result line, the failure class of its stderr.

use anyhow::Result;

use crate::io::input::{stream, Source};
use crate::kernel::contract::{Metrics, ResultScanner};
use crate::kernel::failure::{FailureClass, FailureScanner};

/// Stream `source` through the result scanner (stopping once settled).
pub fn scan_metrics(source: &Source) -> Result<Metrics> {
    let mut scanner = ResultScanner::new();
    stream(source, |chunk| scanner.feed(chunk))?;
    Ok(scanner.finish())
}

/// Classify a whole stream (stopping once the class cannot change): the
/// class, the phrase that decided it, and the bytes read.
pub fn classify_source(
    source: &Source,
    timed_out: bool,
) -> Result<(FailureClass, Option<&'static str>, u64)> {
    let mut scanner = FailureScanner::new();
    let bytes = stream(source, |chunk| {
        scanner.feed(chunk);
        timed_out || scanner.decided()
    })?;
    let (class, phrase) = scanner.finish(timed_out);
    Ok((class, phrase, bytes))
}
