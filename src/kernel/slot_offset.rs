//! Slots that are not identical: what one slot adds to a metric over
//! another (its offset), estimated from the commits measured on both, and
//! the best as it would measure on a candidate's slot.
//!
//! A slot's offset is taken as fixed (a faster card, a throttled one): a
//! run of commit `c` on slot `s` measures `value(c) + bias(s) + noise`. The
//! offset of `s` over `r`, `bias(s) − bias(r)`, is estimated from every
//! commit with runs on both (the difference of their means, weighted by
//! their runs), and through any third slot both were measured with. Its
//! variance is counted in units of one run's variance (σ²), so that "known
//! well enough" does not depend on the metric's scale. The offsets are
//! shrunk toward 0 by how far apart the slots turn out to be: identical
//! slots give offsets of 0, whatever the noise of their first runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// An offset whose variance is at most this (σ²) is known well enough to
/// compare a candidate on one slot with the best measured on another.
pub const OFFSET_VAR: f64 = 0.04;

/// The least prior variance of the offset between two slots, as a share of
/// the mean variance of the offsets the prior is estimated from. With a
/// fifth, one commit measured 5 times on each of two slots leaves the
/// offset's variance at 0.067σ² (not known), and the baseline measured 5
/// times on each of four slots makes the offsets of slots that look alike
/// known (0.033σ²) without more runs.
pub const PRIOR_FLOOR: f64 = 0.2;

/// The runs of one commit on each slot (the value of each run, oldest
/// first).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommitRuns {
    pub commit: String,
    pub by_slot: BTreeMap<String, Vec<f64>>,
}

/// Add `runs` (each a slot and a value) to `commit`'s runs in `all`.
pub fn add_runs(
    all: &mut Vec<CommitRuns>,
    commit: &str,
    runs: impl IntoIterator<Item = (String, f64)>,
) {
    let mut runs = runs.into_iter().peekable();
    if runs.peek().is_none() {
        return;
    }
    let i = match all.iter().position(|c| c.commit == commit) {
        Some(i) => i,
        None => {
            all.push(CommitRuns {
                commit: commit.to_string(),
                ..CommitRuns::default()
            });
            all.len() - 1
        }
    };
    for (slot, x) in runs {
        all[i].by_slot.entry(slot).or_default().push(x);
    }
}

/// The slot of each of `samples` (the last values a record measured, such
/// as its kept runs), paired from the end with `runs` (each run's slot and
/// the value it measured, oldest first): a run without a value (a crash),
/// or whose value is not the next sample's, is passed over, and a sample
/// whose run has no slot is left out.
pub fn pair_slots<'s>(
    runs: impl DoubleEndedIterator<Item = (Option<&'s str>, Option<f64>)>,
    samples: &[f64],
) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let mut values = samples.iter().rev().peekable();
    for (slot, value) in runs.rev() {
        let Some(&&x) = values.peek() else { break };
        if value.is_some_and(|v| v.to_bits() == x.to_bits()) {
            values.next();
            if let Some(slot) = slot {
                out.push((slot.to_string(), x));
            }
        }
    }
    out.reverse();
    out
}

/// The slot a record's runs ran in, as shown in a row: its slots in the
/// order first used, joined by `,` when they were more than one (`0,1`);
/// else the record's own `slot` (empty without one).
pub fn slots_text<'s>(record: Option<&'s str>, runs: impl IntoIterator<Item = &'s str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for s in runs {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    if seen.len() > 1 {
        seen.join(",")
    } else {
        record
            .or(seen.first().copied())
            .unwrap_or_default()
            .to_string()
    }
}

/// The frame a run is compared in: its slot, and in a fleet the class of
/// the machine it ran on before it (`CLASS` alone without slots,
/// `CLASS/SLOT` with them). Runs in different frames are compared only
/// through the offset between the frames; a run with neither has none.
pub fn frame(class: Option<&str>, slot: Option<&str>) -> Option<String> {
    match (class, slot) {
        (Some(c), Some(s)) => Some(format!("{c}/{s}")),
        (Some(c), None) => Some(c.to_string()),
        (None, s) => s.map(str::to_string),
    }
}

/// What slot `s` adds to the metric over slot `r`, with the variance of
/// that estimate in units of one run's variance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offset {
    pub d: f64,
    pub var: f64,
}

