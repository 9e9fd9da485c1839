//! `[fleet] confirm_classes = N` as steps of a try. A keep on a machine of
//! one class is held as pending (its record a keep marked `fleet_pending`,
//! its candidate set aside and pushed as `refs/arx/fleet/pending/<run>`)
//! instead of moving the fleet's best. A machine of another class, at a
//! try with no work of its own, puts the oldest pending keep it has not
//! judged in its working tree and the try measures it against this
//! class's measure of the best; its record names the keep (`confirms`).
//! The keep that makes N classes find it better moves the fleet's best;
//! any other decided outcome refutes it. The rules are
//! `kernel::fleet_confirm`.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::candidate::{Against, Try, TryEnv};
use super::end::Done;
use super::{run_short, Host};
use crate::error::Exit;
use crate::io::fleet::{pending_ref, Push, Update};
use crate::io::git::ratchet::RatchetRepo;
use crate::io::Warn;
use crate::kernel::fleet_confirm::{from_records as read, standing, to_confirm, Standing, Verdict};
use crate::kernel::journal::RunRecord;
use crate::kernel::segment::TryStatus;
use crate::ops::fleet::Fleet;

/// The file that names the pending keep this machine's try measures.
const MARKER: &str = "fleet-confirming.json";

/// A pending keep put in the working tree to be measured.
#[derive(Serialize, Deserialize)]
struct Confirming {
    /// Its run id.
    run: String,
    /// The journal's last run id when it was put there.
    after: Option<String>,
}

fn classes(fleet: &Fleet) -> u32 {
    fleet.confirm_classes.unwrap_or(1)
}

fn read_marker(state: &Path) -> Result<Option<Confirming>> {
    crate::io::marker::read(&state.join(MARKER))
}

fn clear_marker(state: &Path) -> Result<()> {
    crate::io::marker::clear(&state.join(MARKER))
}

/// At a try's start, on the fleet's best: with no work of its own in the
/// working tree, the oldest pending keep of another class this class has
/// not judged is put there, to be measured by this try.
pub fn take_up_pending(
    fleet: &Fleet,
    repo: &RatchetRepo,
    state: &Path,
    (host, warn): (&dyn Host, Warn),
) -> Result<()> {
    clear_marker(state)?;
    let n = classes(fleet);
    let Some(best) = fleet.best().filter(|_| n > 1) else {
        return Ok(());
    };
    let records = crate::io::state::journal(state, warn).read()?;
    let (pending, verdicts) = read(&records);
    let Some(p) = to_confirm(&pending, &verdicts, Some(&best), (&fleet.class, n)) else {
        return Ok(());
    };
    let Some(commit) = fleet.door.fetched_pending(&p.commit) else {
        return Ok(());
    };
    if !repo.contains(&best) || !repo.candidate(&best)?.is_empty() {
        host.say(&format!(
            "the keep of run {} (class {}) waits for this class to measure it: \
             an `arx try` with no work of its own here measures it",
            run_short(&p.commit),
            crate::kernel::text::shown(&p.class)
        ));
        return Ok(());
    }
    fleet.door.restore_tree(&commit)?;
    let marker = Confirming {
        run: p.commit.clone(),
        after: records.last().map(|r| r.run_id.clone()),
    };
    crate::io::marker::write(&state.join(MARKER), &marker)?;
    host.say(&format!(
        "measuring the keep of run {} (class {}), pending, on class {}: the fleet's best once {n} classes find it better",
        run_short(&p.commit),
        crate::kernel::text::shown(&p.class),
        crate::kernel::text::shown(&fleet.class)
    ));
    Ok(())
}

