//! What a report reads besides the journal, for `arx report` and `arx
//! serve` alike: the stop rules of `[objective.stop]`, the dead ends and
//! the rounds, in brief.

use std::path::Path;

use anyhow::Result;

use crate::error::Hinted;
use crate::io::config::Config;
use crate::io::Warn;
use crate::kernel::objective::StopRules;
use crate::kernel::report::{DeadEnd, Round};

/// The stop rules of `[objective.stop]`, if any.
pub fn stop_rules(config: &Config) -> Result<StopRules> {
    let Some(stop) = config.objective.as_ref().and_then(|o| o.get("stop")) else {
        return Ok(StopRules::default());
    };
    serde_json::from_value(stop.clone()).map_err(|e| {
        Hinted::error(
            format!("invalid [objective.stop]: {e}"),
            "keys are max_runs, max_discards_in_a_row, max_hours and target",
        )
    })
}

/// The dead ends recorded, oldest first.
pub fn dead_ends(state: &Path, warn: Warn) -> Result<Vec<DeadEnd>> {
    Ok(crate::io::state::dead_ends(state, warn)
        .read()?
        .into_iter()
        .map(|d| DeadEnd {
            statement: d.statement,
            reason: d.reason,
            approach_hash: d.approach_hash,
            created_at: d.created_at,
        })
        .collect())
}

/// The rounds, oldest first (records that cannot be read told to `warn`).
pub fn rounds(state: &Path, warn: Warn) -> Result<Vec<Round>> {
    let (records, skipped) = crate::io::rounds::all_records(state)?;
    for s in skipped {
        warn(&s);
    }
    let mut rounds: Vec<Round> = records
        .into_iter()
        .map(|r| Round {
            round_id: r.round_id,
            status: r.status.to_string(),
            detail: r.detail,
            created_at: r.created_at,
            commit: r.applied_sha.or(r.commit_sha),
        })
        .collect();
    rounds.sort_by(|a, b| a.created_at.cmp(&b.created_at));
    Ok(rounds)
}