impl Offset {
    /// Known well enough to compare across the two slots.
    pub fn known(self) -> bool {
        self.var <= OFFSET_VAR
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The offset of `s` over `r` from the commits measured on both.
fn direct(commits: &[CommitRuns], s: &str, r: &str) -> Option<Offset> {
    let (mut sum, mut weight) = (0.0, 0.0);
    for c in commits {
        let (Some(a), Some(b)) = (c.by_slot.get(s), c.by_slot.get(r)) else {
            continue;
        };
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let w = 1.0 / (1.0 / a.len() as f64 + 1.0 / b.len() as f64);
        sum += w * (mean(a) - mean(b));
        weight += w;
    }
    (weight > 0.0).then(|| Offset {
        d: sum / weight,
        var: 1.0 / weight,
    })
}

/// Every slot with runs, in order.
fn slots(commits: &[CommitRuns]) -> Vec<&str> {
    let mut all: Vec<&str> = commits
        .iter()
        .flat_map(|c| c.by_slot.keys().map(String::as_str))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// The offset of `s` over `r`, not shrunk: directly and through every
/// third slot, inverse-variance weighted. `None` without a path.
pub fn raw(commits: &[CommitRuns], s: &str, r: &str) -> Option<Offset> {
    if s == r {
        return Some(Offset { d: 0.0, var: 0.0 });
    }
    let mut paths: Vec<Offset> = direct(commits, s, r).into_iter().collect();
    for t in slots(commits).into_iter().filter(|&t| t != s && t != r) {
        if let (Some(a), Some(b)) = (direct(commits, s, t), direct(commits, t, r)) {
            paths.push(Offset {
                d: a.d + b.d,
                var: a.var + b.var,
            });
        }
    }
    let weight: f64 = paths.iter().map(|p| 1.0 / p.var).sum();
    (weight > 0.0).then(|| Offset {
        d: paths.iter().map(|p| p.d / p.var).sum::<f64>() / weight,
        var: 1.0 / weight,
    })
}

/// The offset of `s` over `r`, shrunk toward 0 by how far apart the
/// slots are: the spread of every slot's offset over the first slot, less
/// what their noise explains, is the prior. The prior is never taken as
/// tighter than [`PRIOR_FLOOR`] of the noise of the offsets it is
/// estimated from (their mean variance): a spread that few runs cannot
/// tell from 0 is not taken to be 0, so an offset is never exactly known
/// from runs that vary, and one commit of five runs on each of two slots
/// never makes it known.
/// `sd` is one run's standard deviation; without it the offset is not
/// shrunk, and with 0 (runs that never vary) it is known exactly.
pub fn offset(commits: &[CommitRuns], s: &str, r: &str, sd: Option<f64>) -> Option<Offset> {
    let o = raw(commits, s, r)?;
    if o.var == 0.0 {
        return Some(o);
    }
    // Runs that never vary: the offset is what it reads.
    if sd == Some(0.0) {
        return Some(Offset { d: o.d, var: 0.0 });
    }
    let Some(sd) = sd.filter(|sd| *sd > 0.0 && sd.is_finite()) else {
        return Some(o);
    };
    let all = slots(commits);
    let Some((anchor, rest)) = all.split_first() else {
        return Some(o);
    };
    let anchored: Vec<Offset> = rest
        .iter()
        .filter_map(|t| raw(commits, t, anchor))
        .collect();
    if anchored.is_empty() {
        return Some(o);
    }
    let n = anchored.len() as f64;
    let spread = anchored
        .iter()
        .map(|a| (a.d / sd).powi(2) - a.var)
        .sum::<f64>()
        / n;
    // The prior variance (σ²) of the offset between two slots, no tighter
    // than a share of the noise it is estimated through.
    let floor = PRIOR_FLOOR * anchored.iter().map(|a| a.var).sum::<f64>() / n;
    let prior = spread.max(floor);
    if prior.is_nan() || prior <= 0.0 {
        return Some(o);
    }
    let k = prior / (prior + o.var);
    Some(Offset {
        d: o.d * k,
        var: o.var * k,
    })
}

/// The best's runs, each moved onto `slot` by the offset of `slot` over the
/// slot it ran on (runs on a slot without a known path left out), and
/// whether the best has runs on `slot` itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub samples: Vec<f64>,
    /// Runs of the best on the slot itself.
    pub same_slot: usize,
    /// The least variance (σ²) of the offsets used; 0 when every run was
    /// on the slot itself.
    pub var: f64,
}

impl Reference {
    /// The mean of the runs: the best's value on the slot.
    pub fn mean(&self) -> f64 {
        mean(&self.samples)
    }
}

/// The best (`best`, one of `commits` or not) as it would measure on
/// `slot`. `None` when none of its runs can be moved there.
pub fn reference(
    commits: &[CommitRuns],
    best: &CommitRuns,
    slot: &str,
    sd: Option<f64>,
) -> Option<Reference> {
    let mut samples = Vec::new();
    let mut var = f64::INFINITY;
    let mut same_slot = 0;
    for (s, runs) in &best.by_slot {
        if s == slot {
            samples.extend_from_slice(runs);
            same_slot = runs.len();
            var = 0.0;
        } else if let Some(o) = offset(commits, slot, s, sd) {
            samples.extend(runs.iter().map(|x| x + o.d));
            var = var.min(o.var);
        }
    }
    (!samples.is_empty()).then_some(Reference {
        samples,
        same_slot,
        var,
    })
}

/// Should the best be measured on `slot` before a candidate there is
/// compared with it: it has no runs there, and no offset from a slot it
/// has runs on is known well enough.
pub fn needs_remeasure(
    commits: &[CommitRuns],
    best: &CommitRuns,
    slot: &str,
    sd: Option<f64>,
) -> bool {
    !best.by_slot.contains_key(slot)
        && !best
            .by_slot
            .keys()
            .any(|r| offset(commits, slot, r, sd).is_some_and(Offset::known))
}

/// How many runs of the best to measure on `slot` before a candidate there
/// is compared with it, at most `n` (a full remeasure): none when
/// [`needs_remeasure`] says none. An offset not yet known still carries
/// what the slots' shared commits told of it: the best's runs moved by it
/// are worth `1 / (1/k + var)` runs on the slot (`k` runs, an offset of
/// variance `var` σ²). The remeasure adds runs on the slot itself until
/// the two are worth what the best's runs moved by an offset just known
/// well enough ([`OFFSET_VAR`]) are: `n` with no path to the slot, fewer
/// as the offset firms up, one at the least. Without a noise estimate no
/// offset counts: `n`.
pub fn remeasure_runs(
    commits: &[CommitRuns],
    best: &CommitRuns,
    slot: &str,
    sd: Option<f64>,
    n: usize,
) -> usize {
    if !needs_remeasure(commits, best, slot, sd) {
        return 0;
    }
    let n = n.max(1);
    if sd.is_none() {
        return n;
    }
    let worth = |k: usize, var: f64| 1.0 / (1.0 / k as f64 + var);
    let (mut have, mut want) = (0.0_f64, 0.0_f64);
    for (s, runs) in best.by_slot.iter().filter(|(_, r)| !r.is_empty()) {
        want = want.max(worth(runs.len(), OFFSET_VAR));
        if let Some(o) = offset(commits, slot, s, sd) {
            have = have.max(worth(runs.len(), o.var));
        }
    }
    let more = (want - have).ceil();
    if more.is_nan() || more >= n as f64 {
        return n;
    }
    (more as usize).clamp(1, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(name: &str, runs: &[(&str, &[f64])]) -> CommitRuns {
        CommitRuns {
            commit: name.into(),
            by_slot: runs
                .iter()
                .map(|(s, v)| (s.to_string(), v.to_vec()))
                .collect(),
        }
    }

    #[test]
    fn samples_are_paired_with_their_runs_slots_from_the_end() {
        // Four runs: a crash, then 1.0 on slot a, 2.0 on b, 3.0 on a; the
        // record kept the last two values.
        let runs = [
            (Some("a"), None),
            (Some("a"), Some(1.0)),
            (Some("b"), Some(2.0)),
            (Some("a"), Some(3.0)),
        ];
        assert_eq!(
            pair_slots(runs.into_iter(), &[2.0, 3.0]),
            vec![("b".to_string(), 2.0), ("a".to_string(), 3.0)]
        );
        // A value no run measured stops nothing but is not paired.
        assert_eq!(
            pair_slots(runs.into_iter(), &[1.0, 9.0]),
            Vec::<(String, f64)>::new()
        );
        // A run without a slot is left out, not given another's.
        let mixed = [(None, Some(1.0)), (Some("b"), Some(2.0))];
        assert_eq!(
            pair_slots(mixed.into_iter(), &[1.0, 2.0]),
            vec![("b".to_string(), 2.0)]
        );
    }

    #[test]
    fn a_rows_slot_names_every_slot_its_runs_took() {
        assert_eq!(slots_text(Some("1"), ["0", "1", "0"]), "0,1");
        assert_eq!(slots_text(Some("1"), ["1", "1"]), "1");
        assert_eq!(slots_text(Some("1"), []), "1");
        assert_eq!(slots_text(None, ["2"]), "2");
        assert_eq!(slots_text(None, []), "");
    }

    #[test]
    fn an_offset_is_the_weighted_difference_of_means_on_both_slots() {
        // Commit a: slot 1 reads 0.5 higher (2 runs against 2: weight 1);
        // commit b: 0.2 higher (1 run against 1: weight 0.5).
        let commits = [
            commit("a", &[("0", &[1.0, 1.2]), ("1", &[1.5, 1.7])]),
            commit("b", &[("0", &[2.0]), ("1", &[2.2])]),
            commit("c", &[("0", &[9.0])]),
        ];
        let o = raw(&commits, "1", "0").unwrap();
        assert!((o.d - (0.5 * 1.0 + 0.2 * 0.5) / 1.5).abs() < 1e-12, "{o:?}");
        assert!((o.var - 1.0 / 1.5).abs() < 1e-12);
        let back = raw(&commits, "0", "1").unwrap();
        assert!((back.d + o.d).abs() < 1e-12);
        assert_eq!(raw(&commits, "0", "0").unwrap().var, 0.0);
        assert!(raw(&commits, "2", "0").is_none());
    }

    #[test]
    fn an_offset_goes_through_a_third_slot() {
        // 0 and 2 never measured the same commit; both measured one with 1.
        let commits = [
            commit("a", &[("0", &[1.0]), ("1", &[1.3])]),
            commit("b", &[("1", &[2.0]), ("2", &[2.5])]),
        ];
        let o = raw(&commits, "2", "0").unwrap();
        assert!((o.d - 0.8).abs() < 1e-12, "{o:?}");
        assert!((o.var - 4.0).abs() < 1e-12);
    }

    #[test]
    fn offsets_shrink_toward_zero_between_slots_no_further_apart_than_noise() {
        // Slot 1 reads 0.1 higher over 4 runs each: well within the noise
        // (sd 1) of a difference of two means of 4 (variance 0.5): the
        // slots look identical, but four runs cannot tell a spread of 0
        // from one of a fifth of 0.5σ²: shrunk to a sixth, not known.
        let commits = [commit(
            "a",
            &[("0", &[1.0, 2.0, 0.0, 1.0]), ("1", &[1.1, 2.1, 0.1, 1.1])],
        )];
        let o = offset(&commits, "1", "0", Some(1.0)).unwrap();
        assert!(
            (o.d - 0.1 / 6.0).abs() < 1e-12 && (o.var - 0.5 / 6.0).abs() < 1e-12,
            "{o:?}"
        );
        assert!(!o.known());
        // Many commits measured on both, none apart: known, near 0.
        let many: Vec<CommitRuns> = (0..40)
            .map(|i| {
                let runs = [1.0, 2.0, 0.0, 1.0];
                let other = [1.1, 2.1, 0.1, 1.1];
                let (a, b): (&[f64], &[f64]) = if i % 2 == 0 {
                    (&runs, &other)
                } else {
                    (&other, &runs)
                };
                commit(&i.to_string(), &[("0", a), ("1", b)])
            })
            .collect();
        let o = offset(&many, "1", "0", Some(1.0)).unwrap();
        assert!(o.d.abs() < 1e-9 && o.known() && o.var > 0.0, "{o:?}");
        // Far apart (3 sd): shrunk by prior / (prior + var).
        let far = [commit(
            "a",
            &[("0", &[1.0, 2.0, 0.0, 1.0]), ("1", &[4.0, 5.0, 3.0, 4.0])],
        )];
        let o = offset(&far, "1", "0", Some(1.0)).unwrap();
        let prior = 9.0 - 0.5;
        let k = prior / (prior + 0.5);
        assert!((o.d - 3.0 * k).abs() < 1e-12, "{o:?}");
        assert!((o.var - 0.5 * k).abs() < 1e-12);
        assert!(!o.known());
        // Without a noise estimate: not shrunk.
        assert_eq!(offset(&far, "1", "0", None).unwrap().d, 3.0);
        // Runs that never vary: known exactly.
        let exact = offset(&far, "1", "0", Some(0.0)).unwrap();
        assert_eq!((exact.d, exact.var), (3.0, 0.0));
    }

    #[test]
    fn the_best_is_moved_onto_the_candidates_slot() {
        // The baseline ran on slots 0 and 1 (slot 1 reads 1.0 higher, 60
        // runs each: variance 1/30, known); the best ran on slot 0 only.
        let base: Vec<f64> = (0..60).map(|i| f64::from(i % 5)).collect();
        let base1: Vec<f64> = base.iter().map(|x| x + 1.0).collect();
        let baseline = commit("base", &[("0", &base), ("1", &base1)]);
        let best = commit("best", &[("0", &[5.0, 5.2])]);
        let commits = [baseline.clone(), best.clone()];
        let r = reference(&commits, &best, "1", None).unwrap();
        assert_eq!(r.same_slot, 0);
        assert!((r.samples[0] - 6.0).abs() < 1e-12 && (r.samples[1] - 6.2).abs() < 1e-12);
        assert!((r.var - 1.0 / 30.0).abs() < 1e-12, "{r:?}");
        assert!(!needs_remeasure(&commits, &best, "1", None));
        // With 25 runs each (variance 0.08): not known, measure it there.
        let fewer = [
            commit("base", &[("0", &base[..25]), ("1", &base1[..25])]),
            best.clone(),
        ];
        assert!(needs_remeasure(&fewer, &best, "1", None));
        // On its own slot: its runs as they are.
        let own = reference(&commits, &best, "0", None).unwrap();
        assert_eq!(
            (own.samples, own.same_slot, own.var),
            (vec![5.0, 5.2], 2, 0.0)
        );
        // Slot 2 was never measured: nothing to move, measure it there.
        assert!(reference(&commits, &best, "2", None).is_none());
        assert!(needs_remeasure(&commits, &best, "2", None));
        assert!(!needs_remeasure(&commits, &best, "0", None));
    }

    #[test]
    fn a_slot_whose_offset_is_unsure_needs_the_best_measured_there() {
        // One run each on slots 0 and 1: variance 2 σ², far from known.
        let baseline = commit("base", &[("0", &[1.0]), ("1", &[1.5])]);
        let best = commit("best", &[("0", &[0.5])]);
        let commits = [baseline, best.clone()];
        assert!(needs_remeasure(&commits, &best, "1", None));
        // Once measured there, it is compared on the slot itself.
        let mut again = best.clone();
        again.by_slot.insert("1".into(), vec![0.9, 1.1]);
        let commits = [commits[0].clone(), again.clone()];
        assert!(!needs_remeasure(&commits, &again, "1", None));
        let r = reference(&commits, &again, "1", None).unwrap();
        assert_eq!(r.same_slot, 2);
        assert_eq!(r.var, 0.0);
        assert_eq!(r.samples.len(), 3);
    }

    /// A normal draw (Box–Muller) from a small deterministic generator, so
    /// the Monte Carlo below needs nothing outside the crate.
    struct Draws(u64);
    impl Draws {
        fn uniform(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        }
        fn normal(&mut self) -> f64 {
            let (u, v) = (self.uniform(), self.uniform());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        }
    }

    /// Of `trials` commits measured 5 times on slot 0 and 5 times on slot 1
    /// (slot 1 reading `delta` σ higher), the share whose offset comes out
    /// known, so that no remeasure would ever fire, with the noise pooled
    /// from the ten runs as a try does.
    fn lock_rate(delta: f64, trials: usize) -> f64 {
        let mut g = Draws(0x5107 + (delta * 1000.0) as u64);
        let mut locked = 0;
        for _ in 0..trials {
            let a: Vec<f64> = (0..5).map(|_| g.normal()).collect();
            let b: Vec<f64> = (0..5).map(|_| delta + g.normal()).collect();
            let ss = |v: &[f64]| {
                let m = mean(v);
                v.iter().map(|x| (x - m).powi(2)).sum::<f64>()
            };
            let sd = ((ss(&a) + ss(&b)) / 8.0).sqrt();
            let commits = [commit("base", &[("0", &a), ("1", &b)])];
            if offset(&commits, "1", "0", Some(sd)).unwrap().known() {
                locked += 1;
            }
        }
        locked as f64 / trials as f64
    }

    #[test]
    fn one_commit_of_five_runs_a_slot_never_makes_an_offset_known() {
        // Slot offsets of 0.5σ and 1σ, and identical slots: five runs a
        // slot never settle the offset, whatever they read.
        let rates: Vec<(f64, f64)> = [0.0, 0.5, 1.0]
            .into_iter()
            .map(|delta| (delta, lock_rate(delta, 4000)))
            .collect();
        for (delta, rate) in &rates {
            eprintln!(
                "offset {delta}σ, 5+5 runs: known {:.1}% of the time",
                100.0 * rate
            );
        }
        assert!(rates.iter().all(|(_, r)| *r == 0.0), "{rates:?}");
    }

    #[test]
    fn a_baseline_on_two_slots_does_not_lock_the_offset_at_zero() {
        // The baseline read 10.55 on slot 0 and 11.10 on slot 1 (three runs
        // and two), one run's sd 0.9: the spread looks like noise, but the
        // offset is neither 0 nor known, so the best is measured on slot 1
        // before a candidate there is compared with it.
        let base = commit("base", &[("0", &[10.0, 10.55, 11.1]), ("1", &[10.8, 11.4])]);
        let best = commit("best", &[("0", &[10.2, 10.3])]);
        let commits = [base, best.clone()];
        let o = offset(&commits, "1", "0", Some(0.9)).unwrap();
        assert!(o.d > 0.0 && o.var > OFFSET_VAR, "{o:?}");
        assert!(needs_remeasure(&commits, &best, "1", Some(0.9)));
        // Its standard error, in the metric's units, admits what it read.
        let se = o.var.sqrt() * 0.9;
        assert!((0.55 - o.d).abs() < 2.0 * se, "{o:?} se {se}");
    }

    #[test]
    fn a_baseline_on_four_alike_slots_makes_their_offsets_known() {
        // Five runs on each of four slots that read alike: known at once
        // (no remeasure on every slot after every keep), and not exactly.
        let runs = [0.0, 1.0, -1.0, 0.5, -0.5];
        let base = commit(
            "base",
            &[("0", &runs), ("1", &runs), ("2", &runs), ("3", &runs)],
        );
        let o = offset(&[base], "2", "1", Some(1.0)).unwrap();
        assert!(o.known() && o.var > 0.0 && o.d == 0.0, "{o:?}");
    }

    #[test]
    fn an_offset_known_in_part_takes_fewer_runs_of_the_best_to_confirm() {
        // Slot 1 reads 1.0 higher; `shared` commits were each measured 5
        // times on both slots. The best ran 5 times on slot 0 only.
        let noise = [0.3, -0.5, 0.1, 0.6, -0.5];
        let both = |name: String| {
            let b: Vec<f64> = noise.iter().map(|x| x + 1.0).collect();
            commit(&name, &[("0", &noise), ("1", &b)])
        };
        let best = commit("best", &[("0", &[5.0, 5.2, 4.9, 5.1, 4.8])]);
        let asked = |shared: usize| {
            let mut commits: Vec<CommitRuns> = (0..shared).map(|i| both(i.to_string())).collect();
            commits.push(best.clone());
            remeasure_runs(&commits, &best, "1", Some(1.0), 5)
        };
        let runs: Vec<usize> = (0..7).map(asked).collect();
        // No commit on both slots: a full remeasure. One: the offset's
        // variance 0.4σ² (shrunk) is worth something. More: fewer runs,
        // never none while the offset is not known, none once it is.
        assert_eq!(runs[0], 5, "{runs:?}");
        assert!(runs[1] < 5 && runs[1] >= 2, "{runs:?}");
        assert!(runs.windows(2).all(|w| w[1] <= w[0]), "{runs:?}");
        assert!(runs[1..].iter().all(|&n| n >= 1), "{runs:?}");
        let mut known: Vec<CommitRuns> = (0..20).map(|i| both(i.to_string())).collect();
        known.push(best.clone());
        assert!(!needs_remeasure(&known, &best, "1", Some(1.0)));
        assert_eq!(remeasure_runs(&known, &best, "1", Some(1.0), 5), 0);
        // On its own slot, none; without a noise estimate, a full one.
        assert_eq!(remeasure_runs(&known, &best, "0", Some(1.0), 5), 0);
        let one = [both("a".into()), best.clone()];
        assert_eq!(remeasure_runs(&one, &best, "1", None, 5), 5);
    }
}
