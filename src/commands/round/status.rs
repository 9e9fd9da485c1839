//! `arx round status`: rounds so far and when the next one is allowed.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{known_rounds, next_allowed, settings, RoundRecord};
use crate::commands::Ctx;
use crate::error::Exit;
use crate::io::clock::timestamp;
use crate::io::git::RoundRepo;
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct StatusReport {
    rounds: Vec<RoundRecord>,
    kill_switch: bool,
    min_interval_hours: u64,
    /// When the next round is allowed (`null`: now).
    next_allowed_at: Option<String>,
    allowed_now: bool,
}

impl Report for StatusReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        if self.rounds.is_empty() {
            writeln!(out, "{d}no rounds yet{d:#}")?;
        }
        for r in &self.rounds {
            let commit = r
                .applied_sha
                .as_deref()
                .or(r.commit_sha.as_deref())
                .map_or("-", |s| &s[..s.len().min(10)]);
            writeln!(
                out,
                "{:<17} {b}{:<10}{b:#} {:<16} {commit:<10} {d}{}{d:#}",
                r.round_id,
                r.status.as_str(),
                r.patch_hash.as_deref().unwrap_or("-"),
                r.detail
            )?;
        }
        if self.kill_switch {
            writeln!(out, "next round: {b}never{b:#} (the kill switch is on)")
        } else if self.allowed_now {
            writeln!(out, "next round: allowed now")
        } else {
            writeln!(
                out,
                "next round: allowed at {} (min_interval_hours = {})",
                self.next_allowed_at.as_deref().unwrap_or("-"),
                self.min_interval_hours
            )
        }
    }
}

pub fn run(ctx: &Ctx) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let root = crate::io::config::repo_root(&ctx.cwd()?).unwrap_or(ctx.cwd()?);
    if let Ok(repo) = RoundRepo::open(&root) {
        super::recover_landings(&repo, &state)?;
    }
    // The rounds are read also on a detached HEAD (a pull request's
    // checkout) or in the middle of a merge.
    let repo = RoundRepo::open_to_read(&root).ok();
    let settings = settings(ctx, &root, false)?;
    let rounds = known_rounds(repo.as_ref(), &state)?;
    let hours = settings.autonomy.min_interval_hours;
    let next = next_allowed(&rounds, hours);
    let now = timestamp(ctx.global.now.as_deref())?;
    ctx.out.emit(&StatusReport {
        allowed_now: !settings.autonomy.kill_switch && next.is_none_or(|n| now >= n),
        next_allowed_at: next.map(super::shown_time),
        kill_switch: settings.autonomy.kill_switch,
        min_interval_hours: hours,
        rounds,
    })?;
    Ok(Exit::Ok)
}
