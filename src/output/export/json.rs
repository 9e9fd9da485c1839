//! JSON: the whole value as one compact document on one line.

use std::io::Write;

use serde::Serialize;

use super::Exporter;

/// One JSON document and a newline.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

impl<T: Serialize + ?Sized> Exporter<T> for Json {
    fn export(&self, value: &T, out: &mut dyn Write) -> anyhow::Result<()> {
        serde_json::to_writer(&mut *out, value)?;
        writeln!(out)?;
        Ok(())
    }
}
