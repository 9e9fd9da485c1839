//! The fleet as a step of `arx try` and of `arx fleet`: its settings
//! resolved (`[fleet]`, this clone's git configuration, the environment,
//! the machine itself); a sync (fetch, every machine's records merged into
//! the journal by union and every machine's lines of ideas into the
//! backlog by union, this machine's records, card and backlog published); the
//! take-up of the fleet's best before a try; and a keep pushed as a
//! compare-and-swap of the best together with the record that tells it.
//! The git work is `io::fleet`; the rules (the merged order, the card)
//! are `kernel::fleet`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::error::Hinted;
use crate::io::fleet::{chain_ref, Door, Push, Update};
use crate::io::state::Appended;
use crate::io::Warn;
use crate::kernel::fleet::{self as rules, Card};
use crate::kernel::idea::IdeaLine;
use crate::kernel::journal::RunRecord;

mod claims;
pub mod lease;
pub use claims::{Claimed, Holding};

/// How many times a sync publishes again when its own chain moved under
/// it (another process of this machine synced meanwhile).
const PUBLISH_TRIES: usize = 5;

/// This working tree as a machine of the fleet.
pub struct Fleet {
    pub door: Door,
    pub machine: String,
    pub class: String,
    pub confirm_classes: Option<u32>,
    /// How long a claim holds unless renewed, in seconds.
    pub lease_secs: u64,
    /// The lane of this machine the working tree is (none: its main
    /// working tree): its claims are its own.
    pub lane: Option<String>,
    /// Keeps that lost the race confirmed together, this many at most
    /// (`[fleet] batch`; `None`: one at a time).
    pub batch: Option<u32>,
    state: PathBuf,
    warn: Warn,
}

/// What a sync came to.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Synced {
    /// Why the remote did not answer (`None`: it did).
    pub unreachable: Option<String>,
    /// Records of other machines new to this journal.
    pub merged_in: usize,
    /// This machine's records the remote now holds.
    pub published: usize,
    /// Lines of other machines' backlogs of ideas new to this one.
    pub ideas_merged_in: usize,
    /// The fleet's best (the remote's branch).
    pub best: Option<String>,
}

/// The fleet this working tree belongs to, when `[fleet]` names one.
/// `ARX_FLEET_MACHINE` and `ARX_FLEET_CLASS`, then this clone's
/// `git config arx.machine` and `arx.class`, then `[fleet]`'s, then the
/// host name and the GPU (or CPU) model.
pub fn resolve(
    config: &crate::io::config::Config,
    root: &Path,
    state: &Path,
    warn: Warn,
) -> Result<Option<Fleet>> {
    let Some(table) = &config.fleet else {
        return Ok(None);
    };
    let settings = rules::settings(table).map_err(|e| {
        Hinted::error(
            e,
            "fix [fleet] in arx.toml: remote = \"origin\" is needed; branch, machine, class, \
             lease (10s to 24h), confirm_classes and batch (2 to 16) are optional",
        )
    })?;
    let lane = crate::io::fleet::current_branch(root).and_then(|b| {
        b.strip_prefix(crate::io::git::lane::BRANCH_PREFIX)
            .map(str::to_string)
    });
    let branch = match settings
        .branch
        .clone()
        .or_else(|| lane.as_deref().and_then(|l| lane_best_branch(root, l)))
        .or_else(|| crate::io::fleet::current_branch(root))
    {
        Some(b) => b,
        None => {
            return Err(Hinted::error(
                "[fleet] has no branch and HEAD is on none",
                "check out the branch the fleet shares, or set [fleet] branch = \"NAME\"",
            ))
        }
    };
    let door = Door::open(root, &settings.remote, &branch)?;
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let machine = env("ARX_FLEET_MACHINE")
        .or_else(|| door.local_setting("arx.machine"))
        .or(settings.machine)
        .unwrap_or_else(|| rules::machine_from_host(&crate::io::fleet::host_name()));
    rules::check_machine(&machine).map_err(|e| {
        Hinted::error(
            e,
            "set this clone's name: git config arx.machine NAME (or ARX_FLEET_MACHINE)",
        )
    })?;
    let class = env("ARX_FLEET_CLASS")
        .or_else(|| door.local_setting("arx.class"))
        .or(settings.class)
        .map(|c| rules::class_name(&c))
        .unwrap_or_else(|| {
            let (gpus, cpu) = crate::io::fleet::hardware();
            rules::class_of(gpus.as_deref(), cpu.as_deref())
        });
    Ok(Some(Fleet {
        door,
        machine,
        class,
        confirm_classes: settings.confirm_classes,
        lease_secs: settings.lease_secs,
        lane,
        batch: settings.batch,
        state: state.to_path_buf(),
        warn,
    }))
}

