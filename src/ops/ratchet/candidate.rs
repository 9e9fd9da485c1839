//! One candidate measured against the best until the rule decides, then
//! kept (a compare-and-swap of the best in lanes) or discarded — or, when
//! another lane kept meanwhile, handed back to be replayed onto the new
//! best. What to tell comes back as a [`Done`]; nothing here prints.

use anyhow::Result;
use serde_json::json;

use super::{estimate_of, finding, info, record, run_checks, run_short, short, subject, Runner};
use crate::error::Exit;
use crate::io::events::Events;
use crate::io::git::ratchet::{Candidate, RatchetRepo, Replay};
use crate::kernel::journal::RunRecord;
use crate::kernel::number::{decimals, fmt_number, num, signed};
use crate::kernel::objective::INTERVAL_CONFIDENCE;
use crate::kernel::prune::Points;
use crate::kernel::ratchet::{self, Decision, Evidence, Rule, Settings, Step};
use crate::kernel::segment::{Segment, TryStatus};
use crate::kernel::stats::summarize;
use crate::kernel::verdict::Verdict;
use crate::ops::attempts;
use crate::ops::journal;
use crate::ops::lanes::LaneCtx;
use crate::ops::slot_compare::SlotCompare;

/// A try that came to an end: its exit code, its record as journaled,
/// and what to tell (the line and its notes).
pub struct Done {
    pub exit: Exit,
    pub record: RunRecord,
    pub notes: Vec<String>,
    pub line: String,
    /// Ctrl-C: once told, exit as the signal would have.
    pub interrupted: bool,
}

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
    /// The keep lock, held through the measurement (the try's loop takes
    /// it for a candidate replayed twice).
    pub held: Option<crate::io::ratchet::KeepLock>,
}

impl Carry {
    /// The try so far, measured against `kept` (added to the bests it was
    /// measured against, `replayed_from`), to go on onto a newer best.
    fn after(
        run_id: String,
        start: jiff::Timestamp,
        wall: std::time::Instant,
        outcomes: Vec<crate::io::process::RunOutcome>,
        mut replayed_from: Vec<String>,
        kept: &str,
    ) -> Carry {
        replayed_from.push(kept.to_string());
        Carry {
            run_id,
            start,
            wall,
            outcomes,
            replayed_from,
            held: None,
        }
    }
}

/// A candidate that won against a best that another lane replaced, and
/// does not apply to the new one: `stale`, set aside (restorable), and the
/// lane brought to the new best.
#[allow(clippy::too_many_arguments)]
pub fn stale(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    kept: &str,
    best: &str,
    carry: Carry,
    conflicts: Vec<String>,
    lane: &LaneCtx,
    rule: Rule,
) -> Result<Done> {
    let description = runner.description.as_deref().map(subject);
    let mut i = info(runner.objective, TryStatus::Stale, kept, rule, description);
    i.lane = Some(lane.name.clone());
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
        "stale: another lane kept {} and the candidate conflicts with it in {} \u{2192} set aside, lane at the best",
        short(best),
        conflicts.join(", ")
    );
    let exit = discard(runner, repo, state, kept, rec, line, Exit::No)?;
    repo.replay_onto(best, &lane.before_sync_ref())?;
    Ok(exit)
}

