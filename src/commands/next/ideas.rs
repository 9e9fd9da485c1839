//! `arx next` without `--candidates`: the open ideas of the backlog ranked
//! from the ratchet's own record (`engine::steer`), from the cached fold
//! of the journal (`io::steer`), and the chosen id printed alone.

use std::io::{self, Write};

use anyhow::Result;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use super::check_temperature;
use crate::cli::NextArgs;
use crate::commands::{Ctx, WARN};
use crate::engine::steer::pick::{choose, LeftOut, Row};
use crate::engine::steer::repeat::Same;
use crate::error::Exit;
use crate::io::steer::{self as cache, Source};
use crate::kernel::text::shown;
use crate::ops::next_idea::{default_seed, Ranked};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct NextIdea {
    /// The chosen idea's id.
    idea: Option<String>,
    statement: Option<String>,
    family: Option<String>,
    /// The chosen idea's scores.
    scores: Option<crate::engine::steer::Score>,
    model: &'static str,
    precision: f64,
    temperature: f64,
    seed: u64,
    greedy: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    lane: Option<String>,
    /// The kept commit the next try is measured against.
    parent: Option<String>,
    /// Tries of the current segment the scores come from.
    segment_tries: u64,
    /// Tries of imported nights the scores also come from (each counted
    /// in the family of the most similar idea, else `unsorted`).
    imported_tries: u64,
    /// How the journal's fold was had: cached, extended, rebuilt.
    fold: Source,
    /// Every open idea (and those left out), in the order to try them.
    ideas: Vec<Row>,
    /// With `--explain`: what the scores of `ideas` mean.
    #[serde(skip_serializing_if = "Option::is_none")]
    legend: Option<String>,
    #[serde(skip)]
    explain: bool,
}

impl Report for NextIdea {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(id) = &self.idea {
            writeln!(out, "{id}")?;
        }
        if self.explain {
            self.table(out)?;
        }
        Ok(())
    }
}

impl NextIdea {
    fn table(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{d}precision {:.4}, temperature {}, seed {}{}, {} in the segment{}{d:#}",
            self.precision,
            self.temperature,
            self.seed,
            if self.greedy { ", greedy" } else { "" },
            crate::output::count(self.segment_tries, "try", "tries"),
            imported_words(self.imported_tries),
        )?;
        writeln!(
            out,
            "{b}{:<14} {:<12} {:>5} {:>8} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>7}  statement{b:#}",
            "idea", "family", "tries", "imported", "keeps", "keep", "gain", "cost", "epist.", "G", "P"
        )?;
        for r in &self.ideas {
            let s = &r.scores;
            let mark = if self.idea.as_deref() == Some(r.idea.as_str()) {
                "*"
            } else {
                " "
            };
            writeln!(
                out,
                "{mark}{:<13} {:<12} {:>5} {:>8} {:>5} {:>6.3} {:>6.2} {:>6.2} {:>8.4} {:>8.4} {:>7.4}  {}",
                r.idea,
                r.family,
                s.tries,
                r.imported,
                s.keeps,
                s.keep_rate,
                s.gain,
                s.cost,
                s.epistemic,
                s.g,
                r.probability,
                shown(&r.statement)
            )?;
            if let Some(why) = &r.left_out {
                writeln!(out, "{d}  left out: {}{d:#}", left_out_words(why))?;
            }
        }
        for line in LEGEND {
            writeln!(out, "{d}{line}{d:#}")?;
        }
        Ok(())
    }
}

/// What the table's columns are (a family's numbers are its tries in the
/// segment, shared by its ideas).
pub const LEGEND: [&str; 5] = [
    "* the pick. tries, keeps: the family's tries and keeps in the segment; imported: tries",
    "  of imported nights counted for it (not a gain: the family of the most similar idea);",
    "  keep: its keep rate (posterior mean, shrunk toward the segment's); gain, cost: its gain",
    "  per keep and runs per try relative to the segment's (1 = the same); epist.: what one",
    "  more try would teach of its keep rate (nats); G: expected free energy, lower first; P: the chance it is picked.",
];

/// The imported tries the scores count, for the table's heading.
fn imported_words(tries: u64) -> String {
    if tries == 0 {
        return String::new();
    }
    format!(
        " and {} of imported nights",
        crate::output::count(tries, "try", "tries")
    )
}

