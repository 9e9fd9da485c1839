//! NDJSON: one JSON document per item and line, so that long listings
//! stream into `jq` and friends.

use std::io::Write;

use serde::Serialize;

use super::Exporter;

/// One compact JSON document per item, each ended by a newline.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ndjson;

impl<T: Serialize> Exporter<[T]> for Ndjson {
    fn export(&self, items: &[T], out: &mut dyn Write) -> anyhow::Result<()> {
        for item in items {
            // Serialized apart from writing, so a closed pipe surfaces as
            // the I/O error it is (a quiet exit), not as a JSON error.
            let mut line = serde_json::to_vec(item)?;
            line.push(b'\n');
            out.write_all(&line)?;
        }
        Ok(())
    }
}
