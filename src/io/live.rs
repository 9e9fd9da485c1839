//! Live files: `live/<run-id>.json` in the state directory, one per running
//! `arx run` or `arx try`, written atomically (never through a symbolic
//! link) at the start, at every heartbeat and when pruning starts, and
//! removed when the run is journaled. Also the process checks `arx ps`
//! needs: is arx's process there, is the experiment's group, end it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

use std::fs::OpenOptions;

use super::state::{ensure_dir_within, no_follow, refuse_symlinks};
use super::Warn;
use crate::kernel::live::{GroupMember, LiveRun, RUN_MARKER_ENV};

/// The directory of live files inside the state directory.
pub const LIVE_DIR: &str = "live";

pub fn live_dir(state: &Path) -> PathBuf {
    state.join(LIVE_DIR)
}

/// A run id fit for a file name (what arx makes: hex digits and dashes).
pub fn valid_run_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}

fn path_of(state: &Path, run_id: &str) -> Result<PathBuf> {
    anyhow::ensure!(valid_run_id(run_id), "invalid run id {run_id:?}");
    Ok(live_dir(state).join(format!("{run_id}.json")))
}

/// Write (or replace) a run's live file, whole (see [`super::atomic`]):
/// a reader sees the old or the new file, never a torn one.
pub fn write(state: &Path, live: &LiveRun) -> Result<()> {
    let path = path_of(state, &live.run_id)?;
    ensure_dir_within(state, &live_dir(state))?;
    refuse_symlinks(state, &path)?;
    let mut text = serde_json::to_vec_pretty(live)?;
    text.push(b'\n');
    // Not synced: the file says what runs now, and a machine that
    // crashed has nothing running (a torn file is skipped with a warning
    // by `arx ps`).
    super::atomic::replace(&path, &text, super::atomic::Durability::Unsynced)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Remove a run's live file (nothing when it is gone already).
pub fn remove(state: &Path, run_id: &str) -> Result<()> {
    let path = path_of(state, run_id)?;
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// The largest live file arx reads: its own are a few KiB (the command,
/// the last progress metrics); anything larger is not one of them.
pub const MAX_LIVE_BYTES: u64 = 1 << 20;

/// Read a live file as untrusted input: never through a symbolic link,
/// only a regular file, at most [`MAX_LIVE_BYTES`], and valid JSON of a
/// live run. `None` when there is no such file.
fn read_live(path: &Path) -> Result<Option<LiveRun>> {
    use std::io::Read;
    let file = match no_follow(OpenOptions::new().read(true)).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) => {
            anyhow::bail!("{} is a symbolic link, not a live file", path.display())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(
        meta.is_file(),
        "{} is not a regular file, not a live file",
        path.display()
    );
    anyhow::ensure!(
        meta.len() <= MAX_LIVE_BYTES,
        "{} is {} bytes, more than a live file holds ({} bytes at most)",
        path.display(),
        meta.len(),
        MAX_LIVE_BYTES
    );
    let mut bytes = Vec::new();
    file.take(MAX_LIVE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_LIVE_BYTES,
        "{} grew past {} bytes while read, more than a live file holds",
        path.display(),
        MAX_LIVE_BYTES
    );
    serde_json::from_slice(&bytes)
        .map(Some)
        .with_context(|| format!("{} is not a live file (not its JSON)", path.display()))
}

/// Every live file, oldest run first; unreadable ones are skipped with a
/// warning (a run id is its name, so nothing else can be said of them).
pub fn list(state: &Path, warn: Warn) -> Result<Vec<LiveRun>> {
    let dir = live_dir(state);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let mut runs = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(id) = name.strip_suffix(".json") else {
            continue;
        };
        if !valid_run_id(id) {
            continue;
        }
        match read_live(&entry.path()) {
            Ok(Some(live)) if live.run_id == id => runs.push(live),
            Ok(Some(_)) => warn(&format!(
                "{}: its run id is not its name; skipped",
                entry.path().display()
            )),
            Ok(None) => {} // removed meanwhile: the run ended
            Err(e) => warn(&format!("{e:#}; skipped")),
        }
    }
    runs.sort_by(|a, b| {
        a.started_ms
            .cmp(&b.started_ms)
            .then_with(|| a.run_id.cmp(&b.run_id))
    });
    Ok(runs)
}

/// Read one run's live file, if it is there.
pub fn read(state: &Path, run_id: &str) -> Result<Option<LiveRun>> {
    read_live(&path_of(state, run_id)?)
}

/// Is a process with this id there?
pub fn pid_alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // EPERM: there, but another user's.
    let there = !matches!(
        kill(Pid::from_raw(pid), None),
        Err(nix::errno::Errno::ESRCH)
    );
    there && !zombie(pid)
}

/// A process that has exited but is not yet reaped still answers signals;
/// on Linux its state in `/proc/<pid>/stat` is `Z`. (Elsewhere: not known,
/// so not a zombie.)
fn zombie(pid: i32) -> bool {
    let Some(Ok(stat)) =
        super::platform::proc_path(&format!("{pid}/stat")).map(std::fs::read_to_string)
    else {
        return false;
    };
    // The state follows the command name, which is in parentheses and may
    // itself hold spaces or parentheses.
    stat.rfind(')')
        .and_then(|end| stat[end + 1..].split_whitespace().next())
        == Some("Z")
}

