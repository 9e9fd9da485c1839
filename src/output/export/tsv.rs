//! TSV: tab-separated, one line per row; a backslash in a cell is written
//! as `\\`, a tab or line break as `\t`, `\n` or `\r`, and every other
//! control character by the escape of [`crate::kernel::text`] (`\u{1b}`),
//! so no cell spans a line or drives a terminal.

use std::borrow::Cow;

use super::markup::{replace, Markup};

/// Tab-separated values with backslash escapes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tsv;

impl Markup for Tsv {
    const SEPARATOR: &'static str = "\t";

    fn escape(cell: &str) -> Cow<'_, str> {
        let slashed = replace(cell, &[("\\", "\\\\")]);
        match crate::kernel::text::visible(&slashed) {
            Cow::Borrowed(_) => slashed,
            Cow::Owned(v) => Cow::Owned(v),
        }
    }
}
