//! Journaling runs: the check before an experiment starts, and the append
//! that the engines' state follows.

use std::path::Path;

use anyhow::{Context, Result};

use crate::io::state::journal;
use crate::io::Warn;
use crate::io::{disk, history};
use crate::kernel::journal::RunRecord;

/// Room a run record may need on disk (the output tails, metrics and the
/// rest, with margin).
pub const RECORD_ROOM: u64 = 1 << 20;

/// Fail before the experiment, not after it, when the journal cannot be
/// written: it cannot be opened for appending, or its file system has no
/// room for a record.
pub fn check_writable(state: &Path, warn: Warn) -> Result<()> {
    let registry = journal(state, warn);
    registry
        .check_writable()
        .context("cannot write the run journal")?;
    let dir = registry.path.parent().unwrap_or(state);
    disk::ensure_space(dir, RECORD_ROOM).context("cannot write the run journal")
}

/// Append a run and extend the engines' state by it. A failure of the
/// latter is not the run's: it is reported to `warn`, and the state is
/// rebuilt from the journal next time.
pub fn record_run(state: &Path, record: &RunRecord, warn: Warn) -> Result<()> {
    let registry = journal(state, warn);
    let span = registry
        .append(record)
        .context("cannot write the run journal")?;
    if let Err(e) = history::record_run(state, &registry.path, span, record) {
        warn(&format!("cannot update the precision state: {e:#}"));
    }
    Ok(())
}

/// Append records as they are (the engines' state is rebuilt from the
/// journal when it next needs them).
pub fn append(state: &Path, records: &[RunRecord], warn: Warn) -> Result<()> {
    let registry = journal(state, warn);
    for record in records {
        registry
            .append(record)
            .context("cannot write the run journal")?;
    }
    Ok(())
}
