//! Reading a whole stream through the kernel's scanners: the metrics of
//! its result line, the failure class of its stderr. The stream's text is
//! read after its byte-order mark (UTF-8, or UTF-16 turned into UTF-8).

use anyhow::Result;

use crate::io::input::{stream, Source};
use crate::kernel::contract::{
    Encoding, Extracted, MarkerWatch, ResultFormat, ResultScanner, TextDecoder,
};
use crate::kernel::failure::{FailureClass, FailureScanner};

/// What was read from a stream, besides what the format found.
#[derive(Debug, Default)]
pub struct Found {
    pub extracted: Extracted,
    /// The encoding its byte-order mark told (UTF-8 when none).
    pub encoding: Option<Encoding>,
    /// `arx` format, no metrics though a `__RESULT__` marker was there:
    /// why its line was refused.
    pub rejected: Option<String>,
}

/// Feed the decoded text of `source` to `consume` until it returns true.
fn stream_text(source: &Source, mut consume: impl FnMut(&[u8]) -> bool) -> Result<(u64, Encoding)> {
    let mut decoder = TextDecoder::new();
    let mut scratch = Vec::new();
    let mut done = false;
    let bytes = stream(source, |chunk| {
        done = consume(decoder.feed(chunk, &mut scratch));
        done
    })?;
    if !done {
        decoder.finish(&mut scratch);
        if !scratch.is_empty() {
            consume(&scratch);
        }
    }
    Ok((bytes, decoder.encoding().unwrap_or(Encoding::Utf8)))
}

/// Stream `source` through the extractor of `format` (stopping once
/// settled): what it found, values that are not numbers included, and
/// why a result line was refused.
pub fn extract(source: &Source, format: &ResultFormat) -> Result<Found> {
    if format.is_arx() {
        let mut scanner = ResultScanner::new();
        let mut watch = MarkerWatch::new();
        let (_, encoding) = stream_text(source, |chunk| {
            watch.feed(chunk);
            scanner.feed(chunk)
        })?;
        let metrics = scanner.finish();
        let rejected = if metrics.is_empty() {
            watch.reason()
        } else {
            None
        };
        return Ok(Found {
            extracted: Extracted {
                metrics,
                ..Extracted::default()
            },
            encoding: Some(encoding),
            rejected,
        });
    }
    let mut extractor = format.extractor();
    let (_, encoding) = stream_text(source, |chunk| extractor.feed(chunk, true))?;
    Ok(Found {
        extracted: extractor.finish(),
        encoding: Some(encoding),
        rejected: None,
    })
}

/// Classify a whole stream (stopping once the class cannot change): the
/// class, the phrase that decided it, and the bytes read.
pub fn classify_source(
    source: &Source,
    timed_out: bool,
) -> Result<(FailureClass, Option<&'static str>, u64)> {
    let mut scanner = FailureScanner::new();
    let (bytes, _) = stream_text(source, |chunk| {
        scanner.feed(chunk);
        timed_out || scanner.decided()
    })?;
    let (class, phrase) = scanner.finish(timed_out);
    Ok((class, phrase, bytes))
}
