//! A non-binding futility bound played on top of the `sequential` rule
//! (`--nonbinding F1,F`): harsher futility bounds (Z at the screen, at
//! the later looks) applied on an unpaired look *without* solving the
//! keep bound again. Non-binding, they can only end tries the rule
//! might have kept, so they lower the false-keep rate, never raise it;
//! the simulation measures what they save in runs and cost in power.
//! Not part of the rule `arx try` runs (BENCHMARKS.md, "The levers tried
//! next", says why), so it lives here, beside the rows that play it.
//!
//! The look's Z is the rule's unpaired one: the change against the best's
//! mean over the pooled noise of the best's runs, the other replicate
//! groups and the candidate's own (the kernel's pool also leaves out a
//! group whose variance is far beyond the others', about one in 10,000
//! under Gaussian noise: not done here), with the candidate's own
//! variance and Welch's degrees of freedom where it is the larger.

use arx::kernel::ratchet::sequential::z_to_t;
use arx::kernel::ratchet::{
    next_step_sequential, pooled_noise, Decision, Evidence, SeqTuning, Settings, Step,
};
use arx::kernel::stats::Direction;
use arx::kernel::verdict::Verdict;

/// Futility bounds in Z: at the screen (the first look), at later looks.
pub type Bounds = (f64, f64);

/// The `sequential` rule's step with `bounds` applied where harsher than
/// its own, on an unpaired look before the last, until a look keeps.
pub fn step(
    settings: &Settings,
    tuning: &SeqTuning,
    bounds: Bounds,
    evidence: &Evidence<'_>,
) -> Step {
    let rule = next_step_sequential(settings, tuning, evidence);
    if rule != Step::RunAgain || paired(evidence) {
        return rule;
    }
    let k = evidence.candidate.len();
    let screen = settings.repeat.max(1) as usize;
    let cap = (settings.max_runs as usize).max(screen);
    if k >= cap || kept_before(settings, tuning, evidence) {
        // The last look decides by the rule's bound; once a look kept,
        // the runs are its record's.
        return rule;
    }
    let Some((d, z, df, sigma)) = look(settings, evidence) else {
        return rule;
    };
    let bound = if k <= screen { bounds.0 } else { bounds.1 };
    if z >= z_to_t(bound, df) {
        return rule;
    }
    Step::Decide(Decision {
        verdict: Verdict::Inconclusive,
        improvement: d,
        noise: Some(sigma),
        blind: false,
        confirmed: true,
        record_from: 0,
        per_instance: None,
        detail: format!("discard: {z:.4} standard errors, under the non-binding {bound}"),
        paired: None,
        basis: None,
    })
}

/// Whether the runs carry seeds on both sides (a paired look may decide).
fn paired(evidence: &Evidence<'_>) -> bool {
    evidence.seeds.candidate.iter().any(Option::is_some)
        && evidence.seeds.best_seeds.iter().any(Option::is_some)
}

/// Whether a look at these runs or fewer kept the candidate (its
/// record's runs are then under way).
fn kept_before(settings: &Settings, tuning: &SeqTuning, evidence: &Evidence<'_>) -> bool {
    let no_record = SeqTuning {
        top_up: 0,
        ..*tuning
    };
    (1..=evidence.candidate.len()).any(|j| {
        let ev = Evidence {
            candidate: &evidence.candidate[..j],
            ..*evidence
        };
        matches!(next_step_sequential(settings, &no_record, &ev), Step::Decide(d) if d.keep())
    })
}

/// The look's change (positive = better), its Z against `min_effect`, its
/// degrees of freedom and the pooled noise.
fn look(settings: &Settings, evidence: &Evidence<'_>) -> Option<(f64, f64, f64, f64)> {
    let cand = evidence.candidate;
    let k = cand.len() as f64;
    let nb = evidence.best.len() as f64;
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let sign = match settings.direction {
        Direction::Max => 1.0,
        Direction::Min => -1.0,
    };
    let d = sign * (mean(cand) - mean(evidence.best));
    let mut groups: Vec<&[f64]> = evidence
        .replicates
        .iter()
        .copied()
        .filter(|g| !std::ptr::eq(*g, cand))
        .collect();
    groups.push(cand);
    let (sigma, df) = pooled_noise(&groups)?;
    let own = (cand.len() >= 2)
        .then(|| pooled_noise(&[cand]).map(|(s, _)| s))
        .flatten()
        .filter(|s| *s > sigma);
    let (vc, vb) = (own.unwrap_or(sigma).powi(2) / k, sigma * sigma / nb);
    let se = (vc + vb).sqrt();
    let df = match own {
        Some(_) => (vc + vb).powi(2) / (vc * vc / (k - 1.0) + vb * vb / df),
        None => df,
    };
    (se > 0.0).then(|| (d, (d - settings.min_effect.max(0.0)) / se, df, sigma))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arx::kernel::ratchet::{Seeds, SEQUENTIAL_MAX_RUNS, TOP_UP};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_non_binding_futility_ends_tries_sooner_and_keeps_no_try_the_rule_would_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x006e_6f6e);
        let mut normal = move || {
            let u1: f64 = 1.0 - rng.random::<f64>();
            let u2: f64 = rng.random::<f64>();
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        };
        let s = Settings {
            confidence: 0.95,
            max_runs: SEQUENTIAL_MAX_RUNS,
            ..Settings::new(Direction::Max)
        };
        let (mut runs, mut harsh_runs, mut kept, mut harsh_kept) = (0, 0, 0, 0);
        for i in 0..600 {
            let effect = [0.0, 0.5, 1.0][i % 3];
            let baseline: Vec<f64> = (0..5).map(|_| normal()).collect();
            let all: Vec<f64> = (0..8 + TOP_UP).map(|_| effect + normal()).collect();
            let play = |harsh: bool| {
                (1..=all.len())
                    .find_map(|n| {
                        let replicates: [&[f64]; 1] = [&baseline];
                        let ev = Evidence {
                            best: &baseline,
                            candidate: &all[..n],
                            replicates: &replicates,
                            segment_values: &baseline,
                            seeds: Seeds::NONE,
                            instances: None,
                        };
                        let t = SeqTuning::DEFAULT;
                        let decided = match harsh {
                            true => step(&s, &t, (1.0, 1.0), &ev),
                            false => next_step_sequential(&s, &t, &ev),
                        };
                        match decided {
                            Step::Decide(d) => Some((n, d.keep())),
                            Step::RunAgain => None,
                        }
                    })
                    .expect("a decision by the cap and the record")
            };
            let ((n, keep), (hn, hkeep)) = (play(false), play(true));
            // The same runs: a try the harsher futility keeps, the rule
            // keeps too, on the same look.
            if hkeep {
                assert!(
                    keep && n == hn,
                    "try {i}: kept at {hn} only with the harsher futility"
                );
            }
            assert!(hn <= n, "try {i}: {hn} runs against {n}");
            (runs, harsh_runs) = (runs + n, harsh_runs + hn);
            (kept, harsh_kept) = (kept + usize::from(keep), harsh_kept + usize::from(hkeep));
        }
        assert!(harsh_runs < runs * 9 / 10, "{harsh_runs} vs {runs}");
        assert!(harsh_kept < kept, "{harsh_kept} vs {kept}");
    }
}
