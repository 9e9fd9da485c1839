//! Loop policy: the next branch, termination and plateau detection.

use serde::Serialize;

use super::verdict::Verdict;

/// `finalize` when supported, otherwise `revise`.
pub fn decide_branch(verdict: Verdict) -> &'static str {
    if verdict == Verdict::Supported {
        "finalize"
    } else {
        "revise"
    }
}

/// The loop's status after a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LoopStatus {
    Supported,
    Exhausted,
    Active,
}

impl LoopStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LoopStatus::Supported => "supported",
            LoopStatus::Exhausted => "exhausted",
            LoopStatus::Active => "active",
        }
    }
}

/// `(done, status)`: supported ends the loop, so does a spent budget.
pub fn should_terminate(iteration: i64, max_iterations: i64, last: Verdict) -> (bool, LoopStatus) {
    if last == Verdict::Supported {
        (true, LoopStatus::Supported)
    } else if iteration >= max_iterations {
        (true, LoopStatus::Exhausted)
    } else {
        (false, LoopStatus::Active)
    }
}

/// The decision of one loop step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub branch: &'static str,
    pub done: bool,
    pub status: LoopStatus,
}

/// Branch, done and status together.
pub fn decide(iteration: i64, max_iterations: i64, verdict: Verdict) -> Decision {
    let (done, status) = should_terminate(iteration, max_iterations, verdict);
    Decision {
        branch: decide_branch(verdict),
        done,
        status,
    }
}

/// A plateau: at least `window` verdicts, the last `window` of them without
/// a `supported`. `window` must be at least 1.
pub fn detect_plateau(verdicts: &[Verdict], window: usize) -> bool {
    window >= 1
        && verdicts.len() >= window
        && verdicts[verdicts.len() - window..]
            .iter()
            .all(|v| *v != Verdict::Supported)
}
