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

#[cfg(test)]
mod tests {
    use crate::io::git::testing::git;
    use std::path::Path;

    use super::*;

    const REF: &str = "refs/arx/fleet/claims/idea-1";

    /// A clone whose remote is a bare repository beside it: the holder of
    /// a 3-second lease on [`REF`] (renewed every second), and the remote.
    fn holder(dir: &Path) -> (Holder, std::path::PathBuf) {
        let remote = dir.join("remote.git");
        let work = dir.join("work");
        std::fs::create_dir_all(&work).unwrap();
        git(dir, &["init", "--quiet", "--bare", "remote.git"]);
        git(&work, &["init", "--quiet", "-b", "main"]);
        git(
            &work,
            &["remote", "add", "origin", remote.to_str().unwrap()],
        );
        let door = Door::open(&work, "origin", "main").unwrap();
        let h = Holder {
            door,
            refname: REF.to_string(),
            machine: "m1".into(),
            lane: None,
            idea: "idea-1".into(),
            secs: 3,
        };
        (h, remote)
    }

    fn push(h: &Holder, commit: &str, expected: Option<&str>) -> Push {
        let update = Update {
            commit,
            refname: REF.to_string(),
            expected,
        };
        h.door.push(&[update]).unwrap()
    }

    #[test]
    fn a_lease_is_renewed_until_stopped_and_a_lease_taken_over_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (h, remote) = holder(dir.path());
        let (lease, first) = h.build("2026-01-01T00:00:00Z").unwrap();
        assert!(
            lease.expires.starts_with("2026-01-01T00:00:03"),
            "{lease:?}"
        );
        assert_eq!(push(&h, &first, None), Push::Landed);
        let clock = Ticking::start(Some("2026-01-01T00:00:01Z")).unwrap();
        let mut renewal = Renewal::start(h.clone(), first.clone(), clock);
        std::thread::sleep(std::time::Duration::from_millis(2500));
        let last = renewal.stop().expect("the renewal ran");
        assert_ne!(last, first, "not renewed");
        assert_eq!(git(&remote, &["rev-parse", REF]), last);
        assert_eq!(renewal.stop(), None, "stopped once");

        // Another machine takes the lease over: renewals no longer land,
        // and the commit held stays what it was.
        let (_, other) = Holder {
            machine: "m2".into(),
            ..h.clone()
        }
        .build("2026-01-01T00:00:10Z")
        .unwrap();
        assert_eq!(push(&h, &other, Some(&last)), Push::Landed);
        let mut renewal = Renewal::start(h, last.clone(), clock);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        assert_eq!(renewal.stop(), Some(last));
        assert_eq!(git(&remote, &["rev-parse", REF]), other);
    }
}
