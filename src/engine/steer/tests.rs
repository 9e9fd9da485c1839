use super::*;

fn t(family: &str, outcome: Outcome) -> Try<'_> {
    Try {
        family,
        outcome,
        gain: (outcome == Outcome::Kept).then_some(1.0),
        runs: 3,
    }
}

fn tries<'a>(family: &'a str, keeps: usize, others: usize, other: Outcome) -> Vec<Try<'a>> {
    let mut v: Vec<Try<'a>> = (0..keeps).map(|_| t(family, Outcome::Kept)).collect();
    v.extend((0..others).map(|_| t(family, other)));
    v
}

#[test]
fn empty_record_scores_every_family_alike() {
    let r = Record::default();
    let prefs = Preferences::default();
    let (a, b) = (r.score("x", &prefs), r.score("y", &prefs));
    assert_eq!(a.g, b.g);
    assert!((a.keep_rate - 0.5).abs() < 1e-12);
    assert_eq!(r.prior(), Prior::flat(0.5));
}

#[test]
fn keeps_rank_above_discards_at_equal_tries() {
    let mut all = tries("init", 0, 4, Outcome::Discarded);
    all.extend(tries("batch", 2, 2, Outcome::Discarded));
    let r = Record::of(all);
    let prefs = Preferences::default();
    let (scores, order) = rank(&r, &["init", "batch"], &prefs);
    assert_eq!(order, vec![1, 0], "{scores:?}");
    assert!(scores[1].keep_rate > scores[0].keep_rate);
    // Shrunk toward the segment's rate: neither reaches its raw rate.
    assert!(scores[1].keep_rate < 0.5 && scores[0].keep_rate > 0.0);
}

#[test]
fn untried_family_has_epistemic_value() {
    let mut all = tries("a", 1, 5, Outcome::Discarded);
    all.extend(tries("b", 1, 5, Outcome::Discarded));
    let r = Record::of(all);
    let prefs = Preferences::default();
    let (tried, fresh) = (r.score("a", &prefs), r.score("new", &prefs));
    assert!(fresh.epistemic > tried.epistemic);
    assert_eq!(fresh.tries, 0);
    // Same keep-rate estimate (both at the prior's mean or near it), so the
    // epistemic value decides: the untried family ranks first.
    let (_, order) = rank(&r, &["a", "new"], &prefs);
    assert_eq!(order, vec![1, 0]);
}

#[test]
fn families_that_do_not_differ_are_shrunk_hard() {
    // Four families with the same keep rate: no spread beyond chance, so
    // the weight goes to strong shrinkage.
    let mut all = Vec::new();
    for f in ["a", "b", "c", "d"] {
        all.extend(tries(f, 2, 8, Outcome::Discarded));
    }
    let alike = Record::of(all);
    let flat = Prior::flat(alike.mean()).strength();
    assert!(alike.prior().strength() > flat, "{:?}", alike.prior());
    // Two families at 80% and two at 0%: the weight goes to weak shrinkage.
    let mut all = Vec::new();
    for f in ["a", "b"] {
        all.extend(tries(f, 8, 2, Outcome::Discarded));
    }
    for f in ["c", "d"] {
        all.extend(tries(f, 0, 10, Outcome::Discarded));
    }
    let differ = Record::of(all);
    assert!(differ.prior().strength() < 5.0, "{:?}", differ.prior());
    let prefs = Preferences::default();
    assert!(differ.score("a", &prefs).keep_rate > 0.6);
}

const TWELVE: [&str; 12] = [
    "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11",
];

/// Twelve families with `keeps` of `n` tries in the first `good`, none
/// in the rest.
fn twelve(good: usize, keeps: usize, n: usize) -> Record {
    let mut all = Vec::new();
    for (f, name) in TWELVE.iter().enumerate() {
        let k = if f < good { keeps } else { 0 };
        all.extend(tries(name, k, n - k, Outcome::Discarded));
    }
    Record::of(all)
}

/// The scores of the twelve, checking that the first `good` rank first.
fn ranked_first(r: &Record, good: usize) -> Vec<Score> {
    let (scores, order) = rank(r, &TWELVE, &Preferences::default());
    let mut first: Vec<usize> = order[..good].to_vec();
    first.sort_unstable();
    assert_eq!(first, (0..good).collect::<Vec<_>>(), "{scores:?}");
    scores
}

#[test]
fn a_keep_or_two_among_rare_keeps_already_counts() {
    // Keeps as rare as a real night's: two families kept one try of
    // three, ten kept none. Their spread is within what chance gives, so
    // a point estimate of the prior's strength sits at its bound and every
    // family is scored alike; the mixture over strengths ranks the two
    // first, with a materially higher keep rate.
    let r = twelve(2, 1, 3);
    let scores = ranked_first(&r, 2);
    let (good, rest) = (scores[0].keep_rate, scores[11].keep_rate);
    assert!(good > 1.5 * rest, "{good} vs {rest}: {:?}", r.prior());
    assert!(good < 1.0 / 3.0, "shrunk toward the segment's rate: {good}");
}

