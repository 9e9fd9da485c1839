//! Claims on ideas, fleet-wide: a claim made or renewed by a
//! compare-and-swap push and decided by the remote's answer, held while
//! a try runs (its lease renewed every third of its length) and released
//! at its end.

use anyhow::Result;

use super::lease::{Holder, Renewal};
use super::Fleet;
use crate::io::fleet::{claim_ref, Push, Update};
use crate::kernel::fleet::{self as rules, Claim, Lease};

/// How many times a claim fetches and pushes again when the claim moved
/// on the remote between its fetch and its push.
const CLAIM_TRIES: usize = 5;

/// What a claim on an idea came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Claimed {
    /// This machine holds it (created, renewed or taken over) at this
    /// commit of its claim.
    Held { lease: Lease, commit: String },
    /// Another machine holds it.
    Taken { by: String, until: String },
    /// The remote did not answer: nothing is claimed.
    Unreachable(String),
}

impl Fleet {
    /// Every claim as last fetched: (its commit, its lease), by idea.
    pub fn leases(&self) -> Result<Vec<(String, Lease)>> {
        let mut out = Vec::new();
        for (name, commit) in self.door.claims()? {
            let lease = self
                .door
                .read_lease(&commit)?
                .and_then(|t| serde_json::from_slice::<Lease>(&t).ok())
                .unwrap_or(Lease {
                    idea: name,
                    machine: String::new(),
                    expires: String::new(),
                    lane: None,
                });
            out.push((commit, lease));
        }
        Ok(out)
    }

    /// Claim `idea` for this working tree (this machine's lane) until
    /// `now` plus the lease: fetched first, then created (expecting no
    /// claim), renewed (expecting this lane's) or taken over from an
    /// expired lease (expecting it), by one compare-and-swap push. What
    /// the claim came to is the remote's answer: a push that loses the
    /// race fetches and decides again (the claim it lost to may be this
    /// lane's own, when what it had fetched was older), and an idea is
    /// refused only when the remote holds another's live claim on it.
    pub fn claim(&self, idea: &str, now: &str) -> Result<Claimed> {
        // One claim at a time in a machine.
        let _lock = crate::io::fleet::lock_sync(&self.state)?;
        let name = rules::claim_name(idea);
        let asker = (self.machine.as_str(), self.lane.as_deref());
        for _ in 0..CLAIM_TRIES {
            if let Err(why) = self.door.fetch()? {
                return Ok(Claimed::Unreachable(why));
            }
            let held = self.lease_on(idea, &name)?;
            let expected = match rules::claim_in_lane(held.as_ref().map(|(_, l)| l), asker, now) {
                Claim::Held { by, until } => return Ok(Claimed::Taken { by, until }),
                Claim::Create => None,
                Claim::Renew | Claim::TakeOver { .. } => held.as_ref().map(|(c, _)| c.as_str()),
            };
            let (lease, commit) = self.lease_holder(claim_ref(&name), idea).build(now)?;
            let update = Update {
                commit: &commit,
                refname: claim_ref(&name),
                expected,
            };
            match self.door.push(&[update])? {
                Push::Landed => {
                    self.door.claimed(&name, Some(&commit))?;
                    return Ok(Claimed::Held { lease, commit });
                }
                Push::Unreachable(why) => return Ok(Claimed::Unreachable(why)),
                // The claim moved on the remote since the fetch.
                Push::Lost(_) => continue,
            }
        }
        Ok(Claimed::Taken {
            by: "another machine (its claim moved on the remote at every try)".into(),
            until: String::new(),
        })
    }

    /// The claim on `idea` (its ref's part `name`) as last fetched: its
    /// commit and its lease.
    fn lease_on(&self, idea: &str, name: &str) -> Result<Option<(String, Lease)>> {
        Ok(self
            .leases()?
            .into_iter()
            .find(|(_, l)| l.idea == idea || rules::claim_name(&l.idea) == name))
    }

    /// Hold this machine's claim on `idea` (its commit `held`): renewed
    /// every third of a lease (a try that runs longer than a lease keeps
    /// its idea), released when the answer is dropped (the idea goes back
    /// to the backlog, or to the journal when it was tried). Each renewal
    /// is dated by `clock`: with `--now`, that time plus the time elapsed.
    pub fn hold(&self, idea: &str, held: String, clock: crate::io::clock::Ticking) -> Holding<'_> {
        let holder = self.lease_holder(claim_ref(&rules::claim_name(idea)), idea);
        Holding {
            fleet: self,
            idea: idea.to_string(),
            renewal: Renewal::start(holder, held, clock),
        }
    }

    /// This working tree (this machine's lane) holding a lease on ref
    /// `refname` for `idea` (an idea, or the run that leads the queue).
    pub fn lease_holder(&self, refname: String, idea: &str) -> Holder {
        Holder {
            door: self.door.clone(),
            refname,
            machine: self.machine.clone(),
            lane: self.lane.clone(),
            idea: idea.to_string(),
            secs: self.lease_secs,
        }
    }
}

/// A claim held: renewed until dropped, then released.
pub struct Holding<'a> {
    fleet: &'a Fleet,
    idea: String,
    renewal: Renewal,
}

impl Drop for Holding<'_> {
    fn drop(&mut self) {
        if let Some(held) = self.renewal.stop() {
            self.fleet.release(&self.idea, &held);
        }
    }
}

impl Fleet {
    /// Release this machine's claim on `idea`, held at commit `held`: its
    /// ref deleted on the remote only while it is still at `held` (a claim
    /// another machine took over meanwhile is left to it). A release that
    /// does not land is told (the claim then holds until its lease ends).
    pub fn release(&self, idea: &str, held: &str) {
        let name = rules::claim_name(idea);
        match self.door.delete(&claim_ref(&name), held) {
            Ok(Push::Landed) => {
                let _ = self.door.claimed(&name, None);
            }
            Ok(Push::Lost(_)) => (self.warn)(&format!(
                "the fleet's claim on idea {idea} was taken over by another machine meanwhile"
            )),
            _ => (self.warn)(&format!(
                "cannot release the fleet's claim on idea {idea}: it holds until its lease expires"
            )),
        }
    }
}