/// Before a keep: does it wait for other classes (held as pending) rather
/// than move the fleet's best? A try that measured another class's
/// pending keep names it in its record (`confirms`); it moves the best
/// only when its verdict makes N classes.
pub fn waits(env: &TryEnv<'_, '_>, at: &Against, rec: &mut RunRecord) -> Result<bool> {
    let Some(fleet) = env.fleet.filter(|f| classes(f) > 1) else {
        return Ok(false);
    };
    let Some(confirming) = read_marker(env.state)? else {
        return Ok(true);
    };
    if let Some(i) = rec.ratchet.as_mut() {
        i.confirms = Some(confirming.run.clone());
    }
    let records = crate::io::state::journal(env.state, env.runner.warn).read()?;
    let (pending, mut verdicts) = read(&records);
    verdicts.push(Verdict {
        commit: confirming.run.clone(),
        class: fleet.class.clone(),
        machine: fleet.machine.clone(),
        better: true,
    });
    let Some(p) = pending.iter().find(|p| p.commit == confirming.run) else {
        return Ok(true);
    };
    let now = standing(p, &verdicts, Some(&at.kept), classes(fleet));
    Ok(!matches!(now, Standing::Confirmed { .. }))
}

/// A keep held for other classes: journaled as a keep marked pending, its
/// candidate set aside (the working tree back on the best) and, unless it
/// is a verdict on another's, pushed as `refs/arx/fleet/pending/<run>`.
pub fn hold(env: &TryEnv<'_, '_>, at: &Against, t: Try, mut rec: RunRecord) -> Result<Done> {
    let Some(fleet) = env.fleet else {
        anyhow::bail!("a keep held for other classes outside a fleet");
    };
    let verdict = rec.ratchet.as_ref().and_then(|i| i.confirms.clone());
    if let Some(i) = rec.ratchet.as_mut() {
        i.fleet_pending = true;
    }
    let run = rec.run_id.clone();
    let n = classes(fleet);
    let line = match &verdict {
        Some(of) => format!(
            "keep, pending: the keep of run {} is better on class {} too; it waits for {n} classes",
            run_short(of),
            crate::kernel::text::shown(&fleet.class)
        ),
        None => format!(
            "keep, pending: better on class {}; the fleet's best once machines of {n} classes find it better",
            crate::kernel::text::shown(&fleet.class)
        ),
    };
    let mut done = super::end::discard(env, (&at.kept, t.measured.as_ref()), rec, line, Exit::Ok)?;
    let stored = env.repo.ref_target(&format!("refs/arx/discarded/{run}"));
    if let (Some(commit), None) = (stored, verdict) {
        let update = Update {
            commit: &commit,
            refname: pending_ref(&run),
            expected: None,
        };
        match fleet.door.push(&[update])? {
            Push::Landed => done
                .notes
                .push(format!("pushed as {} for other classes to measure", pending_ref(&run))),
            Push::Lost(_) | Push::Unreachable(_) => env.runner.host.warn(&format!(
                "the pending keep of run {} did not reach the fleet's remote: other classes cannot measure it",
                run_short(&run)
            )),
        }
    }
    Ok(done)
}

/// At a try's end: its record names the pending keep it measured (a
/// verdict, whatever the try came to), and the marker goes.
pub fn tag_verdict(fleet: &Fleet, state: &Path, warn: Warn) -> Result<()> {
    let Some(c) = read_marker(state)? else {
        return Ok(());
    };
    let journal = crate::io::state::journal(state, warn);
    journal.rewrite(|loaded| {
        let mut records = loaded.records.clone();
        let from = c
            .after
            .as_ref()
            .and_then(|a| records.iter().position(|r| &r.run_id == a))
            .map_or(0, |i| i + 1);
        let tried = records[from..].iter_mut().rev().find(|r| {
            r.ratchet.as_ref().is_some_and(|i| {
                i.class.as_deref() == Some(fleet.class.as_str())
                    && !matches!(i.status, TryStatus::Baseline | TryStatus::Remeasure)
            })
        })?;
        let info = tried.ratchet.as_mut()?;
        if info.confirms.is_some() {
            return None;
        }
        info.confirms = Some(c.run.clone());
        Some(records)
    })?;
    clear_marker(state)
}
