//! The experiments killed tries left running in a working tree, ended
//! before the next command there reads it; and the proof, shared with
//! `arx ps --reap`, that a dead run's process group is still its
//! experiment.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::arx_alive;
use crate::error::Hinted;
use crate::io::live;
use crate::io::Warn;
use crate::kernel::live::{GroupMember, LiveRun};

/// How many times a group is looked at before a failed proof stands, and
/// the pause between two looks: a process caught as it starts (between
/// `fork` and the end of `exec`) or as it ends has no environment to read
/// for a moment, which is no reason to leave the group running.
const LOOKS: u32 = 10;
const LOOK_PAUSE: Duration = Duration::from_millis(20);

/// How long an ended experiment is waited for.
const END_WAIT: Duration = Duration::from_secs(5);

/// End the experiments that killed tries in `dir` (a working tree) left
/// running: an experiment runs in a process group of its own, so a
/// `kill -9` of arx leaves it writing into the working tree, where the
/// next try would take what it writes for the user's work. Only a run
/// whose arx is gone, which ran in `dir` on this host, and whose group is
/// proven its own (as [`super::reap`] proves it) is signalled, and waited
/// for; when arx was killed before it wrote the group down, the processes
/// that carry the run's marker are. Its live file stays for `arx ps
/// --reap` to journal. A line for each one ended; an error (exit 2, before
/// anything reads the working tree) when one still runs that cannot be
/// proven the run's, or that did not end once signalled: what it writes
/// would be taken for the user's work.
pub fn end_killed_runs_in(state: &Path, dir: &Path, warn: Warn) -> Result<Vec<String>> {
    let Ok(runs) = live::list(state, warn) else {
        return Ok(Vec::new());
    };
    let (host, boot) = (live::hostname(), live::boot_id());
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let dir = canonical(dir);
    let (mut lines, mut running) = (Vec::new(), Vec::new());
    // Runs whose live file names no group: arx was killed between
    // starting the experiment and writing its group down (or between
    // attempts, when nothing runs).
    let mut unnamed = Vec::new();
    for l in runs {
        let here = l.host == host && canonical(Path::new(&l.cwd)).starts_with(&dir);
        if !here || arx_alive(&l, boot.as_deref()) {
            continue;
        }
        let Some(pgid) = l.pgid else {
            unnamed.push(l.run_id);
            continue;
        };
        if !live::group_alive(pgid) {
            continue;
        }
        match end_group(&l, pgid) {
            Leftover::Ended(line) => lines.push(line),
            Leftover::Gone => {}
            Leftover::Running(why) => running.push((pgid, why)),
        }
    }
    lines.extend(end_marked(&unnamed));
    if running.is_empty() {
        return Ok(lines);
    }
    let (groups, why): (Vec<String>, Vec<String>) = running
        .into_iter()
        .map(|(pgid, why)| (format!("kill -9 -- -{pgid}"), why))
        .unzip();
    Err(Hinted::error(
        format!(
            "{}: what it writes would be taken for work in this working tree, so nothing was changed",
            why.join("; ")
        ),
        format!(
            "end it ({}) or wait for it to end, then run the command again",
            groups.join("; ")
        ),
    ))
}

/// What became of a dead run's process group.
enum Leftover {
    /// Ended and waited for: the line to tell.
    Ended(String),
    /// Nothing left in it but zombies (whoever adopted them reaps them).
    Gone,
    /// Still running, not ended: why.
    Running(String),
}

