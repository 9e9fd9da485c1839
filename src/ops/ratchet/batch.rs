//! Keeps batched, as a merge queue batches pull requests (`[fleet] batch
//! = N`). A keep that lost the fleet's race waits in the remote's queue
//! (its keep commit under `refs/arx/fleet/queue/runs/<run>`) instead of
//! being replayed and measured again alone. One of the machines waiting
//! takes the queue's lead (a lease, as a claim's), puts the other entries
//! that touch other files than its own and than what landed since their
//! best on the fleet's best, one commit each, with its own candidate on
//! top, and measures that combined tree as its candidate against the
//! best. Kept, the whole batch lands by one atomic push (the best's
//! branch, the entries and the lead deleted, each only from the value it
//! expects); each machine journals its own keep when it sees its commit
//! on the best. A batch that fails (or is cut off) puts every entry back
//! to its machine, which replays it alone onto the best and measures it
//! again, as without batching: no keep is lost, and none is kept that its
//! batch did not confirm.

use std::time::{Duration, Instant};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::batch_lease::{self as lead_lease, LeadLease};
use super::candidate::{Against, TryEnv};
use super::end::Done;
use super::replay::{work_ref, Carry, Tried};
use super::short;
use crate::error::Exit;
use crate::io::fleet::{Push, Update};
use crate::io::fleet_queue::{self as queue, Entry};
use crate::kernel::journal::RunRecord;
use crate::ops::fleet::Fleet;

/// The file that holds this working tree's keep waiting in the queue.
const QUEUED_FILE: &str = "fleet-queued.json";
/// How long the lead waits for the other keeps of the same race to join
/// before it forms the batch.
const GATHER: Duration = Duration::from_secs(2);
/// How often a keep waiting looks at the remote.
const POLL: Duration = Duration::from_millis(500);

/// A keep waiting in the queue: its run, its entry's commit (on `kept`,
/// the best it was measured against) and its record.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Queued {
    pub run_id: String,
    pub commit: String,
    pub kept: String,
    pub record: RunRecord,
    /// While its try leads a batch: the lead's commit, and the other keeps
    /// under the candidate in the working tree (tip, base, their files),
    /// taken off again if the try is cut off.
    #[serde(default)]
    pub leading: Option<(String, String, String, Vec<String>)>,
}

/// The batch this try leads: the best it is confirmed on, the lead's
/// commit, the other keeps put under the candidate (their entries), their
/// files, the tip they make, and this try's own entry.
#[derive(Debug, Clone)]
pub struct Lead {
    pub base: String,
    pub lease: LeadLease,
    pub members: Vec<Entry>,
    pub files: Vec<String>,
    pub tip: String,
    pub own: Entry,
}

/// After a measurement (`tried`): a batch this try led settled, then — in
/// a fleet that batches keeps — a keep that lost the race waiting in the
/// queue, leading a batch, or replayed alone; or the try done.
pub fn next(env: &TryEnv<'_, '_>, at: &mut Against, tried: Tried) -> Result<Batched> {
    match settle(env, at, tried)? {
        Settled::Tried(Tried::Done(done)) => Ok(Batched::Landed(done)),
        Settled::Tried(Tried::Moved { carry, best }) => after_lost(env, at, carry, best),
        Settled::Halved(carry) => Ok(Batched::Lead(carry)),
    }
}

/// A batch this try led, settled.
enum Settled {
    /// Over (landed, failed, or given up): what the try came to.
    Tried(Tried),
    /// Failed, and halved: this try leads the half with its own keep
    /// (the `Against` says so), to be measured.
    Halved(Carry),
}

/// What a keep that lost the race came to.
pub enum Batched {
    /// Replay it alone onto `best` and measure it again (no batching, or
    /// its batch failed).
    Alone(Carry, String),
    /// The try is done (another machine's batch landed its keep, which is
    /// journaled here, or it ended as without batching).
    Landed(Box<Done>),
    /// This try leads a batch: its candidate is the batch (the `Against`
    /// says so), to be measured.
    Lead(Carry),
}

