//! Output formats, one file each, behind one trait: an [`Exporter`] turns a
//! value into bytes on a stream. Which stream, and whether anything is
//! written at all, is [`crate::output::Output`]'s business, not the format's.

mod human;
mod json;
mod ndjson;

use std::io::Write;

pub use human::Human;
pub use json::Json;
pub use ndjson::Ndjson;

/// One output format for values of type `T`.
pub trait Exporter<T: ?Sized> {
    /// Write `value` on `out`. The caller flushes.
    fn export(&self, value: &T, out: &mut dyn Write) -> anyhow::Result<()>;
}
