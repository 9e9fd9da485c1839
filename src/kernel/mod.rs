//! Pure decisions: the experiment-result contract, verdicts, failure classes,
//! gates, loop policy and promotion rules.
//!
//! Everything here takes values and returns values. No files, clocks,
//! environment, processes, git or printing: the host (commands and `io`)
//! acts, the kernel decides. Parity with the reference kernel is tested
//! against the conformance fixtures in `fixtures/kernel/`.

pub mod agents;
pub mod config_text;
pub mod contract;
pub mod failure;
pub mod gate;
pub mod journal;
pub mod launch;
pub mod live;
pub mod names;
pub mod number;
pub mod objective;
pub mod outcome;
pub mod policy;
pub mod promote;
pub mod prune;
pub mod ratchet;
pub mod ratchet_record;
pub mod record;
pub mod report;
pub mod round;
pub mod segment;
pub mod skim;
pub mod slot_offset;
pub mod statements;
pub mod stats;
pub mod tally;
pub mod verdict;

#[cfg(test)]
mod tests {
    // Here, above the modules, so that none of them imports the others.
    #[test]
    fn every_name_enum_is_spelled_alike() {
        use super::names::spelled_alike;
        use crate::kernel::failure::FailureClass;
        use crate::kernel::gate::Gate;
        use crate::kernel::round::{PatchKind, PatchOp, RoundStatus};
        use crate::kernel::stats::Direction;
        use crate::kernel::verdict::{EvidenceLevel, Verdict};
        spelled_alike(Verdict::ALL);
        spelled_alike(EvidenceLevel::ALL);
        spelled_alike(FailureClass::ALL);
        spelled_alike(Gate::ALL);
        spelled_alike(Direction::ALL);
        spelled_alike(PatchKind::ALL);
        spelled_alike(PatchOp::ALL);
        spelled_alike(RoundStatus::ALL);
        assert_eq!(
            serde_json::to_string(&[FailureClass::H2, FailureClass::None]).unwrap(),
            r#"["H2","none"]"#
        );
        assert_eq!(
            serde_json::to_string(&EvidenceLevel::ExitCode).unwrap(),
            r#""exit_code""#
        );
        assert_eq!(
            "x".parse::<Verdict>().unwrap_err(),
            r#"unknown verdict "x" (expected supported, refuted or inconclusive)"#
        );
    }
}
