//! The merge queue's lead (`refs/arx/fleet/queue/lead`), a lease as a
//! claim's: taken (created, or taken over once it expired) by a keep
//! waiting in the queue, and renewed every third of a lease while its
//! try forms and confirms a batch, so that a confirmation longer than a
//! lease is not taken over. Each renewal is dated by the try's clock
//! (`--now` plus the time elapsed), as a claim's is.

use std::sync::{Mutex, OnceLock};

use anyhow::Result;

use crate::io::clock::Ticking;
use crate::io::fleet::Push;
use crate::io::fleet_queue as queue;
use crate::kernel::fleet::{self as rules, Claim, Lease};
use crate::ops::fleet::lease::Renewal;
use crate::ops::fleet::Fleet;

/// The lead as this try holds it: renewed until [`LeadLease::settled`]
/// (or until dropped), each renewal a push only over the lease it
/// replaces.
#[derive(Clone)]
pub struct LeadLease(std::sync::Arc<Renewing>);

struct Renewing {
    /// The lease's commit as it was taken.
    taken: String,
    /// The run it leads for, and the clock its renewals are dated by.
    run: String,
    clock: Ticking,
    renewal: Mutex<Renewal>,
    /// The lease's last commit, once renewing stopped.
    last: OnceLock<String>,
}

impl std::fmt::Debug for LeadLease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("LeadLease")
            .field(&self.0.last.get())
            .finish()
    }
}

impl LeadLease {
    /// Hold the lead taken at `commit` for run `run`: renewed from now on.
    /// A renewal that does not land (taken over meanwhile, or the remote
    /// away) leaves the lease as it was, and the batch's landing push,
    /// which expects it, fails.
    pub fn hold(f: &Fleet, run: &str, commit: String, clock: Ticking) -> LeadLease {
        let holder = f.lease_holder(queue::LEAD.to_string(), run);
        LeadLease(std::sync::Arc::new(Renewing {
            taken: commit.clone(),
            run: run.to_string(),
            clock,
            renewal: Mutex::new(Renewal::start(holder, commit, clock)),
            last: OnceLock::new(),
        }))
    }

    /// Stop renewing (once; no renewal is under way after it): the lease's
    /// commit as it stands, which the batch's landing push and the lead's
    /// release expect.
    pub fn settled(&self) -> &str {
        self.0.last.get_or_init(|| self.0.stop())
    }
}

impl LeadLease {
    /// Renewed again from where [`LeadLease::settled`] stopped (a batch
    /// halved goes on under the same lead).
    pub fn resume(&self, f: &Fleet) -> LeadLease {
        LeadLease::hold(f, &self.0.run, self.settled().to_string(), self.0.clock)
    }

    /// The lease's commit as it was taken (renewals replace it).
    pub fn taken(&self) -> &str {
        &self.0.taken
    }
}

impl Renewing {
    fn stop(&self) -> String {
        let mut renewal = self.renewal.lock().unwrap_or_else(|e| e.into_inner());
        renewal.stop().unwrap_or_default()
    }
}

/// The queue's lead for this working tree (a machine's, or one of its
/// lanes': created, renewed, or taken over from an expired lease): the
/// lead's commit, or `None` while another machine or lane holds it.
pub fn take(f: &Fleet, run: &str, now: &str) -> Result<Option<String>> {
    let held = queue::lead(&f.door).map(|c| {
        let lease = f
            .door
            .read_lease(&c)
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_slice::<Lease>(&t).ok())
            .unwrap_or(Lease {
                idea: String::new(),
                machine: String::new(),
                expires: String::new(),
                lane: None,
            });
        (c, lease)
    });
    let asker = (f.machine.as_str(), f.lane.as_deref());
    let expected = match rules::claim_in_lane(held.as_ref().map(|(_, l)| l), asker, now) {
        Claim::Held { .. } => return Ok(None),
        Claim::Create => None,
        Claim::Renew | Claim::TakeOver { .. } => held.as_ref().map(|(c, _)| c.as_str()),
    };
    let (_, commit) = f.lease_holder(queue::LEAD.to_string(), run).build(now)?;
    Ok((queue::swap(&f.door, queue::LEAD, &commit, expected)? == Push::Landed).then_some(commit))
}

/// Release the lead when it is this machine's, taken for run `run` (a
/// try cut off while it led a batch): deleted only from the lease as
/// last fetched, however often it was renewed.
pub fn release_own(f: &Fleet, run: &str) -> Result<()> {
    let Some(commit) = queue::lead(&f.door) else {
        return Ok(());
    };
    let lease = f
        .door
        .read_lease(&commit)?
        .and_then(|t| serde_json::from_slice::<Lease>(&t).ok());
    if lease.is_some_and(|l| l.machine == f.machine && l.idea == run) {
        queue::swap(&f.door, queue::LEAD, "", Some(&commit))?;
    }
    Ok(())
}
