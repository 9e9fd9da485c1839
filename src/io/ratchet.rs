//! The ratchet's markers in the state directory: a discard whose restore
//! has not finished (`ratchet-pending.json`, written once the candidate is
//! stored, holding the try's record so a crash before it was journaled
//! loses nothing), a candidate set aside while the baseline is measured
//! (`ratchet-aside.json`), and a keep whose branches and record are not
//! all written yet (`ratchet-keep.json`, one per repository: keeps are
//! made one at a time, and each finishes a cut-off one before it writes
//! its own), a lane's take-up of the best (`ratchet-take-up.json`), and a
//! measurement whose runs may write outputs (`ratchet-measuring.json`). Each is written atomically before the step it
//! protects and removed after it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::rounds::{read_json, write_json_atomic};
use crate::kernel::journal::RunRecord;

/// A discard in progress.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    /// The commit to restore.
    pub kept: String,
    /// Where the candidate is stored.
    pub discarded_ref: String,
    /// The commit stored there (absent in markers of an older arx, which
    /// wrote the marker before storing the candidate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    /// The try's journal record.
    pub record: RunRecord,
}

/// A keep in progress: its commit is built (and synced), the branches may
/// not have moved yet, the record may not be journaled yet.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeepIntent {
    /// The best the candidate was measured against (the keep's parent).
    pub kept: String,
    /// The keep's commit.
    pub commit: String,
    /// The keeping working tree's branch (full name), and where it was
    /// before the keep.
    pub branch: String,
    pub branch_from: String,
    /// The keeping working tree's root.
    pub worktree: String,
    /// The paths the keep took from that working tree (its index follows
    /// the keep on them).
    pub paths: Vec<String>,
    /// In a lane: the best's branch (full name), which advances from
    /// `kept` to `commit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_ref: Option<String>,
    /// In a lane: the main working tree, when it was on the best's branch
    /// at `kept` and so follows the keep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main_root: Option<String>,
    /// The try's journal record, with its commit.
    pub record: RunRecord,
}

/// A candidate set aside while the baseline runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Aside {
    pub refname: String,
    /// The branch's commit before it was set aside.
    pub head: String,
    /// The commit the working tree is restored to while the candidate is
    /// aside (absent in markers of an older arx).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
}

/// A lane's take-up of the best in progress: its work is replayed onto
/// `onto` and stored under `snapshot_ref` first; the branch moves last.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TakeUp {
    /// The lane's branch's commit before the take-up.
    pub head: String,
    /// The best taken up.
    pub onto: String,
    /// Where the lane's work is stored, and what that ref held before
    /// (the work of an earlier take-up), if anything.
    pub snapshot_ref: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// The snapshot commit, once the work is stored (written before any
    /// file changes; absent in markers of an older arx, and before then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
}

/// A measurement in progress: the snapshot of the working tree taken
/// before its runs, so that what the runs of a killed try wrote is known
/// (outputs) by the next command.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Measuring {
    /// The snapshot commit, HEAD then, and the paths it took.
    pub commit: String,
    pub head: String,
    pub paths: Vec<String>,
    /// The best measured as it is (a baseline): every path changed since
    /// is an output, the snapshot's own included.
    #[serde(default)]
    pub baseline: bool,
    /// The measurement this one interrupts (a candidate's, while the best
    /// is measured with the candidate set aside): it goes on after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumes: Option<Box<Measuring>>,
}

/// The markers' file names in the state directory (the main working
/// tree's; a linked working tree's carry its key: `ratchet-pending-<key>.json`).
pub const PENDING_FILE: &str = "ratchet-pending.json";
pub const ASIDE_FILE: &str = "ratchet-aside.json";
pub const KEEP_FILE: &str = "ratchet-keep.json";
pub const TAKE_UP_FILE: &str = "ratchet-take-up.json";
pub const MEASURING_FILE: &str = "ratchet-measuring.json";
/// The outputs a try's runs wrote in the main working tree (a lane's:
/// `ratchet-outputs-<key>.json`).
pub const OUTPUTS_FILE: &str = "ratchet-outputs.json";
/// The git-ignored files under `protect` as the last baseline found them
/// in the main working tree (a lane's: `ratchet-protected-<key>.json`).
pub const PROTECTED_FILE: &str = "ratchet-protected.json";

