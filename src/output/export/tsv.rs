//! TSV: tab-separated, one line per row; a tab, line break or backslash in
//! a cell is written as `\t`, `\n`, `\r` or `\\`, so no cell spans a line.

use std::borrow::Cow;

use super::markup::{replace, Markup};

/// Tab-separated values with backslash escapes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tsv;

impl Markup for Tsv {
    const SEPARATOR: &'static str = "\t";

    fn escape(cell: &str) -> Cow<'_, str> {
        replace(
            cell,
            &[("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")],
        )
    }
}
