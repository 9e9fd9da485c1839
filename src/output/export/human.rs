//! The human view: whatever the report draws, styles included; the stream
//! it is written to decides whether the styles survive.

use std::io::Write;

use super::Exporter;
use crate::output::Report;

/// A report's own human rendering.
#[derive(Debug, Clone, Copy, Default)]
pub struct Human;

impl<R: Report + ?Sized> Exporter<R> for Human {
    fn export(&self, report: &R, out: &mut dyn Write) -> anyhow::Result<()> {
        report.human(out)?;
        Ok(())
    }
}