fn fleet<'t>(env: &TryEnv<'t, '_>) -> Option<&'t Fleet> {
    env.fleet.filter(|f| f.batch.is_some())
}

/// A keep that lost the race (`commit`, on the best it was measured
/// against) joins the queue when its runs `runs` win at
/// [`crate::kernel::fleet::QUEUE_CONFIDENCE`] too (or the objective's, if stricter); the remote refusing or not answering leaves
/// it to be replayed alone.
pub(super) fn enqueue(
    env: &TryEnv<'_, '_>,
    at: &Against,
    (commit, runs): (Option<String>, &super::measure::Runs<'_>),
    rec: &RunRecord,
) -> Result<()> {
    let (Some(f), Some(commit)) = (fleet(env), commit) else {
        return Ok(());
    };
    let (kept, commit) = (at.kept.as_str(), commit.as_str());
    let confidence = crate::kernel::fleet::queue_confidence(env.runner.objective.confidence);
    if at.batch.is_some() || !super::measure::keeps_at(env, at, runs, confidence) {
        return Ok(());
    }
    // Its commit must be its change alone on the best it was measured
    // against (no commits of the branch's own under it).
    if f.door.parent_of(commit)?.as_deref() != Some(kept) {
        return Ok(());
    }
    if queue::swap(&f.door, &queue::entry_ref(&rec.run_id), commit, None)? == Push::Landed {
        write_queued(
            &here(env),
            &Queued {
                run_id: rec.run_id.clone(),
                commit: commit.to_string(),
                kept: kept.to_string(),
                record: rec.clone(),
                leading: None,
            },
        )?;
        crate::io::failpoint::hit(crate::io::failpoint::BATCH_AFTER_ENQUEUE);
    }
    Ok(())
}

/// A keep that lost the race (handed back with `best`, the fleet's new
/// best): waiting in the queue until a batch lands it, or leading one,
/// or — not queued, or its batch failed — replayed alone.
fn after_lost(
    env: &TryEnv<'_, '_>,
    at: &mut Against,
    carry: Carry,
    best: String,
) -> Result<Batched> {
    let (Some(f), Some(q)) = (fleet(env), read_queued(&here(env))?) else {
        return Ok(Batched::Alone(carry, best));
    };
    if q.run_id != carry.run_id {
        return Ok(Batched::Alone(carry, best));
    }
    env.runner.host.say(&format!(
        "another machine kept {} first: the keep waits in the fleet's merge queue",
        short(&best)
    ));
    let clock = crate::io::clock::Ticking::start(env.runner.now.as_deref())?;
    let mut deadline = Instant::now() + Duration::from_secs(f.lease_secs);
    loop {
        let now = clock.now()?;
        let reached = f.door.fetch()?.is_ok();
        if reached {
            let now_best = f.best().unwrap_or_else(|| best.clone());
            if let Some(c) = queue::landed(&f.door, &now_best, &q.kept, &q.run_id)? {
                return landed(env, f, &q, (&c, &now_best)).map(|d| Batched::Landed(Box::new(d)));
            }
            let waiting = queue::entries(&f.door)?;
            let Some(own) = waiting.iter().find(|e| e.run == q.run_id).cloned() else {
                env.runner.host.say(
                    "the keep's batch did not land: it is replayed alone onto the best and measured again",
                );
                return alone(env, f, carry, now_best);
            };
            match lead_lease::take(f, &q.run_id, &now)? {
                Some(commit) => {
                    let lease = LeadLease::hold(f, &q.run_id, commit, clock);
                    match lead(env, f, (&q, own), lease.clone(), at)? {
                        Some(()) => return Ok(Batched::Lead(carry)),
                        None => {
                            let _ = queue::swap(&f.door, queue::LEAD, "", Some(lease.settled()));
                            if withdraw(f, &q)? {
                                return alone(env, f, carry, now_best);
                            }
                        }
                    }
                }
                // Another machine leads, its lease renewed while it
                // confirms: this keep waits a lease from now.
                None => deadline = Instant::now() + Duration::from_secs(f.lease_secs),
            }
        }
        // Waited a lease: alone. Its entry, if the remote did not answer,
        // may still land with a batch later; its own keep then finds its
        // change on the best (or the batch finds it stale): never twice.
        if Instant::now() > deadline && (!reached || withdraw(f, &q)?) {
            let now_best = f.best().unwrap_or_else(|| best.clone());
            return alone(env, f, carry, now_best);
        }
        std::thread::sleep(POLL);
    }
}

/// The keep out of the queue, to be replayed alone onto the fleet's best
/// (synced first: the journal's best is the fleet's).
fn alone(env: &TryEnv<'_, '_>, f: &Fleet, carry: Carry, best: String) -> Result<Batched> {
    clear_queued(&here(env))?;
    let now = crate::io::clock::now(None)?;
    let synced = f.sync(None, None, &now)?;
    let best = synced
        .best
        .filter(|_| synced.unreachable.is_none())
        .unwrap_or(best);
    Ok(Batched::Alone(carry, best))
}

/// Take this keep's entry out of the queue (only as it put it there):
/// false when it is no longer there as it was (a batch took it).
fn withdraw(f: &Fleet, q: &Queued) -> Result<bool> {
    Ok(queue::swap(&f.door, &queue::entry_ref(&q.run_id), "", Some(&q.commit))? == Push::Landed)
}

/// Form the batch this try leads: the other keeps waiting put on the
/// fleet's best, this try's candidate replayed on top, `at` the batch
/// against the best. `None` when there is nothing to batch it with (or
/// its own change conflicts with what landed: it is replayed alone).
fn lead(
    env: &TryEnv<'_, '_>,
    f: &Fleet,
    (q, own): (&Queued, Entry),
    lease: LeadLease,
    at: &mut Against,
) -> Result<Option<()>> {
    // The other keeps of the same race join meanwhile.
    std::thread::sleep(GATHER);
    let now = crate::io::clock::now(None)?;
    if f.sync(None, None, &now)?.unreachable.is_some() {
        return Ok(None);
    }
    let Some(base) = f.best() else {
        return Ok(None);
    };
    let mut files = queue::changed(&f.door, &q.commit)?;
    if overlaps(&files, &queue::changed_between(&f.door, &q.kept, &base)?) {
        return Ok(None);
    }
    let (members, theirs) = gather(f, (&base, &own), &mut files)?;
    if members.is_empty() {
        return Ok(None);
    }
    form(env, f, (q, own), lease, (base, members, theirs), at)
}

/// The batch this try leads formed on `base`, the fleet's best: the
/// `members` (which change `theirs`) stacked on it one commit each, this
/// try's candidate replayed on top, `at` the batch against the best.
/// `None` when it cannot be (its journal's best is not `base`, or a
/// conflict).
pub(super) fn form(
    env: &TryEnv<'_, '_>,
    f: &Fleet,
    (q, own): (&Queued, Entry),
    lease: LeadLease,
    (base, members, theirs): (String, Vec<Entry>, Vec<String>),
    at: &mut Against,
) -> Result<Option<()>> {
    let trailer = format!("{} {base} (run {})", queue::BATCH_TRAILER, q.run_id);
    let commits: Vec<String> = members.iter().map(|e| e.commit.clone()).collect();
    let Ok(tip) = queue::stack(&f.door, &base, &commits, &trailer)? else {
        return Ok(None);
    };
    // The journal's best must be the fleet's: the batch is measured
    // against it.
    let records = crate::io::state::journal(env.state, env.runner.warn).read()?;
    let segment = crate::kernel::segment::current(&records, &env.runner.objective.segment_id());
    let Some(segment) = segment.filter(|s| s.kept.as_ref().is_some_and(|k| k.commit == base))
    else {
        return Ok(None);
    };
    let mut marked = q.clone();
    marked.leading = Some((
        lease.taken().to_string(),
        tip.clone(),
        base.clone(),
        theirs.clone(),
    ));
    write_queued(&here(env), &marked)?;
    let replayed =
        super::takeup::replay(env.repo, env.state, (&tip, &work_ref(env.lane)), false)?.0;
    if let crate::io::git::ratchet::Replay::Conflicts(_) = replayed {
        return Ok(None);
    }
    env.runner.host.say(&format!(
        "leading a batch of {} keeps of the fleet's merge queue: confirmed together on {}",
        members.len() + 1,
        short(&base)
    ));
    at.candidate = env.repo.candidate(&base)?;
    at.protected = env
        .repo
        .protected_paths(&at.candidate, &env.runner.objective.protect)?;
    at.segment = segment;
    at.kept = base.clone();
    at.batch = Some(Lead {
        base,
        lease,
        members,
        files: theirs,
        tip,
        own,
    });
    Ok(Some(()))
}

/// The entries that go with this try's (its files `files`, extended with
/// theirs): none touching a file another member touches, none touching a
/// file that landed since its own best (that one is stale: taken out, its
/// machine replays it alone), at most `[fleet] batch` in all. The members
/// and the files they change.
fn gather(
    f: &Fleet,
    (base, own): (&str, &Entry),
    files: &mut Vec<String>,
) -> Result<(Vec<Entry>, Vec<String>)> {
    let most = f.batch.unwrap_or(0) as usize;
    let (mut members, mut theirs) = (Vec::new(), Vec::new());
    for e in queue::entries(&f.door)? {
        if e.run == own.run || members.len() + 1 >= most {
            continue;
        }
        let Some(parent) = f.door.parent_of(&e.commit)? else {
            continue;
        };
        if !queue::holds(&f.door, base, &parent) {
            continue;
        }
        let changed = queue::changed(&f.door, &e.commit)?;
        let landed = queue::landed(&f.door, base, &parent, &e.run)?.is_some();
        if landed || overlaps(&changed, &queue::changed_between(&f.door, &parent, base)?) {
            let _ = queue::swap(&f.door, &queue::entry_ref(&e.run), "", Some(&e.commit));
            continue;
        }
        if overlaps(&changed, files) {
            continue;
        }
        files.extend(changed.iter().cloned());
        theirs.extend(changed);
        members.push(e);
    }
    Ok((members, theirs))
}

fn overlaps(a: &[String], b: &[String]) -> bool {
    a.iter().any(|p| b.contains(p))
}

/// A batch's landing push deletes its entries and its lead, each only
/// from the value this try saw: a keep taken out of the queue meanwhile,
/// or a lead taken over, makes the whole push fail.
pub fn landing(at: &Against) -> Vec<Update<'_>> {
    let Some(lead) = &at.batch else {
        return Vec::new();
    };
    let mut out: Vec<Update<'_>> = lead
        .members
        .iter()
        .chain(std::iter::once(&lead.own))
        .map(|e| Update {
            commit: "",
            refname: queue::entry_ref(&e.run),
            expected: Some(e.commit.as_str()),
        })
        .collect();
    out.push(Update {
        commit: "",
        refname: queue::LEAD.to_string(),
        expected: Some(lead.lease.settled()),
    });
    out
}

