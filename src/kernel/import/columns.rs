//! What a night says about itself: which numeric column is its metric (not
//! a commit, a time, a memory or a counter, and one that varies), and
//! which way its keeps moved (a loop that keeps only improvements moves
//! its kept value one way).

use crate::kernel::stats::Direction;

/// The kept values of a night, in order: how often they went up, down.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Moves {
    first: Option<f64>,
    last: Option<f64>,
    up: usize,
    down: usize,
}

impl Moves {
    /// One more kept value.
    pub fn keep(&mut self, v: f64) {
        match self.last {
            Some(l) if v > l => self.up += 1,
            Some(l) if v < l => self.down += 1,
            Some(_) => {}
            None => self.first = Some(v),
        }
        self.last = Some(v);
    }

    /// The way the keeps moved, when they tell: every move one way; or,
    /// over ten moves or more, nine in ten one way and the night's net
    /// change that way too (a loop keeps an equal or slightly worse but
    /// simpler change now and then). Otherwise none: never a guess.
    pub fn direction(&self) -> Option<Direction> {
        let (up, down) = (self.up, self.down);
        let net = self.last? - self.first?;
        let one_way = |a: usize, b: usize| a > 0 && (b == 0 || (a + b >= 10 && a >= 9 * b));
        if one_way(down, up) && net < 0.0 {
            Some(Direction::Min)
        } else if one_way(up, down) && net > 0.0 {
            Some(Direction::Max)
        } else {
            None
        }
    }
}

/// What one column of a tab-separated night held, row by row.
#[derive(Debug, Clone, Default)]
pub struct ColumnStats {
    /// Cells that read as a number, as text that is not a number, as a
    /// missing value (`missing`, `-`, `nan`, empty).
    pub numbers: usize,
    pub texts: usize,
    first: Option<f64>,
    varies: bool,
    /// Every number so far an integer one more than the one before.
    counting: bool,
    /// Every number so far large (epoch seconds or milliseconds) and not
    /// smaller than the one before.
    clock: bool,
    prev: Option<f64>,
    /// The kept values (keeps and baselines) of this column.
    pub keeps: Moves,
}

/// A cell that stands for no value.
pub fn missing(cell: &str) -> bool {
    matches!(
        cell.trim().to_ascii_lowercase().as_str(),
        "" | "-" | "missing" | "nan" | "na" | "n/a" | "none" | "null"
    )
}

impl ColumnStats {
    /// One more cell: `value` when it reads as a number, `kept` when its
    /// row is a keep or a baseline, `crashed` for a crash (its logged
    /// zeros are no measurement).
    pub fn cell(&mut self, text: &str, value: Option<f64>, kept: bool, crashed: bool) {
        let Some(v) = value else {
            if !missing(text) {
                self.texts += 1;
            }
            return;
        };
        self.numbers += 1;
        if crashed {
            return;
        }
        match self.first {
            None => {
                self.first = Some(v);
                self.counting = v.fract() == 0.0;
                self.clock = v >= 1e8;
            }
            Some(f) => {
                self.varies |= v != f;
                let prev = self.prev.unwrap_or(f);
                self.counting &= v == prev + 1.0;
                self.clock &= v >= 1e8 && v >= prev;
            }
        }
        self.prev = Some(v);
        if kept {
            self.keeps.keep(v);
        }
    }

    /// A numeric column: numbers in most of the cells that hold anything.
    pub fn numeric(&self) -> bool {
        self.numbers > 0 && self.numbers >= 4 * self.texts
    }

    /// Could this column be the night's metric (its name aside)?
    fn candidate(&self) -> bool {
        let counted = self.numbers >= 3;
        self.numeric() && self.varies && !(counted && (self.counting || self.clock))
    }
}

