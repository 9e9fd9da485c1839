//! Pure decisions: the experiment-result contract, verdicts, failure classes,
//! gates, loop policy and promotion rules.
//!
//! Everything here takes values and returns values. No files, clocks,
//! environment, processes, git or printing: the host (commands and `io`)
//! acts, the kernel decides. Parity with the reference kernel is tested
//! against the conformance fixtures in `fixtures/kernel/`.

pub mod agents;
pub mod contract;
pub mod failure;
pub mod gate;
pub mod journal;
pub mod live;
pub mod names;
pub mod number;
pub mod objective;
pub mod outcome;
pub mod policy;
pub mod promote;
pub mod prune;
pub mod ratchet;
pub mod record;
pub mod report;
pub mod round;
pub mod segment;
pub mod skim;
pub mod statements;
pub mod stats;
pub mod tally;
pub mod verdict;