/// The keep commit's message in a batch: the trailer that says so.
pub fn message(at: &Against, message: &str) -> String {
    match &at.batch {
        Some(lead) => format!(
            "{}\n{} {} ({} keeps)\n",
            message.trim_end(),
            queue::BATCH_TRAILER,
            lead.base,
            lead.members.len() + 1
        ),
        None => message.to_string(),
    }
}

/// A batch's keep record: its `kept` is its parent on the best (the last
/// of the other keeps), the best the batch was confirmed against among
/// the bests it was measured against.
pub fn record(at: &Against, rec: &mut RunRecord) {
    let (Some(lead), Some(i)) = (&at.batch, rec.ratchet.as_mut()) else {
        return;
    };
    i.replayed_from.push(lead.base.clone());
    i.kept = lead.tip.clone();
}

/// The try that led a batch ended (`tried`): landed, the batch is over;
/// failed with three keeps or more, it is halved (`batch_bisect`);
/// failed or cut off, every entry goes back to its machine (each replays
/// it alone) and this try's candidate is replayed alone; lost to another
/// machine's keep, the batch is given up and the entries wait for the
/// next one.
fn settle(env: &TryEnv<'_, '_>, at: &mut Against, mut tried: Tried) -> Result<Settled> {
    let (Some(f), Some(lead)) = (fleet(env), at.batch.take()) else {
        return Ok(Settled::Tried(tried));
    };
    let kept = matches!(&tried, Tried::Done(d) if d.record.ratchet.as_ref().is_some_and(|i| i.status == crate::kernel::ratchet_record::TryStatus::Keep));
    if kept {
        clear_queued(&here(env))?;
        return Ok(Settled::Tried(tried));
    }
    let failed = match &tried {
        Tried::Moved { best, .. } => *best == lead.base,
        Tried::Done(_) => true,
    };
    if let Tried::Moved { carry, best } = tried {
        if failed && super::batch_bisect::halve(env, f, at, &lead)? {
            return Ok(Settled::Halved(carry));
        }
        tried = Tried::Moved { carry, best };
    }
    if failed {
        for e in lead.members.iter().chain(std::iter::once(&lead.own)) {
            let _ = queue::swap(&f.door, &queue::entry_ref(&e.run), "", Some(&e.commit));
        }
        clear_queued(&here(env))?;
        if matches!(tried, Tried::Moved { .. }) {
            env.runner.host.warn(&format!(
                "the batch of {} keeps failed on {}: each is replayed alone onto the best and measured again",
                lead.members.len() + 1,
                short(&lead.base)
            ));
        }
    }
    let _ = queue::swap(&f.door, queue::LEAD, "", Some(lead.lease.settled()));
    if let Tried::Moved { .. } = tried {
        env.repo.unstack(&lead.tip, &lead.base, &lead.files)?;
    }
    if let Some(mut q) = read_queued(&here(env))? {
        q.leading = None;
        write_queued(&here(env), &q)?;
    }
    Ok(Settled::Tried(tried))
}

