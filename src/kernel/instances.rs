//! Per-instance scores (`[objective] instances = "KEY"`): an evaluation
//! suite prints, under one key of its result line, a score per instance
//! (an object of instance → number, or a list of numbers whose instance is
//! the index). Read here from the result object, kept compactly in the try
//! record, and compared between a candidate and the best.
//!
//! The run, not the instance, is the unit of replication. When every run
//! of a commit scores every instance alike (a suite at temperature 0: the
//! baseline's repeated runs show it), the instances' differences are the
//! change's own, and the test is an exact one-sided sign test over the
//! instances both sides scored: an instance counts as better when the
//! candidate's score beats the best's, worse when it trails, and the ties
//! (the instances a change did not move) drop out. When runs of one
//! commit score instances differently, a run may carry an effect shared by
//! all its instances (a retrained model, sampling at temperature above 0)
//! and the instances of one run are not independent: a sign test would
//! read one lucky run as many better instances. Then the test is over
//! runs ([`over_runs`]): each run's mean over the instances every compared
//! run scored, a one-sided two-sample Student-t test of the candidate's
//! runs against the best's (two runs a side at least), whose noise is the
//! spread of whole runs, the shared effect included, plus the spread of
//! the change's effect across instances (which instances it moved is a
//! sample too) — joined to the sign
//! test across instances on as many runs a side, so that a change that
//! wins on these instances only is not kept either.
//! `examples/instance_runs_sim.rs` measures both against a shared run
//! effect, and `examples/ratchet_sim/instances.rs` against the aggregate
//! rule.
//!
//! The metrics the kernel reads from a result line are unchanged: the
//! instance object is read beside them, never as a metric.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// Most instances one run's scores may hold; a result with more is not
/// read as instance scores (the run still counts by its metric).
pub const MAX_INSTANCES: usize = 10_000;

/// Longest result object (bytes, from `{` to its `}`) whose instance
/// scores are read; a longer one is not (the run still counts by its
/// metric). Bounds what a run holds whatever the experiment prints.
pub const MAX_OBJECT_BYTES: usize = 1 << 20;

/// The one-sided confidence the per-instance test holds a keep to at
/// least (the objective's `confidence` when higher): it decides on one
/// look, without the aggregate rule's screen and confirmation. Tuned by
/// `examples/ratchet_sim/instances.rs`.
pub const INSTANCE_CONFIDENCE: f64 = 0.95;

/// One run's scores, by instance, in the order printed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores(pub Vec<(String, f64)>);

