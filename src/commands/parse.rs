//! `arx parse`: the metrics of the first result line, as JSON.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;
use crate::io::input::{stream, Source};
use crate::kernel::contract::{Metrics, ResultScanner};
use crate::output::Report;

/// Stream `source` through the result scanner (stopping once settled).
pub fn scan_metrics(source: &Source) -> Result<Metrics> {
    let mut scanner = ResultScanner::new();
    stream(source, |chunk| scanner.feed(chunk))?;
    Ok(scanner.finish())
}

struct ParseReport(Metrics);

impl serde::Serialize for ParseReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl Report for ParseReport {
    fn styled(&self) -> bool {
        false
    }

    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &self.0)?;
        writeln!(out)
    }
}

pub fn run(ctx: &Ctx, file: Option<&Path>) -> Result<Exit> {
    let metrics = scan_metrics(&Source::from_arg(file))?;
    let found = !metrics.is_empty();
    ctx.out.emit(&ParseReport(metrics))?;
    Ok(if found { Exit::Ok } else { Exit::No })
}
