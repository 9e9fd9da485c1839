//! `arx finding maintain`: one maintenance pass over the store.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{now, Ctx};
use crate::commands::WARN;
use crate::engine::finding::maintain::{maintain, Pass};
use crate::error::Exit;
use crate::io::findings;
use crate::output::{bold, dim, warn, Report};

#[derive(Serialize)]
struct MaintainReport {
    now: String,
    dry_run: bool,
    applied: bool,
    #[serde(flatten)]
    pass: Pass,
}

impl Report for MaintainReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let p = &self.pass;
        for c in &p.changes {
            let other = c
                .other
                .as_deref()
                .map(|o| format!(" {d}({o}){d:#}"))
                .unwrap_or_default();
            writeln!(out, "{:<13} {}{other}: {}", c.what, c.id, c.detail)?;
        }
        let head = match (&p.refused, self.dry_run) {
            (Some(_), _) => "refused",
            (None, true) => "would apply (dry run)",
            (None, false) => "maintained",
        };
        writeln!(
            out,
            "{b}{head}{b:#}: {} live before; {} reinforced, {} decayed, {} contradictions, {} mutated, {} resolved, {} deprecated",
            p.live_before, p.reinforced, p.decayed, p.contradictions, p.mutated, p.resolved, p.deprecated
        )?;
        if let Some(why) = &p.refused {
            writeln!(
                out,
                "{d}{why}; nothing was written (pass --force to apply it){d:#}"
            )?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, force: bool, dry_run: bool) -> Result<Exit> {
    let now = now(ctx)?;
    let state = ctx.state_dir()?;
    let pass = if dry_run {
        maintain(findings::load(&state, WARN)?, now, force)
    } else {
        findings::update(&state, WARN, |store| {
            let mut pass = maintain(store, now, force);
            let new = pass
                .refused
                .is_none()
                .then(|| std::mem::take(&mut pass.findings));
            Ok((new, pass))
        })?
    };
    for w in &pass.warnings {
        warn(w);
    }
    let refused = pass.refused.is_some();
    ctx.out.emit(&MaintainReport {
        now: now.to_string(),
        dry_run,
        applied: !dry_run && !refused,
        pass,
    })?;
    Ok(if refused { Exit::No } else { Exit::Ok })
}