/// What a column's name says it holds, when it is not a measurement to
/// optimise: a commit, a time, a memory, a counter, or the loop's own
/// bookkeeping.
pub fn not_a_metric(name: &str) -> bool {
    const EXACT: &[&str] = &[
        // The loops' own columns.
        "commit",
        "status",
        "description",
        "iteration",
        "delta",
        "guard",
        "notes",
        "note",
        // Counters.
        "cycle",
        "iter",
        "step",
        "steps",
        "epoch",
        "epochs",
        "round",
        "run",
        "idx",
        "index",
        "id",
        "n",
        "#",
        "no",
        "num",
        "trial",
        "exp",
        "experiment",
        "attempt",
        "seed",
        "row",
        "line",
        "worker",
        "lane",
        "gpu",
        "count",
        // Times.
        "time",
        "timestamp",
        "date",
        "datetime",
        "ts",
        "elapsed",
        "duration",
        "wall",
        "wallclock",
        "seconds",
        "runtime",
        "started",
        "ended",
        "hour",
        "minute",
    ];
    const SUFFIXES: &[&str] = &[
        "_id",
        "_idx",
        "_step",
        "_count",
        "_time",
        "_timestamp",
        "_date",
        "_at",
        "_seconds",
        "_secs",
        "_sec",
        "_s",
        "_ms",
        "_mins",
        "_minutes",
        "_hours",
        "_h",
        "_elapsed",
        "_duration",
        "_gb",
        "_mb",
        "_gib",
        "_mib",
        "_bytes",
    ];
    const PREFIXES: &[&str] = &["time_", "elapsed_", "duration_", "wall_", "num_", "n_"];
    let n = name.trim().to_ascii_lowercase();
    // A rate is a measurement (tokens_per_sec), whatever its unit.
    if n.contains("per_") || n.contains("/s") {
        return false;
    }
    EXACT.contains(&n.as_str())
        || SUFFIXES.iter().any(|s| n.ends_with(s))
        || PREFIXES.iter().any(|p| n.starts_with(p))
        || n.contains("mem")
        || n.contains("vram")
        || n.contains("rss")
}

/// The metric column: the first numeric column that is not a commit,
/// time, memory or counter column and whose value varies over the night.
pub fn choose(names: &[String], stats: &[ColumnStats]) -> Option<usize> {
    (0..names.len()).find(|&i| !not_a_metric(&names[i]) && stats[i].candidate())
}

/// The numeric columns, named for an error.
pub fn numeric_names(names: &[String], stats: &[ColumnStats]) -> Vec<String> {
    (0..names.len())
        .filter(|&i| stats[i].numeric())
        .map(|i| names[i].clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(values: &[f64]) -> Option<Direction> {
        let mut m = Moves::default();
        values.iter().for_each(|&v| m.keep(v));
        m.direction()
    }

    #[test]
    fn keeps_tell_the_direction_only_when_they_move_one_way() {
        assert_eq!(moves(&[1.0, 0.9, 0.9, 0.8]), Some(Direction::Min));
        assert_eq!(moves(&[0.5, 0.6, 0.7]), Some(Direction::Max));
        assert_eq!(moves(&[1.0]), None);
        assert_eq!(moves(&[1.0, 1.0]), None);
        assert_eq!(moves(&[1.0, 0.9, 1.1]), None);
        // One simpler-but-equal-or-worse keep in a long night.
        let mut long: Vec<f64> = (0..12).map(|i| 1.0 - f64::from(i) * 0.01).collect();
        long.insert(6, 0.96);
        assert_eq!(moves(&long), Some(Direction::Min));
    }

    #[test]
    fn names_of_bookkeeping_columns_are_no_metric() {
        for n in [
            "commit",
            "memory_gb",
            "peak_vram_mb",
            "timestamp",
            "cycle",
            "train_time",
        ] {
            assert!(not_a_metric(n), "{n}");
        }
        for n in [
            "val_bpb",
            "roc_auc",
            "tokens_per_sec",
            "aggregate_score",
            "loss",
        ] {
            assert!(!not_a_metric(n), "{n}");
        }
    }
}