impl Scores {
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why a run's result gave no instance scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// The result line has no such key.
    Missing,
    /// The value is not an object or a list (what it is).
    WrongType(&'static str),
    /// The object or list holds no instance.
    Empty,
    /// An instance's score is not a finite number (its name, what it is).
    NotANumber(String, &'static str),
    /// More than [`MAX_INSTANCES`] instances.
    TooMany(usize),
    /// The result object is longer than [`MAX_OBJECT_BYTES`].
    TooLong,
    /// The result object does not parse as JSON (deeper than this reader
    /// follows).
    Unparsed,
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Missing => write!(f, "the result has no such key"),
            Unread::WrongType(t) => write!(
                f,
                "its value is {t}, not an object of instance → number or a list of numbers"
            ),
            Unread::Empty => write!(f, "it holds no instance"),
            Unread::NotANumber(name, t) => {
                write!(f, "instance {name:?} has {t} for a score, not a number")
            }
            Unread::TooMany(n) => write!(
                f,
                "it holds {n} instances, more than the {MAX_INSTANCES} arx reads"
            ),
            Unread::TooLong => write!(
                f,
                "the result line is longer than the {} MiB arx reads instances from",
                MAX_OBJECT_BYTES >> 20
            ),
            Unread::Unparsed => write!(f, "the result object nests too deep to read"),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The instance scores under `key` of a result object's text (from `{` to
/// its closing `}`), as the result-line scanner captured it.
pub fn from_object(text: &[u8], key: &str) -> Result<Scores, Unread> {
    if text.len() > MAX_OBJECT_BYTES {
        return Err(Unread::TooLong);
    }
    let object: serde_json::Map<String, Value> =
        serde_json::from_slice(text).map_err(|_| Unread::Unparsed)?;
    read(object.get(key).ok_or(Unread::Missing)?)
}

/// The instance scores of one value: an object of instance → number, or a
/// list of numbers (instance = index). Every score must be a finite number.
pub fn read(value: &Value) -> Result<Scores, Unread> {
    let entries: Vec<(String, &Value)> = match value {
        Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        other => return Err(Unread::WrongType(kind(other))),
    };
    if entries.is_empty() {
        return Err(Unread::Empty);
    }
    if entries.len() > MAX_INSTANCES {
        return Err(Unread::TooMany(entries.len()));
    }
    let mut out = Vec::with_capacity(entries.len());
    for (name, v) in entries {
        match v.as_f64().filter(|x| x.is_finite()) {
            Some(x) => out.push((name, x)),
            None => return Err(Unread::NotANumber(name, kind(v))),
        }
    }
    Ok(Scores(out))
}

/// The instance scores of a try's runs, as its record keeps them: every
/// instance name once, then each run's scores in that order (`null` where
/// a run did not score the instance; a run without scores is `[]`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstanceRuns {
    pub names: Vec<String>,
    pub runs: Vec<Vec<Option<f64>>>,
}

impl InstanceRuns {
    /// The record of runs' scores (`None` for a run without).
    pub fn of(runs: &[Option<&Scores>]) -> InstanceRuns {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        for s in runs.iter().flatten() {
            for (n, _) in &s.0 {
                if !index.contains_key(n.as_str()) {
                    index.insert(n, names.len());
                    names.push(n.clone());
                }
            }
        }
        let rows = runs
            .iter()
            .map(|s| match s {
                None => Vec::new(),
                Some(s) => {
                    let mut row = vec![None; names.len()];
                    for (n, x) in &s.0 {
                        row[index[n.as_str()]] = Some(*x);
                    }
                    row
                }
            })
            .collect();
        InstanceRuns { names, runs: rows }
    }

    /// Each run's scores again (`None` for a run without).
    pub fn scores(&self) -> Vec<Option<Scores>> {
        self.runs
            .iter()
            .map(|row| {
                let s: Vec<(String, f64)> = self
                    .names
                    .iter()
                    .zip(row)
                    .filter_map(|(n, x)| x.map(|x| (n.clone(), x)))
                    .collect();
                (!s.is_empty()).then_some(Scores(s))
            })
            .collect()
    }

    /// The runs from `from` on (a keep's record leaves out its screen).
    pub fn from_run(&self, from: usize) -> InstanceRuns {
        InstanceRuns {
            names: self.names.clone(),
            runs: self.runs.iter().skip(from).cloned().collect(),
        }
    }
}

/// A candidate's instances against the best's, paired.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PerInstance {
    /// Instances whose mean score is better under the candidate.
    pub better: usize,
    /// Instances whose mean score is worse.
    pub worse: usize,
    /// Instances every compared run scored.
    pub common: usize,
    /// Instances some compared run scored and another did not, left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: usize,
    /// Runs compared on each side (the candidate's, under a test over
    /// runs).
    pub runs: usize,
    /// The test over runs, when the runs of a commit vary and it decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_runs: Option<OverRuns>,
}

/// The test over runs: the candidate's runs against the best's, each run
/// one value (its mean over the instances every compared run scored).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OverRuns {
    /// The candidate's mean of run means minus the best's, positive =
    /// better (score units).
    pub change: f64,
    /// Its standard error: the pooled spread of the runs' means, and the
    /// spread of the change's effect across instances ([`over_runs`]).
    pub se: f64,
    /// Degrees of freedom of that standard error: the runs' (runs of
    /// both sides − 2).
    pub df: f64,
    /// The best's runs compared.
    pub best_runs: usize,
    /// Instances every compared run scored.
    pub instances: usize,
    /// The instances' part of `se`: how far the change's effect spreads
    /// from instance to instance, over the instances' count (0 when the
    /// runs' own noise accounts for all of that spread).
    #[serde(default)]
    pub instances_se: f64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl PerInstance {
    /// `20 better, 5 worse of 200` (and the dropped instances, if any).
    pub fn words(&self) -> String {
        if self.common == 0 {
            return format!(
                "no instance in common of {} scored (the two sides name their instances differently)",
                self.dropped
            );
        }
        let dropped = if self.dropped > 0 {
            format!(" ({} dropped: not scored by every run)", self.dropped)
        } else {
            String::new()
        };
        let runs = match self.over_runs {
            Some(t) => format!(
                "; over runs: {} against {} of the best, change {} ± {}",
                self.runs,
                t.best_runs,
                crate::kernel::number::fmt_number(t.change),
                crate::kernel::number::fmt_number(t.se)
            ),
            None => String::new(),
        };
        format!(
            "{} better, {} worse of {}{dropped}{runs}",
            self.better, self.worse, self.common
        )
    }

    /// One-sided p of the sign test that the candidate is better: the
    /// chance of this many better instances or more among those that
    /// moved, were better and worse equally likely.
    pub fn p_better(&self) -> f64 {
        binomial_upper_tail(self.better + self.worse, self.better)
    }

    /// One-sided p that it is worse.
    pub fn p_worse(&self) -> f64 {
        binomial_upper_tail(self.better + self.worse, self.worse)
    }
}

/// Pair the candidate's runs with as many of the best's (the first
/// `min(k, nb)` of each: equal counts keep each difference symmetric under
/// no change), over the instances all of them scored. `sign` is +1 when
/// higher scores are better, −1 when lower are. `None` when a side has no
/// runs or no instance is common to all.
pub fn pair(best: &[&Scores], candidate: &[&Scores], sign: f64) -> Option<(PerInstance, Vec<f64>)> {
    let m = best.len().min(candidate.len());
    if m == 0 {
        return None;
    }
    let runs: Vec<HashMap<&str, f64>> = best[..m]
        .iter()
        .chain(&candidate[..m])
        .map(|s| s.0.iter().map(|(n, x)| (n.as_str(), *x)).collect())
        .collect();
    let mut union: Vec<&str> = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for s in best[..m].iter().chain(&candidate[..m]) {
        for (n, _) in &s.0 {
            if seen.insert(n.as_str(), ()).is_none() {
                union.push(n);
            }
        }
    }
    let mut diffs = Vec::new();
    for name in &union {
        let values: Option<Vec<f64>> = runs.iter().map(|r| r.get(name).copied()).collect();
        let Some(values) = values else { continue };
        let b: f64 = values[..m].iter().sum::<f64>() / m as f64;
        let c: f64 = values[m..].iter().sum::<f64>() / m as f64;
        diffs.push(sign * (c - b));
    }
    if diffs.is_empty() {
        return None;
    }
    let p = PerInstance {
        better: diffs.iter().filter(|d| **d > 0.0).count(),
        worse: diffs.iter().filter(|d| **d < 0.0).count(),
        common: diffs.len(),
        dropped: union.len() - diffs.len(),
        runs: m,
        over_runs: None,
    };
    Some((p, diffs))
}

/// The instance names a side's runs scored, for a person: the first three
/// of its first run and how many it has (`0, 1, 2, … (50 instances)`);
/// `None` when the side scored none.
pub fn names_of(side: &[&Scores]) -> Option<String> {
    let first = side.iter().find(|s| !s.is_empty())?;
    let mut names: Vec<String> = first
        .0
        .iter()
        .take(3)
        .map(|(n, _)| crate::kernel::text::clip(n, 24))
        .collect();
    if first.len() > 3 {
        names.push("…".to_string());
    }
    Some(format!(
        "{} ({} instance{})",
        names.join(", "),
        first.len(),
        if first.len() == 1 { "" } else { "s" }
    ))
}

/// How many instances some run of either side scored.
pub fn union_len(best: &[&Scores], candidate: &[&Scores]) -> usize {
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for s in best.iter().chain(candidate) {
        seen.extend(s.0.iter().map(|(n, _)| n.as_str()));
    }
    seen.len()
}

/// `P(X ≥ k)` for `X ~ Binomial(n, 1/2)`, summed in log space (exact to
/// rounding for any `n`).
pub fn binomial_upper_tail(n: usize, k: usize) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    // ln P(X = j), from j = n down: P(n) = 2^-n, P(j) = P(j+1)·(j+1)/(n−j).
    let mut logs = Vec::with_capacity(n - k + 1);
    let mut lp = -(n as f64) * std::f64::consts::LN_2;
    logs.push(lp);
    for j in (k..n).rev() {
        lp += ((j + 1) as f64 / (n - j) as f64).ln();
        logs.push(lp);
    }
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = logs.iter().map(|l| (l - top).exp()).sum();
    (top + sum.ln()).exp().min(1.0)
}