/// Why an idea was left out, in words.
fn left_out_words(why: &LeftOut) -> String {
    match why {
        LeftOut::Repeat {
            run_id,
            statement,
            same,
            parent,
            imported,
        } => {
            let how = match same {
                Same::Diff => "the same diff".to_string(),
                Same::Statement { similarity } => {
                    format!("the same statement, similarity {similarity:.2}")
                }
            };
            let by = if *imported {
                format!("the imported try {}", shown(run_id))
            } else {
                run_id.clone()
            };
            format!(
                "discarded at the same parent {} by {by} ({how}: \"{}\"); \
                 `arx idea add --retry ID --because TEXT` tries it again",
                short(parent),
                shown(statement)
            )
        }
        LeftOut::InFlight { lane: Some(lane) } => format!("in flight in lane {lane}"),
        LeftOut::InFlight { lane: None } => "in flight in the main working tree".to_string(),
        LeftOut::Claimed { machine, until } => {
            format!("claimed by machine {machine} (its lease holds until {until})")
        }
        LeftOut::Tried => "tried by another machine of the fleet meanwhile".to_string(),
    }
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

pub fn run(ctx: &Ctx, args: &NextArgs) -> Result<Exit> {
    check_temperature(args.temperature)?;
    if let Some(lane) = &args.lane {
        crate::ops::lanes::check_name(lane)?;
    }
    let lane = args.lane.as_deref();
    let state = ctx.state_dir()?;
    let now = ctx.now()?;
    // A lane is given an idea under the claims lock, from reading what the
    // other lanes hold to writing its own claim: never one idea to two.
    let _claims = match lane {
        Some(_) if state.is_dir() => Some(cache::lock_claims(&state)?),
        _ => None,
    };
    let fleet = fleet_taken_in(ctx, lane)?;
    let Ranked {
        fold,
        source,
        rows: mut ideas,
    } = crate::ops::next_idea::rank(&state, lane, &now, WARN)?;
    let precision = fold.record.precision();
    let seed = args.seed.unwrap_or_else(|| default_seed(&fold, lane));
    let u: f64 = rand_chacha::ChaCha8Rng::seed_from_u64(seed).random::<f64>();
    let pick = match &fleet {
        Some(fleet) => claim_one(fleet, &state, &mut ideas, (precision, args, u), &now)?,
        None => choose(&mut ideas, precision, args.temperature, args.greedy, u)
            .map_err(anyhow::Error::msg)?,
    };
    let chosen = pick.map(|i| ideas[i].clone());
    let report = NextIdea {
        idea: chosen.as_ref().map(|r| r.idea.clone()),
        statement: chosen.as_ref().map(|r| r.statement.clone()),
        family: chosen.as_ref().map(|r| r.family.clone()),
        scores: chosen.as_ref().map(|r| r.scores.clone()),
        model: "aif",
        precision,
        temperature: args.temperature,
        seed,
        greedy: args.greedy,
        lane: args.lane.clone(),
        parent: fold.next_parent().map(str::to_string),
        segment_tries: fold.record.total.tries,
        imported_tries: fold.imported.tries,
        fold: source,
        ideas,
        legend: args.explain.then(|| JSON_LEGEND.to_string()),
        explain: args.explain,
    };
    ctx.out.emit(&report)?;
    if let (Some(id), Some(statement)) = (&report.idea, &report.statement) {
        ctx.answer(
            &format!("next idea: {id} \"{}\"", shown(statement)),
            &format!("make that one change, then `arx try --idea {id}`"),
        );
    }
    match (&report.idea, lane) {
        (Some(id), Some(lane)) if state.is_dir() => {
            if let Err(e) = cache::claim(&state, lane, id, &now) {
                WARN(&format!(
                    "cannot record the idea given to lane {lane}: {e:#}"
                ));
            }
            Ok(Exit::Ok)
        }
        (Some(_), _) => Ok(Exit::Ok),
        (None, _) => {
            nothing_left(ctx, &report.ideas);
            Ok(Exit::No)
        }
    }
}

/// In a fleet, the other machines' records and ideas merged in first, so
/// that the ranking is by the whole fleet's: an idea another machine tried
/// is not given again as if untried.
fn fleet_taken_in(ctx: &Ctx, lane: Option<&str>) -> Result<Option<crate::ops::fleet::Fleet>> {
    let fleet = open_fleet(ctx, lane)?;
    if let Some(f) = &fleet {
        if let Err(why) = f.take_in()? {
            WARN(&format!(
                "the fleet's remote did not answer ({why}): ranked by this machine's records"
            ));
        }
    }
    Ok(fleet)
}

/// The fleet this working tree belongs to, when `[fleet]` names one; its
/// claims made for lane `lane` when given (else for the lane the working
/// tree is, if any).
fn open_fleet(ctx: &Ctx, lane: Option<&str>) -> Result<Option<crate::ops::fleet::Fleet>> {
    let config = ctx.config()?;
    if config.fleet.is_none() {
        return Ok(None);
    }
    let Some(root) = crate::io::config::repo_root(&ctx.cwd()?) else {
        return Ok(None);
    };
    let fleet = crate::ops::fleet::resolve(&config, &root, &ctx.state_dir()?, WARN)?;
    Ok(fleet.map(|mut f| {
        if let Some(lane) = lane {
            f.lane = Some(lane.to_string());
        }
        f
    }))
}

/// In a fleet, the pick is claimed fleet-wide: ideas other machines hold
/// are left out, and a pick another machine claimed first (a lost
/// compare-and-swap) is left out and the next one drawn. With the remote
/// away the pick stands unclaimed. A pick another machine tried meanwhile
/// is released and the next one drawn (see [`tried_meanwhile`]).
fn claim_one(
    fleet: &crate::ops::fleet::Fleet,
    state: &std::path::Path,
    ideas: &mut [Row],
    (precision, args, u): (f64, &NextArgs, f64),
    now: &str,
) -> Result<Option<usize>> {
    use crate::ops::fleet::Claimed;
    if fleet.fetch()?.is_ok() {
        leave_out_claimed(fleet, ideas, now)?;
    }
    loop {
        let pick = choose(ideas, precision, args.temperature, args.greedy, u)
            .map_err(anyhow::Error::msg)?;
        let Some(i) = pick else { return Ok(None) };
        match fleet.claim(&ideas[i].idea, now)? {
            Claimed::Held { commit, .. } => {
                if !tried_meanwhile(fleet, state, &ideas[i].idea, &commit)? {
                    return Ok(Some(i));
                }
                ideas[i].probability = 0.0;
                ideas[i].left_out = Some(LeftOut::Tried);
            }
            Claimed::Unreachable(why) => {
                WARN(&format!(
                    "the fleet's remote did not answer ({why}): idea {} is not claimed",
                    ideas[i].idea
                ));
                return Ok(Some(i));
            }
            Claimed::Taken { by, until } => {
                ideas[i].probability = 0.0;
                ideas[i].left_out = Some(LeftOut::Claimed { machine: by, until });
            }
        }
    }
}

/// Ideas other machines (or other lanes of this one) hold a live claim
/// on, as last fetched, left out.
fn leave_out_claimed(fleet: &crate::ops::fleet::Fleet, ideas: &mut [Row], now: &str) -> Result<()> {
    for (_, lease) in fleet.leases()? {
        let theirs = lease.machine != fleet.machine || lease.lane != fleet.lane;
        let live = theirs && !crate::kernel::fleet::expired(&lease, now);
        if let Some(row) = ideas.iter_mut().find(|r| r.idea == lease.idea && live) {
            row.left_out.get_or_insert(LeftOut::Claimed {
                machine: crate::kernel::fleet::holder(&lease),
                until: lease.expires,
            });
        }
    }
    Ok(())
}

/// Whether `idea`, just claimed at commit `held`, was tried by another
/// machine after this one took the fleet in: the fleet taken in again and
/// the merged journal asked. When it was, the claim is released.
///
/// This closes the window between the first take-in and the claim: a
/// machine B that claimed the idea, tried it and released its claim in
/// it pushed its records BEFORE deleting its claim (`arx try` releases
/// only after its records are pushed). This machine's claim could only
/// land once B's claim was gone (a create-if-absent push), so B's records
/// were on the remote before it landed, and this fetch, later still, sees
/// them. A claim B still holds makes this claim lose instead (`Taken`).
fn tried_meanwhile(
    fleet: &crate::ops::fleet::Fleet,
    state: &std::path::Path,
    idea: &str,
    held: &str,
) -> Result<bool> {
    if let Err(why) = fleet.take_in()? {
        WARN(&format!(
            "the fleet's remote did not answer ({why}): idea {idea} is claimed unchecked"
        ));
        return Ok(false);
    }
    if !crate::ops::next_idea::tried(state, idea, WARN)? {
        return Ok(false);
    }
    WARN(&format!(
        "idea {idea} was tried by another machine meanwhile: its claim released, another drawn"
    ));
    fleet.release(idea, held);
    Ok(true)
}

/// What the scores of `--json --explain` mean, field by field.
pub const JSON_LEGEND: &str = "idea: the pick; ideas: every open idea in the order to try them, \
    the pick first unless sampled; scores (the family's, shared by its ideas): tries, keeps: the \
    family's tries and keeps in the segment; keep_rate: its keep rate (posterior mean, shrunk \
    toward the segment's; a and b its Beta parameters); gain, cost: its gain per keep and runs per \
    try relative to the segment's (1 = the same); epistemic: what one more try would teach of its \
    keep rate (nats); pragmatic: its expected value (keep_rate times the gain, the rest as an \
    error, less its cost); precision: the loop's trust in its own predictions; g: expected free \
    energy, -(1 - precision) * epistemic - pragmatic (lower first); probability: the chance it is picked; imported: tries of imported nights \
    counted for it; left_out: why it is not proposed (a repeat of a discard, in flight, claimed by another machine of the fleet, or tried by one meanwhile).";

/// Why every idea of `rows` was left out, counted by reason: discarded at
/// this parent, tried meanwhile by another machine of the fleet, in flight.
fn left_words(rows: &[Row]) -> String {
    reasons_words(rows.iter().map(|r| r.left_out.as_ref()))
}

/// [`left_words`] over the reasons alone.
fn reasons_words<'a>(reasons: impl Iterator<Item = Option<&'a LeftOut>>) -> String {
    let (mut repeats, mut tried, mut flying) = (0, 0, 0);
    for reason in reasons {
        match reason {
            Some(LeftOut::Repeat { .. }) => repeats += 1,
            Some(LeftOut::Tried) => tried += 1,
            _ => flying += 1,
        }
    }
    let meanwhile = match tried {
        0 => String::new(),
        n => format!("{n} tried meanwhile by another machine, "),
    };
    format!("{repeats} already discarded at this parent, {meanwhile}{flying} in flight")
}

