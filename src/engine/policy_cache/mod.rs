//! The policy cache: state fingerprints, crystallization of repeated
//! (state, action) successes into standing policies with a Q value that
//! TD(0) keeps current, and the weekday test that tells whether events
//! (failures, say) cluster on particular days.
//!
//! Follows Popoto 1.10.1 `recipes/policy_cache`,
//! with the clock and the event stream lifted out: fingerprints hash a
//! canonical JSON text byte-identical to Python's
//! `json.dumps(obj, sort_keys=True)`, so they match fingerprints computed
//! by the reference.
//!
//! Pure: features, counts and event times in, fingerprints, entries and
//! statistics out. It must not read the journal, files, clocks or the
//! environment, or print; the host passes the hour bucket and event times
//! (unix seconds) in, and keeps the entries. Chi-squared quantiles come
//! from `statrs`.
//!
//! Three parts: [`canonical_json`] and [`fingerprint()`] (the state a run is
//! in), the learning rules (Wilson bound, crystallization, TD(0)) and the
//! weekday cycle test. Every item is re-exported here.

mod cycles;
mod fingerprint;
mod learn;

pub use cycles::{
    chi_squared_critical, chi_squared_uniform, weekday_cycle, weekday_cycle_of_counts, Weekday,
    WeekdayCycle, CHI_SQUARED_CRITICAL_05, CHI_SQUARED_P, OVER_REPRESENTED_RESIDUAL,
};
pub use fingerprint::{
    canonical_json, fingerprint, hour_bucket, HOUR_BUCKET_KEY, SECONDS_PER_HOUR,
};
pub use learn::{
    crystallize, crystallizes, reward, td0_update, wilson_lower, OutcomeEvent, PolicyEntry,
    MIN_EVENTS, TD_ALPHA, TD_GAMMA, WILSON_THRESHOLD, WILSON_Z,
};