/// Is anything left in the process group?
pub fn group_alive(pgid: i32) -> bool {
    pgid > 1
        && !matches!(
            killpg(Pid::from_raw(pgid), None),
            Err(nix::errno::Errno::ESRCH)
        )
}

/// End a process group at once (SIGKILL); true when something was there.
pub fn kill_group(pgid: i32) -> bool {
    pgid > 1 && killpg(Pid::from_raw(pgid), Signal::SIGKILL).is_ok()
}

/// This boot of the machine (`/proc/sys/kernel/random/boot_id`); `None`
/// where there is no such file.
pub fn boot_id() -> Option<String> {
    let text =
        std::fs::read_to_string(super::platform::proc_path("sys/kernel/random/boot_id")?).ok()?;
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

/// A process's group and start time, from `/proc/<pid>/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcStat {
    pub pgrp: i32,
    /// Clock ticks after boot.
    pub start: u64,
}

/// Parse `/proc/<pid>/stat`: the fields after the command name, which is
/// in parentheses and may itself hold spaces and parentheses (so the text
/// after the last `)`): state, ppid, pgrp, ... and the start time, field 22.
pub fn parse_stat(stat: &str) -> Option<ProcStat> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(ProcStat {
        pgrp: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// `pid`'s group and start time; `None` when it is gone (or elsewhere
/// than Linux).
pub fn proc_stat(pid: i32) -> Option<ProcStat> {
    parse_stat(&std::fs::read_to_string(super::platform::proc_path(&format!("{pid}/stat"))?).ok()?)
}

/// Longest environment read from `/proc/<pid>/environ`.
const MAX_ENVIRON_BYTES: u64 = 4 << 20;

/// Does `pid`'s environment hold `RUN_MARKER_ENV=run_id`? `None` when it
/// cannot be read (gone, another user's, too large).
pub fn carries_marker(pid: i32, run_id: &str) -> Option<bool> {
    use std::io::Read;
    let file = std::fs::File::open(super::platform::proc_path(&format!("{pid}/environ"))?).ok()?;
    let mut env = Vec::new();
    file.take(MAX_ENVIRON_BYTES + 1)
        .read_to_end(&mut env)
        .ok()?;
    if env.len() as u64 > MAX_ENVIRON_BYTES {
        return None;
    }
    let wanted = format!("{RUN_MARKER_ENV}={run_id}");
    Some(env.split(|&b| b == 0).any(|v| v == wanted.as_bytes()))
}

/// The run id in `pid`'s environment ([`RUN_MARKER_ENV`]), if it holds one
/// and can be read.
fn marker_of(pid: i32) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(super::platform::proc_path(&format!("{pid}/environ"))?).ok()?;
    let mut env = Vec::new();
    file.take(MAX_ENVIRON_BYTES).read_to_end(&mut env).ok()?;
    let key = format!("{RUN_MARKER_ENV}=");
    env.split(|&b| b == 0)
        .find_map(|v| v.strip_prefix(key.as_bytes()))
        .and_then(|id| std::str::from_utf8(id).ok())
        .map(str::to_string)
}

/// The processes (but this one) whose environment carries the marker of
/// one of `run_ids`, from one pass over `/proc`: (pid, run id). Empty
/// where `/proc` cannot be read.
pub fn processes_marked(run_ids: &[&str]) -> Vec<(i32, String)> {
    let Some(Ok(entries)) = super::platform::proc_path("").map(std::fs::read_dir) else {
        return Vec::new();
    };
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        if let Some(id) = marker_of(pid).filter(|id| run_ids.contains(&id.as_str())) {
            found.push((pid, id));
        }
    }
    found
}

/// End a process at once (SIGKILL); true when it was there.
pub fn kill_process(pid: i32) -> bool {
    pid > 1 && kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok()
}

/// Every process of group `pgid` now, with its start time and whether it
/// carries `run_id`'s marker (an empty list where `/proc` cannot be read).
pub fn group_members(pgid: i32, run_id: &str) -> Vec<GroupMember> {
    let Some(Ok(entries)) = super::platform::proc_path("").map(std::fs::read_dir) else {
        return Vec::new();
    };
    let mut members = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Some(stat) = proc_stat(pid).filter(|s| s.pgrp == pgid) else {
            continue;
        };
        if zombie(pid) {
            continue;
        }
        members.push(GroupMember {
            pid,
            start: stat.start,
            marked: carries_marker(pid, run_id),
        });
    }
    members.sort_by_key(|m| m.pid);
    members
}

/// This machine's name, as runs record it.
pub fn hostname() -> Option<String> {
    nix::unistd::gethostname()
        .ok()
        .map(|h| h.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    #[test]
    fn an_exited_unreaped_child_is_not_alive() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        // Not waited for yet: a zombie once it has exited.
        let deadline = Instant::now() + Duration::from_secs(5);
        while super::pid_alive(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!super::pid_alive(pid), "a zombie counts as gone");
        child.wait().unwrap();
        assert!(super::pid_alive(std::process::id()));
    }

    #[test]
    fn a_stat_line_is_read_after_the_last_parenthesis() {
        let line =
            "4242 (a) b (c) d) S 1 4240 4240 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        assert_eq!(
            super::parse_stat(line),
            Some(super::ProcStat {
                pgrp: 4240,
                start: 987654
            })
        );
        assert_eq!(super::parse_stat("1 (x) S 1"), None);
        assert_eq!(super::parse_stat("no parenthesis"), None);
        let me = super::proc_stat(std::process::id() as i32).unwrap();
        assert!(me.start > 0);
    }
}
