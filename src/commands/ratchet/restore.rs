//! `arx restore [RUN]`: put a discarded candidate back in the working tree
//! (without RUN, the newest discarded try's).

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use crate::commands::{lookup_run, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::git::ratchet::RatchetRepo;
use crate::io::state::journal;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct RestoreReport {
    run_id: String,
    discarded_ref: String,
    paths: Vec<String>,
}

impl Report for RestoreReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}restored{b:#}: {} paths from {}",
            self.paths.len(),
            self.discarded_ref
        )?;
        for p in &self.paths {
            writeln!(out, "  {p}")?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, run_id: Option<&str>) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let registry = journal(&state, WARN);
    let records = registry.read()?;
    let record = match run_id {
        Some(id) => lookup_run(ctx, &records, &registry.path, id)?,
        None => records
            .iter()
            .rev()
            .find(|r| r.ratchet.as_ref().is_some_and(|t| t.discarded_ref.is_some()))
            .cloned()
            .ok_or_else(|| {
                Hinted::error(
                    "no discarded try in the journal",
                    "arx try sets a candidate aside when it does not keep it; `arx log --format tsv` lists the tries",
                )
            })?,
    };
    let Some(refname) = record
        .ratchet
        .as_ref()
        .and_then(|r| r.discarded_ref.clone())
    else {
        return Err(Hinted::error(
            format!("run {} is not a discarded try", record.run_id),
            "`arx log --format tsv` lists the tries and their statuses; only a discard's candidate can be restored",
        ));
    };
    let repo = RatchetRepo::open(&ctx.cwd()?, &state)?;
    if repo.ref_target(&refname).is_none() {
        return Err(Hinted::error(
            format!("{refname} no longer exists in this repository"),
            "the discarded candidate was stored in the repository it ran in; fetch its refs/arx/* refs",
        ));
    }
    let paths = repo.apply_snapshot(&refname)?;
    ctx.out.emit(&RestoreReport {
        run_id: record.run_id.clone(),
        discarded_ref: refname,
        paths,
    })?;
    Ok(Exit::Ok)
}
