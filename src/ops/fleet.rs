//! The fleet as a step of `arx try` and of `arx fleet`: its settings
//! resolved (`[fleet]`, this clone's git configuration, the environment,
//! the machine itself); a sync (fetch, every machine's records merged into
//! the journal by union, this machine's records and card published); the
//! take-up of the fleet's best before a try; and a keep pushed as a
//! compare-and-swap of the best together with the record that tells it.
//! The git work is `io::fleet`; the rules (the merged order, the card)
//! are `kernel::fleet`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::error::Hinted;
use crate::io::fleet::{chain_ref, Door, Push, Update};
use crate::io::Warn;
use crate::kernel::fleet::{self as rules, Card};
use crate::kernel::journal::RunRecord;

/// How many times a sync publishes again when its own chain moved under
/// it (another process of this machine synced meanwhile).
const PUBLISH_TRIES: usize = 5;

/// This working tree as a machine of the fleet.
pub struct Fleet {
    pub door: Door,
    pub machine: String,
    pub class: String,
    pub confirm_classes: Option<u32>,
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
            "write [fleet] with remote = \"origin\" (and optionally branch, machine, class, confirm_classes)",
        )
    })?;
    let branch = match settings
        .branch
        .clone()
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
    if settings.confirm_classes.is_some() {
        warn("[fleet] confirm_classes is not built yet: every keep is the fleet's best at once");
    }
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
        state: state.to_path_buf(),
        warn,
    }))
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
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        let (mut own, _) = self.own_records()?;
        if !own.iter().any(|r| r.run_id == rec.run_id) {
            own.push(rec.clone());
        }
        let card = self.card(None, None, now);
        let expected = self.door.fetched_chain(&self.machine);
        let tip = self.chain_commit(expected.as_deref(), &own, &card)?;
        let updates = [
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

    fn card(&self, trying: Option<&str>, pending: Option<&str>, now: &str) -> Card {
        Card {
            machine: self.machine.clone(),
            class: self.class.clone(),
            seen: now.to_string(),
            trying: trying.map(str::to_string),
            pending: pending.map(str::to_string),
        }
    }

    fn chain_commit(&self, parent: Option<&str>, own: &[RunRecord], card: &Card) -> Result<String> {
        let mut text = Vec::new();
        for r in own {
            serde_json::to_writer(&mut text, r)?;
            text.push(b'\n');
        }
        let card = serde_json::to_vec_pretty(card)?;
        self.door.build_chain(parent, &text, &card)
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
