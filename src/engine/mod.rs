//! Pure engines that steer an autoresearch loop: hierarchical precision
//! (how much the loop should trust its own predictions), expected free
//! energy (which candidate to try next) and the policy cache (which
//! state/action pairs have earned a standing policy, and whether failures
//! follow the calendar). They learn from the run journal: [`observe`] reads
//! its lines into observations and [`history`] folds them.
//!
//! Like the kernel, everything here takes values and returns values: no
//! files, clocks, environment, processes, randomness or printing. Where an
//! engine needs a random draw or the current time, the host passes it in
//! (a uniform number from a seeded generator, unix seconds), so a run is
//! reproducible. The formulas follow the reference packages (LRS-Agents
//! 0.2.1, Popoto 1.10.1), and the unit tests reproduce their check values.

pub mod efe;
pub mod finding;
pub mod history;
pub mod observe;
pub mod policy_cache;
pub mod precision;
pub mod select;
pub mod steer;