/// The per-instance scores a decision looks at: the best's recorded runs'
/// and the candidate's runs' (one per sample of the candidate).
#[derive(Debug, Clone, Copy)]
pub struct InstanceEvidence<'a> {
    pub best: &'a [&'a Scores],
    pub candidate: &'a [&'a Scores],
    /// Whether the segment's repeated runs of one commit (the baseline's)
    /// scored an instance differently ([`runs_differ`]); `None` when no
    /// commit of the segment was measured twice with scores.
    pub runs_vary: Option<bool>,
}

/// What the per-instance test says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    pub paired: PerInstance,
    /// Better across instances at `level`.
    pub better: bool,
    /// Worse across instances at `level`.
    pub worse: bool,
    /// The one-sided level tested at.
    pub level: f64,
    pub p_better: f64,
}

/// The per-instance test of the candidate's runs against the best's, at
/// the objective's `confidence` (held to [`INSTANCE_CONFIDENCE`] at
/// least); `None` when no instance pairs up.
pub fn judge(
    best: &[&Scores],
    candidate: &[&Scores],
    sign: f64,
    confidence: f64,
) -> Option<Judged> {
    let (paired, _) = pair(best, candidate, sign)?;
    let level = confidence.max(INSTANCE_CONFIDENCE);
    let alpha = 1.0 - level;
    let p_better = paired.p_better();
    Some(Judged {
        paired,
        better: p_better <= alpha,
        worse: paired.p_worse() <= alpha,
        level,
        p_better,
    })
}

