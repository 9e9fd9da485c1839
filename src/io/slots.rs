//! Slots: at most N experiments of a repository run at once. Each slot is
//! a lock file in the state directory (`slots/<index>.lock`), held with an
//! exclusive `flock` by the arx process whose experiment runs in it, and
//! by the experiment itself: its processes inherit the lock's descriptor
//! ([`Slot::fd`]). arx releases the slot when the experiment has ended;
//! when arx dies first (`kill -9`), the operating system releases it once
//! the last process holding the descriptor has ended (the experiment's
//! group, or `srun` while its job runs), or is ended (`arx ps --reap`). So
//! a slot is never given to a second experiment while the first still
//! runs, and can never leak: there is no counter to repair.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use super::state::{ensure_dir_within, open_no_follow};

/// How often a queued run looks for a free slot again.
const POLL: Duration = Duration::from_millis(100);

/// A slot held until dropped (and, after arx is gone, while a process
/// that inherited [`Slot::fd`] lives).
#[derive(Debug)]
pub struct Slot {
    /// Index from 0 among the configured slots.
    pub index: usize,
    lock: File,
}

impl Slot {
    /// The lock's descriptor, for the experiment's processes to inherit:
    /// the lock belongs to the open file they share, so it is held as
    /// long as one of them has it open.
    pub fn fd(&self) -> RawFd {
        self.lock.as_raw_fd()
    }
}

impl Drop for Slot {
    /// Released explicitly, not only closed: a process that left the
    /// experiment's group and outlived the run (a daemon) may still have
    /// the descriptor open, and the experiment has ended.
    fn drop(&mut self) {
        let _ = self.lock.unlock();
    }
}

fn lock_path(state: &Path, index: usize) -> PathBuf {
    state.join("slots").join(format!("{index}.lock"))
}

/// Which slot a run wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Want {
    /// The first free one.
    #[default]
    Any,
    /// This one when it is free, else the first free one (a measurement's
    /// runs stay on the slot its first run took).
    Prefer(usize),
    /// This one only (the best measured again on a candidate's slot).
    Only(usize),
}

/// Take a free slot among `count` as `want` says, without waiting. A slot
/// beyond `count` is no preference.
pub fn try_take(state: &Path, count: usize, want: Want) -> Result<Option<Slot>> {
    ensure_dir_within(state, &state.join("slots"))?;
    let (first, only) = match want {
        Want::Any => (None, false),
        Want::Prefer(i) => (Some(i).filter(|&i| i < count), false),
        Want::Only(i) => (Some(i).filter(|&i| i < count), true),
    };
    let rest = (0..count).filter(|&i| Some(i) != first && !(only && first.is_some()));
    for index in first.into_iter().chain(rest) {
        let path = lock_path(state, index);
        let file = open_no_follow(
            OpenOptions::new().read(true).write(true).create(true),
            &path,
        )?;
        match file.try_lock() {
            Ok(()) => return Ok(Some(Slot { index, lock: file })),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
    Ok(None)
}

/// Take a free slot among `count` as `want` says, waiting as long as none
/// is free.
/// `waiting` is called at each look while the run waits (it keeps the
/// run's heartbeat going). `None` when `interrupt` was raised while
/// waiting.
pub fn take(
    state: &Path,
    count: usize,
    want: Want,
    interrupt: &Arc<AtomicBool>,
    mut waiting: impl FnMut(),
) -> Result<Option<Slot>> {
    loop {
        if let Some(slot) = try_take(state, count, want)? {
            return Ok(Some(slot));
        }
        waiting();
        if interrupt.load(Ordering::SeqCst) {
            return Ok(None);
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_slot_is_not_taken_twice_and_frees_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let a = try_take(dir.path(), 2, Want::Any).unwrap().unwrap();
        let b = try_take(dir.path(), 2, Want::Any).unwrap().unwrap();
        assert_eq!((a.index, b.index), (0, 1));
        assert!(try_take(dir.path(), 2, Want::Any).unwrap().is_none());
        drop(a);
        assert_eq!(
            try_take(dir.path(), 2, Want::Any).unwrap().unwrap().index,
            0
        );
    }

    #[test]
    fn a_preferred_slot_is_taken_when_free_and_another_when_not() {
        let dir = tempfile::tempdir().unwrap();
        let two = try_take(dir.path(), 3, Want::Prefer(2)).unwrap().unwrap();
        assert_eq!(two.index, 2);
        // Held: the first free one instead, without waiting.
        assert_eq!(
            try_take(dir.path(), 3, Want::Prefer(2))
                .unwrap()
                .unwrap()
                .index,
            0
        );
        // A preference beyond the slots is no preference.
        assert_eq!(
            try_take(dir.path(), 3, Want::Prefer(7))
                .unwrap()
                .unwrap()
                .index,
            0
        );
    }

    #[test]
    fn a_run_that_wants_one_slot_only_waits_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let two = try_take(dir.path(), 3, Want::Only(2)).unwrap().unwrap();
        assert_eq!(two.index, 2);
        // Held: nothing, though slots 0 and 1 are free.
        assert!(try_take(dir.path(), 3, Want::Only(2)).unwrap().is_none());
        drop(two);
        assert_eq!(
            try_take(dir.path(), 3, Want::Only(2))
                .unwrap()
                .unwrap()
                .index,
            2
        );
        // A slot beyond the slots is no preference.
        assert_eq!(
            try_take(dir.path(), 3, Want::Only(7))
                .unwrap()
                .unwrap()
                .index,
            0
        );
    }

    #[test]
    fn a_queued_run_hears_at_each_look_and_stops_on_interrupt() {
        let dir = tempfile::tempdir().unwrap();
        let _held = try_take(dir.path(), 1, Want::Any).unwrap().unwrap();
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut heard = 0;
        let got = take(dir.path(), 1, Want::Any, &interrupt, || {
            heard += 1;
            if heard == 3 {
                interrupt.store(true, Ordering::SeqCst);
            }
        })
        .unwrap();
        assert!(got.is_none());
        assert_eq!(heard, 3);
    }

    #[test]
    fn a_dropped_slot_is_free_though_a_copy_of_its_descriptor_is_open() {
        let dir = tempfile::tempdir().unwrap();
        let slot = try_take(dir.path(), 1, Want::Any).unwrap().unwrap();
        // What an experiment that outlived its run would hold.
        let copy = slot.lock.try_clone().unwrap();
        assert!(try_take(dir.path(), 1, Want::Any).unwrap().is_none());
        drop(slot);
        assert!(try_take(dir.path(), 1, Want::Any).unwrap().is_some());
        drop(copy);
    }

    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("slots")).unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "").unwrap();
        std::os::unix::fs::symlink(&target, lock_path(dir.path(), 0)).unwrap();
        assert!(try_take(dir.path(), 1, Want::Any).is_err());
    }
}
