//! The experiments killed tries left running in a working tree, ended
//! before the next command there reads it; and the proof, shared with
//! `arx ps --reap`, that a dead run's process group is still its
//! experiment.

use std::path::Path;
use std::time::{Duration, Instant};

use super::arx_alive;
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
/// whose arx is gone and which ran in `dir` on this host is ended: its
/// process group when it is proven the run's (as [`super::reap`] proves
/// it), then every process that still carries the run's marker (one that
/// left the group, or all of them when arx was killed before it wrote the
/// group down); each is waited for. Its live file stays for `arx ps
/// --reap` to journal. A line for each run ended.
pub fn end_killed_runs_in(state: &Path, dir: &Path, warn: Warn) -> Vec<String> {
    let Ok(runs) = live::list(state, warn) else {
        return Vec::new();
    };
    let (host, boot) = (live::hostname(), live::boot_id());
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let dir = canonical(dir);
    let mut lines = Vec::new();
    let mut dead = Vec::new();
    for l in runs {
        let here = l.host == host && canonical(Path::new(&l.cwd)).starts_with(&dir);
        if !here || arx_alive(&l, boot.as_deref()) {
            continue;
        }
        if let Some(pgid) = l.pgid.filter(|g| live::group_alive(*g)) {
            lines.extend(end_group(&l, pgid));
        }
        dead.push(l.run_id);
    }
    for line in end_marked(&dead) {
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

/// End the group `pgid` of the dead run `l` once it is proven the run's,
/// and wait for it: the line to tell (none when it is not proven, or
/// nothing but zombies was left in it).
fn end_group(l: &LiveRun, pgid: i32) -> Option<String> {
    let (members, proof) = prove_group(l, pgid);
    if members.is_empty() || proof.is_err() {
        return None;
    }
    live::kill_group(pgid);
    // Gone once no member is left but zombies (whoever adopted them
    // reaps them).
    let until = Instant::now() + END_WAIT;
    while !live::group_members(pgid, &l.run_id).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    Some(ended_line(&l.run_id))
}

/// What to tell of the run `id` whose experiment was ended.
fn ended_line(id: &str) -> String {
    format!(
        "ended the experiment of run {} that a killed try left running",
        crate::ops::ratchet::run_short(id)
    )
}

/// The members of the dead run `l`'s group `pgid` and whether they are
/// proven its experiment ([`crate::kernel::live::group_is_run`]), looked
/// at again for a moment while the proof fails for what can pass (an
/// environment unread or without the marker), not for what cannot (a
/// restart, the leader's id reused, a member older than the run).
pub(super) fn prove_group(l: &LiveRun, pgid: i32) -> (Vec<GroupMember>, Result<(), String>) {
    let boot = live::boot_id();
    let lasting = |members: &[GroupMember]| match (l.leader_start, &l.boot_id) {
        (Some(start), Some(b)) => {
            boot.as_ref() != Some(b)
                || members
                    .iter()
                    .any(|m| m.start < start || (m.pid == pgid && m.start != start))
        }
        _ => true,
    };
    proven(
        || live::group_members(pgid, &l.run_id),
        |members| crate::kernel::live::group_is_run(l, pgid, boot.as_deref(), members),
        lasting,
        (LOOKS, LOOK_PAUSE),
    )
}

/// Look (`look`) and prove (`prove`) up to `looks` times, `pause` apart,
/// until the proof holds, nothing is left to look at, or what failed it
/// is `lasting`: the last look and its proof.
fn proven<M>(
    mut look: impl FnMut() -> Vec<M>,
    prove: impl Fn(&[M]) -> Result<(), String>,
    lasting: impl Fn(&[M]) -> bool,
    (looks, pause): (u32, Duration),
) -> (Vec<M>, Result<(), String>) {
    let mut i = 1;
    loop {
        let members = look();
        let proof = prove(&members);
        if proof.is_ok() || members.is_empty() || i >= looks || lasting(&members) {
            return (members, proof);
        }
        i += 1;
        std::thread::sleep(pause);
    }
}

/// End every process that carries the marker of one of `run_ids` (runs
/// whose arx is gone), until none is left (a process forked meanwhile
/// too), for at most 5 seconds. A line for each run with a process ended.
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
    ended.iter().map(|id| ended_line(id)).collect()
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
        let (members, proof) = proven(look, prove, |_| false, (10, Duration::ZERO));
        assert_eq!((members, proof), (vec![true], Ok(())));
        assert_eq!(looks.get(), 2);
    }

    #[test]
    fn a_proof_that_keeps_failing_stands_and_an_empty_or_foreign_group_is_not_looked_at_again() {
        let looks = Cell::new(0);
        let never = |_: &[bool]| Err::<(), _>("unmarked".to_string());
        let (_, proof) = proven(
            || {
                looks.set(looks.get() + 1);
                vec![false]
            },
            never,
            |_| false,
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
            |_| false,
            (4, Duration::ZERO),
        );
        assert!(members.is_empty() && proof.is_err());
        assert_eq!(looks.get(), 1);
        // A failure that cannot pass (a group whose id was reused) is not
        // looked at again.
        looks.set(0);
        let (_, proof) = proven(
            || {
                looks.set(looks.get() + 1);
                vec![false]
            },
            never,
            |_| true,
            (4, Duration::ZERO),
        );
        assert!(proof.is_err());
        assert_eq!(looks.get(), 1);
    }
}
