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
    assert_eq!(a.keep_rate, 0.5);
    assert_eq!(r.prior().strength, DEFAULT_STRENGTH);
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
    // Four families with the same keep rate: no spread beyond chance.
    let mut all = Vec::new();
    for f in ["a", "b", "c", "d"] {
        all.extend(tries(f, 2, 8, Outcome::Discarded));
    }
    let alike = Record::of(all);
    assert_eq!(alike.prior().strength, MAX_STRENGTH);
    // Two families at 80% and two at 0%: a weak prior.
    let mut all = Vec::new();
    for f in ["a", "b"] {
        all.extend(tries(f, 8, 2, Outcome::Discarded));
    }
    for f in ["c", "d"] {
        all.extend(tries(f, 0, 10, Outcome::Discarded));
    }
    let differ = Record::of(all);
    assert!(differ.prior().strength < 5.0, "{:?}", differ.prior());
    let prefs = Preferences::default();
    assert!(differ.score("a", &prefs).keep_rate > 0.6);
}

#[test]
fn incremental_spread_matches_a_direct_sum() {
    let mut all = tries("a", 3, 4, Outcome::Discarded);
    all.extend(tries("b", 1, 9, Outcome::Crashed));
    all.extend(tries("c", 0, 2, Outcome::Discarded));
    all.push(t("a", Outcome::Kept));
    let r = Record::of(all);
    let direct: f64 = r
        .families
        .values()
        .map(|f| (f.keeps * f.keeps) as f64 / f.tries as f64)
        .sum();
    assert!((r.keeps_sq - direct).abs() < 1e-12);
    assert_eq!(r.total.tries, 20);
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