/// This keep landed with another machine's batch as `commit`: journaled
/// here (its `kept` the commit's parent on the best), and the working
/// tree taken up onto the best, which holds its change.
fn landed(
    env: &TryEnv<'_, '_>,
    f: &Fleet,
    q: &Queued,
    (commit, best): (&str, &str),
) -> Result<Done> {
    let (rec, base) = landed_record(f, q, commit)?;
    crate::ops::journal::record_run(env.state, &rec, env.runner.warn)?;
    clear_queued(&here(env))?;
    let _ = super::takeup::replay(env.repo, env.state, (best, &work_ref(env.lane)), false)?;
    Ok(Done {
        exit: Exit::Ok,
        record: rec,
        notes: Vec::new(),
        line: format!(
            "keep: landed with a batch of the fleet's merge queue as {}{}",
            short(commit),
            base.map(|b| format!(", confirmed together on {}", short(&b)))
                .unwrap_or_default()
        ),
        interrupted: false,
        inconclusive: false,
    })
}

/// The record of a keep that landed with a batch as `commit`: its `kept`
/// the commit's parent on the best, the best the batch was confirmed on
/// (returned too) among the bests it was measured against.
fn landed_record(f: &Fleet, q: &Queued, commit: &str) -> Result<(RunRecord, Option<String>)> {
    let parent = f.door.parent_of(commit)?.unwrap_or_else(|| q.kept.clone());
    let text = queue::message(&f.door, commit)?;
    let base = text
        .lines()
        .find_map(|l| l.strip_prefix(queue::BATCH_TRAILER))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string);
    let mut rec = q.record.clone();
    if let Some(i) = rec.ratchet.as_mut() {
        i.replayed_from.push(i.kept.clone());
        if let Some(b) = base.as_ref().filter(|b| **b != parent) {
            i.replayed_from.push(b.clone());
        }
        i.kept = parent;
        i.commit = Some(commit.to_string());
    }
    Ok((rec, base))
}

