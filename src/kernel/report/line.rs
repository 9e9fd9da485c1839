//! One journal line as the report reads it: the few fields a report shows,
//! borrowed from the line where they need no decoding, the rest skipped
//! unread. A status this version does not know is kept as text (counted as
//! "other"), so a journal written by a newer arx still reports.
//!
//! Lines in the plain form arx writes are read by a walk over the text
//! (`walk`); any other line is read here by serde, which has the last word.

use super::view::point;
use super::Point;

/// Parse one journal line; `None` for a line that is not a run record.
pub fn parse_line(line: &[u8]) -> Option<Point<'_>> {
    super::walk::walked(line)
        .or_else(|| serde_json::from_slice(line).ok())
        .map(point)
}

/// [`parse_line`], handing the line's top-level members (raw key and
/// value, in order) to `also` as the walk over the text goes, for another
/// reader of the same line. The flag says whether the walk read the whole
/// line: when it did not (serde read it, or nothing could), `also` may have
/// seen only some of the members, and they are to be dropped.
pub fn parse_line_with<'a>(
    line: &'a [u8],
    also: impl FnMut(&'a [u8], &'a [u8]),
) -> (Option<Point<'a>>, bool) {
    match super::walk::walked_with(line, also) {
        Some(v) => (Some(point(v)), true),
        None => (serde_json::from_slice(line).ok().map(point), false),
    }
}

/// [`parse_line`] by serde alone, without the walk over the text: what
/// each line costs without it (the benchmark compares the two).
pub fn parse_line_by_serde(line: &[u8]) -> Option<Point<'_>> {
    serde_json::from_slice(line).ok().map(point)
}