/// A file the runs of a try wrote, outside the candidate: left out of
/// later candidates while it holds what they wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    pub path: String,
    /// The blob id of its content then; `None` when the runs removed it.
    pub blob: Option<String>,
}

/// The keep in progress in the state directory `state`, if any.
pub fn read_keep(state: &Path) -> Result<Option<KeepIntent>> {
    read_json(&state.join(KEEP_FILE))
}

/// Write the intent of a keep (atomically, synced) before its first branch
/// moves.
pub fn write_keep(state: &Path, intent: &KeepIntent) -> Result<()> {
    write_json_atomic(&state.join(KEEP_FILE), intent)
}

/// The keep is done (or rolled back).
pub fn clear_keep(state: &Path) -> Result<()> {
    remove(&state.join(KEEP_FILE))
}

/// The markers of one working tree. Every working tree of a repository
/// (each lane) shares one state directory, so each has its own markers:
/// a crash in one lane is finished in that lane, never in another.
#[derive(Debug, Clone)]
pub struct Markers {
    pending: PathBuf,
    aside: PathBuf,
    outputs: PathBuf,
    protected: PathBuf,
    take_up: PathBuf,
    measuring: PathBuf,
    /// The ref a baseline sets the candidate aside under.
    pub aside_ref: String,
}

impl Markers {
    /// The markers of the working tree whose root is `workdir`.
    pub fn of(state: &Path, workdir: &Path) -> Markers {
        if super::config::main_root(workdir).is_none() {
            return Markers {
                pending: state.join(PENDING_FILE),
                aside: state.join(ASIDE_FILE),
                outputs: state.join(OUTPUTS_FILE),
                protected: state.join(PROTECTED_FILE),
                take_up: state.join(TAKE_UP_FILE),
                measuring: state.join(MEASURING_FILE),
                aside_ref: "refs/arx/aside".into(),
            };
        }
        let key = tree_key(workdir);
        Markers {
            pending: state.join(format!("ratchet-pending-{key}.json")),
            aside: state.join(format!("ratchet-aside-{key}.json")),
            outputs: state.join(format!("ratchet-outputs-{key}.json")),
            protected: state.join(format!("ratchet-protected-{key}.json")),
            take_up: state.join(format!("ratchet-take-up-{key}.json")),
            measuring: state.join(format!("ratchet-measuring-{key}.json")),
            aside_ref: format!("refs/arx/aside-{key}"),
        }
    }

    pub fn read_pending(&self) -> Result<Option<Pending>> {
        read_json(&self.pending)
    }

    pub fn write_pending(&self, pending: &Pending) -> Result<()> {
        write_json_atomic(&self.pending, pending)
    }

    pub fn clear_pending(&self) -> Result<()> {
        remove(&self.pending)
    }

    pub fn read_aside(&self) -> Result<Option<Aside>> {
        read_json(&self.aside)
    }

    pub fn write_aside(&self, aside: &Aside) -> Result<()> {
        write_json_atomic(&self.aside, aside)
    }

    pub fn clear_aside(&self) -> Result<()> {
        remove(&self.aside)
    }

    pub fn read_take_up(&self) -> Result<Option<TakeUp>> {
        read_json(&self.take_up)
    }

    pub fn write_take_up(&self, take_up: &TakeUp) -> Result<()> {
        write_json_atomic(&self.take_up, take_up)
    }

    pub fn clear_take_up(&self) -> Result<()> {
        remove(&self.take_up)
    }

    pub fn read_measuring(&self) -> Result<Option<Measuring>> {
        read_json(&self.measuring)
    }

    pub fn write_measuring(&self, measuring: &Measuring) -> Result<()> {
        write_json_atomic(&self.measuring, measuring)
    }

    pub fn clear_measuring(&self) -> Result<()> {
        remove(&self.measuring)
    }

    /// The outputs the runs of this working tree's tries wrote.
    pub fn read_outputs(&self) -> Result<Vec<Output>> {
        Ok(read_json(&self.outputs)?.unwrap_or_default())
    }

    /// Add `outputs` to the ones recorded (replacing a path's entry).
    pub fn add_outputs(&self, outputs: &[Output]) -> Result<()> {
        let mut all = self.read_outputs()?;
        all.retain(|o| !outputs.iter().any(|n| n.path == o.path));
        all.extend(outputs.iter().cloned());
        all.sort_by(|a, b| a.path.cmp(&b.path));
        write_json_atomic(&self.outputs, &all)
    }