/// Whether repeated runs of one commit scored some instance differently:
/// `Some(false)` when two runs or more scored every instance they share
/// alike, `None` with fewer than two runs.
pub fn runs_differ(runs: &[&Scores]) -> Option<bool> {
    let (first, rest) = runs.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let first: HashMap<&str, f64> = first.0.iter().map(|(n, x)| (n.as_str(), *x)).collect();
    Some(rest.iter().any(|run| {
        run.0
            .iter()
            .any(|(n, x)| first.get(n.as_str()).is_some_and(|y| y != x))
    }))
}

/// The test over runs: every run of each side as one value, its mean of
/// `sign` × score over the instances every run of both sides scored; the
/// candidate's mean of those against the best's. Its standard error has
/// two parts, as runs and instances are both samples: the pooled spread
/// of the runs' means (`k + m − 2` df), and the spread of the change
/// from instance to instance ([`instances_part`]) over the instances'
/// count. The degrees of freedom stay the runs' (`k + m − 2`), the fewer
/// of the two parts' (the instances' part has hundreds): Hsu's
/// conservative choice for a sum of variances, so the test holds its
/// level whatever the share of each part. `None` without two runs in
/// all, or without an instance every run scored.
pub fn over_runs(best: &[&Scores], candidate: &[&Scores], sign: f64) -> Option<OverRuns> {
    let (m, k) = (best.len(), candidate.len());
    if m == 0 || k == 0 || m + k < 3 {
        return None;
    }
    let maps: Vec<HashMap<&str, f64>> = best
        .iter()
        .chain(candidate)
        .map(|s| s.0.iter().map(|(n, x)| (n.as_str(), *x)).collect())
        .collect();
    let common: Vec<&str> = best[0]
        .0
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| maps.iter().all(|r| r.contains_key(n)))
        .collect();
    if common.is_empty() {
        return None;
    }
    let rows: Vec<Vec<f64>> = maps
        .iter()
        .map(|r| common.iter().map(|n| sign * r[n]).collect())
        .collect();
    let means: Vec<f64> = rows.iter().map(|r| mean(r)).collect();
    let (b, c) = means.split_at(m);
    let df_runs = (m + k - 2) as f64;
    let runs_var = (ss(b) + ss(c)) / df_runs * (1.0 / k as f64 + 1.0 / m as f64);
    let (best_rows, cand_rows) = rows.split_at(m);
    let inst_var = instances_part(best_rows, cand_rows) / common.len() as f64;
    let var = runs_var + inst_var;
    Some(OverRuns {
        change: mean(c) - mean(b),
        se: var.sqrt(),
        df: df_runs,
        best_runs: m,
        instances: common.len(),
        instances_se: inst_var.sqrt(),
    })
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sum of squares about the mean.
fn ss(xs: &[f64]) -> f64 {
    let mu = mean(xs);
    xs.iter().map(|x| (x - mu) * (x - mu)).sum()
}

