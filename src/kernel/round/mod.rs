//! Life-harness rounds: the patch an agent proposes, its validation and
//! dedupe hash, the autonomy settings, the apply gate, the round decision,
//! evidence selection and the interval between rounds.
//!
//! This module owns the *decisions* of a round and nothing else. It must not
//! read or write files, touch git, read the clock or the environment, or
//! print: the host gathers findings, runs the proposing agent and the eval
//! checks, applies and commits, and passes values in. Time arrives as a
//! parameter. Path checks here are string-level only; whether a path is a
//! symlink, or resolves outside the repository, is for the host to check on
//! the filesystem.
//!
//! Parity: [`patch_hash`], [`validate_round_patch`], [`resolve_autonomy`],
//! [`should_apply`], [`decide_round`] and [`select_evidence`] match the
//! reference kernel on its conformance vectors. Checks that go beyond the
//! reference live in separate functions ([`strict_patch_errors`] and the
//! `path_*` predicates) so the parity functions keep the reference's results.
//!
//! Patches arrive as JSON written by agents. [`validate_patch_json`] reads
//! them from a [`serde_json::Value`] so that a malformed field (a kind that
//! does not exist, a number where text belongs) becomes one more validation
//! error rather than a parse failure; a well-formed patch yields a typed
//! [`RoundPatch`]. Deserializing [`RoundPatch`] directly with serde is strict
//! (unknown kinds and ops fail) and is meant for the host's own saved copies.

//!
//! The module is split by idea: the patch and its hash, the reference's
//! validation rules, arx's stricter string checks, the autonomy settings,
//! the apply gate and round decision, evidence selection and the interval
//! between rounds. Every item is re-exported here.

mod autonomy;
mod decide;
mod evidence;
mod gitnames;
mod interval;
mod patch;
mod strict;
mod validate;

#[cfg(test)]
mod testing;

pub use autonomy::{resolve_autonomy, AutonomyMode, AutonomyState};
pub use decide::{
    decide_round, gate_round, screen_round, should_apply, ApplyCheck, ApplyGate, EvalCheck,
    EvalReport, RoundDecision, RoundReason,
};
pub use evidence::{finding_priority, select_evidence, Finding};
pub use gitnames::{gitmodules_errors, is_dotgit, special_git_name};
pub use interval::{counts_for_interval, last_counted_round, next_round_allowed, round_allowed_at};
pub use patch::{patch_hash, PatchEntry, PatchKind, PatchOp, RoundPatch};
pub use strict::{
    kind_errors, path_has_control, path_has_nul, path_in_dir, path_in_state_dir, path_kind,
    path_touches_git, paths_alias, strict_patch_errors, toml_harness, toml_harness_error,
    toml_protected, PROTECTED_TOML_BLOCKS,
};
pub use validate::{validate_patch_json, validate_round_patch};

use super::names::str_enum;

/// Where the reference host keeps its project configuration; the default
/// `config_path` for the self-protection rules.
pub const DEFAULT_CONFIG_PATH: &str = ".planning/config.json";

/// The state directory arx keeps in a repository; rounds may not write there.
pub const STATE_DIR: &str = ".arx";

str_enum! {
    /// Where a round stands. Only [`RoundStatus::Applied`],
    /// [`RoundStatus::Evaluated`] and [`RoundStatus::Rejected`] count for the
    /// interval between rounds (see [`counts_for_interval`]).
    RoundStatus, "round status" {
        /// Nothing was done (kill switch, too little evidence, duplicate).
        Skipped => "skipped",
        /// Evidence was gathered.
        Gathered => "gathered",
        /// An agent proposed a patch.
        Proposed => "proposed",
        /// The patch passed validation.
        Validated => "validated",
        /// The eval passed; the round awaits review.
        Evaluated => "evaluated",
        /// The patch was merged.
        Applied => "applied",
        /// The patch was invalid or its eval failed.
        Rejected => "rejected",
        /// An applied round was undone.
        Reverted => "reverted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_round_trip() {
        for s in RoundStatus::ALL {
            assert_eq!(s.as_str().parse::<RoundStatus>().unwrap(), *s);
            assert_eq!(serde_json::to_value(s).unwrap(), json!(s.as_str()));
        }
        for g in ApplyGate::ALL {
            assert_eq!(serde_json::to_value(g).unwrap(), json!(g.as_str()));
        }
        assert!("exe".parse::<PatchKind>().is_err());
    }
}
