//! CSV per RFC 4180: comma-separated, records ended by CRLF, a field quoted
//! when it holds a comma or a double quote. Control characters in a field
//! (line breaks included) are written by the escapes of
//! [`crate::kernel::text`] (`\n`, `\u{1b}`): a field stays on its line and
//! drives no terminal.

use std::borrow::Cow;

use super::markup::Markup;

/// Comma-separated values, quoted only where needed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Csv;

impl Markup for Csv {
    const SEPARATOR: &'static str = ",";
    const END: &'static str = "\r\n";

    fn escape(cell: &str) -> Cow<'_, str> {
        let cell = crate::kernel::text::visible(cell);
        if cell.contains([',', '"']) {
            Cow::Owned(format!("\"{}\"", cell.replace('"', "\"\"")))
        } else {
            cell
        }
    }
}
