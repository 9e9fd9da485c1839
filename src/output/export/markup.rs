//! The table walk shared by the tabular formats: a header line, an optional
//! divider line, one line per row. A format only says how a line is put
//! together and how a cell is escaped; every [`Markup`] is an
//! `Exporter<Table>`.

use std::borrow::Cow;
use std::io::{self, Write};

use super::table::{Align, Table};
use super::Exporter;

/// A line-oriented table format.
pub trait Markup {
    /// Written before the first cell of a line.
    const START: &'static str = "";
    /// Written between two cells.
    const SEPARATOR: &'static str;
    /// Written after the last cell, line break included.
    const END: &'static str = "\n";

    /// A cell's text (header or body) as the format writes it.
    fn escape(cell: &str) -> Cow<'_, str>;

    /// The divider cell under a header of this alignment; formats without
    /// a divider line answer `None`.
    fn divider(_align: Align) -> Option<&'static str> {
        None
    }
}

impl<M: Markup> Exporter<Table> for M {
    fn export(&self, table: &Table, out: &mut dyn Write) -> anyhow::Result<()> {
        let columns = table.columns();
        line::<M>(out, columns.iter().map(|c| M::escape(&c.header)))?;
        let divider: Option<Vec<_>> = columns.iter().map(|c| M::divider(c.align)).collect();
        if let Some(cells) = divider {
            line::<M>(out, cells.into_iter().map(Cow::Borrowed))?;
        }
        for row in table.rows() {
            line::<M>(out, row.iter().map(|cell| M::escape(cell)))?;
        }
        Ok(())
    }
}

/// One line of already escaped cells.
fn line<'a, M: Markup>(
    out: &mut dyn Write,
    cells: impl Iterator<Item = Cow<'a, str>>,
) -> io::Result<()> {
    out.write_all(M::START.as_bytes())?;
    for (i, cell) in cells.enumerate() {
        if i > 0 {
            out.write_all(M::SEPARATOR.as_bytes())?;
        }
        out.write_all(cell.as_bytes())?;
    }
    out.write_all(M::END.as_bytes())
}

/// `text` with each occurrence of a pattern replaced, the first pattern
/// that matches at a position winning; borrowed when nothing matches.
pub(super) fn replace<'a>(text: &'a str, patterns: &[(&str, &str)]) -> Cow<'a, str> {
    if !patterns.iter().any(|(from, _)| text.contains(from)) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    let mut rest = text;
    'next: while let Some(c) = rest.chars().next() {
        for (from, to) in patterns {
            if let Some(after) = rest.strip_prefix(from) {
                escaped.push_str(to);
                rest = after;
                continue 'next;
            }
        }
        escaped.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(escaped)
}