#[allow(clippy::too_many_arguments)]
pub fn try_candidate(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    segment: &Segment,
    kept: &str,
    candidate: Candidate,
    protected: Vec<String>,
    rule: Rule,
    peers: Vec<Points>,
    lane: Option<&LaneCtx>,
    carry: Option<Carry>,
) -> Result<Tried> {
    let objective = runner.objective;
    let description = runner.description.as_deref().map(subject);
    let (run_id, start, wall, earlier, replayed_from, held) = match carry {
        Some(c) => (
            c.run_id,
            c.start,
            c.wall,
            c.outcomes,
            c.replayed_from,
            c.held,
        ),
        None => (
            attempts::new_run_id(),
            runner.start()?,
            std::time::Instant::now(),
            Vec::new(),
            Vec::new(),
            None,
        ),
    };
    let best = segment.kept.as_ref().expect("a kept commit");
    let best_estimate = estimate_of(best, segment, INTERVAL_CONFIDENCE);
    let mut i = info(
        objective,
        TryStatus::Discard,
        kept,
        rule,
        description.clone(),
    );
    i.paths = candidate.paths.clone();
    i.best = best_estimate.as_ref().map(|e| e.value);
    i.lane = lane.map(|l| l.name.clone());
    i.replayed_from = replayed_from.clone();

    if !protected.is_empty() {
        i.status = TryStatus::Protected;
        i.protected = protected.clone();
        let rec = record(
            runner,
            run_id,
            start,
            wall.elapsed(),
            &earlier,
            Vec::new(),
            i,
        )?;
        let line = format!(
            "protected: the candidate changes {} \u{2192} set aside, {} restored",
            protected.join(", "),
            short(kept)
        );
        return discard(runner, repo, state, kept, rec, line, Exit::No)
            .map(|d| Tried::Done(Box::new(d)));
    }

    let mut events = Events::open(runner.events.as_deref(), &run_id, start)?;
    let mut reactive = runner.reactive(state, &run_id, start, peers)?;
    let first = earlier.len();
    let mut outcomes = earlier;
    let mut samples: Vec<f64> = Vec::new();
    let settings = Settings {
        direction: objective.direction,
        min_effect: objective.min_effect,
        confidence: objective.confidence,
        repeat: objective.repeat,
        max_runs: objective.repeat.max(ratchet::DEFAULT_MAX_RUNS),
    };
    // With two slots or more, the candidate is compared with the best as
    // it measures on the candidate's slot (see `kernel::slot_offset`).
    let slot_count = runner
        .spec
        .place
        .as_ref()
        .map_or(0, |p| p.placement.slots.len());
    let mut slots = SlotCompare::new(slot_count, segment);
    let decision: Option<Decision> = loop {
        let n = outcomes.len() - first + 1;
        let label = if first > 0 {
            format!("candidate run {n} on the new best")
        } else {
            format!("candidate run {n}")
        };
        let o = runner.once(&mut events, &label, &mut reactive)?;
        let interrupted = o.interrupted;
        if o.pruned {
            outcomes.push(o);
            break None;
        }
        let sample = runner.sample(&o);
        let slot = o.slot.clone();
        outcomes.push(o);
        if interrupted {
            break None;
        }
        let Some(x) = sample else {
            break None;
        };
        samples.push(x);
        slots.ran(slot);
        if slots.needs_remeasure(kept) {
            let index = reactive.slot_index.unwrap_or_default();
            let frame = slots.frame.clone().unwrap_or_default();
            let again = super::remeasure(
                runner,
                repo,
                state,
                kept,
                &candidate,
                rule,
                lane.map(|l| l.name.as_str()),
                (index, &frame),
            )?;
            slots.remeasured(kept, again.runs);
            if again.interrupted {
                slots.interrupted = true;
                break None;
            }
        }
        let (reference, candidate_values) = slots.compare(best, &samples);
        let groups = slots.groups();
        // The candidate's own runs are a replicate group too (the very
        // slice the decision is given, so that it counts once).
        let mut replicates = groups.clone();
        if candidate_values.len() > 1 {
            replicates.push(&candidate_values);
        }
        let evidence = Evidence {
            best: &reference,
            candidate: &candidate_values,
            replicates: &replicates,
            segment_values: &segment.values,
        };
        match ratchet::next_step(rule, &settings, &evidence) {
            Step::RunAgain => {
                // Another lane kept while this candidate, leaning better
                // than its best, is still being measured: replay it now
                // rather than finish measuring it against a best that is
                // gone (a winner would have to win twice). Not while it
                // holds the best reserved.
                if lane.is_some()
                    && held.is_none()
                    && ratchet::leans_better(&candidate_values, &reference, settings.direction)
                {
                    let now =
                        crate::ops::lanes::segment_best(state, Some(&segment.id), runner.warn)?;
                    if let Some(now) = now.filter(|b| b != kept) {
                        drop(reactive);
                        runner.host.say(&format!(
                            "the candidate leads after {} run{} and the best moved: no decision against {}",
                            samples.len(),
                            if samples.len() == 1 { "" } else { "s" },
                            short(kept)
                        ));
                        let carry =
                            Carry::after(run_id, start, wall, outcomes, i.replayed_from, kept);
                        return Ok(Tried::Moved { carry, best: now });
                    }
                }
                continue;
            }
            Step::Decide(d) => break Some(d),
        }
    };
    runner.host.pause();
    let elapsed = wall.elapsed();
    let interrupted = outcomes.iter().any(|o| o.interrupted) || slots.interrupted;
    let last = outcomes.last().cloned().unwrap_or_default();
    let progress = reactive
        .progress()
        .filter(|p| p.curves.iter().any(|c| !c.is_empty()));
    let record = |runner: &Runner<'_>,
                  run_id: String,
                  start,
                  elapsed,
                  outcomes: &[crate::io::process::RunOutcome],
                  samples,
                  i|
     -> Result<RunRecord> {
        let mut rec = record(runner, run_id, start, elapsed, outcomes, samples, i)?;
        rec.progress = progress.clone();
        Ok(rec)
    };

    if interrupted {
        i.status = TryStatus::Interrupted;
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit("finished", elapsed, json!({"status": "interrupted"}));
        journal::record_run(state, &rec, runner.warn)?;
        return Ok(Tried::Done(Box::new(Done {
            exit: Exit::Inconclusive,
            record: rec,
            notes: vec!["the working tree is left as the candidate left it".into()],
            line: "interrupted: the try was journaled; nothing was kept or restored".into(),
            interrupted: true,
        })));
    }

    let quoted = description
        .as_deref()
        .map(|d| format!(" \"{d}\""))
        .unwrap_or_default();
    if let Some(p) = reactive.pruned.clone() {
        i.status = TryStatus::Pruned;
        let mut rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        rec.status = Some(crate::kernel::journal::RunStatus::Pruned);
        let line = format!(
            "pruned: {}{quoted} \u{2192} set aside, {} restored",
            p.describe(),
            short(kept)
        );
        rec.pruned = Some(p);
        events.emit(
            "finished",
            elapsed,
            json!({"status": "pruned", "pruned": rec.pruned}),
        );
        let exit = discard(runner, repo, state, kept, rec, line, Exit::No);
        drop(reactive);
        return exit.map(|d| Tried::Done(Box::new(d)));
    }
    let Some(d) = decision else {
        i.status = TryStatus::Crash;
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit("finished", elapsed, json!({"status": "crash"}));
        let why = if last.effective_exit_code() != 0 {
            format!(
                "exit code {} [{} {}]",
                last.exit_code,
                last.failure_class,
                last.failure_class.describe()
            )
        } else {
            format!("no {} reported", objective.metric)
        };
        let line = format!(
            "crash: {why}{quoted} \u{2192} set aside, {} restored",
            short(kept)
        );
        return discard(runner, repo, state, kept, rec, line, Exit::Inconclusive)
            .map(|d| Tried::Done(Box::new(d)));
    };

    i.improvement = Some(d.improvement);
    i.noise = d.noise;
    i.blind = d.blind;
    i.confirmed = d.confirmed;
    i.record_from = d.record_from;
    // A keep's value is the mean of its confirmation runs (the record).
    let recorded = if d.verdict == Verdict::Supported && d.record_from < samples.len() {
        &samples[d.record_from..]
    } else {
        &samples[..]
    };
    let mean = summarize(recorded).map_or(f64::NAN, |s| s.mean);
    let segment_noise = ratchet::pooled_noise(&slots.groups()).map(|(sd, _)| sd);
    let dp = decimals(d.noise.or(segment_noise), mean);
    i.slot_best = slots.slot_best(best);
    // What the candidate was compared with: the best on its slot, or as
    // recorded.
    let against = i.slot_best.as_ref().map(|b| b.value).or(i.best);
    let vs = match (&i.slot_best, i.best) {
        (Some(b), _) => format!(" vs {} on slot {}", num(b.value, dp), b.slot),
        (None, Some(b)) => format!(" vs {}", num(b, dp)),
        (None, None) => String::new(),
    };
    let best_runs = slots.reference_runs(best);
    let noise = match (ratchet::standing(&d, samples.len(), best_runs), d.noise) {
        (ratchet::Standing::Blind, _) | (_, None) => ", blind to noise".to_string(),
        (ratchet::Standing::Better, Some(sd)) => format!(", beyond noise {}", num(sd, dp)),
        (ratchet::Standing::Worse, Some(sd)) => format!(", worse beyond noise {}", num(sd, dp)),
        (ratchet::Standing::WithinNoise, Some(sd)) => format!(", within noise {}", num(sd, dp)),
        (ratchet::Standing::BetterUnconfirmed, Some(sd)) => {
            format!(", better but unconfirmed, noise {}", num(sd, dp))
        }
    };
    let diff = against
        .map(|b| format!("{}{vs}", signed(mean - b, dp)))
        .unwrap_or_default();
    let noise = if diff.is_empty() {
        noise.trim_start_matches(", ").to_string()
    } else {
        noise
    };
    let change = format!(
        "{} {} ({diff}{noise}){quoted}",
        objective.metric,
        num(mean, dp)
    );

    if d.verdict == Verdict::Supported {
        let checks = run_checks(runner, &objective.checks)?;
        let failed = checks.iter().find(|c| c.exit_code != 0).cloned();
        i.checks = checks;
        if let Some(f) = failed {
            i.status = TryStatus::ChecksFailed;
            let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
            events.emit("finished", elapsed, json!({"status": "checks_failed"}));
            let line = format!(
                "checks_failed: {change}; `{}` exited {} \u{2192} set aside, {} restored",
                f.command,
                f.exit_code,
                short(kept)
            );
            return discard(runner, repo, state, kept, rec, line, Exit::No)
                .map(|d| Tried::Done(Box::new(d)));
        }
        i.status = TryStatus::Keep;
        let mut message = description
            .clone()
            .unwrap_or_else(|| format!("arx try {}", run_short(&run_id)));
        message.push_str(&format!(
            "\n\nArx-Run: {run_id}\nArx-Metric: {} {} ({} vs {})\n",
            objective.metric,
            fmt_number(mean),
            fmt_number(mean - i.best.unwrap_or(mean)),
            i.best.map_or("-".to_string(), fmt_number),
        ));
        if !d.confirmed {
            message.push_str("Arx-Unconfirmed: true\n");
        }
        // A keep is a compare-and-swap of the best: under the
        // repository's keep lock, the journal's best must still be the one
        // this candidate was measured against.
        let keep = super::keep(
            repo,
            state,
            lane,
            &segment.id,
            kept,
            &candidate,
            &message,
            held,
            runner.warn,
        )?;
        let (commit, keep_lock, notes) = match keep {
            super::Keep::Moved { best } => {
                drop(reactive);
                let carry = Carry::after(run_id, start, wall, outcomes, i.replayed_from, kept);
                return Ok(Tried::Moved { carry, best });
            }
            super::Keep::Kept {
                commit,
                lock,
                notes,
                warning,
            } => {
                if let Some(w) = warning {
                    runner.host.warn(&w);
                }
                (commit, lock, notes)
            }
        };
        i.commit = Some(commit.clone());
        let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
        events.emit(
            "finished",
            elapsed,
            json!({"status": "keep", "commit": commit}),
        );
        journal::record_run(state, &rec, runner.warn)?;
        drop(keep_lock);
        finding(runner, state, &rec);
        let unconfirmed = if d.confirmed { "" } else { " (unconfirmed)" };
        return Ok(Tried::Done(Box::new(Done {
            exit: Exit::Ok,
            record: rec,
            notes,
            line: format!("keep: {change} \u{2192} {}{unconfirmed}", short(&commit)),
            interrupted: false,
        })));
    }
    i.status = TryStatus::Discard;
    let rec = record(runner, run_id, start, elapsed, &outcomes, samples, i)?;
    events.emit("finished", elapsed, json!({"status": "discard"}));
    let exit = if d.verdict == Verdict::Refuted {
        Exit::No
    } else {
        Exit::Inconclusive
    };
    let word = if d.verdict == Verdict::Refuted {
        "discard"
    } else {
        "discard (inconclusive)"
    };
    let line = format!(
        "{word}: {change} \u{2192} set aside, {} restored",
        short(kept)
    );
    discard(runner, repo, state, kept, rec, line, exit).map(|d| Tried::Done(Box::new(d)))
}

