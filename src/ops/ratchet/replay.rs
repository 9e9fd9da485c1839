//! A candidate whose best moved: another lane kept while it was measured.
//! It is replayed onto the newest best, to be measured there, or — when
//! it conflicts with it — set aside as `stale`, the lane brought to the
//! new best.

use anyhow::Result;

use super::candidate::Against;
use super::candidate::TryEnv;
use super::end::{discard, Done};
use super::measure::Runs;
use super::{info, record, short, subject};
use crate::error::Exit;
use crate::io::git::ratchet::Replay;
use crate::kernel::ratchet::Decision;
use crate::kernel::ratchet_replayed::{self as replayed, Carried};
use crate::kernel::segment::{Segment, TryStatus};
use crate::ops::lanes::LaneCtx;

/// What a candidate's measurement came to.
pub enum Tried {
    /// Decided (or stopped): what to tell and the exit code.
    Done(Box<Done>),
    /// It won, but another lane kept first: replay it onto `best` and
    /// measure it again, carrying the try's record on.
    Moved { carry: Carry, best: String },
}

/// The try's record so far, when it is measured again.
pub struct Carry {
    pub run_id: String,
    pub start: jiff::Timestamp,
    pub wall: std::time::Instant,
    pub outcomes: Vec<crate::io::process::RunOutcome>,
    pub replayed_from: Vec<String>,
    /// Its runs carried to the next best (see [`carries`]): each the best
    /// it was measured on and its difference from that best.
    pub carried: Vec<(String, f64)>,
    /// The keep lock, held through the measurement (the try's loop takes
    /// it for a candidate replayed twice).
    pub held: Option<crate::io::ratchet::KeepLock>,
}

impl Carry {
    /// The try so far, measured against `kept` (added to the bests it was
    /// measured against, `replayed_from`), to go on onto a newer best.
    pub(super) fn after(
        run_id: String,
        start: jiff::Timestamp,
        wall: std::time::Instant,
        outcomes: Vec<crate::io::process::RunOutcome>,
        (mut replayed_from, carried): (Vec<String>, Vec<(String, f64)>),
        kept: &str,
    ) -> Carry {
        replayed_from.push(kept.to_string());
        Carry {
            run_id,
            start,
            wall,
            outcomes,
            replayed_from,
            carried,
            held: None,
        }
    }
}

/// Whether a replayed try carries its runs onto the new best (the
/// `sequential` rule, arx's default, without paired seeds or per-instance
/// scores, which pair runs with the best they ran against): decided on
/// them and on [`FRESH_RUNS`](crate::kernel::ratchet_replayed::FRESH_RUNS)
/// runs of its own on the new best that beat it. Otherwise it is measured
/// there again from nothing.
pub(super) fn carries(env: &TryEnv<'_, '_>) -> bool {
    let objective = env.runner.objective;
    env.rule == crate::kernel::ratchet::Rule::Sequential
        && !objective.paired_seeds
        && objective.instances.is_none()
}