/// The spread of a change's true effect from instance to instance, σ²_δ,
/// estimated by moments from two sides' runs × instances (rows of equal
/// length): the variance of the per-instance differences of the sides'
/// means, less what the runs' own instance-by-run noise puts in it (the
/// residual of each side's runs × instances table, after each run's and
/// each instance's mean, pooled over both sides), at least 0.
fn instances_part(best: &[Vec<f64>], candidate: &[Vec<f64>]) -> f64 {
    let n = best[0].len();
    if n < 2 {
        return 0.0;
    }
    let side_means = |rows: &[Vec<f64>]| -> Vec<f64> {
        (0..n)
            .map(|i| rows.iter().map(|r| r[i]).sum::<f64>() / rows.len() as f64)
            .collect()
    };
    let (bi, ci) = (side_means(best), side_means(candidate));
    let d: Vec<f64> = ci.iter().zip(&bi).map(|(c, b)| c - b).collect();
    let s2_d = ss(&d) / (n - 1) as f64;
    // Residual sum of squares of one side's table, and its df.
    let residual = |rows: &[Vec<f64>], inst: &[f64]| -> (f64, usize) {
        let grand = mean(inst);
        let sum = rows
            .iter()
            .map(|r| {
                let rm = mean(r);
                r.iter()
                    .zip(inst)
                    .map(|(y, a)| {
                        let e = y - rm - a + grand;
                        e * e
                    })
                    .sum::<f64>()
            })
            .sum();
        (sum, (rows.len() - 1) * (n - 1))
    };
    let (sb, db) = residual(best, &bi);
    let (sc, dc) = residual(candidate, &ci);
    let noise = if db + dc > 0 {
        (sb + sc) / (db + dc) as f64
    } else {
        0.0
    };
    let (k, m) = (candidate.len() as f64, best.len() as f64);
    (s2_d - noise * (1.0 / k + 1.0 / m)).max(0.0)
}

impl OverRuns {
    /// One-sided p that the candidate is better (`change > 0`).
    pub fn p_better(&self) -> f64 {
        self.p_of(self.change)
    }

    /// One-sided p that it is worse.
    pub fn p_worse(&self) -> f64 {
        self.p_of(-self.change)
    }

    fn p_of(&self, x: f64) -> f64 {
        if self.se <= 0.0 || !self.se.is_finite() {
            return if x > 0.0 { 0.0 } else { 1.0 };
        }
        StudentsT::new(0.0, 1.0, self.df).map_or(1.0, |t| 1.0 - t.cdf(x / self.se))
    }
}

