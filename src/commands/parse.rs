//! `arx parse`: the metrics of the first result line, as JSON.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;

use super::Ctx;
use crate::error::Exit;
use crate::io::input::Source;
use crate::kernel::contract::Metrics;
use crate::ops::result_format::{self, ResultFlags};
use crate::ops::scan::extract;
use crate::output::{warn, Report};

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

pub fn run(ctx: &Ctx, file: Option<&Path>, flags: &ResultFlags) -> Result<Exit> {
    let format = result_format::for_output(flags, ctx.config()?.objective.as_ref())?;
    let found = extract(&Source::from_arg(file), &format)?;
    if let Some(note) = found.extracted.ignored_note() {
        warn(format_args!("{}", format.ignored_warning(&note)));
    }
    if let Some(reason) = &found.rejected {
        warn(format_args!("no metrics: {reason}"));
    }
    let metrics = found.extracted.metrics;
    let found = !metrics.is_empty();
    ctx.out.emit(&ParseReport(metrics))?;
    Ok(if found { Exit::Ok } else { Exit::No })
}