/// Journal the try (a marker first, so a crash loses nothing), store the
/// candidate under `refs/arx/discarded/<run-id>`, restore the kept commit.
fn discard(
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    kept: &str,
    rec: RunRecord,
    line: String,
    exit: Exit,
) -> Result<Done> {
    let (rec, restored) = super::discard(repo, state, kept, rec, runner.warn)?;
    finding(runner, state, &rec);
    let mut notes = Vec::new();
    if !restored.restored.is_empty() {
        notes.push(format!("restored: {}", restored.restored.join(", ")));
    }
    if !restored.removed.is_empty() {
        notes.push(format!("removed: {}", restored.removed.join(", ")));
    }
    notes.push(format!(
        "to put it back: arx restore {}",
        run_short(&rec.run_id)
    ));
    Ok(Done {
        exit,
        record: rec,
        notes,
        line,
        interrupted: false,
    })
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
    runner: &Runner<'_>,
    repo: &RatchetRepo,
    state: &std::path::Path,
    lane: &LaneCtx,
    kept: &str,
    (mut best, mut c): (String, Carry),
    rule: Rule,
) -> Result<Replayed> {
    let refname = lane.before_sync_ref();
    // The commit the lane's work sits on.
    let mut on = kept.to_string();
    loop {
        runner.host.say(&format!(
            "another lane kept {} while this try ran: replaying the candidate onto it",
            short(&best)
        ));
        if let Replay::Conflicts(paths) = repo.replay_onto(&best, &refname)? {
            let done = stale(runner, repo, state, &on, &best, c, paths, lane, rule)?;
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