/// The test over runs of the candidate's runs against the best's, at the
/// objective's `confidence` (held to [`INSTANCE_CONFIDENCE`] at least),
/// joined to the sign test across instances on as many runs a side
/// ([`pair`]): better (or worse) only when both say so. The test over
/// runs answers whether the suite's mean moved beyond what whole runs
/// vary by; the sign test whether it moved across instances rather than
/// on a few of these. Each holds its level, so both together do. `None`
/// when no instance pairs up.
pub fn judge_over_runs(
    best: &[&Scores],
    candidate: &[&Scores],
    sign: f64,
    confidence: f64,
) -> Option<Judged> {
    let t = over_runs(best, candidate, sign)?;
    let (mut paired, _) = pair(best, candidate, sign)?;
    paired.runs = candidate.len();
    paired.over_runs = Some(t);
    let level = confidence.max(INSTANCE_CONFIDENCE);
    let p_better = t.p_better().max(paired.p_better());
    let p_worse = t.p_worse().max(paired.p_worse());
    Some(Judged {
        paired,
        better: p_better <= 1.0 - level,
        worse: p_worse <= 1.0 - level,
        level,
        p_better,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scores(xs: &[(&str, f64)]) -> Scores {
        Scores(xs.iter().map(|(n, x)| (n.to_string(), *x)).collect())
    }

    /// 200 pass/fail instances; the candidate passes `up` more and `down`
    /// fewer than the best.
    fn suite(up: usize, down: usize) -> (Scores, Scores) {
        let best: Vec<(String, f64)> = (0..200)
            .map(|i| (format!("t{i}"), if i < 100 { 1.0 } else { 0.0 }))
            .collect();
        let mut cand = best.clone();
        for (i, c) in cand.iter_mut().enumerate() {
            if (100..100 + up).contains(&i) {
                c.1 = 1.0;
            }
            if i < down {
                c.1 = 0.0;
            }
        }
        (Scores(best), Scores(cand))
    }

    #[test]
    fn an_object_or_a_list_of_numbers_is_read_and_nothing_else() {
        let s = read(&json!({"a": 1, "b": 0.5})).unwrap();
        assert_eq!(s, scores(&[("a", 1.0), ("b", 0.5)]));
        let s = read(&json!([1, 0, 1])).unwrap();
        assert_eq!(s, scores(&[("0", 1.0), ("1", 0.0), ("2", 1.0)]));
        assert_eq!(read(&json!("x")), Err(Unread::WrongType("a string")));
        assert_eq!(read(&json!(3)), Err(Unread::WrongType("a number")));
        assert_eq!(read(&json!({})), Err(Unread::Empty));
        assert_eq!(read(&json!([])), Err(Unread::Empty));
        assert_eq!(
            read(&json!({"a": 1, "b": "pass"})),
            Err(Unread::NotANumber("b".into(), "a string"))
        );
        let many: Vec<u8> = vec![1; MAX_INSTANCES + 1];
        assert_eq!(read(&json!(many)), Err(Unread::TooMany(MAX_INSTANCES + 1)));
        assert_eq!(
            from_object(br#"{"acc": 0.5, "per": {"a": 1}}"#, "per"),
            Ok(scores(&[("a", 1.0)]))
        );
        assert_eq!(from_object(br#"{"acc": 0.5}"#, "per"), Err(Unread::Missing));
        let long = vec![b' '; MAX_OBJECT_BYTES + 1];
        assert_eq!(from_object(&long, "per"), Err(Unread::TooLong));
    }

    #[test]
    fn the_record_keeps_names_once_and_gives_the_runs_back() {
        let a = scores(&[("x", 1.0), ("y", 0.0)]);
        let b = scores(&[("y", 1.0), ("z", 0.5)]);
        let r = InstanceRuns::of(&[Some(&a), None, Some(&b)]);
        assert_eq!(r.names, vec!["x", "y", "z"]);
        assert_eq!(
            r.runs,
            vec![
                vec![Some(1.0), Some(0.0), None],
                vec![],
                vec![None, Some(1.0), Some(0.5)]
            ]
        );
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(
            text,
            r#"{"names":["x","y","z"],"runs":[[1.0,0.0,null],[],[null,1.0,0.5]]}"#
        );
        let back: InstanceRuns = serde_json::from_str(&text).unwrap();
        assert_eq!(back.scores(), vec![Some(a), None, Some(b.clone())]);
        assert_eq!(back.from_run(2).scores(), vec![Some(b)]);
    }

    #[test]
    fn the_sign_test_tail_is_exact() {
        assert_eq!(binomial_upper_tail(4, 0), 1.0);
        assert!((binomial_upper_tail(4, 3) - 5.0 / 16.0).abs() < 1e-12);
        assert!((binomial_upper_tail(3, 3) - 0.125).abs() < 1e-12);
        assert_eq!(binomial_upper_tail(3, 4), 0.0);
        // 20 of 25: 2^-25 · Σ_{j≥20} C(25, j) = 68 406 / 33 554 432.
        assert!((binomial_upper_tail(25, 20) - 68_406.0 / 33_554_432.0).abs() < 1e-12);
        // Far past 2^-1074 for one term, still a probability.
        let p = binomial_upper_tail(5000, 2600);
        assert!(p > 0.0 && p < 0.01, "{p}");
    }

    #[test]
    fn twenty_better_and_five_worse_of_two_hundred_is_better_three_and_one_is_not() {
        let (b, c) = suite(20, 5);
        let j = judge(&[&b], &[&c], 1.0, 0.85).unwrap();
        assert_eq!(j.paired.words(), "20 better, 5 worse of 200");
        assert!(j.better && !j.worse);
        assert_eq!(j.level, INSTANCE_CONFIDENCE);
        let (b, c) = suite(3, 1);
        let j = judge(&[&b], &[&c], 1.0, 0.85).unwrap();
        assert!(!j.better && !j.worse, "{j:?}");
        // Lower is better: the same runs read the other way.
        let (b, c) = suite(20, 5);
        let j = judge(&[&b], &[&c], -1.0, 0.85).unwrap();
        assert!(j.worse && !j.better);
        assert_eq!(j.paired.better, 5);
    }

    #[test]
    fn only_instances_every_compared_run_scored_pair_up() {
        let b1 = scores(&[("a", 0.0), ("b", 0.0), ("c", 1.0)]);
        let b2 = scores(&[("a", 0.0), ("b", 1.0), ("c", 1.0)]);
        let c1 = scores(&[("a", 1.0), ("c", 1.0), ("d", 1.0)]);
        // One run a side: the best's first run.
        let (p, d) = pair(&[&b1, &b2], &[&c1], 1.0).unwrap();
        assert_eq!(
            p,
            PerInstance {
                better: 1,
                worse: 0,
                common: 2,
                dropped: 2,
                runs: 1,
                over_runs: None,
            }
        );
        assert_eq!(d, vec![1.0, 0.0]);
        assert_eq!(
            p.words(),
            "1 better, 0 worse of 2 (2 dropped: not scored by every run)"
        );
        // Pooled over two runs a side: means of each.
        let c2 = scores(&[("a", 0.0), ("b", 1.0), ("c", 0.0)]);
        let (p, d) = pair(&[&b1, &b2], &[&c1, &c2], 1.0).unwrap();
        assert_eq!((p.common, p.runs, p.dropped), (2, 2, 2));
        assert_eq!(d, vec![0.5, -0.5]);
        assert!(pair(&[], &[&c1], 1.0).is_none());
        let x = scores(&[("x", 1.0)]);
        assert!(pair(&[&b1], &[&x], 1.0).is_none());
    }
    #[test]
    fn runs_differ_only_on_instances_they_share_and_need_two_runs() {
        let a = scores(&[("x", 1.0), ("y", 0.0)]);
        let b = scores(&[("x", 1.0), ("y", 0.0), ("z", 1.0)]);
        let c = scores(&[("x", 0.0), ("y", 0.0)]);
        assert_eq!(runs_differ(&[&a]), None);
        assert_eq!(runs_differ(&[]), None);
        assert_eq!(runs_differ(&[&a, &b]), Some(false));
        assert_eq!(runs_differ(&[&a, &b, &c]), Some(true));
    }

    #[test]
    fn the_test_over_runs_is_a_two_sample_t_on_the_runs_means() {
        let run = |pass: &[f64]| {
            Scores(
                pass.iter()
                    .enumerate()
                    .map(|(i, x)| (format!("q{i}"), *x))
                    .collect(),
            )
        };
        // Means 0.5, 0.25, 0.75 (best) and 0.75, 1.0 (candidate).
        let b = [
            run(&[1.0, 1.0, 0.0, 0.0]),
            run(&[1.0, 0.0, 0.0, 0.0]),
            run(&[1.0, 1.0, 1.0, 0.0]),
        ];
        let c = [run(&[1.0, 1.0, 1.0, 0.0]), run(&[1.0, 1.0, 1.0, 1.0])];
        let (br, cr): (Vec<&Scores>, Vec<&Scores>) = (b.iter().collect(), c.iter().collect());
        let t = over_runs(&br, &cr, 1.0).unwrap();
        assert!((t.change - 0.375).abs() < 1e-12, "{t:?}");
        // Pooled: (0.125 + 0.03125) / 3 df.
        let sd = (0.156_25_f64 / 3.0).sqrt();
        assert!((t.se - sd * (0.5_f64 + 1.0 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((t.df, t.best_runs, t.instances), (3.0, 3, 4));
        // t = 1.80 on 3 df.
        assert!((t.p_better() - 0.0848).abs() < 1e-3, "{}", t.p_better());
        assert!((t.p_worse() - 0.9152).abs() < 1e-3);
        let lower = over_runs(&br, &cr, -1.0).unwrap();
        assert!((lower.change + 0.375).abs() < 1e-12);
        // One run in all tells nothing of the runs' spread.
        assert!(over_runs(&br[..1], &cr[..1], 1.0).is_none());
    }

    fn table(rows: &[&[f64]]) -> Vec<Scores> {
        rows.iter()
            .map(|r| {
                Scores(
                    r.iter()
                        .enumerate()
                        .map(|(i, x)| (format!("q{i}"), *x))
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn the_test_over_runs_counts_how_the_change_spreads_across_instances() {
        // Runs of each side agree, so their means do not spread at all;
        // the change is all on one instance of four (d = 0, 1, 0, 0). Its
        // spread across instances, 0.25, over 4 instances, is the whole
        // standard error: 0.25 ± 0.25, not a certain 0.25 ± 0.
        let b = table(&[&[1.0, 0.0, 1.0, 0.0], &[1.0, 0.0, 1.0, 0.0]]);
        let c = table(&[&[1.0, 1.0, 1.0, 0.0], &[1.0, 1.0, 1.0, 0.0]]);
        let (br, cr): (Vec<&Scores>, Vec<&Scores>) = (b.iter().collect(), c.iter().collect());
        let t = over_runs(&br, &cr, 1.0).unwrap();
        assert!((t.change - 0.25).abs() < 1e-12, "{t:?}");
        assert!((t.se - 0.25).abs() < 1e-12, "{t:?}");
        assert!((t.instances_se - 0.25).abs() < 1e-12, "{t:?}");
        assert_eq!(t.df, 2.0);
        // t = 1 on 2 df: p = 0.21, far from a keep.
        assert!((t.p_better() - 0.2113).abs() < 1e-3, "{}", t.p_better());
    }

    #[test]
    fn the_runs_own_noise_in_the_instances_spread_is_not_counted_twice() {
        // d = 0.5, 0.5, −0.5, 0.5 spreads by 0.25; each side's runs ×
        // instances residual is 1/3 a cell (6 df), and 1/3 · (1/2 + 1/2)
        // is more than 0.25: run-to-run noise explains the whole spread.
        let b = table(&[&[1.0, 0.0, 1.0, 0.0], &[0.0, 1.0, 1.0, 0.0]]);
        let c = table(&[&[1.0, 1.0, 1.0, 0.0], &[1.0, 1.0, 0.0, 1.0]]);
        let (br, cr): (Vec<&Scores>, Vec<&Scores>) = (b.iter().collect(), c.iter().collect());
        let t = over_runs(&br, &cr, 1.0).unwrap();
        assert_eq!(t.instances_se, 0.0, "{t:?}");
        assert!((t.change - 0.25).abs() < 1e-12, "{t:?}");
    }
}
