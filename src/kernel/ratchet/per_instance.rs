//! The `confirm` rule's per-instance step: with per-instance scores on
//! both sides, the decision is a test of [`crate::kernel::instances`] —
//! the sign test over instances on one run a side when a commit's runs
//! score every instance alike, a test over runs joined to the sign test
//! (two runs a side at least) when they do not — and the aggregate
//! improvement must still clear `min_effect`.

use super::{better, percent, runs, shown, Ctx, Decision, Step, DEFAULT_CONFIDENCE};
use crate::kernel::instances::{self, InstanceEvidence, Judged};
use crate::kernel::ratchet_noise::pooled_with;
use crate::kernel::stats::check_confidence;
use crate::kernel::verdict::Verdict;

/// Runs a side the test over runs needs at least.
pub const OVER_RUNS_MIN: usize = 2;

/// Whether runs of one commit score instances differently, as far as the
/// segment, the best's runs and the candidate's tell: `Some(true)` when
/// any repeated runs differ, `Some(false)` when some repeated runs exist
/// and none differ, `None` when no commit has been measured twice.
pub fn runs_vary(ev: &InstanceEvidence<'_>) -> Option<bool> {
    let seen = [
        ev.runs_vary,
        instances::runs_differ(ev.best),
        instances::runs_differ(ev.candidate),
    ];
    if seen.contains(&Some(true)) {
        Some(true)
    } else if seen.contains(&Some(false)) {
        Some(false)
    } else {
        None
    }
}

impl Ctx<'_, '_> {
    /// The per-instance test, when the candidate's runs and the best's
    /// scored instances in common: kept when better at the level (across
    /// instances, or over runs when runs vary) and better by more than
    /// `min_effect` on the aggregate. A second run of the candidate first
    /// when nothing yet shows whether runs vary, or when they do.
    pub(super) fn per_instance(
        &self,
        d: f64,
        noise: Option<(f64, f64)>,
        cap: usize,
    ) -> Option<Step> {
        let ev = self.evidence.instances?;
        let k = self.evidence.candidate.len();
        if ev.candidate.len() != k {
            return None;
        }
        let confidence = check_confidence(self.settings.confidence).unwrap_or(DEFAULT_CONFIDENCE);
        let vary = runs_vary(&ev);
        let need = (self.settings.repeat.max(1) as usize)
            .max(OVER_RUNS_MIN)
            .min(cap);
        if vary != Some(false) && k < need {
            return Some(Step::RunAgain);
        }
        let judged = match vary {
            Some(true) => instances::judge_over_runs(ev.best, ev.candidate, self.sign, confidence),
            _ => instances::judge(ev.best, ev.candidate, self.sign, confidence),
        };
        let Some(j) = judged else {
            return self.nothing_in_common(d, noise);
        };
        Some(self.instance_decision(&j, d, noise))
    }

    /// The decision a per-instance test came to, with its line.
    fn instance_decision(&self, j: &Judged, d: f64, noise: Option<(f64, f64)>) -> Step {
        let keep = j.better && d > self.min_effect;
        let p = &j.paired;
        let test = match p.over_runs {
            Some(t) => format!(
                "; runs vary: tested over runs, {} vs {} of the best on {} instances, \
                 change {} ± {} on {} df, and across instances; t and sign tests p",
                runs(p.runs),
                runs(t.best_runs),
                t.instances,
                shown(t.change),
                shown(t.se),
                shown(t.df),
            ),
            None => format!(" over {} a side; sign test p", runs(p.runs)),
        };
        let detail = format!(
            "{}: per instance: {}{test} {} {} {} ({} one-sided); {} (needs more than {})",
            if keep { "keep" } else { "discard" },
            instances::PerInstance {
                over_runs: None,
                ..*p
            }
            .words(),
            shown(j.p_better),
            if j.better { "≤" } else { ">" },
            shown(1.0 - j.level),
            percent(j.level),
            better(d),
            shown(self.min_effect),
        );
        Step::Decide(Decision {
            verdict: if keep {
                Verdict::Supported
            } else if j.worse {
                Verdict::Refuted
            } else {
                Verdict::Inconclusive
            },
            improvement: d,
            noise: noise.map(|(s, _)| s),
            blind: false,
            confirmed: true,
            record_from: 0,
            per_instance: Some(j.paired),
            basis: self.basis(false),
            detail,
            paired: None,
        })
    }
}