/// End the group `pgid` of the dead run `l` once it is proven the run's,
/// and wait for it.
fn end_group(l: &LiveRun, pgid: i32) -> Leftover {
    let run = crate::ops::ratchet::run_short(&l.run_id);
    let (members, proof) = prove_group(l, pgid);
    if members.is_empty() {
        return Leftover::Gone;
    }
    if let Err(why) = proof {
        return Leftover::Running(format!(
            "the experiment of run {run}, which a killed try left running, still runs in \
             process group {pgid} and was not ended, since nothing proves the group its own ({why})"
        ));
    }
    live::kill_group(pgid);
    // Gone once no member is left but zombies.
    let until = Instant::now() + END_WAIT;
    while !live::group_members(pgid, &l.run_id).is_empty() {
        if Instant::now() >= until {
            return Leftover::Running(format!(
                "the experiment of run {run}, which a killed try left running, was sent SIGKILL \
                 but process group {pgid} has not ended after {} s",
                END_WAIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Leftover::Ended(format!(
        "ended the experiment of run {run} that a killed try left running"
    ))
}

/// The members of the dead run `l`'s group `pgid` and whether they are
/// proven its experiment ([`crate::kernel::live::group_is_run`]), looked
/// at again for a moment while the proof fails.
pub(super) fn prove_group(l: &LiveRun, pgid: i32) -> (Vec<GroupMember>, Result<(), String>) {
    let boot = live::boot_id();
    proven(
        || live::group_members(pgid, &l.run_id),
        |members| crate::kernel::live::group_is_run(l, pgid, boot.as_deref(), members),
        (LOOKS, LOOK_PAUSE),
    )
}

/// Look (`look`) and prove (`prove`) up to `looks` times, `pause` apart,
/// until the proof holds or nothing is left to look at: the last look and
/// its proof.
fn proven<M>(
    mut look: impl FnMut() -> Vec<M>,
    prove: impl Fn(&[M]) -> Result<(), String>,
    (looks, pause): (u32, Duration),
) -> (Vec<M>, Result<(), String>) {
    let mut i = 1;
    loop {
        let members = look();
        let proof = prove(&members);
        if proof.is_ok() || members.is_empty() || i >= looks {
            return (members, proof);
        }
        i += 1;
        std::thread::sleep(pause);
    }
}

/// End every process that carries the marker of one of `run_ids` (runs
/// whose arx is gone), until none is left (a process forked meanwhile
/// too), for at most 5 seconds. A line for each run ended.
fn end_marked(run_ids: &[String]) -> Vec<String> {
    if run_ids.is_empty() {
        return Vec::new();
    }
    let ids: Vec<&str> = run_ids.iter().map(String::as_str).collect();
    let mut ended: Vec<String> = Vec::new();
    let until = Instant::now() + END_WAIT;
    loop {
        let marked = live::processes_marked(&ids);
        if marked.is_empty() || Instant::now() >= until {
            break;
        }
        for (pid, id) in marked {
            live::kill_process(pid);
            if !ended.contains(&id) {
                ended.push(id);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    ended
        .iter()
        .map(|id| {
            format!(
                "ended the experiment of run {} that a killed try left running",
                crate::ops::ratchet::run_short(id)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::time::Duration;

    use super::proven;

    #[test]
    fn a_proof_that_fails_for_a_moment_is_looked_at_again() {
        // A member caught as it starts: unmarked at the first look.
        let looks = Cell::new(0);
        let look = || {
            looks.set(looks.get() + 1);
            vec![looks.get() > 1]
        };
        let prove = |m: &[bool]| {
            if m.iter().all(|x| *x) {
                Ok(())
            } else {
                Err("unmarked".to_string())
            }
        };
        let (members, proof) = proven(look, prove, (10, Duration::ZERO));
        assert_eq!((members, proof), (vec![true], Ok(())));
        assert_eq!(looks.get(), 2);
    }

    #[test]
    fn a_proof_that_keeps_failing_stands_and_an_empty_group_is_not_looked_at_again() {
        let looks = Cell::new(0);
        let never = |_: &[bool]| Err::<(), _>("unmarked".to_string());
        let (_, proof) = proven(
            || {
                looks.set(looks.get() + 1);
                vec![false]
            },
            never,
            (4, Duration::ZERO),
        );
        assert_eq!(proof, Err("unmarked".to_string()));
        assert_eq!(looks.get(), 4);
        looks.set(0);
        let (members, proof) = proven(
            || {
                looks.set(looks.get() + 1);
                Vec::new()
            },
            never,
            (4, Duration::ZERO),
        );
        assert!(members.is_empty() && proof.is_err());
        assert_eq!(looks.get(), 1);
    }
}
