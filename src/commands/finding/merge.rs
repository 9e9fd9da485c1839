//! `arx finding merge`: the union of findings files, one finding per id.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::commands::WARN;
use crate::engine::finding::{fold, Finding};
use crate::error::{Exit, Hinted};
use crate::io::findings;
use crate::io::state::Registry;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct MergeReport {
    before: usize,
    read: usize,
    after: usize,
}

impl Report for MergeReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}merged{b:#}: {} findings read; the store went from {} to {}",
            self.read, self.before, self.after
        )
    }
}

pub fn run(ctx: &Ctx, files: &[PathBuf]) -> Result<Exit> {
    let mut incoming: Vec<Finding> = Vec::new();
    for file in files {
        if !file.is_file() {
            return Err(Hinted::error(
                format!("{} is not a findings file", file.display()),
                "pass the findings.jsonl of another state directory",
            ));
        }
        incoming.extend(Registry::<Finding>::new(file.clone(), WARN).read()?);
    }
    let read = incoming.len();
    let state = ctx.state_dir()?;
    let report = findings::update(&state, WARN, |store| {
        let before = store.len();
        let merged = fold(store.into_iter().chain(incoming));
        let after = merged.len();
        Ok((
            Some(merged),
            MergeReport {
                before,
                read,
                after,
            },
        ))
    })?;
    ctx.out.emit(&report)?;
    Ok(Exit::Ok)
}
