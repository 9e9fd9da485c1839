//! The barrier that tests put in front of an experiment so that tries
//! started together are decided at the same time: lanes of one repository
//! (`tests/cli/lanes.rs`) and machines of a fleet (`tests/external/fleet*`).

/// A `sh` script: the barrier, then `body` (the experiment itself).
///
/// When `$ARX_SYNC` names a directory, a run marks itself there under the
/// name of its working directory (a lane's or a machine's) and waits, at
/// most 4 s, until `$ARX_SYNC_WANT` (default 1) marks are there. Without
/// `$ARX_SYNC` the run goes straight to `body`.
pub fn with_barrier(body: &str) -> String {
    format!("{BARRIER}{body}")
}

const BARRIER: &str = r#"#!/bin/sh
if [ -n "$ARX_SYNC" ]; then
  : > "$ARX_SYNC/$(basename "$PWD")"
  i=0
  while [ "$(ls "$ARX_SYNC" | wc -l)" -lt "${ARX_SYNC_WANT:-1}" ] && [ $i -lt 200 ]; do
    sleep 0.02; i=$((i + 1))
  done
fi
"#;
