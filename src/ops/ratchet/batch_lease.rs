//! The merge queue's lead (`refs/arx/fleet/queue/lead`), a lease as a
//! claim's: taken (created, or taken over once it expired) by a keep
//! waiting in the queue, and renewed every third of a lease while its
//! try forms and confirms a batch, so that a confirmation longer than a
//! lease is not taken over. Each renewal is dated by the try's clock
//! (`--now` plus the time elapsed), as a claim's is.

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;

use anyhow::Result;

use crate::io::clock::Ticking;
use crate::io::fleet::{Door, Push, Update};
use crate::io::fleet_queue as queue;
use crate::kernel::fleet::{self as rules, Claim, Lease};
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
    stop: Mutex<Option<Sender<()>>>,
    thread: Mutex<Option<JoinHandle<String>>>,
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

/// Who holds the lead, for what run, for how long.
struct Holder {
    door: Door,
    machine: String,
    lane: Option<String>,
    run: String,
    secs: u64,
}

impl LeadLease {
    /// Hold the lead taken at `commit` for run `run`: renewed from now on.
    pub fn hold(f: &Fleet, run: &str, commit: String, clock: Ticking) -> LeadLease {
        let holder = Holder {
            door: f.door.clone(),
            machine: f.machine.clone(),
            lane: f.lane.clone(),
            run: run.to_string(),
            secs: f.lease_secs,
        };
        let taken = commit.clone();
        let (stop, stopped) = channel::<()>();
        let every = std::time::Duration::from_secs((holder.secs / 3).max(1));
        let thread = std::thread::spawn(move || {
            let mut held = commit;
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                let Ok(now) = clock.now() else {
                    break;
                };
                // Taken over meanwhile, or the remote away: held stays,
                // and the batch's landing push, which expects it, fails.
                if let Ok(Some(next)) = renew(&holder, &held, &now) {
                    held = next;
                }
            }
            held
        });
        LeadLease(std::sync::Arc::new(Renewing {
            taken,
            run: run.to_string(),
            clock,
            stop: Mutex::new(Some(stop)),
            thread: Mutex::new(Some(thread)),
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
        drop(self.stop.lock().ok().and_then(|mut s| s.take()));
        let thread = self.thread.lock().ok().and_then(|mut t| t.take());
        thread.and_then(|t| t.join().ok()).unwrap_or_default()
    }
}

impl Drop for Renewing {
    fn drop(&mut self) {
        if self.last.get().is_none() {
            self.stop();
        }
    }
}

/// The lead's lease for `run` of a machine's working tree (its lane, if
/// one) from `now`, built as a commit.
fn build(
    door: &Door,
    (machine, lane, run): (&str, Option<&str>, &str),
    now: &str,
    secs: u64,
) -> Result<String> {
    let lease = Lease {
        idea: run.to_string(),
        machine: machine.to_string(),
        expires: rules::lease_until(now, secs)
            .ok_or_else(|| anyhow::anyhow!("cannot read the time {now:?}"))?,
        lane: lane.map(str::to_string),
    };
    door.build_lease(&serde_json::to_vec_pretty(&lease)?)
}

/// Renew the lead held at `held`: the new commit when it landed.
fn renew(h: &Holder, held: &str, now: &str) -> Result<Option<String>> {
    let commit = build(
        &h.door,
        (&h.machine, h.lane.as_deref(), &h.run),
        now,
        h.secs,
    )?;
    let update = Update {
        commit: &commit,
        refname: queue::LEAD.to_string(),
        expected: Some(held),
    };
    Ok((h.door.push(&[update])? == Push::Landed).then_some(commit))
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
    let commit = build(
        &f.door,
        (&f.machine, f.lane.as_deref(), run),
        now,
        f.lease_secs,
    )?;
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
