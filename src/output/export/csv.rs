//! CSV per RFC 4180: comma-separated, records ended by CRLF, a field quoted
//! when it holds a comma, a double quote or a line break.

use std::borrow::Cow;

use super::markup::Markup;

/// Comma-separated values, quoted only where needed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Csv;

impl Markup for Csv {
    const SEPARATOR: &'static str = ",";
    const END: &'static str = "\r\n";

    fn escape(cell: &str) -> Cow<'_, str> {
        if cell.contains([',', '"', '\r', '\n']) {
            Cow::Owned(format!("\"{}\"", cell.replace('"', "\"\"")))
        } else {
            Cow::Borrowed(cell)
        }
    }
}
