//! The segment's noise as every keep rule pools it: robust to a try
//! whose runs diverged ([`robust_groups`]).

use super::{Evidence, Seeds};
use crate::kernel::ratchet_noise::{is_best_group, robust_groups};

/// `f` of `evidence` with the segment's noise robust to a broken
/// commit's runs: its replicate groups and its paired differences
/// without those whose variance is far beyond the others'
/// ([`robust_groups`]; the best's group is never left out). The
/// candidate's own runs are not tested: every rule adds them itself, and
/// what is left out must not depend on them (a replayed look sees the
/// runs it had then).
pub(super) fn robust<R>(evidence: &Evidence<'_>, f: impl FnOnce(&Evidence<'_>) -> R) -> R {
    let earlier: Vec<&[f64]> = evidence
        .replicates
        .iter()
        .copied()
        .filter(|g| !std::ptr::eq(*g, evidence.candidate))
        .collect();
    let replicates = robust_groups(&earlier, |g| is_best_group(g, evidence.best));
    let history = robust_groups(evidence.seeds.history, |_| false);
    let ev = Evidence {
        replicates: &replicates,
        seeds: Seeds {
            history: &history,
            ..evidence.seeds
        },
        ..*evidence
    };
    f(&ev)
}

#[cfg(test)]
mod tests {
    use crate::kernel::ratchet::{
        next_step, pooled_noise, segment_noise, Evidence, Rule, Seeds, Settings, Step,
    };
    use crate::kernel::ratchet_noise::robust_groups;
    use crate::kernel::stats::Direction;

    /// A real model's segment (scikit-learn's MLP on the diabetes data,
    /// `bench/real_model.sh`, paired seeds), up to its try of a hidden
    /// width of 4, which diverged on one seed (1.53 against 0.40–0.74).
    /// Each try's runs, in the journal's order.
    const GROUPS: [&[f64]; 11] = [
        &[0.7400, 0.5983, 0.6335, 0.5895, 0.4329],
        &[
            0.7210, 0.5743, 0.6678, 0.5246, 0.3911, 0.5949, 0.5568, 0.4899,
        ],
        &[0.7398, 0.5982],
        // Kept (width 64): its record is its runs from the fifth on.
        &[
            0.6133, 0.5468, 0.6123, 0.5031, 0.4055, 0.6311, 0.52351, 0.4636, 0.5805,
        ],
        &[0.4055, 0.6311],
        &[0.4076, 0.6961],
        &[0.3883, 0.5357, 0.5418, 0.4801, 0.6062],
        &[0.4107, 0.7449],
        &[0.6228, 1.0661],
        &[0.4055, 0.6311],
        // Width 4.
        &[0.5523, 1.5345],
    ];

    /// The same tries' differences from the best at the same seeds.
    const HISTORY: [&[f64]; 10] = [
        &[-0.0190, -0.0240, 0.0343, -0.0649, -0.0418],
        &[-0.0002, -0.0001],
        &[-0.1267, -0.0515, -0.0212, -0.0864, -0.0274],
        &[0.0, 0.0],
        &[0.0021, 0.0650],
        &[-0.0172, -0.0954, 0.0183, 0.0165, 0.0257],
        &[0.0052, 0.1137],
        &[0.2173, 0.4350],
        &[0.0, 0.0],
        &[0.1469, 0.9034],
    ];

    const BEST: [f64; 5] = [0.4055, 0.6311, 0.52351, 0.4636, 0.5805];

    #[test]
    fn a_diverged_try_is_left_out_of_the_segments_noise() {
        let (all, df) = pooled_noise(&GROUPS).unwrap();
        assert!((all - 0.1764).abs() < 5e-4 && df == 30.0, "{all} {df}");
        let (sd, df) = segment_noise(&GROUPS, &BEST).unwrap();
        assert!((sd - 0.1248).abs() < 5e-4 && df == 29.0, "{sd} {df}");
        // Its differences from the best too: 0.134 with them, 0.055
        // without.
        let kept = robust_groups(&HISTORY, |_| false);
        assert_eq!(kept.len(), 9);
        assert!(!kept.iter().any(|g| g[1] == 0.9034));
        let (sd, _) = pooled_noise(&kept).unwrap();
        assert!((sd - 0.0552).abs() < 5e-4, "{sd}");
        // A learning rate of 0.03 (spread 0.31, about 2.5 times the
        // others') stays: strict enough for the tail of ordinary noise.
        assert!(kept.iter().any(|g| g[1] == 0.4350));
    }

    /// The try after the diverged one, a true gain of 0.06 at every seed
    /// (about one standard deviation of a difference without the diverged
    /// try, under half of one with it), is kept: judged at the segment's
    /// pooled noise with the diverged try's runs in it, it ran to its cap
    /// and was discarded.
    #[test]
    fn a_gain_after_a_diverged_try_is_judged_at_the_segments_noise_without_it() {
        let paired_best: Vec<f64> = BEST
            .iter()
            .copied()
            .chain([0.6133, 0.5468, 0.6123, 0.5031])
            .collect();
        let best_seeds: Vec<Option<u64>> = [5, 6, 7, 8, 9, 1, 2, 3, 4].map(Some).to_vec();
        let jitter = [
            0.004, -0.006, 0.002, -0.003, 0.005, -0.002, 0.003, -0.004, 0.001,
        ];
        let candidate: Vec<f64> = paired_best
            .iter()
            .zip(jitter)
            .map(|(b, j)| b - 0.06 + j)
            .chain([0.45, 0.52, 0.48, 0.50, 0.47])
            .collect();
        let seeds: Vec<Option<u64>> = best_seeds
            .iter()
            .copied()
            .chain((10..15).map(Some))
            .collect();
        let settings = Settings {
            confidence: 0.95,
            ..Settings::new(Direction::Min)
        };
        for n in 1..=candidate.len() {
            let c = &candidate[..n];
            let mut replicates = GROUPS.to_vec();
            if n > 1 {
                replicates.push(c);
            }
            let ev = Evidence {
                best: &BEST,
                candidate: c,
                replicates: &replicates,
                segment_values: &[],
                seeds: Seeds {
                    best: &paired_best,
                    best_seeds: &best_seeds,
                    candidate: &seeds[..n],
                    history: &HISTORY,
                },
                instances: None,
            };
            if let Step::Decide(d) = next_step(Rule::Sequential, &settings, &ev) {
                assert!(d.keep(), "{}", d.detail);
                assert!(d.paired.is_some(), "{}", d.detail);
                return;
            }
        }
        panic!("no decision");
    }
}
