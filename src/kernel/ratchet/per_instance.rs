//! The `confirm` rule's per-instance step: with per-instance scores on
//! both sides, the decision is the paired test of
//! [`crate::kernel::instances`] (one look, no screen), and the aggregate
//! improvement must still clear `min_effect`.

use super::{better, percent, runs, shown, Ctx, Decision, Step, DEFAULT_CONFIDENCE};
use crate::kernel::stats::check_confidence;
use crate::kernel::verdict::Verdict;

impl Ctx<'_, '_> {
    /// The per-instance test, when the candidate's runs and the best's
    /// scored instances in common: kept when better across instances and
    /// better by more than `min_effect` on the aggregate.
    pub(super) fn per_instance(&self, d: f64, noise: Option<(f64, f64)>) -> Option<Step> {
        let ev = self.evidence.instances?;
        if ev.candidate.len() != self.evidence.candidate.len() {
            return None;
        }
        let confidence = check_confidence(self.settings.confidence).unwrap_or(DEFAULT_CONFIDENCE);
        let Some(j) = crate::kernel::instances::judge(ev.best, ev.candidate, self.sign, confidence)
        else {
            return self.nothing_in_common(d, noise);
        };
        let keep = j.better && d > self.min_effect;
        let p = &j.paired;
        let detail = format!(
            "{}: per instance: {} over {} a side; sign test p {} {} {} ({} one-sided); {} (needs more than {})",
            if keep { "keep" } else { "discard" },
            p.words(),
            runs(p.runs),
            shown(j.p_better),
            if j.better { "≤" } else { ">" },
            shown(1.0 - j.level),
            percent(j.level),
            better(d),
            shown(self.min_effect),
        );
        Some(Step::Decide(Decision {
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
        }))
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
}
