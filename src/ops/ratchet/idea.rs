//! What a try tests ([`Tested`]): the idea of the backlog (`--idea ID`),
//! an ad-hoc idea (`-m TEXT --family F`, added to the backlog when the
//! candidate runs), or no idea and the family of the most similar one (or
//! `unsorted`), which the try says. Its record carries the idea, the family
//! and the parent it was measured against ([`Tested::mark`]).

use std::path::Path;

use anyhow::Result;

use super::{short, Host, TryRequest};
use crate::error::Hinted;
use crate::io::Warn;
use crate::kernel::idea::{self, Backlog, Idea, IdeaAdded, IdeaStatus, IdeaTry};
use crate::kernel::journal::RunRecord;
use crate::kernel::ratchet_record::{RatchetInfo, TryStatus};
use crate::ops::ideas;

/// What a try tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tested {
    /// The idea's id.
    pub idea: Option<String>,
    pub family: Option<String>,
    /// The family was taken from the most similar idea.
    pub guessed: bool,
    /// An ad-hoc idea, added to the backlog when the candidate runs.
    pending: Option<IdeaAdded>,
    /// How the family was taken, said when the candidate runs.
    note: Option<String>,
}

impl Tested {
    /// The idea a retry retries, when this try is one.
    pub fn retry_of(&self) -> Option<&str> {
        self.pending.as_ref().and_then(|p| p.retry_of.as_deref())
    }

    /// Mark a try's record with the idea, the family and the parent (not a
    /// baseline's or a measurement of the best's).
    pub fn mark(&self, info: &mut RatchetInfo) {
        if matches!(info.status, TryStatus::Baseline | TryStatus::Remeasure) {
            return;
        }
        info.idea.clone_from(&self.idea);
        info.family.clone_from(&self.family);
        info.family_guessed = self.guessed;
        info.parent = Some(info.kept.clone());
    }

    /// The candidate is about to run: say how its family was taken, and
    /// add the ad-hoc idea to the backlog (once).
    pub fn announce(&mut self, state: &Path, host: &dyn Host, warn: Warn) -> Result<()> {
        if let Some(note) = self.note.take() {
            host.say(&note);
        }
        if let Some(added) = self.pending.take() {
            crate::io::ideas::append(state, &idea::IdeaLine::Add(added), warn)?;
        }
        Ok(())
    }
}

/// What the request's `--idea`, `--family` and `-m` say the try tests, and
/// the description it takes (the idea's statement unless `-m` is given).
/// `records`: the journal, to tell an idea tried already (`None` in a dry
/// run, which reads only the backlog). Nothing is written.
pub fn resolve(
    req: &TryRequest,
    state: &Path,
    records: Option<&[RunRecord]>,
    (now, host, warn): (&str, &dyn Host, Warn),
) -> Result<(Tested, Option<String>)> {
    let family = req.family.as_deref().map(ideas::check_family).transpose()?;
    if let Some(d) = req.description.as_deref() {
        if req.idea.is_some() || family.is_some() {
            ideas::check_statement(d)?;
        }
    }
    let lines = crate::io::ideas::read(state, warn)?;
    let tries = records.unwrap_or_default().iter().filter_map(IdeaTry::of);
    let flying = crate::io::ideas::in_flight(state);
    let backlog = idea::fold(lines, tries, &flying);
    if let Some(id) = req.idea.as_deref() {
        return of_idea(req, &backlog, id, family, (now, host));
    }
    let description = req.description.clone();
    match (family, description.as_deref()) {
        (Some(family), Some(text)) => {
            Ok((ad_hoc(&backlog, text, family, (now, host)), description))
        }
        (Some(family), None) => Ok((
            Tested {
                family: Some(family),
                ..Tested::default()
            },
            None,
        )),
        (None, text) => {
            let nearest = ideas::nearest_family(&backlog, text.unwrap_or_default());
            Ok((
                Tested {
                    family: Some(nearest.family.clone()),
                    guessed: true,
                    // Said once the backlog is in use: a loop without
                    // ideas is not told of families at every try.
                    note: (!backlog.ideas.is_empty())
                        .then(|| format!("this try: {}", nearest.said())),
                    ..Tested::default()
                },
                description,
            ))
        }
    }
}

/// `--idea ID`: the idea, which must be in the backlog and not dropped.
fn of_idea(
    req: &TryRequest,
    backlog: &Backlog,
    id: &str,
    family: Option<String>,
    (now, host): (&str, &dyn Host),
) -> Result<(Tested, Option<String>)> {
    let found = ideas::find(backlog, id)?;
    if let Some(because) = req.because.as_deref() {
        return Ok(retried(req, found, because, now));
    }
    if let Some(f) = family.filter(|f| *f != found.family) {
        return Err(Hinted::error(
            format!(
                "idea {} is of the family {}, not {f}",
                found.id, found.family
            ),
            "leave --family out: the try takes its idea's family",
        ));
    }
    match found.status() {
        IdeaStatus::Dropped => {
            return Err(Hinted::error(
                format!("idea {} was dropped", found.id),
                format!(
                    "to try it after all, add it again: arx idea add --family {} {:?}",
                    found.family, found.statement
                ),
            ))
        }
        IdeaStatus::InFlight { lane } => host.warn(&format!(
            "idea {} is being tried already ({})",
            found.id,
            lane.map_or_else(
                || "in the main working tree".into(),
                |l| format!("in lane {l}")
            )
        )),
        _ => warn_tried(found, host),
    }
    let description = req
        .description
        .clone()
        .or_else(|| Some(found.statement.clone()));
    Ok((
        Tested {
            idea: Some(found.id.clone()),
            family: Some(found.family.clone()),
            guessed: found.family_guessed,
            ..Tested::default()
        },
        description,
    ))
}

