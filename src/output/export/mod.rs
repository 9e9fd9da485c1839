//! Output formats, one file each, behind one trait: an [`Exporter`] turns a
//! value into bytes on a stream. Which stream, and whether anything is
//! written at all, is [`crate::output::Output`]'s business, not the format's.
//!
//! Reports go out as [`Json`], [`Ndjson`] or their [`Human`] view. Tabular
//! formats draw a [`Table`] and share its walk (`markup.rs`): such a format
//! is a [`Markup`] (separators and a cell escape), and so an
//! `Exporter<Table>`.

mod csv;
mod human;
mod json;
mod markdown;
mod markup;
mod ndjson;
mod table;
mod tsv;

#[cfg(test)]
mod tests;

use std::io::Write;

pub use csv::Csv;
pub use human::Human;
pub use json::Json;
pub use markdown::Markdown;
pub use markup::Markup;
pub use ndjson::Ndjson;
pub use table::{Align, Column, Table};
pub use tsv::Tsv;

/// One output format for values of type `T`.
pub trait Exporter<T: ?Sized> {
    /// Write `value` on `out`. The caller flushes.
    fn export(&self, value: &T, out: &mut dyn Write) -> anyhow::Result<()>;
}