/// The branch the keeps of lane `lane` advance: in a fleet, the branch
/// the machine shares with the others (its main working tree's).
fn lane_best_branch(root: &Path, lane: &str) -> Option<String> {
    let lanes = crate::io::git::lane::Lanes::open(root).ok()?;
    lanes.best_branch(lane).or_else(|| lanes.main_branch())
}

impl Fleet {
    /// Sync now: fetch; merge the other machines' records into the journal;
    /// publish this machine's records and its card (`trying`: what its
    /// try tests, `pending`: a keep not pushed yet, its commit and run id,
    /// whose record stays here until its best is pushed). With the remote
    /// unreachable nothing changes and the answer says why.
    pub fn sync(
        &self,
        trying: Option<&str>,
        pending: Option<(&str, &str)>,
        now: &str,
    ) -> Result<Synced> {
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        let mut synced = Synced::default();
        for _ in 0..PUBLISH_TRIES {
            if let Err(why) = self.door.fetch()? {
                synced.unreachable = Some(why);
                return Ok(synced);
            }
            synced.merged_in += self.merge_in()?;
            synced.ideas_merged_in += self.merge_ideas_in()?;
            let (mut own, _) = self.own_records()?;
            own.retain(|r| pending.is_none_or(|(_, run)| r.run_id != run));
            let card = self.card(trying, pending.map(|(c, _)| c), now);
            let expected = self.door.fetched_chain(&self.machine);
            let tip = self.chain_commit(expected.as_deref(), &own, &card)?;
            let chain = Update {
                commit: &tip,
                refname: chain_ref(&self.machine),
                expected: expected.as_deref(),
            };
            match self.door.push(std::slice::from_ref(&chain))? {
                Push::Landed => {
                    self.door.set_ref(&chain_ref(&self.machine), &tip)?;
                    self.door
                        .landed(&self.machine, std::slice::from_ref(&chain))?;
                    synced.published = own.len();
                    synced.best = self.door.best();
                    return Ok(synced);
                }
                Push::Lost(_) => continue,
                Push::Unreachable(why) => {
                    synced.unreachable = Some(why);
                    return Ok(synced);
                }
            }
        }
        Err(Hinted::error(
            "this machine's records moved on the remote at every try of the sync",
            "is another clone using the same machine name? give each its own: git config arx.machine NAME",
        ))
    }

    /// Push a keep: the best's branch from `kept` to `commit` and this
    /// machine's chain with `rec` (the keep's record) added, at once, each
    /// only from the value it was last fetched at.
    pub fn push_keep(&self, kept: &str, commit: &str, rec: &RunRecord, now: &str) -> Result<Push> {
        self.push_keep_with(kept, commit, rec, now, &[])
    }

