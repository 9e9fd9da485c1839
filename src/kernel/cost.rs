//! What a try costs, said before it starts: how many runs, and about how
//! long at the time one run takes (from the segment's record, or the first
//! run's duration).
//!
//! A segment's first try measures the baseline (`baseline_repeat` runs);
//! every candidate then runs `repeat` times (the screen, where a discard
//! ends) and at most `max_runs` times (a keep confirmed).

use serde::Serialize;

/// The runs a try takes and the time one run takes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cost {
    /// The baseline's runs, when the try measures one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_runs: Option<u32>,
    /// The candidate's fewest runs (a discard at the screen).
    pub candidate_min_runs: u32,
    /// The candidate's most runs (a keep).
    pub candidate_max_runs: u32,
    /// The time one run takes, in ms, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_ms: Option<u64>,
}

impl Cost {
    /// The cost of a try of `objective`, with a baseline first or not.
    pub fn of(
        objective: &crate::kernel::objective::Objective,
        rule: crate::kernel::ratchet::Rule,
        baseline: bool,
        run_ms: Option<u64>,
    ) -> Cost {
        let repeat = objective.repeat.max(1);
        Cost {
            baseline_runs: baseline.then_some(objective.baseline_repeat),
            candidate_min_runs: repeat,
            candidate_max_runs: most_runs(rule, repeat),
            run_ms,
        }
    }

    /// The baseline's line: `baseline: 5 runs, about 25 min`.
    pub fn baseline_line(&self) -> Option<String> {
        let n = self.baseline_runs?;
        Some(format!("baseline: {}{}", runs(n), self.about(n, n)))
    }

    /// The candidate's line: `each candidate: 1 to 5 runs, about 5 to 25 min`.
    pub fn candidate_line(&self) -> String {
        let (lo, hi) = (self.candidate_min_runs, self.candidate_max_runs);
        let count = if lo == hi {
            runs(lo)
        } else {
            format!("{lo} to {hi} runs")
        };
        format!(
            "each candidate: {count}{} (a discard at the screen, a keep confirmed)",
            self.about(lo, hi)
        )
    }

    /// The lines people read: the baseline's (when there is one), then the
    /// candidate's.
    pub fn lines(&self) -> Vec<String> {
        self.baseline_line()
            .into_iter()
            .chain(std::iter::once(self.candidate_line()))
            .collect()
    }

    fn about(&self, lo: u32, hi: u32) -> String {
        let Some(ms) = self.run_ms else {
            return String::new();
        };
        let (a, b) = (about(ms * u64::from(lo)), about(ms * u64::from(hi)));
        match (a.split_once(' '), b.split_once(' ')) {
            _ if a == b => format!(", about {a}"),
            (Some((n, unit)), Some((_, other))) if unit == other => format!(", about {n} to {b}"),
            _ => format!(", about {a} to {b}"),
        }
    }
}

fn runs(n: u32) -> String {
    format!("{n} run{}", if n == 1 { "" } else { "s" })
}

/// The most runs of a candidate under `rule` with `repeat` screening
/// runs: the cap `measure` gives the rule, and under `sequential` the runs
/// that record a keep after it.
pub fn most_runs(rule: crate::kernel::ratchet::Rule, repeat: u32) -> u32 {
    use crate::kernel::ratchet::{Rule, DEFAULT_MAX_RUNS, SEQUENTIAL_MAX_RUNS, TOP_UP};
    let repeat = repeat.max(1);
    match rule {
        Rule::Sequential => repeat.max(SEQUENTIAL_MAX_RUNS) + TOP_UP as u32,
        _ => repeat.max(DEFAULT_MAX_RUNS),
    }
}

/// A duration rounded as an estimate is: `40 s`, `25 min`, `1.5 h`.
pub fn about(ms: u64) -> String {
    let s = (ms + 500) / 1000;
    match s {
        0..=89 => format!("{} s", s.max(1)),
        90..=5399 => format!("{} min", (s + 30) / 60),
        _ => {
            let tenths = (s + 180) / 360;
            if tenths.is_multiple_of(10) {
                format!("{} h", tenths / 10)
            } else {
                format!("{}.{} h", tenths / 10, tenths % 10)
            }
        }
    }
}

/// The time one run takes from a record: its duration over its runs
/// (none without a run).
pub fn per_run(duration_ms: u64, runs: u64) -> Option<u64> {
    (runs > 0 && duration_ms > 0).then(|| duration_ms / runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(baseline: Option<u32>, run_ms: Option<u64>) -> Cost {
        Cost {
            baseline_runs: baseline,
            candidate_min_runs: 1,
            candidate_max_runs: 5,
            run_ms,
        }
    }

    #[test]
    fn five_minute_runs_make_a_25_minute_baseline() {
        let c = cost(Some(5), Some(300_000));
        assert_eq!(c.baseline_line().unwrap(), "baseline: 5 runs, about 25 min");
        assert_eq!(
            c.candidate_line(),
            "each candidate: 1 to 5 runs, about 5 to 25 min (a discard at the screen, a keep confirmed)"
        );
    }

    #[test]
    fn the_most_runs_are_the_rules_cap() {
        use crate::kernel::ratchet::Rule;
        // `sequential`: up to 8 runs, then 5 that record a keep.
        assert_eq!(most_runs(Rule::Sequential, 1), 13);
        assert_eq!(most_runs(Rule::Sequential, 10), 15);
        assert_eq!(most_runs(Rule::Confirm, 1), 5);
        assert_eq!(most_runs(Rule::Strict, 0), 5);
    }

    #[test]
    fn without_a_duration_only_the_runs_are_said() {
        let c = cost(Some(3), None);
        assert_eq!(
            c.lines(),
            [
                "baseline: 3 runs",
                "each candidate: 1 to 5 runs (a discard at the screen, a keep confirmed)"
            ]
        );
        assert_eq!(cost(None, None).lines().len(), 1);
    }

    #[test]
    fn durations_are_rounded_to_their_unit() {
        assert_eq!(about(0), "1 s");
        assert_eq!(about(40_400), "40 s");
        assert_eq!(about(95_000), "2 min");
        assert_eq!(about(25 * 60_000), "25 min");
        assert_eq!(about(90 * 60_000), "1.5 h");
        assert_eq!(about(3 * 3_600_000), "3 h");
        let c = cost(Some(5), Some(30_000));
        assert_eq!(c.baseline_line().unwrap(), "baseline: 5 runs, about 3 min");
        assert!(
            c.candidate_line().contains("about 30 s to 3 min"),
            "{}",
            c.candidate_line()
        );
        assert_eq!(per_run(10_000, 4), Some(2_500));
        assert_eq!(per_run(10_000, 0), None);
    }
}