/// Tell why no idea was chosen, with the hint that fits (under `--json`,
/// in the answer's one line).
fn nothing_left(ctx: &Ctx, rows: &[Row]) {
    let repeats = rows
        .iter()
        .filter(|r| matches!(r.left_out, Some(LeftOut::Repeat { .. })))
        .count();
    if ctx.out.json {
        let line = match rows.is_empty() {
            true => "no open idea in the backlog".to_string(),
            false => format!("no open idea left: {}", left_words(rows)),
        };
        let next = match repeats {
            0 => "add ideas with `arx idea add STATEMENT`, then `arx next`",
            _ => "add new ideas with `arx idea add STATEMENT`, or try one again with `arx idea add --retry ID --because TEXT`, then `arx next`",
        };
        ctx.answer(&line, next);
        return;
    }
    let mut err = io::stderr().lock();
    let _ = if rows.is_empty() {
        writeln!(err, "arx: no open idea in the backlog")
    } else {
        writeln!(err, "arx: no open idea left: {}", left_words(rows))
    };
    let _ = if repeats > 0 {
        writeln!(
            err,
            "hint: add new ideas with `arx idea add STATEMENT`, or try one again with `arx idea add --retry ID --because TEXT` (see `arx next --explain`)"
        )
    } else {
        writeln!(err, "hint: add ideas with `arx idea add STATEMENT`")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idea_tried_meanwhile_is_not_counted_in_flight() {
        let (tried, flying) = (LeftOut::Tried, LeftOut::InFlight { lane: None });
        let words = reasons_words([Some(&tried), Some(&flying), Some(&tried)].into_iter());
        assert_eq!(
            words,
            "0 already discarded at this parent, 2 tried meanwhile by another machine, 1 in flight"
        );
        let words = reasons_words([Some(&flying)].into_iter());
        assert_eq!(words, "0 already discarded at this parent, 1 in flight");
    }
}