    /// [`Fleet::push_keep`] with `also` in the same atomic push (a batch's
    /// queue entries deleted as it lands).
    pub fn push_keep_with(
        &self,
        kept: &str,
        commit: &str,
        rec: &RunRecord,
        now: &str,
        also: &[Update<'_>],
    ) -> Result<Push> {
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        let (mut own, _) = self.own_records()?;
        // The record as this keep tells it (a pending keep made the best
        // is journaled here already, marked pending).
        match own.iter_mut().find(|r| r.run_id == rec.run_id) {
            Some(r) => *r = rec.clone(),
            None => own.push(rec.clone()),
        }
        let card = self.card(None, None, now);
        let expected = self.door.fetched_chain(&self.machine);
        let tip = self.chain_commit(expected.as_deref(), &own, &card)?;
        let mut updates = vec![
            Update {
                commit,
                refname: format!("refs/heads/{}", self.door.branch),
                expected: Some(kept),
            },
            Update {
                commit: &tip,
                refname: chain_ref(&self.machine),
                expected: expected.as_deref(),
            },
        ];
        updates.extend(also.iter().map(|u| Update {
            commit: u.commit,
            refname: u.refname.clone(),
            expected: u.expected,
        }));
        let pushed = self.door.push(&updates)?;
        if pushed == Push::Landed {
            self.door.set_ref(&chain_ref(&self.machine), &tip)?;
            self.door.landed(&self.machine, &updates)?;
        }
        Ok(pushed)
    }

    /// The fleet's best as last fetched.
    pub fn best(&self) -> Option<String> {
        self.door.best()
    }

    /// Every other machine's card and its records' run ids, as last
    /// fetched.
    pub fn others(&self) -> Result<Vec<(Card, Vec<RunRecord>)>> {
        let mut out = Vec::new();
        for (machine, tip) in self.door.chains()? {
            let (records, card) = self.door.read_chain(&tip)?;
            let card = card
                .and_then(|c| serde_json::from_slice::<Card>(&c).ok())
                .unwrap_or(Card {
                    machine: machine.clone(),
                    class: "unknown".into(),
                    seen: String::new(),
                    trying: None,
                    pending: None,
                    tries: Vec::new(),
                });
            let records = parse_records(&records);
            out.push((card, records));
        }
        Ok(out)
    }

    /// The other machines' records merged into the journal; how many were
    /// new to it.
    fn merge_in(&self) -> Result<usize> {
        let theirs: Vec<RunRecord> = self
            .others()?
            .into_iter()
            .filter(|(c, _)| c.machine != self.machine)
            .flat_map(|(_, r)| r)
            .collect();
        let theirs = self.arrived(theirs)?;
        let journal = crate::io::state::journal(&self.state, self.warn);
        let mut new = 0;
        let rewritten = journal.rewrite(|loaded| {
            let have: HashSet<&str> = loaded.records.iter().map(|r| r.run_id.as_str()).collect();
            new = theirs
                .iter()
                .filter(|r| !have.contains(r.run_id.as_str()))
                .count();
            // A machine's chain holds its records as they are now: its copy
            // is the one kept (the first of a run id).
            let all: Vec<RunRecord> = theirs
                .into_iter()
                .chain(loaded.records.iter().cloned())
                .collect();
            let merged = rules::merged(all);
            (merged != loaded.records || loaded.torn_tail).then_some(merged)
        })?;
        if rewritten {
            if let Err(e) = crate::io::history::load(&self.state, &journal.path, true, self.warn) {
                (self.warn)(&format!("cannot refresh the precision state: {e:#}"));
            }
        }
        Ok(new)
    }

    /// Of other machines' records, those whose keep's commit is here. A
    /// keep that moved the fleet's best reached the remote in one atomic
    /// push with its record, but a fetch can read the remote's refs
    /// between the two (git moves them one after the other): the keep's
    /// record comes without the best that holds its commit, and a lane
    /// would replay onto a commit that is not in this repository. Such a
    /// record waits for the next sync, which brings the best. (A keep
    /// pending for other classes moved no best: its record comes at once.)
    fn arrived(&self, theirs: Vec<RunRecord>) -> Result<Vec<RunRecord>> {
        let landed = |r: &RunRecord| {
            r.ratchet
                .as_ref()
                .filter(|i| !i.fleet_pending)
                .and_then(|_| rules::keep_commit(r))
        };
        let commits: Vec<String> = theirs.iter().filter_map(landed).collect();
        let missing: HashSet<String> = self.door.missing(&commits)?.into_iter().collect();
        if missing.is_empty() {
            return Ok(theirs);
        }
        Ok(theirs
            .into_iter()
            .filter(|r| landed(r).is_none_or(|c| !missing.contains(&c)))
            .collect())
    }

    /// The lines of the other machines' backlogs of ideas this one lacks,
    /// appended to it (union: a line equal to one it has is not added
    /// again); how many were.
    fn merge_ideas_in(&self) -> Result<usize> {
        let mut theirs: Vec<IdeaLine> = Vec::new();
        for (machine, tip) in self.door.chains()? {
            if machine == self.machine {
                continue;
            }
            let text = self.door.read_chain_ideas(&tip)?;
            for line in String::from_utf8_lossy(&text).lines() {
                match serde_json::from_str::<IdeaLine>(line) {
                    Ok(l) if !theirs.contains(&l) => theirs.push(l),
                    Ok(_) => {}
                    Err(_) if line.trim().is_empty() => {}
                    Err(e) => (self.warn)(&format!(
                        "machine {machine}'s backlog has an unreadable idea line, skipped: {e}"
                    )),
                }
            }
        }
        let have = crate::io::ideas::read(&self.state, self.warn)?;
        theirs.retain(|l| !have.contains(l));
        let registry = crate::io::ideas::registry(&self.state, self.warn);
        let mut new = 0;
        for line in theirs {
            // Checked again under the append's lock: a line added here
            // meanwhile is not doubled.
            let added = registry
                .append_unless(line.clone(), |lines| {
                    lines.iter().find(|l| **l == line).cloned()
                })
                .context("cannot write the backlog of ideas")?;
            new += usize::from(matches!(added, Appended::Added(_)));
        }
        Ok(new)
    }

    /// This machine's records: the journal's records no other machine's
    /// chain holds (and the run ids of the others').
    fn own_records(&self) -> Result<(Vec<RunRecord>, HashSet<String>)> {
        let others: HashSet<String> = self
            .others()?
            .into_iter()
            .filter(|(c, _)| c.machine != self.machine)
            .flat_map(|(_, r)| r.into_iter().map(|r| r.run_id))
            .collect();
        let journal = crate::io::state::journal(&self.state, self.warn).read()?;
        let own = journal
            .into_iter()
            .filter(|r| !others.contains(&r.run_id))
            .collect();
        Ok((own, others))
    }

    /// This machine's card: what this working tree tries now, beside
    /// what the machine's other working trees (its lanes) try, as the
    /// remote's card has it.
    fn card(&self, trying: Option<&str>, pending: Option<&str>, now: &str) -> Card {
        let before = (self.door.fetched_chain(&self.machine))
            .and_then(|tip| self.door.read_chain(&tip).ok())
            .and_then(|(_, card)| serde_json::from_slice::<Card>(&card?).ok())
            .map(|c| c.tries)
            .unwrap_or_default();
        let tries = rules::tries_now(&before, self.lane.as_deref(), trying, now);
        Card {
            machine: self.machine.clone(),
            class: self.class.clone(),
            seen: now.to_string(),
            // This working tree's try, else another's: busy or idle.
            trying: trying
                .map(str::to_string)
                .or_else(|| tries.first().map(|t| t.trying.clone())),
            pending: pending.map(str::to_string),
            tries,
        }
    }

    fn chain_commit(&self, parent: Option<&str>, own: &[RunRecord], card: &Card) -> Result<String> {
        let mut text = Vec::new();
        for r in own {
            serde_json::to_writer(&mut text, r)?;
            text.push(b'\n');
        }
        let card = serde_json::to_vec_pretty(card)?;
        // The whole backlog as this machine has it (the union of the
        // fleet's as last synced): every machine can then merge it by union.
        let mut ideas = Vec::new();
        for line in crate::io::ideas::read(&self.state, self.warn)? {
            serde_json::to_writer(&mut ideas, &line)?;
            ideas.push(b'\n');
        }
        self.door.build_chain(parent, &text, &card, &ideas)
    }
}

impl Fleet {
    /// Fetch, and merge the other machines' records and ideas in, without
    /// publishing this machine's (for `arx next`, which ranks by them):
    /// `Err` with git's words when the remote does not answer.
    pub fn take_in(&self) -> Result<std::result::Result<(), String>> {
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        if let Err(why) = self.door.fetch()? {
            return Ok(Err(why));
        }
        self.merge_in()?;
        self.merge_ideas_in()?;
        Ok(Ok(()))
    }

    /// Fetch the remote now (one fetch at a time in a machine): `Err` with
    /// git's words when it does not answer.
    pub fn fetch(&self) -> Result<std::result::Result<(), String>> {
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        self.door.fetch()
    }
}
/// A chain's records file read: its readable lines.
fn parse_records(bytes: &[u8]) -> Vec<RunRecord> {
    bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(|l| serde_json::from_slice(l).ok())
        .collect()
}
