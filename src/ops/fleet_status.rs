//! `arx fleet status`'s step: the fleet as this machine sees it — the
//! machines' cards, the fleet's best and each class's, the keeps waiting
//! for other classes and the ideas claimed — from the remote as last
//! fetched, or fetched now. The git work is `io::fleet` through
//! [`Fleet`]; the rules are `kernel::fleet`, `kernel::fleet_classes` and
//! `kernel::fleet_confirm`.

use anyhow::Result;
use serde::Serialize;

use super::fleet::Fleet;
use crate::kernel::fleet::{self as rules, Card, Lease};
use crate::kernel::fleet_classes::{class_bests, ClassBest};
use crate::kernel::fleet_confirm::{self, Standing};
use crate::kernel::journal::RunRecord;

/// The fleet as this machine sees it.
#[derive(Serialize)]
pub struct Status {
    pub remote: String,
    pub branch: String,
    pub machine: String,
    pub class: String,
    /// The fleet's best: the remote's branch as last fetched.
    pub best: Option<String>,
    /// Why the remote did not answer (with `--fetch`).
    pub unreachable: Option<String>,
    /// Every machine's card, this one's too (a bare one before its first
    /// sync), by name.
    pub machines: Vec<Card>,
    pub classes: Vec<ClassBest>,
    /// The ideas claimed, each with its machine and lease.
    pub claims: Vec<ClaimRow>,
    /// With `confirm_classes`: the keeps waiting for other classes, each
    /// the best of its class, pending.
    pub pending: Vec<PendingRow>,
}

/// A keep waiting for other classes.
#[derive(Serialize)]
pub struct PendingRow {
    /// The keep's run id.
    pub run: String,
    pub class: String,
    /// The best it was kept over.
    pub kept: String,
    /// The classes that found it better so far.
    pub classes: Vec<String>,
    /// How many more classes must.
    pub needed: usize,
}

/// An idea claimed.
#[derive(Serialize)]
pub struct ClaimRow {
    #[serde(flatten)]
    pub lease: Lease,
    /// Its lease ran out (`now`): another machine may take it over.
    pub expired: bool,
}

/// The fleet as this machine sees it, fetched first when `fetch` says
/// so (a remote that does not answer is told in `unreachable`, not an
/// error); claims judged expired at `now`.
pub fn status(fleet: &Fleet, fetch: bool, now: &str) -> Result<Status> {
    let unreachable = if fetch {
        fleet.door.fetch()?.err()
    } else {
        None
    };
    let chains = fleet.others()?;
    let best = fleet.best();
    let classes = class_bests(&chains, best.as_deref());
    let pending = match fleet.confirm_classes.filter(|n| *n > 1) {
        Some(n) => pending_rows(&chains, best.as_deref(), n),
        None => Vec::new(),
    };
    let claims = fleet
        .leases()?
        .into_iter()
        .map(|(_, lease)| ClaimRow {
            expired: rules::expired(&lease, now),
            lease,
        })
        .collect();
    Ok(Status {
        remote: fleet.door.remote.clone(),
        branch: fleet.door.branch.clone(),
        machine: fleet.machine.clone(),
        class: fleet.class.clone(),
        best,
        unreachable,
        machines: machines(fleet, &chains),
        classes,
        claims,
        pending,
    })
}

/// Every machine's card by name, with a bare card for this machine when
/// it has not published one yet.
fn machines(fleet: &Fleet, chains: &[(Card, Vec<RunRecord>)]) -> Vec<Card> {
    let mut machines: Vec<Card> = chains.iter().map(|(c, _)| c.clone()).collect();
    if !machines.iter().any(|m| m.machine == fleet.machine) {
        machines.push(Card {
            machine: fleet.machine.clone(),
            class: fleet.class.clone(),
            seen: String::new(),
            trying: None,
            pending: None,
            tries: Vec::new(),
        });
    }
    machines.sort_by(|a, b| a.machine.cmp(&b.machine));
    machines
}

/// The keeps waiting for classes, from every machine's records.
fn pending_rows(chains: &[(Card, Vec<RunRecord>)], best: Option<&str>, n: u32) -> Vec<PendingRow> {
    let records = chains.iter().flat_map(|(_, r)| r);
    fleet_confirm::waiting(records, best, n)
        .into_iter()
        .map(|(p, s)| {
            let (classes, needed) = match s {
                Standing::Waiting { classes, needed } => (classes, needed),
                _ => (Vec::new(), 0),
            };
            PendingRow {
                run: p.commit,
                class: p.class,
                kept: p.parent,
                classes,
                needed,
            }
        })
        .collect()
}

impl Fleet {
    /// The fleet's remote, by the name `[fleet]` gives it.
    pub fn remote(&self) -> &str {
        &self.door.remote
    }
}
