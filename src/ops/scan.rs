//! Reading a whole stream through the kernel's scanners: the metrics of
//! its result line, the failure class of its stderr.

use anyhow::Result;

use crate::io::input::{stream, Source};
use crate::kernel::contract::{Extracted, Metrics, ResultFormat, ResultScanner};
use crate::kernel::failure::{FailureClass, FailureScanner};

/// Stream `source` through the result scanner (stopping once settled).
pub fn scan_metrics(source: &Source) -> Result<Metrics> {
    let mut scanner = ResultScanner::new();
    stream(source, |chunk| scanner.feed(chunk))?;
    Ok(scanner.finish())
}

/// Stream `source` through the extractor of `format` (stopping once
/// settled): what it found, values that are not numbers included.
pub fn extract(source: &Source, format: &ResultFormat) -> Result<Extracted> {
    if format.is_arx() {
        return Ok(Extracted {
            metrics: scan_metrics(source)?,
            ..Extracted::default()
        });
    }
    let mut extractor = format.extractor();
    stream(source, |chunk| extractor.feed(chunk, true))?;
    Ok(extractor.finish())
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
