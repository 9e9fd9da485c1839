//! `arx classify`: the failure class of a stderr stream.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::error::Exit;
use crate::io::input::Source;
use crate::kernel::failure::FailureClass;
use crate::ops::scan::classify_source;
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct ClassifyReport {
    failure_class: FailureClass,
    description: &'static str,
    matched: Option<&'static str>,
    timed_out: bool,
}

impl Report for ClassifyReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        write!(
            out,
            "{b}{}{b:#} {d}{}",
            self.failure_class, self.description
        )?;
        if let Some(p) = self.matched {
            write!(out, " (matched {p:?})")?;
        } else if self.timed_out {
            write!(out, " (timed out)")?;
        }
        writeln!(out, "{d:#}")
    }
}

pub fn run(ctx: &Ctx, timed_out: bool, file: Option<&Path>) -> Result<Exit> {
    let (failure_class, matched, _) = classify_source(&Source::from_arg(file), timed_out)?;
    ctx.out.emit(&ClassifyReport {
        failure_class,
        description: failure_class.describe(),
        matched,
        timed_out,
    })?;
    Ok(Exit::Ok)
}