/// Refuse to try `idea` while another lane has it in flight: a try of it
/// running there (`lane` is this try's lane, `None` the main working
/// tree), or given to that lane by `arx next --lane` and not tried since.
/// `records`: the journal; `now`: when (RFC 3339).
pub fn refuse_elsewhere(
    state: &Path,
    idea: &str,
    lane: Option<&str>,
    records: &[RunRecord],
    now: &str,
) -> Result<()> {
    let running = crate::io::ideas::in_flight(state)
        .into_iter()
        .find(|f| f.idea == idea && f.lane.as_deref() != lane)
        .map(|f| (f.lane, "a try of it runs there"));
    let tried = || {
        records
            .iter()
            .filter_map(IdeaTry::of)
            .any(|(id, _)| id == idea)
    };
    let claimed = || {
        crate::io::steer::claims(state, lane, now)
            .into_iter()
            .find(|c| c.idea == idea)
            .filter(|_| !tried())
            .map(|c| (Some(c.lane), "arx next --lane gave it to that lane"))
    };
    let Some((other, how)) = running.or_else(claimed) else {
        return Ok(());
    };
    let where_ = other.map_or_else(
        || "the main working tree".to_string(),
        |l| format!("lane {l}"),
    );
    Err(Hinted::error(
        format!("idea {idea} is in flight in {where_} ({how})"),
        format!(
            "take another idea (arx next{}), or try it here as well, saying why: arx try --idea {idea} --retry --because TEXT",
            lane.map_or(String::new(), |l| format!(" --lane {l}"))
        ),
    ))
}

/// `--idea ID --because TEXT`: a retry of the idea, a new idea of the
/// backlog that names it and says what changed (added when the candidate
/// runs), as `arx idea add --retry` adds one.
fn retried(req: &TryRequest, found: &Idea, because: &str, now: &str) -> (Tested, Option<String>) {
    let added = IdeaAdded {
        id: crate::io::ideas::fresh_id(),
        at: now.to_string(),
        statement: found.statement.clone(),
        family: found.family.clone(),
        family_guessed: found.family_guessed,
        retry_of: Some(found.id.clone()),
        because: Some(because.trim().to_string()),
        ad_hoc: false,
    };
    let description = req
        .description
        .clone()
        .or_else(|| Some(found.statement.clone()));
    (
        Tested {
            idea: Some(added.id.clone()),
            family: Some(found.family.clone()),
            guessed: found.family_guessed,
            note: Some(format!(
                "this try retries idea {} as {}",
                found.id, added.id
            )),
            pending: Some(added),
        },
        description,
    )
}

/// Warn that `idea` was tried already (unless its last try crashed: a
/// crash says nothing of the idea).
fn warn_tried(idea: &Idea, host: &dyn Host) {
    let Some(last) = idea.tries.last() else {
        return;
    };
    if last.status == TryStatus::Crash {
        return;
    }
    let runs: Vec<String> = idea
        .tries
        .iter()
        .map(|t| format!("{} {}", t.status, short(&t.run_id)))
        .collect();
    host.warn(&format!(
        "idea {} was tried already ({}); a retry that says what changed: arx idea add --retry {} --because TEXT",
        idea.id,
        runs.join(", "),
        idea.id
    ));
}

/// `-m TEXT --family F`: the idea of the backlog with this statement and
/// family (not dropped), else a new one, added when the candidate runs.
fn ad_hoc(backlog: &Backlog, text: &str, family: String, (now, host): (&str, &dyn Host)) -> Tested {
    let same = backlog
        .ideas
        .iter()
        .find(|i| i.dropped.is_none() && i.family == family && i.statement.trim() == text.trim());
    if let Some(i) = same {
        warn_tried(i, host);
        return Tested {
            idea: Some(i.id.clone()),
            family: Some(family),
            guessed: false,
            ..Tested::default()
        };
    }
    let added = IdeaAdded {
        id: crate::io::ideas::fresh_id(),
        at: now.to_string(),
        statement: text.trim().to_string(),
        family: family.clone(),
        family_guessed: false,
        retry_of: None,
        because: None,
        ad_hoc: true,
    };
    Tested {
        idea: Some(added.id.clone()),
        family: Some(family),
        guessed: false,
        pending: Some(added),
        note: None,
    }
}
