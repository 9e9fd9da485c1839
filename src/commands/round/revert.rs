//! `arx round revert`: undo an applied round with a revert commit.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{record_path, RoundRecord};
use crate::commands::Ctx;
use crate::error::{Exit, Hinted};
use crate::io::clock::timestamp;
use crate::io::git::RoundRepo;
use crate::io::rounds::{read_json, write_json_within};
use crate::kernel::round::RoundStatus;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct RevertReport {
    #[serde(flatten)]
    record: RoundRecord,
}

impl Report for RevertReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}reverted{b:#}: round {} (revert commit {})",
            self.record.round_id,
            self.record.reverted_sha.as_deref().unwrap_or("-")
        )
    }
}

pub fn run(ctx: &Ctx, id: &str) -> Result<Exit> {
    super::check_round_id(id)?;
    let state = ctx.state_dir()?;
    let repo = RoundRepo::open(&ctx.cwd()?)?;
    // A round merged from its review branch is applied.
    super::recover_landings(&repo, &state)?;
    let path = record_path(&state, id);
    // The state directory's record, else the repository's (a fresh clone).
    let record = match read_json::<RoundRecord>(&path)? {
        Some(r) => Some(r),
        None => super::known_rounds(Some(&repo), &state)?
            .into_iter()
            .find(|r| r.round_id == id),
    };
    let mut record = record.ok_or_else(|| {
        Hinted::error(
            format!("no round {id}"),
            "list rounds with `arx round status`",
        )
    })?;
    if record.status != RoundStatus::Applied {
        return Err(Hinted::error(
            format!("round {id} is {}, not applied", record.status),
            "only applied rounds can be reverted",
        ));
    }
    let applied = record
        .applied_sha
        .as_deref()
        .and_then(|s| git2::Oid::from_str(s).ok())
        .ok_or_else(|| anyhow::anyhow!("round {id} has no applied commit in its record"))?;
    let now = timestamp(ctx.global.now.as_deref())?;
    let message = format!(
        "Revert \"harness(round-{id})\"\n\nThis reverts commit {applied}.\n\n[life-harness round {id} reverted]\n"
    );
    let _lock = repo.lock_rounds()?;
    let (commit, changes) = repo.build_revert(applied, &message, now.as_second())?;
    let touched: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    let dirty = repo.dirty_paths(&touched)?;
    if !dirty.is_empty() {
        return Err(Hinted::error(
            format!(
                "the revert touches files with uncommitted changes: {}",
                dirty.join(", ")
            ),
            "commit or stash those changes, then revert again",
        ));
    }
    repo.land(
        repo.head,
        commit,
        &changes,
        &format!("arx: revert round {id}"),
    )?;
    record.status = RoundStatus::Reverted;
    record.reverted_sha = Some(commit.to_string());
    record.reverted_at = Some(now.to_string());
    record.detail = format!("reverted by {commit}");
    write_json_within(&state, &path, &record)?;
    ctx.out.emit(&RevertReport { record })?;
    Ok(Exit::Ok)
}
