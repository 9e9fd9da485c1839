//! Points where a test can make arx die at once, as `kill -9` would, to
//! check that the next command finishes what it left half done. Inert
//! unless `ARX_FAILPOINT` names one of them (`ARX_FAILPOINT=discard:after-record`):
//! then the process kills itself with SIGKILL on reaching it, running no
//! destructor and flushing nothing, as a real kill would.

/// The environment variable naming the point to die at.
pub const VAR: &str = "ARX_FAILPOINT";

/// Every failpoint, in the order a try reaches them.
pub const ALL: &[&str] = &[
    // A discard: the candidate stored under its ref (synced), the marker
    // written, the record journaled, the kept commit restored.
    DISCARD_AFTER_SNAPSHOT,
    DISCARD_AFTER_MARKER,
    DISCARD_AFTER_RECORD,
    DISCARD_AFTER_RESTORE,
    // A keep: its intent written (the commit built and synced), the
    // keeping branch moved, the best's branch moved, the main working tree
    // followed, the record journaled.
    KEEP_AFTER_INTENT,
    // In a fleet: the keep pushed to the remote (the best and its record).
    KEEP_AFTER_PUSH,
    KEEP_AFTER_BRANCH,
    KEEP_AFTER_BEST,
    KEEP_AFTER_MAIN,
    KEEP_AFTER_RECORD,
    // A lane's take-up of the best: the merge written to the working
    // tree, then the index, before the lane's branch moves.
    TAKE_UP_AFTER_FILES,
    TAKE_UP_AFTER_INDEX,
    // A run: its experiment started, before its live file names its
    // process group.
    RUN_AFTER_SPAWN,
    // In a fleet that batches keeps: a keep that lost the race put in the
    // remote's merge queue.
    BATCH_AFTER_ENQUEUE,
    // In a fleet with `confirm_classes`: a sync's push of a keep N classes
    // found better landed, before its record here says so.
    CONFIRM_AFTER_PUSH,
];

pub const DISCARD_AFTER_SNAPSHOT: &str = "discard:after-snapshot";
pub const DISCARD_AFTER_MARKER: &str = "discard:after-marker";
pub const DISCARD_AFTER_RECORD: &str = "discard:after-record";
pub const DISCARD_AFTER_RESTORE: &str = "discard:after-restore";
pub const KEEP_AFTER_INTENT: &str = "keep:after-intent";
pub const KEEP_AFTER_PUSH: &str = "keep:after-push";
pub const KEEP_AFTER_BRANCH: &str = "keep:after-branch";
pub const KEEP_AFTER_BEST: &str = "keep:after-best";
pub const KEEP_AFTER_MAIN: &str = "keep:after-main";
pub const KEEP_AFTER_RECORD: &str = "keep:after-record";
pub const TAKE_UP_AFTER_FILES: &str = "take-up:after-files";
pub const TAKE_UP_AFTER_INDEX: &str = "take-up:after-index";
pub const RUN_AFTER_SPAWN: &str = "run:after-spawn";
pub const BATCH_AFTER_ENQUEUE: &str = "batch:after-enqueue";
pub const CONFIRM_AFTER_PUSH: &str = "confirm:after-push";

/// Die here if `ARX_FAILPOINT` names `point`.
pub fn hit(point: &str) {
    debug_assert!(ALL.contains(&point), "unknown failpoint {point}");
    if std::env::var_os(VAR).is_some_and(|v| v == point) {
        let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGKILL);
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_failpoint_is_named_once() {
        let mut names = super::ALL.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), super::ALL.len());
        super::hit(super::KEEP_AFTER_RECORD);
    }
}