    /// The git-ignored files under `protect` (path, blob id) as the last
    /// baseline found them, if one recorded them.
    pub fn read_protected(&self) -> Result<Option<Vec<Output>>> {
        read_json(&self.protected)
    }

    /// Record the git-ignored files under `protect` as a baseline finds
    /// them: what later candidates may not change.
    pub fn write_protected(&self, files: &[Output]) -> Result<()> {
        write_json_atomic(&self.protected, &files)
    }

    /// Is a discard or a set-aside of this working tree waiting to be
    /// finished?
    pub fn any(&self) -> bool {
        self.pending.exists()
            || self.aside.exists()
            || self.take_up.exists()
            || self.measuring.exists()
    }
}

fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// The lock an `arx try` holds on its working tree while it runs: an
/// exclusive file lock on `try-<key>.lock` in the state directory, the key
/// a hash of the working tree's path. The system drops it when the process
/// ends, however it ends (`kill -9` included), so it cannot be left behind.
/// The file holds the holder (pid, start, description) for the message of a
/// second try.
#[derive(Debug)]
pub struct TryLock {
    _file: std::fs::File,
}

/// Who holds a working tree's try lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TryHolder {
    pub pid: u32,
    pub started_at: String,
    #[serde(default)]
    pub description: Option<String>,
    /// When the process started (clock ticks after boot): a reused pid
    /// has another start time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid_start: Option<u64>,
    /// The idea the try tests, so the backlog can say it is in flight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idea: Option<String>,
    /// The lane the try runs in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
}

impl TryHolder {
    /// This process, from `started_at`, doing `description`.
    pub fn ours(started_at: String, description: Option<String>) -> TryHolder {
        let pid = std::process::id();
        TryHolder {
            pid,
            started_at,
            description,
            pid_start: i32::try_from(pid)
                .ok()
                .and_then(super::live::proc_stat)
                .map(|s| s.start),
            idea: None,
            lane: None,
        }
    }

    /// The same holder, testing `idea` in `lane`.
    pub fn testing(mut self, idea: Option<String>, lane: Option<String>) -> TryHolder {
        self.idea = idea;
        self.lane = lane;
        self
    }

    /// Is the process that wrote this still there (the same one: its start
    /// time, when both are known, matches)?
    pub fn alive(&self) -> bool {
        if !super::live::pid_alive(self.pid) {
            return false;
        }
        match (
            self.pid_start,
            i32::try_from(self.pid)
                .ok()
                .and_then(super::live::proc_stat),
        ) {
            (Some(ours), Some(now)) => ours == now.start,
            _ => true,
        }
    }
}

/// The holders of the try locks in `state` whose process is still there
/// (the tries running now, in every working tree of the repository).
pub fn running_tries(state: &Path) -> Vec<TryHolder> {
    use std::io::Read;
    let Ok(entries) = std::fs::read_dir(state) else {
        return Vec::new();
    };
    let mut holders = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(name.starts_with("try-") && name.ends_with(".lock")) {
            continue;
        }
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        let Ok(file) = super::state::open_no_follow(&mut options, &entry.path()) else {
            continue;
        };
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            continue;
        }
        let mut text = Vec::new();
        // A holder is a few hundred bytes; anything larger is not one.
        if file.take(64 * 1024).read_to_end(&mut text).is_err() {
            continue;
        }
        if let Ok(holder) = serde_json::from_slice::<TryHolder>(&text) {
            if holder.alive() {
                holders.push(holder);
            }
        }
    }
    holders.sort_by(|a, b| a.started_at.cmp(&b.started_at).then(a.pid.cmp(&b.pid)));
    holders
}

/// The lock file of the working tree `worktree` in `state`.
pub fn try_lock_path(state: &Path, worktree: &Path) -> PathBuf {
    state.join(format!("try-{}.lock", tree_key(worktree)))
}

