//! Where a loop's runs go: the runs a rule spends on candidates that are
//! not better (null changes and regressions), on real gains before their
//! decision, and on a keep's record; and the true gain lost at each look
//! (gains discarded after k runs). Printed beside the streams' tables to
//! show where a rule's true improvement per run is won and lost.

use arx::kernel::ratchet::Decision;

use super::{Change, Kind};

/// The most runs a look is counted at (later looks count here).
const LOOKS: usize = 10;

/// One loop's spending (or, summed and divided, the mean over loops).
#[derive(Debug, Default, Clone, Copy)]
pub struct Spent {
    /// Tries and their runs on null changes and regressions.
    pub not_better_tries: f64,
    pub not_better_runs: f64,
    /// Tries and their decision runs (the record's left out) on gains.
    pub gain_tries: f64,
    pub gain_runs: f64,
    /// Runs of kept candidates after their keeping look (their record).
    pub record_runs: f64,
    /// True gain (σ) kept, and lost at each look (discarded after k runs,
    /// index k − 1).
    pub gain_kept: f64,
    pub lost_at: [f64; LOOKS],
}

impl Spent {
    /// Count one decided try: its change, its runs and the decision.
    pub fn add(&mut self, change: &Change, runs: usize, decision: &Decision) {
        let record = if decision.keep() && decision.record_from > 0 {
            runs - decision.record_from
        } else {
            0
        };
        let decided_on = runs - record;
        self.record_runs += record as f64;
        match change.kind {
            Kind::Improvement => {
                self.gain_tries += 1.0;
                self.gain_runs += decided_on as f64;
                if decision.keep() {
                    self.gain_kept += change.effect;
                } else {
                    self.lost_at[decided_on.clamp(1, LOOKS) - 1] += change.effect;
                }
            }
            Kind::Null | Kind::Regression => {
                self.not_better_tries += 1.0;
                self.not_better_runs += decided_on as f64;
            }
        }
    }

    /// The mean over loops.
    pub fn mean(all: &[Spent]) -> Spent {
        let n = all.len().max(1) as f64;
        let mut m = Spent::default();
        for s in all {
            m.not_better_tries += s.not_better_tries / n;
            m.not_better_runs += s.not_better_runs / n;
            m.gain_tries += s.gain_tries / n;
            m.gain_runs += s.gain_runs / n;
            m.record_runs += s.record_runs / n;
            m.gain_kept += s.gain_kept / n;
            for (a, b) in m.lost_at.iter_mut().zip(&s.lost_at) {
                *a += b / n;
            }
        }
        m
    }
}

/// The table of where the runs go, one row per rule.
pub fn table(rows: &[(&str, Spent)]) -> String {
    let mut out = String::from(
        "| rule | runs per try, not better | runs per try, gains (to decide) | record runs per loop | \
         share of the loop's runs: not better / gains / record | true gain kept (σ) | \
         true gain lost after 1 / 2 / 3 / 4 / 5+ runs (σ) |\n\
         |---|---:|---:|---:|---|---:|---|\n",
    );
    for (label, s) in rows {
        let total = s.not_better_runs + s.gain_runs + s.record_runs;
        let per = |runs: f64, tries: f64| if tries > 0.0 { runs / tries } else { 0.0 };
        let late: f64 = s.lost_at[4..].iter().sum();
        out += &format!(
            "| {label} | {:.2} | {:.2} | {:.1} | {:.0}% / {:.0}% / {:.0}% | {:.2} | {:.2} / {:.2} / {:.2} / {:.2} / {:.2} |\n",
            per(s.not_better_runs, s.not_better_tries),
            per(s.gain_runs, s.gain_tries),
            s.record_runs,
            100.0 * s.not_better_runs / total,
            100.0 * s.gain_runs / total,
            100.0 * s.record_runs / total,
            s.gain_kept,
            s.lost_at[0],
            s.lost_at[1],
            s.lost_at[2],
            s.lost_at[3],
            late,
        );
    }
    out
}