#[test]
fn two_families_that_keep_rank_first() {
    // Two families kept 3 of 15, ten kept none of 15.
    let r = twelve(2, 3, 15);
    let scores = ranked_first(&r, 2);
    let (good, rest) = (scores[0].keep_rate, scores[11].keep_rate);
    assert!(good > 3.0 * rest, "{good} vs {rest}: {:?}", r.prior());
    assert!(good < 0.2 && rest > 0.0);
    assert_eq!(scores[0].keep_rate, scores[1].keep_rate);
}

#[test]
fn the_posterior_is_a_beta_of_the_mixtures_mean() {
    let r = twelve(2, 1, 3);
    let (mean, a, b) = r.posterior("f0");
    assert!((a / (a + b) - mean).abs() < 1e-12);
    // An untried family sits at the segment's rate.
    let (fresh, ..) = r.posterior("new");
    assert!((fresh - r.mean()).abs() < 1e-12);
    let w = r.prior().weights;
    assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(w.iter().all(|w| *w >= 0.0));
}

fn nth(i: u64) -> Try<'static> {
    if i.is_multiple_of(7) {
        t("a", Outcome::Kept)
    } else {
        t(["b", "c", "d"][i as usize % 3], Outcome::Discarded)
    }
}

#[test]
fn the_precision_reweighs_on_a_schedule_past_exact_tries() {
    let n = EXACT_TRIES + 200;
    let mut r = Record::default();
    for i in 0..n {
        r.observe(&nth(i));
    }
    // Weighed at every try below EXACT_TRIES, then every 64th share.
    assert!(r.weighed_at >= EXACT_TRIES + EXACT_TRIES / REWEIGH_SHARE);
    assert!(r.weighed_at < n);
    // The same fold, however it is cut (a cached fold extended).
    let mut cut = Record::of((0..EXACT_TRIES + 7).map(nth));
    let json = serde_json::to_string(&cut).unwrap();
    cut = serde_json::from_str(&json).unwrap();
    for i in EXACT_TRIES + 7..n {
        cut.observe(&nth(i));
    }
    assert_eq!(cut, r);
}

#[test]
fn the_record_counts_by_family() {
    let mut all = tries("a", 3, 4, Outcome::Discarded);
    all.extend(tries("b", 1, 9, Outcome::Crashed));
    all.extend(tries("c", 0, 2, Outcome::Discarded));
    all.push(t("a", Outcome::Kept));
    let r = Record::of(all);
    assert_eq!(r.total.tries, 20);
    assert_eq!(r.families["a"].keeps, 4);
    assert_eq!(r.families["b"].crashes, 9);
}

#[test]
fn tries_move_the_precision() {
    let mut r = Record::default();
    assert_eq!(r.precision(), 0.5);
    // Discards at a low predicted keep rate are predicted well.
    for x in tries("a", 0, 20, Outcome::Discarded) {
        r.observe(&x);
    }
    assert!(r.precision() > 0.5);
    // A crash is an execution failure.
    r.observe(&t("a", Outcome::Crashed));
    assert!(r.precision.value(Level::Execution) < 1.0);
    assert!(r.precision.execution.beta > 1.0);
}

#[test]
fn gain_and_cost_are_relative_to_the_segment() {
    let mut all = Vec::new();
    for _ in 0..4 {
        all.push(Try {
            family: "big",
            outcome: Outcome::Kept,
            gain: Some(4.0),
            runs: 1,
        });
        all.push(Try {
            family: "small",
            outcome: Outcome::Kept,
            gain: Some(1.0),
            runs: 9,
        });
    }
    let r = Record::of(all);
    let prefs = Preferences::default();
    let (big, small) = (r.score("big", &prefs), r.score("small", &prefs));
    assert!(big.gain > 1.0 && small.gain < 1.0);
    assert!(big.cost < 1.0 && small.cost > 1.0);
    assert!(big.g < small.g);
}

#[test]
fn outcome_from_status() {
    assert_eq!(Outcome::from_status(TryStatus::Keep), Some(Outcome::Kept));
    assert_eq!(
        Outcome::from_status(TryStatus::Pruned),
        Some(Outcome::Discarded)
    );
    assert_eq!(
        Outcome::from_status(TryStatus::Crash),
        Some(Outcome::Crashed)
    );
    assert_eq!(Outcome::from_status(TryStatus::Baseline), None);
    assert_eq!(Outcome::from_status(TryStatus::Stale), None);
}

#[test]
fn record_round_trips_through_json() {
    let r = Record::of(tries("a", 1, 2, Outcome::Discarded));
    let back: Record = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
}

#[test]
fn empty_family_is_unsorted() {
    let r = Record::of([t("", Outcome::Discarded)]);
    assert_eq!(r.families[UNSORTED].tries, 1);
}