/// A working tree's key: 16 hex digits of the hash of its canonical path.
pub fn tree_key(worktree: &Path) -> String {
    let canonical = std::fs::canonicalize(worktree).unwrap_or_else(|_| worktree.to_path_buf());
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The lock every keep of a repository takes while it compares the best
/// it was measured against with the journal's and moves the best's branch:
/// an exclusive file lock on `keep.lock`, dropped by the system when the
/// process ends. Keeps from many lanes are so made one at a time.
#[derive(Debug)]
pub struct KeepLock {
    _file: std::fs::File,
}

/// Wait for the keep lock of the state directory `state`.
pub fn lock_keep(state: &Path) -> Result<KeepLock> {
    wait_lock(state, "keep.lock")
}

/// Wait for the lock lanes take while one of them measures a segment's
/// baseline (`baseline.lock`).
pub fn lock_baseline(state: &Path) -> Result<KeepLock> {
    wait_lock(state, "baseline.lock")
}

fn wait_lock(state: &Path, name: &str) -> Result<KeepLock> {
    super::state::ensure_dir(state)?;
    let path = state.join(name);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let file = super::state::open_no_follow(&mut options, &path)?;
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(KeepLock { _file: file })
}

/// How long a try waits for a lock whose holder has ended to be let go,
/// and how often it looks.
const LOCK_RELEASE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);
const LOCK_RELEASE_STEP: std::time::Duration = std::time::Duration::from_millis(20);

/// Take the try lock of `worktree` for `holder`, at once (or after a
/// moment, when the holder it names has ended): `Ok(Err(..))`
/// with the holder (when it could be read) if another try has it.
pub fn lock_try(
    state: &Path,
    worktree: &Path,
    holder: &TryHolder,
) -> Result<std::result::Result<TryLock, Option<TryHolder>>> {
    use std::io::{Seek, Write};
    let path = try_lock_path(state, worktree);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let mut file = super::state::open_no_follow(&mut options, &path)?;
    let mut waited = std::time::Duration::ZERO;
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(std::fs::TryLockError::WouldBlock) => {
                let text = std::fs::read(&path).unwrap_or_default();
                let other: Option<TryHolder> = serde_json::from_slice(&text).ok();
                // A holder that has ended while the lock is still held: a
                // killed try's child caught between fork and exec, which
                // holds the try's files until it execs or dies. The lock
                // is being let go; wait for it a moment.
                let ending = other.as_ref().is_some_and(|h| !h.alive());
                if !ending || waited >= LOCK_RELEASE_WAIT {
                    return Ok(Err(other));
                }
                std::thread::sleep(LOCK_RELEASE_STEP);
                waited += LOCK_RELEASE_STEP;
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
    let text = serde_json::to_vec(holder)?;
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(&text))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Ok(TryLock { _file: file }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn holder_file(state: &Path, worktree: &Path, pid: u32) -> std::fs::File {
        let path = try_lock_path(state, worktree);
        let holder = TryHolder {
            pid,
            started_at: "2026-11-30T00:00:00Z".into(),
            description: Some("a 11".into()),
            pid_start: None,
            idea: None,
            lane: None,
        };
        std::fs::write(&path, serde_json::to_vec(&holder).unwrap()).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        file.lock().unwrap();
        file
    }

    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn a_lock_still_held_after_its_try_ended_is_waited_for_not_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (state, tree) = (dir.path().join("state"), dir.path().to_path_buf());
        std::fs::create_dir_all(&state).unwrap();
        // The lock is held (as by a killed try's child not yet exec'd)
        // while the holder it names is gone; it is let go 300 ms later.
        let held = holder_file(&state, &tree, dead_pid());
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            drop(held);
        });
        let ours = TryHolder::ours("2026-11-30T00:00:01Z".into(), None);
        let got = lock_try(&state, &tree, &ours).unwrap();
        release.join().unwrap();
        assert!(got.is_ok(), "refused: {:?}", got.err());
        let text = std::fs::read(try_lock_path(&state, &tree)).unwrap();
        let now: TryHolder = serde_json::from_slice(&text).unwrap();
        assert_eq!(now.pid, std::process::id());
    }

    #[test]
    fn a_lock_held_by_a_running_try_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let (state, tree) = (dir.path().join("state"), dir.path().to_path_buf());
        std::fs::create_dir_all(&state).unwrap();
        let _held = holder_file(&state, &tree, std::process::id());
        let ours = TryHolder::ours("2026-11-30T00:00:01Z".into(), None);
        let t0 = Instant::now();
        let got = lock_try(&state, &tree, &ours).unwrap();
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        let other = got.expect_err("a running holder keeps its lock");
        assert_eq!(other.map(|h| h.pid), Some(std::process::id()));
    }
}