/// A decided try's record of the runs it carried (`d` decided on them
/// and on `runs` against `at`'s best): its record is its own runs on this
/// best (`record_from` counted in them), the carried ones told apart —
/// the best each was measured on, and its value as weighed here.
pub(super) fn told_apart(
    i: &mut crate::kernel::ratchet_record::RatchetInfo,
    carried: &[(String, f64)],
    (runs, at, d): (&Runs<'_>, &Against, &Decision),
) {
    i.record_from = d.record_from.saturating_sub(runs.carried.len());
    if carried.is_empty() || runs.carried.is_empty() {
        return;
    }
    let best = at.segment.kept.as_ref().expect("a kept commit");
    let (reference, _) = runs.slots.compare(best, &runs.samples);
    i.carried = Some(Carried {
        on: carried.iter().map(|(b, _)| b.clone()).collect(),
        values: runs.carried_on(&reference),
        fresh_runs: replayed::FRESH_RUNS,
    });
}

/// What a discard's line adds when the rule kept the candidate on all its
/// runs but its own on the new best do not beat it.
pub(super) fn short_of(d: &Decision) -> String {
    if !replayed::fell_short(d) {
        return String::new();
    }
    format!("; {}", d.detail.trim_start_matches("discard: "))
}

/// What a keep replayed with its runs says: the runs it carried, and its
/// `fresh` runs on the best it landed on, which beat it.
pub(super) fn carried_note(
    rec: &crate::kernel::journal::RunRecord,
    fresh: usize,
) -> Option<String> {
    let c = rec.ratchet.as_ref()?.carried.as_ref()?;
    let mut from: Vec<&str> = c.on.iter().map(|b| short(b)).collect();
    from.dedup();
    Some(format!(
        "replayed with its runs: {} carried from {} (moved by the difference of the two bests), \
         and its {fresh} runs on the new best beat it",
        c.on.len(),
        from.join(", ")
    ))
}

/// A candidate that won against a best that another lane replaced, and
/// does not apply to the new one: `stale`, set aside (restorable), and the
/// lane brought to the new best.
pub fn stale(
    env: &TryEnv<'_, '_>,
    lane: Option<&LaneCtx>,
    (kept, best): (&str, &str),
    carry: Carry,
    conflicts: Vec<String>,
) -> Result<Done> {
    let runner = env.runner;
    let description = runner.description.as_deref().map(subject);
    let mut i = info(
        runner.objective,
        TryStatus::Stale,
        kept,
        env.rule,
        description,
    );
    i.lane = lane.map(|l| l.name.clone());
    // `kept` is the best it was last measured against; the field holds
    // the ones before.
    let mut replayed_from = carry.replayed_from;
    replayed_from.pop();
    i.replayed_from = replayed_from;
    let rec = record(
        runner,
        carry.run_id,
        carry.start,
        carry.wall.elapsed(),
        &carry.outcomes,
        Vec::new(),
        i,
    )?;
    let line = format!(
        "stale: {} kept {} and the candidate conflicts with it in {} \u{2192} set aside, {} at the best",
        another(env),
        short(best),
        conflicts.join(", "),
        if lane.is_some() { "lane" } else { "working tree" }
    );
    let exit = discard(env, (kept, None), rec, line, Exit::No)?;
    super::takeup::replay(env.repo, env.state, (best, &work_ref(lane)), false)?;
    Ok(exit)
}

/// Where a candidate whose best moved went: set aside as `stale` (its work
/// conflicts with the new best), or replayed onto the newest best, to be
/// measured there. (Returned once per replay: its size does not matter.)
#[allow(clippy::large_enum_variant)]
pub enum Replayed {
    Stale(Done),
    Onto {
        segment: Segment,
        best: String,
        carry: Carry,
    },
}

/// Replay a lane's candidate, measured against `kept`, onto the best that
/// replaced it (and onto any that replaced that one meanwhile), or set it
/// aside as `stale` when it conflicts.
pub fn replay_moved(
    env: &TryEnv<'_, '_>,
    lane: Option<&LaneCtx>,
    kept: &str,
    (mut best, mut c): (String, Carry),
) -> Result<Replayed> {
    let (runner, repo, state) = (env.runner, env.repo, env.state);
    let refname = work_ref(lane);
    // The commit the lane's work sits on.
    let mut on = kept.to_string();
    loop {
        runner.host.say(&format!(
            "{} kept {} while this try ran: replaying the candidate onto it",
            another(env),
            short(&best)
        ));
        if let Replay::Conflicts(paths) =
            super::takeup::replay(repo, state, (&best, &refname), false)?.0
        {
            let done = stale(env, lane, (&on, &best), c, paths)?;
            return Ok(Replayed::Stale(done));
        }
        on = best.clone();
        // Replayed more than once: the best keeps moving under it, so
        // the next measurement reserves the best (the keep lock, which
        // other lanes wait for only when they would keep) and is
        // decided against it: no candidate is starved by a stream of
        // other lanes' keeps.
        if c.replayed_from.len() >= 2 && c.held.is_none() {
            c.held = Some(crate::io::ratchet::lock_keep(state)?);
        }
        let records = crate::io::state::journal(state, runner.warn).read()?;
        let segment = crate::kernel::segment::current(&records, &runner.objective.segment_id())
            .ok_or_else(|| anyhow::anyhow!("the journal no longer has this segment"))?;
        let Some(now) = segment.kept.as_ref().map(|k| k.commit.clone()) else {
            return Err(anyhow::anyhow!(
                "the journal no longer has a best for this segment"
            ));
        };
        if now == best {
            return Ok(Replayed::Onto {
                segment,
                best,
                carry: c,
            });
        }
        // Yet another lane kept meanwhile: replay again.
        c.replayed_from.push(best.clone());
        best = now;
    }
}

/// Where the work is kept while it is replayed: the lane's ref, or the
/// fleet's in a working tree that is no lane.
pub(super) fn work_ref(lane: Option<&LaneCtx>) -> String {
    lane.map_or_else(
        || super::fleet::BEFORE_SYNC_REF.to_string(),
        LaneCtx::before_sync_ref,
    )
}

/// Who kept first: another lane, or in a fleet another machine (or lane).
pub(super) fn another(env: &TryEnv<'_, '_>) -> &'static str {
    match (env.fleet.is_some(), env.lane.is_some()) {
        (true, true) => "another machine or lane",
        (true, false) => "another machine",
        _ => "another lane",
    }
}