/// Before a try: a keep of this working tree that waited in the queue
/// when its try was cut off is settled with the remote. Landed with a
/// batch, it is journaled; still waiting, it is taken out of the queue
/// (its candidate is still in the working tree, to be tried again); a
/// batch it led is taken off the working tree and its lead released.
/// With the remote away it waits on. What to tell.
pub fn settle_queued(
    fleet: Option<&Fleet>,
    (repo, state): (&crate::io::git::ratchet::RatchetRepo, &std::path::Path),
    warn: crate::io::Warn,
) -> Result<Vec<String>> {
    let file = queued_file(state, repo.workdir());
    let (Some(f), Some(q)) = (fleet, read_queued(&file)?) else {
        return Ok(Vec::new());
    };
    let run = super::run_short(&q.run_id).to_string();
    // Journaled already (a keep it led, finished from its intent).
    let journal = crate::io::state::journal(state, warn).read()?;
    if journal.iter().any(|r| r.run_id == q.run_id) {
        clear_queued(&file)?;
        return Ok(Vec::new());
    }
    if let Err(why) = f.door.fetch()? {
        return Ok(vec![format!(
            "the fleet's remote did not answer ({why}): the keep of run {run} waits in its merge queue"
        )]);
    }
    if let Some((_, tip, base, files)) = &q.leading {
        repo.unstack(tip, base, files)?;
        let _ = lead_lease::release_own(f, &q.run_id);
    }
    let best = f.best().unwrap_or_else(|| q.kept.clone());
    if let Some(c) = queue::landed(&f.door, &best, &q.kept, &q.run_id)? {
        let (rec, _) = landed_record(f, &q, &c)?;
        crate::ops::journal::record_run(state, &rec, warn)?;
        clear_queued(&file)?;
        return Ok(vec![format!(
            "the keep of run {run}, cut off while it waited in the fleet's merge queue, landed with a batch as {}",
            short(&c)
        )]);
    }
    let waiting = queue::entries(&f.door)?.iter().any(|e| e.run == q.run_id);
    if waiting && !withdraw(f, &q)? {
        // A batch took it meanwhile: settled by the next try.
        return Ok(Vec::new());
    }
    clear_queued(&file)?;
    Ok(vec![format!(
        "the keep of run {run}, cut off while it waited in the fleet's merge queue, was taken out of it: \
         its candidate is still in the working tree, to be tried again"
    )])
}

/// The file that holds the keep of the working tree at `workdir`
/// waiting in the queue: each lane of a machine has its own (they share
/// one state directory).
fn queued_file(state: &std::path::Path, workdir: &std::path::Path) -> std::path::PathBuf {
    if crate::io::config::main_root(workdir).is_none() {
        return state.join(QUEUED_FILE);
    }
    let key = crate::io::ratchet::tree_key(workdir);
    state.join(format!("fleet-queued-{key}.json"))
}

/// This try's working tree's [`queued_file`].
pub(super) fn here(env: &TryEnv<'_, '_>) -> std::path::PathBuf {
    queued_file(env.state, env.repo.workdir())
}

fn write_queued(file: &std::path::Path, q: &Queued) -> Result<()> {
    crate::io::marker::write(file, q)
}

pub(super) fn read_queued(file: &std::path::Path) -> Result<Option<Queued>> {
    crate::io::marker::read(file)
}

fn clear_queued(file: &std::path::Path) -> Result<()> {
    crate::io::marker::clear(file)
}
