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
pub mod cost;
pub mod effect;
pub mod failure;
pub mod fleet;
pub mod fleet_classes;
pub mod fleet_confirm;
pub mod gate;
pub mod guard;
pub mod holdout;
pub mod idea;
pub mod import;
pub mod imported;
pub mod instances;
pub mod journal;
pub mod launch;
pub mod live;
pub mod migrate;
pub mod names;
pub mod number;
pub mod objective;
pub mod outcome;
pub mod paired;
pub mod path_bytes;
pub mod policy;
pub mod promote;
pub mod prune;
pub mod ratchet;
mod ratchet_noise;
pub mod ratchet_record;
pub mod ratchet_replayed;
pub mod record;
pub mod report;
pub mod round;
pub mod segment;
pub mod skim;
pub mod slot_offset;
pub mod statements;
pub mod stats;
pub mod tally;
pub mod text;
pub mod try_outcome;
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

    /// A try that ran by an objective replaced meanwhile, journaled after
    /// the new segment's baseline, folds into its own (earlier) segment in
    /// the segment fold and the report's alike: the new segment goes on,
    /// with no second baseline. A baseline of the old objective (it came
    /// back) starts a segment as before.
    #[test]
    fn a_late_record_of_an_earlier_segment_does_not_start_one_again() {
        use crate::kernel::journal::RunRecord;
        let line = |n: u32, segment: &str, status: &str, direction: &str| {
            format!(
                "{{\"run_id\":\"01a2-{n}\",\"started_at\":\"2026-01-01T00:00:{n:02}Z\",\
                 \"ended_at\":\"2026-01-01T00:00:{n:02}Z\",\"duration_ms\":5,\"command\":[\"x\"],\
                 \"shell\":true,\"cwd\":\"/w\",\"metrics\":{{\"m\":{n}}},\"exit_code\":0,\
                 \"timed_out\":false,\"interrupted\":false,\"failure_class\":\"none\",\
                 \"stdout_tail\":\"\",\"stderr_tail\":\"\",\
                 \"ratchet\":{{\"segment\":\"{segment}\",\"status\":\"{status}\",\"metric\":\"m\",\
                 \"direction\":\"{direction}\",\"kept\":\"k\",\"commit\":\"c{n}\"}}}}"
            )
        };
        let lines = [
            line(1, "max", "baseline", "max"),
            line(2, "min", "baseline", "min"),
            line(3, "max", "discard", "max"),
            line(4, "min", "keep", "min"),
            line(5, "max", "discard", "max"),
            line(6, "min", "discard", "min"),
        ];
        let records: Vec<RunRecord> = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect("a record"))
            .collect();
        let segments = super::segment::segments(&records);
        let seen: Vec<(&str, usize)> = segments.iter().map(|s| (s.id.as_str(), s.tries)).collect();
        assert_eq!(seen, [("max", 3), ("min", 3)]);
        assert!(super::segment::current(&records, "min").is_some_and(|s| s.kept.is_some()));
        let mut points: Vec<_> = lines
            .iter()
            .map(|l| super::report::parse_line(l.as_bytes()).expect("a point"))
            .collect();
        let fold = super::report::fold_all(&mut points);
        let seen: Vec<(&str, usize)> = fold
            .segments
            .iter()
            .map(|s| (s.id.as_str(), s.tries))
            .collect();
        assert_eq!(seen, [("max", 3), ("min", 3)]);
        // The old objective back: its baseline starts a third segment.
        let mut lines = lines.to_vec();
        lines.push(line(7, "max", "baseline", "max"));
        let records: Vec<RunRecord> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(super::segment::segments(&records).len(), 3);
    }
}
