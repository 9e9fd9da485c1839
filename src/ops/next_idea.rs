//! `arx next` over the backlog: the open ideas (and those in flight)
//! ranked from the ratchet's own record — the journal's cached fold
//! (`io::steer`), the backlog folded with the fold's tries and the ideas
//! in flight (tries running now, and with a lane the ideas the other lanes
//! were given), the imported nights' tries put in the families of the
//! most similar ideas — scored by `engine::steer`.

use std::path::Path;

use anyhow::Result;

use crate::engine::efe::Preferences;
use crate::engine::history::Map;
use crate::engine::steer::fold::Fold;
use crate::engine::steer::pick::{rows, Offer, Row};
use crate::engine::steer::{Tally, UNSORTED};
use crate::io::state::JOURNAL_FILE;
use crate::io::steer::{self as cache, Source};
use crate::io::Warn;
use crate::kernel::idea::{fold as fold_backlog, Backlog, Idea, IdeaStatus, InFlight};
use crate::ops::ideas::Families;

/// The backlog ranked: the fold it came from, where that fold came from,
/// and a row per open idea and idea in flight.
pub struct Ranked {
    pub fold: Fold,
    pub source: Source,
    pub rows: Vec<Row>,
}

/// Rank the backlog of the state directory `state` for `lane` at `now`.
/// Backlog lines the fold could not apply are told to `warn`.
pub fn rank(state: &Path, lane: Option<&str>, now: &str, warn: Warn) -> Result<Ranked> {
    let (fold, source) = cache::load(state, &state.join(JOURNAL_FILE), state.is_dir(), warn)?;
    let lines = crate::io::ideas::read(state, warn)?;
    let tries = fold.ideas.iter().map(|(id, t)| (id.as_str(), t.clone()));
    let backlog = fold_backlog(lines, tries, &in_flight(state, &fold, lane, now));
    for c in &backlog.conflicts {
        warn(c);
    }
    let imported = imported_families(state, &backlog, &fold, warn);
    let rows = table(&backlog, &fold, &imported);
    Ok(Ranked { fold, source, rows })
}

/// Whether the journal of the state directory `state` (its fold, from
/// the cache) holds a try of `idea`.
pub fn tried(state: &Path, idea: &str, warn: Warn) -> Result<bool> {
    let (fold, _) = cache::load(state, &state.join(JOURNAL_FILE), state.is_dir(), warn)?;
    Ok(fold.ideas.contains_key(idea))
}

/// The ideas in flight: tries running now, and (with `--lane`) the ideas
/// the other lanes were given and have not tried.
fn in_flight(state: &Path, fold: &Fold, lane: Option<&str>, now: &str) -> Vec<InFlight> {
    let mut flying = crate::io::ideas::in_flight(state);
    if lane.is_some() {
        let claims = cache::claims(state, lane, now);
        // A claim holds until the idea is tried.
        let untried = claims
            .into_iter()
            .filter(|c| !fold.ideas.contains_key(&c.idea));
        flying.extend(untried.map(|c| InFlight {
            idea: c.idea,
            lane: Some(c.lane),
            since: c.at,
        }));
    }
    flying
}

fn offer(i: &Idea) -> Offer<'_> {
    Offer {
        id: &i.id,
        statement: &i.statement,
        family: &i.family,
        retry: i.retry_of.is_some() && i.because.is_some(),
    }
}

/// The table: open ideas, and the ideas in flight.
fn table(backlog: &Backlog, fold: &Fold, imported: &Map<String, Tally>) -> Vec<Row> {
    let offers: Vec<Offer<'_>> = backlog.open().map(offer).collect();
    let flying: Vec<(Offer<'_>, Option<String>)> = backlog
        .ideas
        .iter()
        .filter_map(|i| match i.status() {
            IdeaStatus::InFlight { lane } => Some((offer(i), lane)),
            _ => None,
        })
        .collect();
    rows(fold, &offers, &flying, imported, &Preferences::default())
}

/// The imported nights' tries by family: each description in the family
/// of the most similar idea (cached while the backlog is unchanged).
fn imported_families(
    state: &Path,
    backlog: &Backlog,
    fold: &Fold,
    warn: Warn,
) -> Map<String, Tally> {
    let by_text = &fold.imported.by_text;
    if by_text.is_empty() && fold.imported.rest.tries == 0 {
        return Map::default();
    }
    let ideas = state.join(crate::io::ideas::IDEAS_FILE);
    let texts = by_text.keys().map(String::as_str);
    let index = || {
        let families = Families::of(backlog);
        move |text: &str| families.nearest(text).family
    };
    let known = cache::families_of(state, &ideas, texts, index, state.is_dir(), warn);
    fold.imported.by_family(|text| {
        known
            .get(text)
            .cloned()
            .unwrap_or_else(|| UNSORTED.to_string())
    })
}

/// The default seed: the journal's tries and the lane's name, so lanes
/// asking at once spread over the best ideas.
pub fn default_seed(fold: &Fold, lane: Option<&str>) -> u64 {
    let mut s = fold.tries;
    for b in lane.unwrap_or("").bytes() {
        s = s.wrapping_mul(1_000_003).wrapping_add(u64::from(b));
    }
    s
}
