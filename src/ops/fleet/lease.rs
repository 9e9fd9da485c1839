//! A lease held on one of the fleet's refs (a claim on an idea, the merge
//! queue's lead): its commit built, and renewed every third of its length
//! by a thread until it is stopped, each renewal a push only over the
//! lease it replaces. Each renewal is dated by the holder's clock (with
//! `--now`, that time plus the time elapsed).

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::thread::JoinHandle;

use anyhow::Result;

use crate::io::clock::Ticking;
use crate::io::fleet::{Door, Push, Update};
use crate::kernel::fleet::{self as rules, Lease};

/// Who holds a lease on which ref: a machine's working tree (its lane,
/// if one), for what (`idea`: the idea claimed, or the run that leads),
/// for how long.
#[derive(Clone)]
pub struct Holder {
    pub door: Door,
    pub refname: String,
    pub machine: String,
    pub lane: Option<String>,
    pub idea: String,
    pub secs: u64,
}

impl Holder {
    /// The lease from `now`, built as a commit: (the lease, its commit).
    pub fn build(&self, now: &str) -> Result<(Lease, String)> {
        let lease = Lease {
            idea: self.idea.clone(),
            machine: self.machine.clone(),
            expires: rules::lease_until(now, self.secs)
                .ok_or_else(|| anyhow::anyhow!("cannot read the time {now:?}"))?,
            lane: self.lane.clone(),
        };
        let commit = self.door.build_lease(&serde_json::to_vec_pretty(&lease)?)?;
        Ok((lease, commit))
    }

    /// Renew the lease held at commit `held`: pushed again from `now`,
    /// only over `held`. The new commit when it landed.
    pub fn renew(&self, held: &str, now: &str) -> Result<Option<String>> {
        let (_, commit) = self.build(now)?;
        let update = Update {
            commit: &commit,
            refname: self.refname.clone(),
            expected: Some(held),
        };
        Ok((self.door.push(&[update])? == Push::Landed).then_some(commit))
    }
}

/// A lease being renewed by its thread until [`Renewal::stop`] (or drop).
pub struct Renewal {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<String>>,
}

impl Renewal {
    /// Renew `holder`'s lease, held at commit `held`, every third of its
    /// length from now on. A renewal that does not land (the lease taken
    /// over meanwhile, the remote away) leaves the commit held as it was:
    /// whatever then expects it (a release, a batch's landing) fails.
    pub fn start(holder: Holder, held: String, clock: Ticking) -> Renewal {
        let (stop, stopped) = channel::<()>();
        let every = std::time::Duration::from_secs((holder.secs / 3).max(1));
        let thread = std::thread::spawn(move || {
            let mut held = held;
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                let Ok(now) = clock.now() else {
                    break;
                };
                if let Ok(Some(next)) = holder.renew(&held, &now) {
                    held = next;
                }
            }
            held
        });
        Renewal {
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stop renewing, once (no renewal is under way after it): the lease's
    /// commit as it stands, or `None` when it was stopped before.
    pub fn stop(&mut self) -> Option<String> {
        drop(self.stop.take());
        self.thread.take().and_then(|t| t.join().ok())
    }
}

impl Drop for Renewal {
    fn drop(&mut self) {
        self.stop();
    }
}
