//! Output formats, one file each, behind one trait: an [`Exporter`] turns a
//! value into bytes on a stream. Which stream, and whether anything is
//! written at all, is [`crate::output::Output`]'s business, not the format's.
//!
//! Reports go out as [`Json`], [`Ndjson`] or their [`Human`] view. Tabular
//! formats draw a [`Table`] and share its walk (`markup.rs`): such a format
//! is a [`Markup`] (separators and a cell escape), and so an
//! `Exporter<Table>`.
//!
//! `arx report` draws its [`crate::kernel::report::Overview`] in the
//! terminal (`terminal.rs`), as Markdown (`report_markdown.rs`) and as an
//! HTML page (`html.rs`), all from the facts and tables in `overview.rs`;
//! its chart is [`Svg`], its runs as test cases [`Junit`].

mod csv;
pub mod html;
mod human;
mod json;
mod junit;
pub mod live;
mod markdown;
mod markup;
mod ndjson;
pub mod overview;
mod report_markdown;
pub mod svg;
mod table;
mod terminal;
mod tsv;

#[cfg(test)]
mod tests;

use std::io::Write;

pub use csv::Csv;
pub use html::{Html, Page};
pub use human::Human;
pub use json::Json;
pub use junit::Junit;
pub use markdown::Markdown;
pub use markup::Markup;
pub use ndjson::Ndjson;
pub use report_markdown::MarkdownReport;
pub use svg::Svg;
pub use table::{Align, Column, Table};
pub use tsv::Tsv;

/// One output format for values of type `T`.
pub trait Exporter<T: ?Sized> {
    /// Write `value` on `out`. The caller flushes.
    fn export(&self, value: &T, out: &mut dyn Write) -> anyhow::Result<()>;
}