impl Ctx<'_, '_> {
    /// What every keep rule does before its test on the aggregate, given
    /// the candidate's improvement `d`: per-instance scores decide when
    /// they can, and without a noise the blind rule decides (`Err`, the
    /// step); otherwise the pooled noise σ, its degrees of freedom and the
    /// confidence the test is held to.
    pub(super) fn aggregate_noise(&self, d: f64, cap: usize) -> Result<(f64, f64, f64), Box<Step>> {
        let noise = pooled_with(self.evidence.replicates, self.evidence.candidate);
        if let Some(step) = self.per_instance(d, noise, cap) {
            return Err(Box::new(step));
        }
        let Some((sigma, df)) = noise else {
            return Err(Box::new(self.blind(d)));
        };
        let confidence = check_confidence(self.settings.confidence).unwrap_or(DEFAULT_CONFIDENCE);
        Ok((sigma, df, confidence))
    }
}

impl Ctx<'_, '_> {
    /// Both sides scored instances and not one instance is common to them
    /// (one printed a list, the other an object; the names changed): no
    /// paired test and no fallback to the aggregate, which would decide on
    /// numbers that may not measure the same thing. Inconclusive, naming
    /// the mismatch.
    fn nothing_in_common(&self, d: f64, noise: Option<(f64, f64)>) -> Option<Step> {
        let ev = self.evidence.instances?;
        let m = ev.best.len().min(ev.candidate.len());
        let names = |side: &[&crate::kernel::instances::Scores]| {
            crate::kernel::instances::names_of(&side[..m])
        };
        let (best, candidate) = (names(ev.best)?, names(ev.candidate)?);
        let union = crate::kernel::instances::union_len(&ev.best[..m], &ev.candidate[..m]);
        Some(Step::Decide(Decision {
            verdict: Verdict::Inconclusive,
            improvement: d,
            noise: noise.map(|(s, _)| s),
            blind: false,
            confirmed: false,
            record_from: 0,
            basis: self.basis(false),
            per_instance: Some(crate::kernel::instances::PerInstance {
                better: 0,
                worse: 0,
                common: 0,
                dropped: union,
                runs: m,
                over_runs: None,
            }),
            detail: format!(
                "inconclusive: the per-instance scores have no instance in common (the best's: {best}; \
                 the candidate's: {candidate}), so they cannot be paired and nothing is decided; \
                 print the same instance names on both (a list names them by index)"
            ),
            paired: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::kernel::instances::{InstanceEvidence, Scores};
    use crate::kernel::ratchet::{next_step, Evidence, Rule, Settings, Step};
    use crate::kernel::stats::Direction;
    use crate::kernel::verdict::Verdict;

    /// 200 pass/fail instances: the first 100 pass, then `up` more pass
    /// and the first `down` fail.
    fn run(up: usize, down: usize) -> Scores {
        Scores(
            (0..200)
                .map(|i| {
                    let pass = (i < 100 && i >= down) || (100..100 + up).contains(&i);
                    (format!("t{i}"), f64::from(u8::from(pass)))
                })
                .collect(),
        )
    }

    fn decide(up: usize, down: usize, settings: &Settings, with: bool) -> Step {
        let (b, c) = (run(0, 0), run(up, down));
        let mean = |s: &Scores| s.0.iter().map(|x| x.1).sum::<f64>() / 200.0;
        let (best, cand) = ([mean(&b)], [mean(&c)]);
        let (bs, cs) = ([&b], [&c]);
        next_step(
            Rule::Confirm,
            settings,
            &Evidence {
                best: &best,
                candidate: &cand,
                instances: with.then_some(InstanceEvidence {
                    best: &bs,
                    candidate: &cs,
                    runs_vary: Some(false),
                }),
                ..Evidence::default()
            },
        )
    }

    #[test]
    fn the_confirm_rule_decides_on_instances_at_once_when_it_has_them() {
        let s = Settings::new(Direction::Max);
        let Step::Decide(d) = decide(20, 5, &s, true) else {
            panic!("decides on one run")
        };
        assert!(d.keep() && d.confirmed && !d.blind, "{d:?}");
        assert_eq!(d.record_from, 0);
        assert_eq!(d.per_instance.unwrap().better, 20);
        assert!(
            d.detail.starts_with(
                "keep: per instance: 20 better, 5 worse of 200 over 1 run a side; sign test p"
            ),
            "{}",
            d.detail
        );
        let Step::Decide(d) = decide(3, 1, &s, true) else {
            panic!("decides on one run")
        };
        assert_eq!(d.verdict, Verdict::Inconclusive);
        let Step::Decide(d) = decide(5, 20, &s, true) else {
            panic!("decides on one run")
        };
        assert_eq!(d.verdict, Verdict::Refuted);
        // The aggregate still has to clear min_effect.
        let high = Settings {
            min_effect: 0.1,
            ..s
        };
        let Step::Decide(d) = decide(20, 5, &high, true) else {
            panic!("decides on one run")
        };
        assert!(!d.keep(), "{}", d.detail);
        // Without scores: the aggregate rule, blind without replicates,
        // keeps any gain.
        let Step::Decide(d) = decide(3, 1, &s, false) else {
            panic!("blind decides at once")
        };
        assert!(d.keep() && d.blind && d.per_instance.is_none());
    }

    #[test]
    fn scores_with_no_instance_in_common_end_inconclusive_naming_the_mismatch() {
        // The best printed a list (names 0, 1, …), the candidate an object
        // keyed q0, q1, …: far better by the aggregate.
        let b = Scores((0..50).map(|i| (i.to_string(), 0.0)).collect());
        let c = Scores((0..50).map(|i| (format!("q{i}"), 1.0)).collect());
        let (best, cand) = ([0.0], [1.0]);
        let (bs, cs) = ([&b], [&c]);
        let step = next_step(
            Rule::Confirm,
            &Settings::new(Direction::Max),
            &Evidence {
                best: &best,
                candidate: &cand,
                instances: Some(InstanceEvidence {
                    best: &bs,
                    candidate: &cs,
                    runs_vary: Some(false),
                }),
                ..Evidence::default()
            },
        );
        let Step::Decide(d) = step else {
            panic!("decides at once")
        };
        assert_eq!(d.verdict, Verdict::Inconclusive, "{}", d.detail);
        assert!(!d.keep());
        let p = d.per_instance.expect("the instances it looked at");
        assert_eq!((p.common, p.dropped), (0, 100));
        assert!(
            d.detail.contains("no instance in common")
                && d.detail.contains("the best's: 0, 1, 2, … (50 instances)")
                && d.detail
                    .contains("the candidate's: q0, q1, q2, … (50 instances)"),
            "{}",
            d.detail
        );
    }
    /// 400 pass/fail instances, the first `pass` passing: a run whose
    /// shared effect moved the pass line.
    fn line(pass: usize) -> Scores {
        Scores(
            (0..400)
                .map(|i| (format!("q{i}"), f64::from(u8::from(i < pass))))
                .collect(),
        )
    }

    fn decide_runs(best: &[Scores], cand: &[Scores], vary: Option<bool>) -> Step {
        let mean = |s: &Scores| s.0.iter().map(|x| x.1).sum::<f64>() / s.len() as f64;
        let b: Vec<f64> = best.iter().map(mean).collect();
        let c: Vec<f64> = cand.iter().map(mean).collect();
        let (bs, cs): (Vec<&Scores>, Vec<&Scores>) = (best.iter().collect(), cand.iter().collect());
        let replicates: [&[f64]; 1] = [&b];
        next_step(
            Rule::Confirm,
            &Settings::new(Direction::Max),
            &Evidence {
                best: &b,
                candidate: &c,
                replicates: &replicates,
                instances: Some(InstanceEvidence {
                    best: &bs,
                    candidate: &cs,
                    runs_vary: vary,
                }),
                ..Evidence::default()
            },
        )
    }

    #[test]
    fn a_lucky_run_of_a_shared_effect_is_not_read_as_many_better_instances() {
        // The baseline's three runs move the pass line by a shared effect.
        let best = [line(200), line(190), line(205)];
        // A null change on a lucky run: 12 better, 0 worse of 400 — the
        // sign test alone would keep it. The runs vary: a second run.
        assert_eq!(decide_runs(&best, &[line(212)], Some(true)), Step::RunAgain);
        // The best's own runs show it too, without the segment's word.
        assert_eq!(decide_runs(&best, &[line(212)], None), Step::RunAgain);
        let Step::Decide(d) = decide_runs(&best, &[line(212), line(196)], Some(true)) else {
            panic!("decides on two runs")
        };
        assert!(!d.keep(), "{}", d.detail);
        let t = d.per_instance.unwrap().over_runs.expect("tested over runs");
        assert_eq!((t.best_runs, t.instances, t.df), (3, 400, 3.0));
        assert!(
            d.detail
                .contains("runs vary: tested over runs, 2 runs vs 3 runs of the best"),
            "{}",
            d.detail
        );
        // A change far beyond the runs' spread is kept over runs.
        let Step::Decide(d) = decide_runs(&best, &[line(260), line(262)], Some(true)) else {
            panic!("decides on two runs")
        };
        assert!(d.keep(), "{}", d.detail);
        // And one far below it is refuted.
        let Step::Decide(d) = decide_runs(&best, &[line(140), line(142)], Some(true)) else {
            panic!("decides on two runs")
        };
        assert_eq!(d.verdict, Verdict::Refuted, "{}", d.detail);
    }

    #[test]
    fn a_change_that_splits_the_instances_both_ways_is_judged_by_that_spread_too() {
        // The pass line moves from run to run (a shared effect); the
        // candidate's runs keep the best's first two lines, and on top
        // pass the last 100 instances and fail the first 75. Over the
        // runs' spread alone that is t 3.2 on 3 df (p 0.025), and the
        // sign test says 100 better, 75 worse (p 0.035): kept before. But
        // a change that moves 175 of 400 instances each way nets +0.054
        // only within what the instances it happened to move allow (±
        // 0.033): t 1.47 on 3 df, p 0.12.
        let moved = |pass: usize| {
            let mut s = line(pass);
            for (i, x) in s.0.iter_mut().enumerate() {
                if i >= 300 {
                    x.1 = 1.0;
                }
                if i < 75 {
                    x.1 = 0.0;
                }
            }
            s
        };
        let best = [line(200), line(190), line(205)];
        let Step::Decide(d) = decide_runs(&best, &[moved(200), moved(190)], Some(true)) else {
            panic!("decides on two runs")
        };
        assert!(!d.keep(), "{}", d.detail);
        let p = d.per_instance.unwrap();
        assert_eq!((p.better, p.worse), (100, 75));
        let t = p.over_runs.expect("tested over runs");
        assert!((t.change - 0.0542).abs() < 1e-4, "{t:?}");
        assert!((t.instances_se - 0.0327).abs() < 1e-4, "{t:?}");
        assert!((t.se - 0.0368).abs() < 1e-4, "{t:?}");
        assert!((t.p_better() - 0.119).abs() < 1e-3, "{t:?}");
    }

    #[test]
    fn runs_that_score_alike_decide_on_one_run_and_one_best_run_asks_for_a_second() {
        let same = [line(200), line(200)];
        let Step::Decide(d) = decide_runs(&same, &[line(230)], None) else {
            panic!("the best's runs score alike: one run")
        };
        assert!(d.keep() && d.per_instance.unwrap().over_runs.is_none());
        // One run of the best and nothing else measured twice: the
        // candidate's second run tells.
        let one = [line(200)];
        assert_eq!(decide_runs(&one, &[line(230)], None), Step::RunAgain);
        let Step::Decide(d) = decide_runs(&one, &[line(230), line(230)], None) else {
            panic!("two runs alike: decided")
        };
        assert!(d.keep() && d.per_instance.unwrap().over_runs.is_none());
        // The segment's baseline said the runs score alike.
        assert!(matches!(
            decide_runs(&one, &[line(230)], Some(false)),
            Step::Decide(_)
        ));
    }
    #[test]
    fn a_change_that_wins_on_a_few_of_these_instances_is_not_kept_over_runs_either() {
        // `run` with instance t199 flipping from run to run (the runs vary).
        let noisy = |up: usize, down: usize, flip: bool| {
            let mut s = run(up, down);
            s.0[199].1 = f64::from(u8::from(flip));
            s
        };
        let best = [noisy(0, 0, false), noisy(0, 0, true), noisy(0, 0, false)];
        // 3 better and 1 worse on every run: the mean moved beyond the runs'
        // spread (t 3.8 on 3 df), not across instances (sign test p 0.31).
        // The test over runs counts that spread across instances too: 0.011
        // ± 0.010, p 0.18, where the runs' spread alone said p 0.016.
        let cand = [noisy(3, 1, true), noisy(3, 1, false)];
        let Step::Decide(d) = decide_runs(&best, &cand, Some(true)) else {
            panic!("decides on two runs")
        };
        let t = d.per_instance.unwrap().over_runs.unwrap();
        assert!(t.p_better() > 0.1, "{t:?}");
        assert!(t.instances_se > 0.009, "{t:?}");
        assert!(!d.keep(), "{}", d.detail);
        assert_eq!(d.verdict, Verdict::Inconclusive);
    }
}
